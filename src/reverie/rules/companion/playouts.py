"""Random play and secrecy for companion games, for simulations and property tests.

:func:`random_action` is a random player of the table's taps (it reads the whole state:
a test driver, not a bot). :func:`scramble` changes what a seat may not know before the
reveal (the other seats' positions and votes, the seed that rolls the dice to come) and
nothing it may: the seat's view must not change (tests/games/test_secrecy.py).
"""

from __future__ import annotations

import random

from msgspec.structs import replace

from reverie.rules.association.variants import StorySource, find_variant
from reverie.rules.companion.actions import Action, Count, Finish, Place, Roll, Tell, Undo, Vote
from reverie.rules.companion.engine import waiting_for
from reverie.rules.companion.state import GameState, Phase


def random_action(state: GameState, rng: random.Random) -> Action:
    """A tap some seat the table waits for might make now; now and then a wrong count,
    a position clash, an undo or the end of the cards (the rules judge them all)."""
    n = len(state.players)
    rnd = state.round
    waiting = waiting_for(state) or tuple(range(n))
    seat = rng.choice(waiting)
    if state.phase is Phase.OVER or rng.random() < 0.02:
        return Undo(seat) if rng.random() < 0.7 else Finish(seat)
    if state.phase is Phase.DICE:
        return Roll(seat)
    if state.phase is Phase.CLUE:
        return Tell(seat, rng.choice(("", "a long way home", "silence")))
    if state.phase is Phase.COUNT:
        gallery = find_variant(state.variant).story_source is StorySource.GALLERY
        right = rng.randint(2, 6) if gallery else n
        return Count(seat, right if rng.random() < 0.9 else right + 1)
    count = rnd.count or n
    if rnd.claims[seat] is None and (
        seat == rnd.storyteller
        or find_variant(state.variant).story_source is not StorySource.GALLERY
    ):
        taken = {p for p in rnd.claims if p is not None}
        free = [p for p in range(1, count + 1) if p not in taken]
        # Mostly a free position, sometimes one already claimed (a clash to come).
        position = rng.choice(free) if free and rng.random() < 0.9 else rng.randint(1, count)
        return Place(seat, position)
    return Vote(seat, rng.randint(1, count))


def scramble(state: GameState, seat: int | None, rng: random.Random) -> GameState:
    """``state`` changed in everything ``seat`` (None: the table screen) may not know,
    and in nothing it may: before the reveal, which position each other seat entered
    and voted for (not whether it did), and the seed of the dice still to roll."""
    rnd = state.round
    count = rnd.count or len(state.players)

    def other(entries: tuple[int | None, ...]) -> tuple[int | None, ...]:
        return tuple(
            p if p is None or s == seat else rng.randint(1, count) for s, p in enumerate(entries)
        )

    if state.phase is Phase.SECRET:
        rnd = replace(rnd, claims=other(rnd.claims), votes=other(rnd.votes))
    return replace(state, seed=state.seed + 7919, round=rnd)
