"""Who may be seated at a table by play now: the one hook the checks go through.

Today it holds the table's own rules (public, a free seat in the lobby) and the room's
bans (:func:`reverie.rooms.bans.check_not_banned`); a check that needs more (the
operator's site bans) is added here, so every way of being seated by play now meets it.
"""

from __future__ import annotations

from reverie.errors import RoomError
from reverie.rooms.bans import check_not_banned
from reverie.rooms.listing import free_seats
from reverie.rooms.state import RoomState


def check_may_seat(room: RoomState, address: str, browser: str) -> None:
    """Raise :class:`RoomError` unless play now may seat the person with these hashed
    ids (``address``, ``browser``; empty: unknown) at ``room``: a public table, in its
    lobby with a free seat, from which they were not removed."""
    if not room.public:
        raise RoomError("not_public", "That table is not open to strangers.")
    if room.status != "lobby" or free_seats(room) <= 0:
        raise RoomError("table_full", "That table has no free seat now.")
    check_not_banned(room, *(i for i in (browser, address) if i))
