"""Views leak nothing: a hand only to its owner, no owner or pick before the reveal.

The strongest check is non-interference: for a seat, scramble everything in the state
that seat may not know (other hands, the deck order, the storyteller's pick, who owns
which table card, other players' votes, the seed and the salt) and the seat's view must
not change at all.
"""

from __future__ import annotations

import json
import random

import pytest
from msgspec.structs import replace

from reverie.rules.association import (
    VARIANTS,
    GameState,
    Phase,
    Vote,
    apply,
    spectator_view,
    view,
)
from reverie.rules.association.playouts import random_action, view_cards, visible_cards
from reverie.rules.association.variants import StorySource, find_variant

from .helpers import CARDS, game, give_clue, storyteller, submit_all


def scramble(state: GameState, seat: int | None, rng: random.Random) -> GameState:
    """Change everything ``seat`` may not know, keeping what it may know."""
    rnd = state.round
    visible = visible_cards(state, seat)
    hidden = [c for c in range(CARDS) if c not in visible]
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


card_fields = view_cards


def check_all_views(state: GameState, rng: random.Random) -> None:
    seats: list[int | None] = [*range(len(state.players)), None]
    for seat in seats:
        shown = view(state, seat)
        json.dumps(shown)  # JSON-ready
        assert card_fields(shown) <= visible_cards(state, seat)
        assert view(scramble(state, seat, rng), seat) == shown, (state.phase, seat)
        if state.phase is not Phase.OVER:
            assert all(set(t) == {"position", "card"} for t in shown["table"])


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_no_view_leaks_in_random_games(variant: str) -> None:
    v = VARIANTS[variant]
    for players in sorted({v.min_players, min(v.max_players, 6)}):
        for seed in range(4):
            g = game(variant, players, seed=seed)
            rng = random.Random(seed)
            check_all_views(g, rng)
            while g.phase is not Phase.OVER:
                g = apply(g, random_action(g, rng, 0.03)).state
                check_all_views(g, rng)


def test_hands_go_only_to_their_owner() -> None:
    g = game("imaginarium", 5, first_storyteller=0)
    for seat in range(5):
        assert view(g, seat)["hand"] == list(g.hands[seat])
    assert spectator_view(g)["hand"] is None
    assert view(g, 99)["hand"] is None  # an unknown seat is a spectator


def test_before_the_reveal_nobody_learns_whose_card_is_where() -> None:
    g = submit_all(give_clue(game("dixit", 4, first_storyteller=0)))
    st = storyteller(g)
    for seat in (1, 2, 3, None):
        shown = view(g, seat)
        assert shown["story_card"] is None
        text = json.dumps(shown)
        assert "owner" not in text
    # The storyteller sees their own card, and a player their own position.
    assert view(g, st)["story_card"] == g.round.story_card
    assert view(g, 1)["my_position"] == g.round.owners.index(1) + 1


def test_the_reveal_is_public() -> None:
    g = submit_all(give_clue(game("dixit", 4, first_storyteller=0)))
    for seat in g.round.waiting:
        pos = next(p for p, o in enumerate(g.round.owners, 1) if o != seat)
        g = apply(g, Vote(seat, pos)).state
    last = spectator_view(g)["last_round"]
    assert [t["owner"] for t in last["table"]] == list(g.history[-1].owners)
    assert last["salt"] == g.history[-1].salt
