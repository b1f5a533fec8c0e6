"""What a deck allows, as the lobby tells it before the start, agrees with the engine:
the most seats it deals to, and the rounds a game lasts until the deck ends it."""

from __future__ import annotations

import pytest

from reverie.rules.association import Options, Phase, new_game
from reverie.rules.association.deck_fit import most_players, rounds_with
from reverie.rules.association.variants import find_variant
from reverie.rules.errors import SetupError
from tests.rules.helpers import avoid_story, play_round


def rounds_played(variant: str, players: int, cards: int) -> int:
    names = [f"P{i}" for i in range(players)]
    state = new_game(
        variant, names, 7, card_count=cards, options=Options(target_score=1000, first_storyteller=0)
    )
    rounds = 0
    while state.phase is not Phase.OVER:
        state = play_round(state, avoid_story)
        rounds += 1
        assert rounds < 200
    return rounds


@pytest.mark.parametrize(
    ("variant", "players", "cards"),
    [("dixit", 4, 32), ("dixit", 6, 42), ("dixit", 3, 84), ("dixit", 5, 37),
     ("imaginarium", 4, 30), ("imaginarium", 7, 60), ("imaginarium", 3, 200)],
)  # fmt: skip
def test_the_rounds_told_are_the_rounds_played(variant: str, players: int, cards: int) -> None:
    assert rounds_with(find_variant(variant), players, cards) == rounds_played(
        variant, players, cards
    )


@pytest.mark.parametrize("variant", ["dixit", "imaginarium", "pictoric", "pictoric-gallery"])
@pytest.mark.parametrize("cards", [10, 24, 30, 41, 42, 60, 84])
def test_the_most_seats_told_are_the_most_the_rules_deal_to(variant: str, cards: int) -> None:
    v = find_variant(variant)
    most = most_players(v, cards)
    for n in range(v.min_players, v.max_players + 1):
        names = [f"P{i}" for i in range(n)]
        try:
            new_game(variant, names, 1, card_count=cards)
            dealt = True
        except SetupError as exc:
            assert exc.code == "deck_too_small" and exc.params["players"] == n
            dealt = False
        assert dealt == (n <= most), (n, most)
