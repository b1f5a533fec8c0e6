"""Per-connection rate limits: token buckets, so bursts pass and floods do not."""

from __future__ import annotations

import time
from collections.abc import Callable


class TokenBucket:
    """``rate`` tokens a second, at most ``burst`` saved up; one token per message.

    >>> t = [0.0]
    >>> b = TokenBucket(rate=1, burst=2, clock=lambda: t[0])
    >>> b.take(), b.take(), b.take()
    (True, True, False)
    >>> t[0] = 1.0; b.take()
    True
    """

    def __init__(
        self, rate: float, burst: float, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.clock = clock
        self.stamp = clock()

    def take(self) -> bool:
        """Spend a token if there is one."""
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False
