"""The association games: Dixit, Imaginarium, Imaginarium: Harmony, Pictoric and
Pictoric's storyteller's gallery, on one engine.

Public API::

    from reverie.rules.association import new_game, apply, view, Clue, Submit, Vote, Timeout

The variants differ only by the data in :mod:`.variants` and the scoring functions in
:mod:`.scoring`; the turn itself lives in :mod:`.engine`.
"""

from reverie.rules.association.actions import Action, Clue, Submit, Timeout, Vote
from reverie.rules.association.engine import Transition, apply, new_game, replay
from reverie.rules.association.state import GameState, Options, Phase
from reverie.rules.association.variants import VARIANTS, Variant, find_variant
from reverie.rules.association.views import spectator_view, view, views
from reverie.rules.errors import IllegalAction, SetupError

__all__ = [
    "VARIANTS",
    "Action",
    "Clue",
    "GameState",
    "IllegalAction",
    "Options",
    "Phase",
    "SetupError",
    "Submit",
    "Timeout",
    "Transition",
    "Variant",
    "Vote",
    "apply",
    "find_variant",
    "new_game",
    "replay",
    "spectator_view",
    "view",
    "views",
]
