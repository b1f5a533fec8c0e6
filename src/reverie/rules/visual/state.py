"""Immutable game state of the drawing game ``visual``.

Frozen ``msgspec.Struct`` throughout, serialisable to JSON and back. Seats are integers
``0..n-1``; teams are integers ``0..t-1`` (a team is a tuple of seats). Cards are indexes
into ``GameState.cards``; tokens are ids into ``GameState.tokens``.

The state holds secrets (the card texts, the current subject, other teams' guesses in a
proverb round). It never leaves the server: clients get :func:`reverie.rules.visual.view`.
"""

from __future__ import annotations

import enum
from typing import Annotated, Literal

import msgspec
from msgspec import Meta

from reverie.rules.visual.board import (
    DEFAULT_BONUS_TOKENS,
    DEFAULT_BONUS_VALUE,
    DEFAULT_TOKEN_VALUES,
    TOKEN_SQUARES,
    Token,
)
from reverie.rules.visual.cards import DEFAULT_BLANK_SHARE, Card
from reverie.rules.visual.categories import Category
from reverie.rules.visual.language import Language


class Phase(enum.StrEnum):
    """Where the current turn is."""

    CHOOSE = "choose"  # the drawer picks one of the first four categories
    THINK = "think"  # the drawer(s) read the subject; the think timer runs
    DRAW = "draw"  # the drawer(s) draw, guessers guess; the drawing timer runs
    MOVE = "move"  # the team that guessed the proverb picks its move (1–8, either way)
    BONUS = "bonus"  # the team that landed on a bonus token keeps it or steals
    LOSE = "lose"  # the team that failed picks the token it loses
    OVER = "over"  # a team reached square 40


class Timer(enum.StrEnum):
    """The timer the room should be running (it sends ``TimeUp`` when it ends).

    Every phase but ``over`` has its own timer, named like the phase, so a game moves on
    even when nobody acts (the engine's docstring lists what ``TimeUp`` does in each).
    """

    CHOOSE = "choose"
    THINK = "think"
    DRAW = "draw"
    MOVE = "move"
    BONUS = "bonus"
    LOSE = "lose"


#: A timer's length in seconds (0 only makes sense for the think time).
Seconds = Annotated[int, Meta(ge=0, le=3600)]
#: A token's value.
Points = Annotated[int, Meta(ge=0, le=100)]


class Options(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Table options.

    ``language``: how guesses are normalised (articles, ё/е). ``*_seconds``: the length
    of each phase's timer (:class:`Timer`), which the room runs: ``choose_seconds`` for
    the drawer to pick a category, ``think_seconds`` and ``draw_seconds`` for the turn
    itself, ``move_seconds``, ``bonus_seconds`` and ``lose_seconds`` for the team
    decisions (a proverb move, keep or steal, the token to lose). ``overshoot``: a move
    past square 40 ``"bounce"``s back by the excess (default) or ``"stay"``s (the pawn
    does not move).
    ``token_values``, ``bonus_tokens``, ``bonus_value``: the token set (see
    :mod:`.board`). ``blank_share``: share of cards with a blank, for
    :func:`.cards.build_deck`. ``turn_limit``: end the game after this many turns even if
    nobody reached square 40 (``None``: no limit).
    """

    language: Language = "en"
    choose_seconds: Seconds = 20
    think_seconds: Seconds = 5
    draw_seconds: Seconds = 60
    move_seconds: Seconds = 30
    bonus_seconds: Seconds = 30
    lose_seconds: Seconds = 30
    overshoot: Literal["bounce", "stay"] = "bounce"
    token_values: tuple[Points, ...] = DEFAULT_TOKEN_VALUES
    bonus_tokens: Annotated[int, Meta(ge=0, le=TOKEN_SQUARES)] = DEFAULT_BONUS_TOKENS
    bonus_value: Points = DEFAULT_BONUS_VALUE
    blank_share: Annotated[float, Meta(ge=0.0, le=1.0)] = DEFAULT_BLANK_SHARE
    turn_limit: Annotated[int, Meta(ge=1, le=10_000)] | None = None

    def seconds(self, timer: Timer) -> int:
        """The length of ``timer`` in seconds.

        >>> Options().seconds(Timer.DRAW), Options(lose_seconds=9).seconds(Timer.LOSE)
        (60, 9)
        """
        return {
            Timer.CHOOSE: self.choose_seconds,
            Timer.THINK: self.think_seconds,
            Timer.DRAW: self.draw_seconds,
            Timer.MOVE: self.move_seconds,
            Timer.BONUS: self.bonus_seconds,
            Timer.LOSE: self.lose_seconds,
        }[timer]


class GuessRecord(msgspec.Struct, frozen=True):
    """One typed guess. ``close`` is the private hint for its guesser; ``synonym`` is
    the drawer's public mark."""

    seat: int
    team: int
    text: str
    close: bool = False
    synonym: bool = False


class Turn(msgspec.Struct, frozen=True):
    """The turn in progress.

    ``drawers`` holds one seat per drawing team: just the active team's drawer, or in a
    proverb round the drawer of every team (``drawers[t]`` for team ``t``).
    ``solved_by``: the team that guessed; ``moved_from``/``landed``: its pawn's move;
    ``lost_token``: the token the team gave up for failing it.
    """

    number: int
    team: int
    drawer: int
    category: Category | None = None
    card: int | None = None
    proverb: bool = False
    drawers: tuple[int, ...] = ()
    guesses: tuple[GuessRecord, ...] = ()
    solved_by: int | None = None
    solved_guess: int | None = None
    moved_from: int | None = None
    landed: int | None = None
    bonus_token: int | None = None
    lost_token: int | None = None
    timer: Timer | None = None


class TurnResult(msgspec.Struct, frozen=True):
    """A finished turn: public once it is over (the subject is revealed).

    ``drawers``: everyone who drew it (every team's drawer in a proverb round, else the
    one); ``lost_token``: the token the team gave up for failing it, if any.
    """

    number: int
    team: int
    drawer: int
    category: Category | None
    subject: str | None
    proverb: bool
    solved_by: int | None
    moved_from: int | None = None
    moved_to: int | None = None
    drawers: tuple[int, ...] = ()
    lost_token: int | None = None


class GameState(msgspec.Struct, frozen=True):
    """A whole drawing game at one moment.

    ``squares[i]`` is the token on square ``i + 1`` (or ``None``); ``held[t]`` the tokens
    team ``t`` holds; ``removed`` the tokens out of the game (a bonus token given up for a
    steal, a token lost on a failed turn). Every token is in exactly one of the three.
    ``deck`` is the cards still to draw (next first), ``discard`` the used ones.
    ``next_drawer[t]`` indexes the member of team ``t`` who draws next.
    ``first_team`` and ``next_team``: the team order is ``0..t-1`` cyclically, starting
    from ``first_team`` (drawn by lot).
    """

    players: tuple[str, ...]
    teams: tuple[tuple[int, ...], ...]
    seed: int
    options: Options
    cards: tuple[Card, ...]
    tokens: tuple[Token, ...]
    squares: tuple[int | None, ...]
    pawns: tuple[int, ...]
    held: tuple[tuple[int, ...], ...]
    removed: tuple[int, ...]
    deck: tuple[int, ...]
    discard: tuple[int, ...]
    first_team: int
    next_drawer: tuple[int, ...]
    phase: Phase
    turn: Turn
    reshuffles: int = 0
    history: tuple[TurnResult, ...] = ()
    finisher: int | None = None
    winners: tuple[int, ...] = ()
    version: int = 0

    def team_of(self, seat: int) -> int | None:
        """The team of a seat (``None`` for a seat in no team)."""
        for t, members in enumerate(self.teams):
            if seat in members:
                return t
        return None

    def total(self, team: int) -> int:
        """The points of the tokens a team holds."""
        return sum(self.tokens[k].value for k in self.held[team])

    def to_json(self) -> bytes:
        """The whole state as JSON (secrets included: for storage, never for clients)."""
        return msgspec.json.encode(self)

    @staticmethod
    def from_json(data: bytes | str) -> GameState:
        """Rebuild a state from :meth:`to_json`."""
        return msgspec.json.decode(data, type=GameState)
