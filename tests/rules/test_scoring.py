"""Every scoring case of every association variant (docs/specification.md §2), seat by seat.

Seats: 0 is the storyteller S, then A=1, B=2, C=3 (and D=4 where five play). Unless a
case says otherwise the storyteller's card lies at position 1 and seat k's at k + 1.
"""

from __future__ import annotations

import pytest

from reverie.rules.association.scoring import ROUND_SCORERS, RoundInput, apply_floor

OWNERS4 = (0, 1, 2, 3)

ALL_FOUND = {1: 1, 2: 1, 3: 1}
NONE_FOUND = {1: 3, 2: 2, 3: 2}  # A→B's card, B→A's, C→A's: A has 2 votes, B has 1
SOME_FOUND = {1: 1, 2: 1, 3: 2}  # A, B found; C→A's card
ONE_FOUND = {1: 1, 2: 4, 3: 2}  # A found; B→C's card, C→A's card


def earned(
    variant: str,
    votes: dict[int, int],
    owners: tuple[int, ...] = OWNERS4,
    story: int = 1,
) -> list[int]:
    seats = max([3, *owners, *votes]) + 1
    return ROUND_SCORERS[variant](RoundInput(seats, 0, owners, story, votes))


CASES = [
    # Dixit: all/none → S 0, others 2; some → S and finders 3; +1 per vote on own card.
    ("dixit", ALL_FOUND, [0, 2, 2, 2]),
    ("dixit", NONE_FOUND, [0, 4, 3, 2]),
    ("dixit", SOME_FOUND, [3, 4, 3, 0]),
    ("dixit", ONE_FOUND, [3, 4, 0, 1]),
    # Imaginarium: all → S −3; none → S −2 + own-card votes; some → finders 3, S 3 + X.
    ("imaginarium", ALL_FOUND, [-3, 0, 0, 0]),
    ("imaginarium", NONE_FOUND, [-2, 2, 1, 0]),
    ("imaginarium", SOME_FOUND, [5, 4, 3, 0]),
    ("imaginarium", ONE_FOUND, [4, 4, 0, 1]),
    # Harmony: all → others 3; none → own-card votes; some → S, finders 3, all +own votes.
    ("imaginarium-harmony", ALL_FOUND, [0, 3, 3, 3]),
    ("imaginarium-harmony", NONE_FOUND, [0, 2, 1, 0]),
    ("imaginarium-harmony", SOME_FOUND, [5, 4, 3, 0]),
    ("imaginarium-harmony", ONE_FOUND, [4, 4, 0, 1]),
    # Pictoric: none → own-card votes; all → others 2; else S 6 − X, finders 3, own votes.
    ("pictoric", ALL_FOUND, [0, 2, 2, 2]),
    ("pictoric", NONE_FOUND, [0, 2, 1, 0]),
    ("pictoric", SOME_FOUND, [4, 4, 3, 0]),
    ("pictoric", ONE_FOUND, [5, 4, 0, 1]),
]


@pytest.mark.parametrize(("variant", "votes", "expected"), CASES)
def test_scoring_cases(variant: str, votes: dict[int, int], expected: list[int]) -> None:
    assert earned(variant, votes) == expected


def test_harmony_worked_example_from_the_seed() -> None:
    # S 0; Yellow 1 and Blue 2 found S's card; Green 3 voted for Yellow's, Red 4 for Blue's.
    votes = {1: 1, 2: 1, 3: 2, 4: 3}
    got = earned("imaginarium-harmony", votes, owners=(0, 1, 2, 3, 4))
    assert got == [5, 4, 4, 0, 0]  # S 5, Yellow 4, Blue 4, Green 0, Red 0


GALLERY = (0,) * 6


@pytest.mark.parametrize(
    ("votes", "expected"),
    [
        ({1: 1, 2: 2, 3: 3}, [0, 0, 0, 0]),  # none found: nobody scores
        ({1: 4, 2: 4, 3: 4}, [0, 2, 2, 2]),  # all found: others 2
        ({1: 4, 2: 1, 3: 2}, [5, 3, 0, 0]),  # one found: S 6 − 1
        ({1: 4, 2: 4, 3: 2}, [4, 3, 3, 0]),  # two found: S 6 − 2
    ],
)
def test_gallery_cases(votes: dict[int, int], expected: list[int]) -> None:
    assert earned("pictoric-gallery", votes, owners=GALLERY, story=4) == expected


def test_gallery_storyteller_never_gets_negative_points() -> None:
    votes = {s: 4 for s in range(1, 8)} | {8: 1}  # 7 of 8 voters found the card
    got = earned("pictoric-gallery", votes, owners=GALLERY, story=4)
    assert got[0] == 0
    assert got[1:8] == [3] * 7 and got[8] == 0


@pytest.mark.parametrize("variant", sorted(ROUND_SCORERS))
def test_nobody_voting_scores_nothing(variant: str) -> None:
    owners = GALLERY if variant == "pictoric-gallery" else OWNERS4
    assert earned(variant, {}, owners=owners) == [0] * 4


def test_imaginarium_floor_at_the_start() -> None:
    # All found moves S back 3, but never behind cloud 1 (score 0).
    assert apply_floor(earned("imaginarium", ALL_FOUND), [1, 0, 0, 0]) == [-1, 0, 0, 0]
    assert apply_floor(earned("imaginarium", ALL_FOUND), [0, 0, 0, 0]) == [0, 0, 0, 0]
    assert apply_floor(earned("imaginarium", ALL_FOUND), [7, 0, 0, 0]) == [-3, 0, 0, 0]
    # None found moves S back 2, with the same floor.
    assert apply_floor(earned("imaginarium", NONE_FOUND), [1, 0, 0, 0]) == [-1, 2, 1, 0]
