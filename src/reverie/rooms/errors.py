"""The one error of the room layer."""

from __future__ import annotations

from reverie.errors import ReverieError


class RoomError(ReverieError):
    """A room command that cannot be done now; ``code`` for programs, text for people."""


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
