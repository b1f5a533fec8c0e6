"""Companion mode: an association game played with a real box on the table.

The cards stay physical; the app keeps the turn order, the clue restrictions, the secret
positions and votes, the scores and the board, on the same scorers and boards as the
online game (:mod:`reverie.rules.association`).

Public API::

    from reverie.rules.companion import new_game, apply, view, views, Tell, Count, ...
"""

from reverie.rules.companion.actions import Action, Count, Finish, Place, Roll, Tell, Undo, Vote
from reverie.rules.companion.engine import apply, die, new_game, replay, waiting_for
from reverie.rules.companion.state import GameState, Options, Phase, Revealed, Round
from reverie.rules.companion.views import public_view, view, views

__all__ = [
    "Action",
    "Count",
    "Finish",
    "GameState",
    "Options",
    "Phase",
    "Place",
    "Revealed",
    "Roll",
    "Round",
    "Tell",
    "Undo",
    "Vote",
    "apply",
    "die",
    "new_game",
    "public_view",
    "replay",
    "view",
    "views",
    "waiting_for",
]
