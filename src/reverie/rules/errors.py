"""The one error type that rules raise for an action a player may not take.

Every rejected action raises :class:`IllegalAction` (a ``ValueError``) with a stable
``code`` for programs and a message written for the player who tried it. The state the
action was applied to is immutable, so a rejected action changes nothing.
"""

from __future__ import annotations


class IllegalAction(ValueError):
    """An action the rules do not allow right now.

    >>> err = IllegalAction("wrong_phase", "Voting has not started yet.")
    >>> err.code, str(err)
    ('wrong_phase', 'Voting has not started yet.')
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class SetupError(ValueError):
    """A game cannot be set up with the given variant, players or options."""
