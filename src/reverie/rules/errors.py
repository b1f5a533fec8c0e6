"""The errors that rules raise: an action a player may not take, a table that cannot be set up.

Every rejected action raises :class:`IllegalAction` (a ``ValueError``, via
:class:`~reverie.errors.ReverieError`) with a stable ``code`` for programs and a message
written for the player who tried it. The state the action was applied to is immutable, so
a rejected action changes nothing.
"""

from __future__ import annotations

from collections.abc import Mapping

from reverie.errors import ReverieError


class IllegalAction(ReverieError):
    """An action the rules do not allow right now.

    >>> err = IllegalAction("wrong_phase", "Voting has not started yet.")
    >>> err.code, str(err)
    ('wrong_phase', 'Voting has not started yet.')
    """


class SetupError(ReverieError):
    """A game cannot be set up with the given variant, players or options.

    Rules raise it with a message alone; the code is the same for every setup problem.

    >>> err = SetupError("Dixit needs 3 to 6 players.")
    >>> err.code, err.message, str(err)
    ('bad_setup', 'Dixit needs 3 to 6 players.', 'Dixit needs 3 to 6 players.')
    """

    def __init__(
        self,
        message: str,
        code: str = "bad_setup",
        params: Mapping[str, int | str] | None = None,
    ) -> None:
        super().__init__(code, message, params)
