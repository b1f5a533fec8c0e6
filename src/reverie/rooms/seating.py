"""Who may be seated at a table by play now: the one hook the checks go through.

Today it holds the table's own rules (public; a free seat in the lobby, or a bot's seat
to take at the next turn of a game not decided, rooms/takeover.py) and the room's bans
(:func:`reverie.rooms.bans.check_not_banned`); a check that needs more is added here,
so every way of being seated by play now meets it.
"""

from __future__ import annotations

from reverie.errors import RoomError
from reverie.rooms.bans import check_not_banned
from reverie.rooms.listing import free_seats
from reverie.rooms.state import RoomState
from reverie.rooms.takeover import decided, open_places


def check_may_seat(room: RoomState, address: str, browser: str) -> None:
    """Raise :class:`RoomError` unless play now may seat the person with these hashed
    ids (``address``, ``browser``; empty: unknown) at ``room``: a public table, in its
    lobby with a free seat or playing a game not decided with a bot's seat nobody waits
    for, from which they were not removed."""
    if not room.public:
        raise RoomError("not_public", "That table is not open to strangers.")
    if decided(room):
        raise RoomError("table_full", "That game is nearly over: nobody new sits down.")
    free = free_seats(room) if room.status == "lobby" else open_places(room)
    if free <= 0:
        raise RoomError("table_full", "That table has no free seat now.")
    check_not_banned(room, *(i for i in (browser, address) if i))
