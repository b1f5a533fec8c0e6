"""Pure game rules: no IO, no asyncio, no clock, no global random.

Each game family lives in its own package (``association`` for Dixit, Imaginarium and
Pictoric; ``visual`` for the drawing game). State is immutable; randomness comes from the
seed kept in the state; time enters only as an action.
"""
