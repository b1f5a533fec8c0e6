"""What a seat may not know in the drawing game, as a change of the state.

:func:`scramble` changes everything ``seat`` may not know (the card texts but the subject
it draws, the deck, the seed, hidden guesses, others' "close" hints) and nothing it may:
its view of the scrambled game must be the view of the real one (tests/games/test_secrecy.py
for every registered game, tests/rules/visual/test_views.py in more detail).
"""

from __future__ import annotations

import functools
import random

from msgspec.structs import replace

from reverie.rules.visual.cards import Card
from reverie.rules.visual.categories import CATEGORIES
from reverie.rules.visual.state import GameState
from reverie.rules.visual.views import SECRET_PHASES


@functools.cache
def fake_cards(count: int, salt: int) -> tuple[Card, ...]:
    """``count`` made-up cards, their blanks spread over every sector and none."""
    blanks = (None, 0, 1, 2, 3)
    return tuple(
        Card(
            tuple(f"scrambled-{salt}-{i}-{k}" for k in range(len(CATEGORIES))),
            blanks[(salt + i) % len(blanks)],
        )
        for i in range(count)
    )


def scramble(state: GameState, seat: int | None, rng: random.Random) -> GameState:
    """Change everything ``seat`` may not know, keeping what it may know.

    Scrambled: every card's texts (all but the current subject for a seat drawing it) and
    the blanks of the cards not in play, the order of the deck, the seed, the text and
    marks of the guesses the view hides (other teams' in a proverb round), and the
    "close" hints of other seats. Kept: what is public (the events publish every guess's
    seat, team and index, and the number of cards left).
    """
    turn = state.turn
    team = None if seat is None else state.team_of(seat)
    drawing = seat is not None and seat in turn.drawers and state.phase in SECRET_PHASES
    kept = None
    if drawing and turn.category is not None:
        kept = CATEGORIES.index("proverbs" if turn.proverb else turn.category)

    salt = rng.randrange(1000)
    cards = list(fake_cards(len(state.cards), salt))
    if turn.card is not None:
        card = state.cards[turn.card]
        subjects = tuple(
            s if k == kept else fake
            for k, (s, fake) in enumerate(
                zip(card.subjects, cards[turn.card].subjects, strict=True)
            )
        )
        cards[turn.card] = Card(subjects, card.blank)
    deck = list(state.deck)
    rng.shuffle(deck)
    guesses = []
    for i, g in enumerate(turn.guesses):
        if turn.proverb and (team is None or g.team != team):
            g = replace(
                g,
                text=f"scrambled-{salt}-{i}",
                close=rng.random() < 0.5,
                synonym=rng.random() < 0.5,
            )
        elif g.seat != seat:
            g = replace(g, close=not g.close)
        guesses.append(g)
    return replace(
        state,
        seed=state.seed + 7919,
        cards=tuple(cards),
        deck=tuple(deck),
        turn=replace(turn, guesses=tuple(guesses)),
    )
