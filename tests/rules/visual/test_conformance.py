"""Random-simulation conformance over many seeded games.

After every action: every token is on the board, held by a team, removed by a documented
rule (a bonus token traded for a steal, a token lost on a failed turn) or, while its team
decides, the bonus token just taken; every card is in the deck, the discard or the turn;
pawns stay on the board; a pawn on 40 means the game is over. In the games that check
views, no view of a seat that is not drawing contains the subject before its reveal, and
no seat sees another's "close" hint or another team's proverb guesses. At the end: the
game ended within the action bound, the log replays to the same state, and the state
survives a JSON round trip. The random player lets the clock run out in every phase, so
the clock's default decisions are covered too, and every state names its phase's timer.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from reverie.rules.visual import Options, Phase, TimeUp, apply, new_game
from reverie.rules.visual.actions import decode_action, encode_action
from reverie.rules.visual.playouts import play_random_game
from tests.rules.visual.helpers import SYNTHETIC_DECK

MAX_ACTIONS = 3000
# x 4 tables x 2 overshoot rules = 480 seeded games. Measured (docs/benchmarks.md, "The
# test suite's time"): the first 50 games a table reach every branch of the rules and the
# random player that 100 reach (958 of them after 5; the last ones: a tie on the board and
# a guesser out of guesses); 60 leave a margin over that.
GAMES_PER_TABLE = 60
TABLES = [(2, 2), (3, 2), (2, 2, 2), (4, 3, 2, 2)]


@pytest.mark.slow
@pytest.mark.parametrize("sizes", TABLES)
@pytest.mark.parametrize("overshoot", ["bounce", "stay"])
def test_random_games_keep_every_invariant(sizes: tuple[int, ...], overshoot: str) -> None:
    options = Options(overshoot=overshoot)  # type: ignore[arg-type]
    for seed in range(GAMES_PER_TABLE):
        record = play_random_game(
            sizes,
            seed,
            SYNTHETIC_DECK,
            options=options,
            max_actions=MAX_ACTIONS,
            check_views=seed % 10 == 0,
        )
        assert record.problems == [], (sizes, overshoot, seed, record.problems[:3])
        assert record.final.phase is Phase.OVER and record.final.winners
        assert record.final.finisher is not None


def test_the_views_of_every_action_hide_the_subject() -> None:
    """The leak test: every seat's and a spectator's view after every action."""
    for seed in range(30):
        record = play_random_game((2, 3), 1000 + seed, SYNTHETIC_DECK, check_views=True)
        assert record.problems == [], (seed, record.problems[:3])


def test_action_logs_survive_json() -> None:
    record = play_random_game((2, 2), 7, SYNTHETIC_DECK)
    assert [decode_action(encode_action(a)) for a in record.actions] == record.actions


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    sizes=st.lists(st.integers(2, 4), min_size=2, max_size=4),
    seed=st.integers(min_value=0, max_value=2**63),
    timeout_rate=st.floats(min_value=0, max_value=0.3),
    blank_share=st.floats(min_value=0, max_value=1),
    bonus_tokens=st.integers(0, 10),
)
def test_any_table_seed_and_clock_keep_every_invariant(
    sizes: list[int], seed: int, timeout_rate: float, blank_share: float, bonus_tokens: int
) -> None:
    from reverie.rules.visual import build_deck
    from tests.rules.visual.helpers import synthetic_words

    deck = build_deck(synthetic_words(30), seed, blank_share=blank_share)
    options = Options(bonus_tokens=bonus_tokens, token_values=(1, 2, 3, 4, 5) * 5)
    record = play_random_game(
        sizes, seed, deck, options=options, timeout_rate=timeout_rate, max_actions=MAX_ACTIONS
    )
    assert record.problems == []
    assert record.final.phase is Phase.OVER


def test_same_seed_and_actions_give_the_same_game() -> None:
    a = play_random_game((2, 2, 3), 11, SYNTHETIC_DECK)
    b = play_random_game((2, 2, 3), 11, SYNTHETIC_DECK)
    assert a.final == b.final and a.actions == b.actions


def test_the_random_player_lets_time_run_out_in_every_phase() -> None:
    """The games above also cover the clock's default decisions."""
    timed_out: set[Phase] = set()
    for seed in range(20):
        record = play_random_game((2, 2, 2), 500 + seed, SYNTHETIC_DECK, timeout_rate=0.2)
        assert record.problems == [], (seed, record.problems[:3])
        state = new_game(
            [f"P{s + 1}" for s in range(6)],
            [[0, 1], [2, 3], [4, 5]],
            500 + seed,
            cards=SYNTHETIC_DECK,
        )
        for action in record.actions:
            if isinstance(action, TimeUp):
                timed_out.add(state.phase)
            state = apply(state, action).state
        assert state == record.final
    assert timed_out == set(Phase) - {Phase.OVER}
