"""Rooms: one authority per room; commands become events, events fold into room state.

``events`` defines what the log stores, ``state`` folds events into a room (pure, the
same code for live play and replay after a restart), ``service`` runs live rooms: it
validates a command, writes the event, publishes the change and drives bots and timers.
"""
