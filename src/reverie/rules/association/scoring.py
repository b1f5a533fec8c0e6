"""Scoring of one association round, one small function per variant (docs/specification.md §2).

Notation as in docs/specification.md §1.9: X = voters who found the storyteller's card, N = voters.
Every function returns the points each seat *earns* this round; the engine (and the
``reverie score`` command) then applies the floor at the start of the track with
:func:`apply_floor`, because a piece can never move back past its starting square.

Decisions beyond the rule texts (documented in docs/rules.md):

* The "every other player gets 2/3" rewards go to the players who voted. In a table game
  everybody votes; online a player may run out of time and not vote.
* A round in which nobody voted scores nothing for anybody.
* Pictoric's "6 − X" never goes below 0 (it could with more than seven voters in the
  gallery game).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import NamedTuple

__all__ = [
    "ROUND_SCORERS",
    "RoundInput",
    "apply_floor",
    "score_dixit",
    "score_imaginarium",
    "score_imaginarium_harmony",
    "score_pictoric",
    "score_pictoric_gallery",
]


class RoundInput(NamedTuple):
    """Everything scoring needs to know about a revealed round.

    ``owners[i]`` is the seat whose card lies at position ``i + 1`` (in the gallery game
    every position is the storyteller's); ``story_position`` is the 1-based position of
    the storyteller's card; ``votes`` maps each voter's seat to the position they chose.
    """

    seats: int
    storyteller: int
    owners: tuple[int, ...]
    story_position: int
    votes: Mapping[int, int]

    def finders(self) -> list[int]:
        """Seats that voted for the storyteller's card."""
        story = self.story_position
        return [v for v, p in self.votes.items() if p == story]

    def votes_on(self) -> list[int]:
        """For each seat, how many votes landed on cards that seat put on the table."""
        counts = [0] * self.seats
        owners = self.owners
        for p in self.votes.values():
            counts[owners[p - 1]] += 1
        return counts


Scorer = Callable[[RoundInput], list[int]]


def _add_own_card_votes(points: list[int], r: RoundInput, *, storyteller_too: bool) -> None:
    for seat, n in enumerate(r.votes_on()):
        if storyteller_too or seat != r.storyteller:
            points[seat] += n


def _tally(r: RoundInput) -> tuple[list[int], list[int], int, int]:
    """Zero points for everyone, the finders, X and N."""
    finders = r.finders()
    return [0] * r.seats, finders, len(finders), len(r.votes)


def score_dixit(r: RoundInput) -> list[int]:
    """Dixit: all or none found → storyteller 0, others 2; else storyteller and finders 3.

    Every non-storyteller also gets 1 per vote on their own card.

    >>> r = RoundInput(3, 0, owners=(2, 0, 1), story_position=2, votes={1: 2, 2: 3})
    >>> score_dixit(r)
    [3, 4, 0]
    """
    points, finders, x, n = _tally(r)
    if n == 0:
        return points
    if x in (0, n):
        for voter in r.votes:
            points[voter] += 2
    else:
        points[r.storyteller] += 3
        for f in finders:
            points[f] += 3
    _add_own_card_votes(points, r, storyteller_too=False)
    return points


def score_imaginarium(r: RoundInput) -> list[int]:
    """Imaginarium: all found → storyteller −3; none → storyteller −2 and own-card votes;
    some → finders 3, storyteller 3 + X, and own-card votes for non-storytellers.

    >>> score_imaginarium(RoundInput(3, 0, owners=(0, 1, 2), story_position=1,
    ...                              votes={1: 1, 2: 1}))
    [-3, 0, 0]
    """
    points, finders, x, n = _tally(r)
    if n == 0:
        return points
    if x == n:
        points[r.storyteller] -= 3
        return points
    if x == 0:
        points[r.storyteller] -= 2
    else:
        for f in finders:
            points[f] += 3
        points[r.storyteller] += 3 + x
    _add_own_card_votes(points, r, storyteller_too=False)
    return points


def score_imaginarium_harmony(r: RoundInput) -> list[int]:
    """Imaginarium: Harmony: all found → others 3; none → own-card votes only;
    some → storyteller and finders 3, and everyone (storyteller too) 1 per vote on
    their card.

    The seed's worked example: storyteller 0; Yellow 1 and Blue 2 found the card, Green 3
    voted for Yellow's card and Red 4 for Blue's.

    >>> r = RoundInput(5, 0, owners=(0, 1, 2, 3, 4), story_position=1,
    ...                votes={1: 1, 2: 1, 3: 2, 4: 3})
    >>> score_imaginarium_harmony(r)
    [5, 4, 4, 0, 0]
    """
    points, finders, x, n = _tally(r)
    if n == 0:
        return points
    if x == n:
        for voter in r.votes:
            points[voter] += 3
    elif x == 0:
        _add_own_card_votes(points, r, storyteller_too=False)
    else:
        points[r.storyteller] += 3
        for f in finders:
            points[f] += 3
        _add_own_card_votes(points, r, storyteller_too=True)
    return points


def score_pictoric(r: RoundInput) -> list[int]:
    """Pictoric: none found → own-card votes only; all → others 2;
    otherwise storyteller 6 − X, finders 3, plus own-card votes for non-storytellers.

    >>> score_pictoric(RoundInput(4, 0, owners=(1, 0, 2, 3), story_position=2,
    ...                           votes={1: 2, 2: 1, 3: 1}))
    [5, 5, 0, 0]
    """
    points, finders, x, n = _tally(r)
    if n == 0:
        return points
    if x == 0:
        _add_own_card_votes(points, r, storyteller_too=False)
    elif x == n:
        for voter in r.votes:
            points[voter] += 2
    else:
        points[r.storyteller] += max(0, 6 - x)
        for f in finders:
            points[f] += 3
        _add_own_card_votes(points, r, storyteller_too=False)
    return points


def score_pictoric_gallery(r: RoundInput) -> list[int]:
    """Pictoric, storyteller's gallery: none found → nobody scores; all → others 2;
    otherwise storyteller 6 − X and each finder 3.

    >>> score_pictoric_gallery(RoundInput(4, 0, owners=(0,) * 6, story_position=4,
    ...                                   votes={1: 4, 2: 1, 3: 2}))
    [5, 3, 0, 0]
    """
    points, finders, x, n = _tally(r)
    if n == 0 or x == 0:
        return points
    if x == n:
        for voter in r.votes:
            points[voter] += 2
    else:
        points[r.storyteller] += max(0, 6 - x)
        for f in finders:
            points[f] += 3
    return points


def apply_floor(earned: list[int], before: tuple[int, ...] | list[int]) -> list[int]:
    """The points actually moved: a piece never goes back past the start (score 0).

    >>> apply_floor([-3, 2], [1, 0])
    [-1, 2]
    """
    if min(earned) >= 0:
        return earned
    return [max(e, -b) for e, b in zip(earned, before, strict=True)]


ROUND_SCORERS: Mapping[str, Scorer] = {
    "dixit": score_dixit,
    "imaginarium": score_imaginarium,
    "imaginarium-harmony": score_imaginarium_harmony,
    "pictoric": score_pictoric,
    "pictoric-gallery": score_pictoric_gallery,
}
