"""Small drivers for scripted drawing games in tests."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from msgspec.structs import replace

from reverie.rules.visual import (
    Card,
    Choose,
    GameState,
    Options,
    Phase,
    TimeUp,
    apply,
    build_deck,
    new_game,
)
from reverie.rules.visual.board import LAST_SQUARE
from reverie.rules.visual.categories import CATEGORIES, Category
from reverie.rules.visual.playouts import seat_teams

#: A plain card and the same card with a blank in each of the first four sectors.
PLAIN = Card(("teapot", "running", "harbour", "umbrella", "the early bird catches the worm"))
PROVERB = "the early bird catches the worm"


def blank_card(category: Category) -> Card:
    blank = CATEGORIES.index(category)
    subjects = tuple("" if k == blank else s for k, s in enumerate(PLAIN.subjects))
    return Card(subjects, blank)


def synthetic_words(count: int = 40) -> dict[Category, list[str]]:
    """Distinctive made-up words, so a leak check can look for them in any text."""
    return {
        c: [
            f"zeta{i} alpha{i} beta{i} gamma{i}" if c == "proverbs" else f"{c[:3]}word{i}x"
            for i in range(count)
        ]
        for c in CATEGORIES
    }


SYNTHETIC_DECK = build_deck(synthetic_words(), seed=1, blank_share=0.2)


def game(
    team_sizes: Sequence[int] = (2, 2),
    seed: int = 1,
    cards: Sequence[Card] = (PLAIN,),
    **options: object,
) -> GameState:
    """A new game with players P1, P2, … seated team by team."""
    players, teams, _ = seat_teams(team_sizes)
    return new_game(players, teams, seed, cards=cards, options=Options(**options))  # type: ignore[arg-type]


def arrange(
    state: GameState,
    *,
    tokens_at: Mapping[int, int] | None = None,
    pawns: Sequence[int] | None = None,
    held: Sequence[Sequence[int]] | None = None,
    deck: Sequence[int] | None = None,
) -> GameState:
    """The same game with the board, pawns, holdings or deck set by hand.

    ``tokens_at`` maps squares to token ids; every other token leaves the board (into
    ``removed``), so the state still accounts for every token.
    """
    if tokens_at is not None or held is not None:
        placed = dict(tokens_at or {})
        holdings = tuple(tuple(h) for h in (held or state.held))
        squares = tuple(placed.get(sq) for sq in range(1, LAST_SQUARE + 1))
        used = set(placed.values()) | {k for h in holdings for k in h}
        removed = tuple(t.id for t in state.tokens if t.id not in used)
        state = replace(state, squares=squares, held=holdings, removed=removed)
    if pawns is not None:
        state = replace(state, pawns=tuple(pawns))
    if deck is not None:
        state = replace(state, deck=tuple(deck), discard=())
    return state


def act(state: GameState, *actions: object) -> GameState:
    for action in actions:
        state = apply(state, action).state  # type: ignore[arg-type]
    return state


def drawing(state: GameState, category: Category) -> GameState:
    """The drawer chooses ``category`` and the think time runs out."""
    assert state.phase is Phase.CHOOSE
    return act(state, Choose(state.turn.drawer, category), TimeUp())


def teammate(state: GameState) -> int:
    """A guesser of the playing team."""
    turn = state.turn
    return next(s for s in state.teams[turn.team] if s not in (turn.drawer, *turn.drawers))


def opponent(state: GameState) -> int:
    """A player of another team."""
    other = (state.turn.team + 1) % len(state.teams)
    return state.teams[other][-1]


BONUS = 36  # the first bonus token id in the default set (36 plain tokens come first)
