"""The team drawing game ``visual`` (the Italian "Visual Game"): the pure rules engine.

Public API::

    from reverie.rules.visual import new_game, apply, view, build_deck, Choose, Guess, ...

The room builds the cards with :func:`build_deck` from the word lists, then feeds actions
(players' and its own :class:`TimeUp`) to :func:`apply`; clients get :func:`view`.
"""

from reverie.rules.errors import IllegalAction, SetupError
from reverie.rules.visual.actions import (
    Accept,
    Action,
    Choose,
    Declare,
    Forfeit,
    GiveUp,
    Guess,
    Keep,
    Move,
    Steal,
    Synonym,
    TimeUp,
    decode_action,
    encode_action,
)
from reverie.rules.visual.cards import Card, build_deck
from reverie.rules.visual.categories import CATEGORIES, CATEGORY_POINTS, Category
from reverie.rules.visual.engine import Transition, apply, new_game, replay, subject, waiting_for
from reverie.rules.visual.language import LANGUAGES, Language, normalise
from reverie.rules.visual.matching import Verdict, match_guess
from reverie.rules.visual.state import GameState, Options, Phase, Timer
from reverie.rules.visual.views import paper_views, spectator_view, view, views

__all__ = [
    "CATEGORIES",
    "CATEGORY_POINTS",
    "LANGUAGES",
    "Accept",
    "Action",
    "Card",
    "Category",
    "Choose",
    "Declare",
    "Forfeit",
    "GameState",
    "GiveUp",
    "Guess",
    "IllegalAction",
    "Keep",
    "Language",
    "Move",
    "Options",
    "Phase",
    "SetupError",
    "Steal",
    "Synonym",
    "TimeUp",
    "Timer",
    "Transition",
    "Verdict",
    "apply",
    "build_deck",
    "decode_action",
    "encode_action",
    "match_guess",
    "new_game",
    "normalise",
    "paper_views",
    "replay",
    "spectator_view",
    "subject",
    "view",
    "views",
    "waiting_for",
]
