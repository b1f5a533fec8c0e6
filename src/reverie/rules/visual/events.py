"""What happened, as small public facts (safe for every seat).

Events never carry a secret: the subject appears only in :class:`TurnEnded`, when it is
revealed to everyone; guesses appear as their index and seat, not their text (in a
proverb round other teams may not read them).
"""

from __future__ import annotations

import msgspec

from reverie.rules.visual.categories import Category


class TurnStarted(msgspec.Struct, frozen=True, tag="turn_started"):
    number: int
    team: int
    drawer: int


class CategoryChosen(msgspec.Struct, frozen=True, tag="category_chosen"):
    """The drawer chose; ``proverb``: the sector was blank, every team draws the proverb."""

    team: int
    category: Category
    value: int
    proverb: bool
    drawers: tuple[int, ...]


class TimedOut(msgspec.Struct, frozen=True, tag="timed_out"):
    """Nobody decided in time in ``phase``: the engine's default decision follows."""

    phase: str


class DrawingStarted(msgspec.Struct, frozen=True, tag="drawing_started"):
    seconds: int


class Guessed(msgspec.Struct, frozen=True, tag="guessed"):
    seat: int
    team: int
    index: int


class MarkedSynonym(msgspec.Struct, frozen=True, tag="marked_synonym"):
    seat: int
    index: int


class Solved(msgspec.Struct, frozen=True, tag="solved"):
    """Team ``team`` guessed (guess ``index``, or ``None`` when the drawer declared a
    guess heard aloud; ``accepted``: by the drawer's word, not by matching)."""

    team: int
    seat: int
    index: int | None
    accepted: bool


class GaveUp(msgspec.Struct, frozen=True, tag="gave_up"):
    """The drawer ``seat`` ended the drawing unsolved before its time was up."""

    seat: int


class PawnMoved(msgspec.Struct, frozen=True, tag="pawn_moved"):
    team: int
    start: int
    end: int


class TokenTaken(msgspec.Struct, frozen=True, tag="token_taken"):
    """A team took ``token`` from the board (``bonus``: it must now keep or steal)."""

    team: int
    token: int
    square: int
    bonus: bool


class BonusKept(msgspec.Struct, frozen=True, tag="bonus_kept"):
    team: int
    token: int


class TokenStolen(msgspec.Struct, frozen=True, tag="token_stolen"):
    """``team`` took ``token`` from ``victim``; the bonus token left the game."""

    team: int
    victim: int
    token: int
    bonus_token: int


class TokenLost(msgspec.Struct, frozen=True, tag="token_lost"):
    team: int
    token: int


class TurnEnded(msgspec.Struct, frozen=True, tag="turn_ended"):
    """The turn is over and its subject revealed (``solved_by`` ``None``: nobody)."""

    number: int
    subject: str | None
    solved_by: int | None


class DeckReshuffled(msgspec.Struct, frozen=True, tag="deck_reshuffled"):
    cards: int


class GameOver(msgspec.Struct, frozen=True, tag="game_over"):
    winners: tuple[int, ...]
    finisher: int | None


Event = (
    TurnStarted
    | CategoryChosen
    | TimedOut
    | DrawingStarted
    | Guessed
    | MarkedSynonym
    | Solved
    | GaveUp
    | PawnMoved
    | TokenTaken
    | BonusKept
    | TokenStolen
    | TokenLost
    | TurnEnded
    | DeckReshuffled
    | GameOver
)
