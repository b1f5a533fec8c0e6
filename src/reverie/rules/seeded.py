"""Deterministic randomness derived from a game's seed.

Rules never touch the global ``random`` module: each random decision draws from a
stream keyed by the game's seed plus a label naming the decision (for example
``("table", 7)`` for the shuffle of turn 7). Labels make every decision independent of
how many random numbers earlier decisions used, so adding a new random decision later
does not change the games that old seeds produce.

The stream is BLAKE2b in counter mode, read as 64-bit numbers. Seeding a Mersenne Twister
costs about 7 µs, more than a whole move, and the engine needs a fresh generator for
every shuffle; a 64-bit number reduced modulo ``n`` (at most a few hundred here) is off
from uniform by less than ``n / 2**64``, far below anything a game could show.
"""

from __future__ import annotations

import hashlib
import sys
from array import array
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")

_WORDS_PER_BLOCK = 8  # a 64-byte BLAKE2b digest holds eight 64-bit numbers


class SeededStream:
    """Random choices from the keyed stream BLAKE2b(key ‖ counter).

    >>> a, b = rng_for(1, "x"), rng_for(1, "x")
    >>> [a.randrange(100) for _ in range(5)] == [b.randrange(100) for _ in range(5)]
    True
    """

    __slots__ = ("_counter", "_key", "_words")

    def __init__(self, key: bytes) -> None:
        self._key = key
        self._counter = 0
        self._words: list[int] = []

    def _next64(self) -> int:
        if not self._words:
            self._refill()
        return self._words.pop()

    def _refill(self) -> None:
        block = hashlib.blake2b(
            self._key + self._counter.to_bytes(8, "little"), digest_size=64
        ).digest()
        self._counter += 1
        words = array("Q", block)
        if sys.byteorder != "little":
            words.byteswap()
        # Popped from the end, so reverse to hand them out in stream order.
        self._words = words.tolist()[::-1]

    def randrange(self, n: int) -> int:
        """A number in ``range(n)``."""
        if n <= 0:
            raise ValueError("randrange needs a positive bound")
        return self._next64() % n

    def randint(self, a: int, b: int) -> int:
        """A number from ``a`` to ``b`` inclusive."""
        return a + self.randrange(b - a + 1)

    def random(self) -> float:
        """A float in [0, 1)."""
        return (self._next64() >> 11) * (2.0**-53)

    def choice(self, seq: Sequence[T]) -> T:
        """One element of a non-empty sequence."""
        return seq[self.randrange(len(seq))]

    def shuffle(self, items: list[T]) -> None:
        """Shuffle a list in place (Fisher–Yates)."""
        for i in range(len(items) - 1, 0, -1):
            j = self._next64() % (i + 1)
            items[i], items[j] = items[j], items[i]

    def sample(self, population: Sequence[T], k: int) -> list[T]:
        """``k`` distinct elements in random order (a partial Fisher–Yates)."""
        pool = list(population)
        n = len(pool)
        if not 0 <= k <= n:
            raise ValueError("sample larger than population")
        next64 = self._next64
        for i in range(k):
            j = i + next64() % (n - i)
            pool[i], pool[j] = pool[j], pool[i]
        return pool[:k]


def rng_for(seed: int, *label: object) -> SeededStream:
    """A fresh stream for one named decision of the game with this seed.

    >>> rng_for(7, "deck").random() == rng_for(7, "deck").random()
    True
    >>> rng_for(7, "deck").random() == rng_for(7, "table", 1).random()
    False
    """
    return SeededStream(repr((seed, *label)).encode())


def secret_hex(seed: int, *label: object) -> str:
    """A 128-bit hex string derived from the seed, for salts that players cannot guess.

    The seed itself never leaves the server, so nobody can recompute a salt before it is
    revealed.
    """
    return hashlib.blake2b(repr(("salt", seed, *label)).encode(), digest_size=16).hexdigest()
