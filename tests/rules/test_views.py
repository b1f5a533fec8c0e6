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
from reverie.rules.association.secrecy import scramble

from .helpers import game, give_clue, storyteller, submit_all

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
