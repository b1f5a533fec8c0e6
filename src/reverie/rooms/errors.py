"""The one error of the room layer."""

from __future__ import annotations


class RoomError(ValueError):
    """A room command that cannot be done now; ``code`` for programs, text for people."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
