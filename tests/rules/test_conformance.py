"""Random-simulation conformance: about a thousand seeded games through every variant.

After every action: every card of the game is in exactly one place; scores equal the sum
of the round results; no score below the start; hands within their limit; no view (of
any seat or a spectator) shows a card that seat may not see. At the end:
the game ended, replaying the action log from the seed rebuilds the same final state,
and the state survives a JSON round trip. ``test_views`` proves the stronger property
that a view does not change when everything its seat may not know is scrambled.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from reverie.rules.association import VARIANTS, Phase
from reverie.simulation import play_random_game

CONFIGS = [
    (name, players)
    for name, v in sorted(VARIANTS.items())
    for players in range(v.min_players, v.max_players + 1)
]
# Measured (docs/benchmarks.md, "The test suite's time"): the 100 games a table played
# before reached every branch of the rules after 40, and 903 of their 909 after 5; the
# six late ones were a clock running out before anyone claimed the first turn, which the
# games with a busy clock below reach at once. 30 games a table with that clock reach all
# 909, and every kind of round and end (nobody, some or all find the card; a turn skipped;
# the deck run out; ties of two and three) that the 100 reached over the variants.
GAMES_PER_CONFIG = 30
#: The clock's share of moves, game by game: none, now and then, none, often.
TIMEOUT_RATES = (0.0, 0.04, 0.0, 0.3)


@pytest.mark.slow
@pytest.mark.parametrize(("variant", "players"), CONFIGS)
def test_random_games_keep_every_invariant(variant: str, players: int) -> None:
    for seed in range(GAMES_PER_CONFIG):
        rate = TIMEOUT_RATES[seed % len(TIMEOUT_RATES)]
        # Views are checked in every third game (they cost more than the rules).
        record = play_random_game(
            variant, players, seed, timeout_rate=rate, check_views=seed % 3 == 0
        )
        assert record.problems == [], (variant, players, seed)
        assert record.final.phase is Phase.OVER
        assert record.final.winners


def test_enough_games_are_played() -> None:
    """Every table plays games with and without the clock, and with views checked."""
    assert len(CONFIGS) * GAMES_PER_CONFIG >= 900
    assert 3 * len(TIMEOUT_RATES) <= GAMES_PER_CONFIG


@pytest.mark.slow
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    variant=st.sampled_from(sorted(VARIANTS)),
    data=st.data(),
    seed=st.integers(min_value=0, max_value=2**63),
    timeout_rate=st.floats(min_value=0, max_value=0.3),
)
def test_any_seed_and_clock_keep_every_invariant(
    variant: str, data: st.DataObject, seed: int, timeout_rate: float
) -> None:
    v = VARIANTS[variant]
    players = data.draw(st.integers(v.min_players, v.max_players))
    record = play_random_game(variant, players, seed, timeout_rate=timeout_rate)
    assert record.problems == []
    assert record.final.phase is Phase.OVER
