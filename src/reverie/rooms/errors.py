"""The room layer's own error: a room that cannot be opened (its refusal of a command,
:class:`reverie.errors.RoomError`, is shared with the game families)."""

from __future__ import annotations

from reverie.errors import ReverieError


class RoomDamaged(ReverieError):
    """A room whose log cannot be replayed (an event that does not decode or does not
    fit the room): the room is closed, every other room goes on. ``version`` is the
    event that failed; ``reason`` what was wrong with it (for the operator's log)."""

    def __init__(self, room: str, version: int, reason: str) -> None:
        super().__init__(
            "room_damaged",
            "This room's saved game is damaged and it cannot be opened. Other rooms are "
            "not affected.",
        )
        self.room = room
        self.version = version
        self.reason = reason
