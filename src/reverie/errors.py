"""The base of every error Reverie raises on purpose.

Each layer has its own error type (the rules' :class:`~reverie.rules.errors.IllegalAction`
and :class:`~reverie.rules.errors.SetupError`, the rooms' :class:`RoomError`, kept here
because the game families raise it too); all of them derive from :class:`ReverieError`, so
a caller that only needs "refused, with a code and a message" catches one class. This
module imports nothing from Reverie, so the pure rules layer can depend on it without
reaching the rooms layer or any IO.
"""

from __future__ import annotations

from collections.abc import Mapping


class ReverieError(ValueError):
    """A refusal with a stable ``code`` for programs and a ``message`` for people.

    >>> err = ReverieError("some_code", "Something cannot be done.")
    >>> err.code, err.message, str(err)
    ('some_code', 'Something cannot be done.', 'Something cannot be done.')
    """

    def __init__(
        self, code: str, message: str, params: Mapping[str, int | str] | None = None
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        #: What a client needs to say it in the reader's language (numbers, names).
        self.params: dict[str, int | str] = dict(params or {})


class RoomError(ReverieError):
    """A room command that cannot be done now; ``code`` for programs, text for people.

    Raised by the rooms and by the game families (a move the log must not hold, content
    a table names that is not there), so it sits here, below both.
    """
