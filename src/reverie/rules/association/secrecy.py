"""What a seat may not know, as a change of the state: the secrecy property's half.

:func:`scramble` changes everything in a game that ``seat`` may not know (other hands, the
deck's order, the storyteller's pick, who owns which table card, other players' votes,
the seed and the salt) and nothing it may: the seat's view of the scrambled game must be
the view of the real one (tests/games/test_secrecy.py checks it for every registered
game, tests/rules/test_views.py in more detail).
"""

from __future__ import annotations

import random

from msgspec.structs import replace

from reverie.rules.association.playouts import visible_cards
from reverie.rules.association.state import GameState, Phase
from reverie.rules.association.variants import StorySource, find_variant


def scramble(state: GameState, seat: int | None, rng: random.Random) -> GameState:
    """``state`` changed in everything ``seat`` (None: a spectator) may not know, and in
    nothing it may."""
    rnd = state.round
    visible = visible_cards(state, seat)
    hidden = [c for c in range(state.card_count) if c not in visible]
    relabel = dict(zip(hidden, rng.sample(hidden, len(hidden)), strict=True))

    def m(c: int) -> int:
        return relabel.get(c, c)

    def mt(cards: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(m(c) for c in cards)

    owners = rnd.owners
    story_card = m(rnd.story_card) if rnd.story_card is not None else None
    submissions = tuple(m(c) if c is not None else None for c in rnd.submissions)
    votes = rnd.votes
    if state.phase is Phase.VOTE and find_variant(state.variant).story_source is not (
        StorySource.GALLERY
    ):
        # Shuffle who owns which card among the positions the seat does not own itself.
        # The storyteller knows their own card, so for them only the others move.
        fixed = {seat}
        free = [i for i, o in enumerate(owners) if o not in fixed]
        moved = [owners[i] for i in free]
        rng.shuffle(moved)
        new_owners = list(owners)
        for i, o in zip(free, moved, strict=True):
            new_owners[i] = o
        owners = tuple(new_owners)
        subs = [None] * len(state.players)
        for i, o in enumerate(owners):
            if o == rnd.storyteller:
                story_card = rnd.table[i]
            else:
                subs[o] = rnd.table[i]  # type: ignore[call-overload]
        submissions = tuple(subs)
    if state.phase is Phase.VOTE:
        # Other players' locked votes are secret until the reveal (not whether they voted).
        new_votes = list(votes)
        for s, p in enumerate(votes):
            if s != seat and p is not None:
                legal = [q for q, o in enumerate(owners, 1) if o != s]
                new_votes[s] = rng.choice(legal)
        votes = tuple(new_votes)
    table = rnd.table if state.phase is Phase.VOTE else mt(rnd.table)
    if find_variant(state.variant).story_source is StorySource.GALLERY:
        table = rnd.table
        if state.phase is not Phase.CLUE and seat != rnd.storyteller:
            story_card = rng.choice(rnd.table)
    hands = tuple(h if s == seat else mt(h) for s, h in enumerate(state.hands))
    new_round = replace(
        rnd,
        story_card=story_card,
        submissions=submissions,
        owners=owners,
        votes=votes,
        table=table,
        salt="scrambled",
    )
    return replace(
        state,
        seed=state.seed + 7919,
        deck=mt(state.deck),
        discard=mt(state.discard),
        hands=hands,
        round=new_round,
    )
