"""Who may not take a seat in a room again: the browsers and addresses of the people
removed from it (by the host or by a vote).

A room keeps them (``RoomState.bans``) as the hashed ids of :mod:`reverie.web.browser_id`
(``b:…`` a browser, ``a:…`` an address), never a raw address or cookie, so the log holds
nothing that names a person outside the room.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from reverie.errors import RoomError

if TYPE_CHECKING:
    from reverie.rooms.state import RoomState

__all__ = ["check_not_banned"]


def check_not_banned(state: RoomState, *ids: str) -> None:
    """Raise ``RoomError("banned")`` if any of ``ids`` (a browser's, an address's) was
    removed from this room; empty ids (unknown) never match.

    >>> from types import SimpleNamespace
    >>> check_not_banned(SimpleNamespace(bans=frozenset({"b:1"})), "b:2", "")
    >>> check_not_banned(SimpleNamespace(bans=frozenset({"b:1"})), "b:1")
    Traceback (most recent call last):
    ...
    reverie.errors.RoomError: You were removed from this table and cannot take a seat again.
    """
    if any(i and i in state.bans for i in ids):
        raise RoomError("banned", "You were removed from this table and cannot take a seat again.")
