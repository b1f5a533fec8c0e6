"""How long a bot seems to think before it moves, so a table of people does not see
moves fall instantly: a few seconds, longer for a clue than for a vote, and never more
than a small part of the table's timer."""

from __future__ import annotations

import random

# A person's usual time in seconds (low, high) for each phase of a turn.
_PACE = {
    "clue": (2.5, 6.0),
    "submit": (1.2, 3.5),
    "vote": (1.5, 4.0),
}
_DEFAULT_PACE = (1.5, 4.0)
#: At most this share of the phase's timer goes to thinking.
TIMER_SHARE = 0.25


def think_seconds(
    scale: float, phase: str | None, limit: float | None, rng: random.Random
) -> float:
    """Seconds to wait: a human pace for ``phase`` times ``scale`` (the server's
    ``bot_delay``: 1 is a person's pace, 0 moves at once), at most a quarter of the
    phase's timer ``limit`` when the table has one.

    >>> think_seconds(0, "clue", None, random.Random(1))
    0.0
    >>> 2.5 <= think_seconds(1, "clue", None, random.Random(1)) <= 6.0
    True
    >>> think_seconds(1, "vote", 8, random.Random(1)) <= 2.0
    True
    """
    if scale <= 0:
        return 0.0
    low, high = _PACE.get(phase or "", _DEFAULT_PACE)
    seconds = scale * rng.uniform(low, high)
    if limit:
        seconds = min(seconds, TIMER_SHARE * limit)
    return seconds
