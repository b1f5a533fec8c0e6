"""The one error of the room layer."""

from __future__ import annotations

from reverie.errors import ReverieError


class RoomError(ReverieError):
    """A room command that cannot be done now; ``code`` for programs, text for people."""
