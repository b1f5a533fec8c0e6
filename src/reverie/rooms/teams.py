"""Teams in the lobby of a team game: filling and balancing.

How many teams a game allows and their colours are the family's (``GameFamily.teams``);
these are pure functions over the list of seats' teams (``teams[s]`` is seat ``s``'s team or
``None``), so the room's fold stays deterministic: any randomness comes in as an
argument and what it chose is recorded in the event.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Sequence

Teams = tuple[int | None, ...]


def sizes(teams: Sequence[int | None], count: int) -> list[int]:
    """How many seats each of ``count`` teams has.

    >>> sizes([0, 1, None, 0], 3)
    [2, 1, 0]
    """
    out = [0] * count
    for t in teams:
        if t is not None and 0 <= t < count:
            out[t] += 1
    return out


def filled(teams: Sequence[int | None], count: int, aside: Collection[int] = ()) -> Teams:
    """Every seat without a team put into the smallest team (lowest number on ties); the
    seats ``aside`` stay outside the teams.

    >>> filled([0, 0, None, None, 1], 2)
    (0, 0, 1, 0, 1)
    >>> filled([None, 0, 1, None, 1], 2, aside={0})
    (None, 0, 1, 0, 1)
    """
    out = [None if seat in aside else team for seat, team in enumerate(teams)]
    counts = sizes(out, count)
    for seat, team in enumerate(out):
        if seat in aside:
            continue
        if team is None or not 0 <= team < count:
            smallest = min(range(count), key=lambda t: (counts[t], t))
            out[seat] = smallest
            counts[smallest] += 1
    return tuple(out)


def balanced(seats: int, count: int, rng: random.Random, aside: Collection[int] = ()) -> Teams:
    """Seats dealt into ``count`` teams at random, sizes differing by at most one; the
    seats ``aside`` stay outside the teams.

    >>> sorted(sizes(balanced(7, 3, random.Random(1)), 3))
    [2, 2, 3]
    >>> balanced(5, 2, random.Random(1), aside={0})[0] is None
    True
    """
    order = [s for s in range(seats) if s not in aside]
    rng.shuffle(order)
    out: list[int | None] = [None] * seats
    for i, seat in enumerate(order):
        out[seat] = i % count
    return tuple(out)


def trimmed(teams: Sequence[int | None], count: int) -> Teams:
    """Seats of teams beyond ``count`` become unassigned.

    >>> trimmed([0, 2, 1], 2)
    (0, None, 1)
    """
    return tuple(t if t is not None and t < count else None for t in teams)
