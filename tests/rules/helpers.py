"""Small drivers for scripted association games in tests."""

from __future__ import annotations

from collections.abc import Callable

from reverie.rules.association import (
    Clue,
    GameState,
    Options,
    Phase,
    Submit,
    Vote,
    apply,
    new_game,
)
from reverie.rules.association.variants import StorySource, find_variant

CARDS = 300


def game(variant: str, players: int, seed: int = 1, **options: object) -> GameState:
    """A new game with players named P1, P2, … and a 300-card content deck."""
    names = [f"P{i + 1}" for i in range(players)]
    return new_game(variant, names, seed, card_count=CARDS, options=Options(**options))  # type: ignore[arg-type]


def storyteller(state: GameState) -> int:
    st = state.round.storyteller
    assert st is not None
    return st


FITTING_CLUES = {
    "four_words": "a ship of dreams",
    "three_words": "far from home",
    "question": "where does it lead?",
}


def give_clue(state: GameState, text: str | None = None, seat: int | None = None) -> GameState:
    """The storyteller (or ``seat`` in claim mode) locks their first card with a clue.

    Without ``text``, a clue that satisfies the current restriction.
    """
    st = storyteller(state) if seat is None else seat
    if text is None:
        r = state.round.restriction
        text = FITTING_CLUES.get(r.value if r else "", "a dream")
    source = find_variant(state.variant).story_source
    if source is StorySource.HAND:
        card: int | None = state.hands[st][0]
    elif source is StorySource.GALLERY:
        card = state.round.table[0]
    else:
        card = None
    return apply(state, Clue(st, text, card)).state


def submit_all(state: GameState) -> GameState:
    """Every player the table waits for plays the first card of their hand."""
    assert state.phase is Phase.SUBMIT
    for seat in state.round.waiting:
        state = apply(state, Submit(seat, state.hands[seat][0])).state
    return state


def position_of(state: GameState, seat: int) -> int:
    """Position (1-based) of the card ``seat`` put on the table this round."""
    return state.round.owners.index(seat) + 1


def story_position(state: GameState) -> int:
    card = state.round.story_card
    assert card is not None
    return state.round.table.index(card) + 1


def vote_all(state: GameState, choose: Callable[[GameState, int], int]) -> GameState:
    """Every voter votes for ``choose(state, seat)``."""
    assert state.phase is Phase.VOTE
    for seat in state.round.waiting:
        state = apply(state, Vote(seat, choose(state, seat))).state
    return state


def find_story(state: GameState, seat: int) -> int:
    return story_position(state)


def avoid_story(state: GameState, seat: int) -> int:
    """A position that is neither the storyteller's card nor the voter's own."""
    owners = state.round.owners
    st = storyteller(state)
    for pos, owner in enumerate(owners, 1):
        if owner not in (seat, st):
            return pos
    raise AssertionError("no other card to vote for")


def play_round(state: GameState, choose: Callable[[GameState, int], int]) -> GameState:
    """Clue, cards, votes: one whole round."""
    state = give_clue(state)
    if state.phase is Phase.SUBMIT:
        state = submit_all(state)
    return vote_all(state, choose)
