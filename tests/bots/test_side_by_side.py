"""Reading a person's clue with the cards side by side (``reading.side_by_side``): what
many of the cards share tells little, and a card is read by its two best associations."""

from __future__ import annotations

import numpy as np
import pytest

from reverie.bots import reading
from reverie.bots.reading import side_by_side


def _unit(*rows: list[float]) -> np.ndarray:
    m = np.array(rows, dtype=float)
    out: np.ndarray = m / np.linalg.norm(m, axis=1, keepdims=True)
    return out


def test_two_associations_that_meet_the_clue_beat_a_single_nearer_one() -> None:
    # Rows: 0 and 1 both near the clue, 2 a little nearer alone, 3 far from it.
    vectors = _unit([1, 0.45, 0], [1, 0.5, 0], [1, 0.3, 0], [0, 0, 1])
    clue = _unit([1, 0, 0])
    two = np.array([0, 1])
    one = np.array([2, 3])
    fits = side_by_side(clue, vectors, [two, one], None)[0]
    assert fits[0] > fits[1]
    # The plain best association would have picked the other card.
    sims = (clue @ vectors.T)[0]
    assert sims[2] > max(sims[0], sims[1])
    assert fits[0] == pytest.approx((sims[0] + sims[1]) / 2)
    assert fits[1] == pytest.approx((sims[2] + sims[3]) / 2)


def test_what_most_cards_share_counts_less_and_what_all_share_as_unknown() -> None:
    vectors = _unit([1, 0, 0], [0, 1, 0], [0, 0, 1])
    clue = _unit([1, 0, 0])
    only = [np.array([0]), np.array([1]), np.array([2])]
    alone = side_by_side(clue, vectors, only, None)[0, 0]
    two_of_three = [np.array([0]), np.array([0, 1]), np.array([2])]
    shared = side_by_side(clue, vectors, two_of_three, None)[0, 0]
    assert shared < alone - 0.05
    assert shared == pytest.approx(alone - reading.SHARED_PENALTY * 1 / 2)
    everyone = [np.array([0]), np.array([0, 1]), np.array([0, 2])]
    common = side_by_side(clue, vectors, everyone, None)[0, 0]
    assert common < shared - 0.3
    assert common == pytest.approx(alone - reading.UNKNOWN_PENALTY - reading.SHARED_PENALTY)


def test_what_the_reader_does_not_share_counts_less_and_no_association_reads_minus_one() -> None:
    vectors = _unit([1, 0, 0], [0, 1, 0])
    clue = _unit([1, 0, 0])
    groups = [np.array([0]), np.array([1]), np.array([], dtype=np.int64)]
    known = np.array([False, True])
    fits = side_by_side(clue, vectors, groups, known)[0]
    assert fits[0] == pytest.approx(1 - reading.UNKNOWN_PENALTY)
    assert fits[2] == -1.0
