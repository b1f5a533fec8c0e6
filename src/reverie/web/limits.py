"""Rate limits and connection caps shared by every socket of a seat or an address.

Limits are kept per seat (room and token hash) and per client address, not per socket:
opening more sockets must not buy more allowance. They sit behind two small
interfaces, :class:`Limiter` and :class:`Gate`. With several server processes the rate
limits are kept in Redis (:mod:`reverie.web.shared_limits`), so that a player's sockets
on two processes share one allowance; socket caps stay per process.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable, Sequence
from typing import Protocol

from reverie.games import Limit

#: A bucket to spend from: its key, its limit and the cost.
Bucket = tuple[Hashable, Limit, float]

#: A key the registries forget at random when full would only loosen limits; this many
#: keys (seats and addresses with a bucket in use) is far above one process's load.
MAX_KEYS = 100_000


class Limiter(Protocol):
    """Token buckets by key: ``limit.rate`` tokens a second, ``limit.burst`` saved up."""

    def take(self, key: Hashable, limit: Limit, cost: float = 1.0) -> bool:
        """Spend ``cost`` tokens (one by default) from ``key``'s bucket; False if it
        has fewer."""
        ...

    def peek(self, key: Hashable, limit: Limit) -> bool:
        """Whether ``key``'s bucket has a token, without spending it."""
        ...


class LocalLimiter:
    """A :class:`Limiter` in this process's memory.

    >>> t = [0.0]
    >>> lim = LocalLimiter(clock=lambda: t[0])
    >>> one = Limit(rate=1, burst=2)
    >>> lim.take("a", one), lim.take("a", one), lim.take("a", one), lim.take("b", one)
    (True, True, False, True)
    >>> lim.peek("a", one)
    False
    >>> t[0] = 1.0; lim.peek("a", one), lim.take("a", one), lim.peek("a", one)
    (True, True, False)
    """

    def __init__(
        self, clock: Callable[[], float] = time.monotonic, max_keys: int = MAX_KEYS
    ) -> None:
        self.clock = clock
        self.max_keys = max_keys
        # key -> [tokens, stamp, rate, burst]: the limit is kept to tell a full bucket.
        self._buckets: dict[Hashable, list[float]] = {}

    def _tokens(self, key: Hashable, limit: Limit, now: float) -> list[float]:
        bucket = self._buckets.get(key)
        if bucket is None:
            if len(self._buckets) >= self.max_keys:
                self._sweep(now)
            bucket = self._buckets[key] = [limit.burst, now, limit.rate, limit.burst]
        else:
            bucket[0] = min(limit.burst, bucket[0] + (now - bucket[1]) * limit.rate)
            bucket[1] = now
        return bucket

    def _sweep(self, now: float) -> None:
        """Forget full buckets: a full bucket is the same as none."""
        for key, (tokens, stamp, rate, burst) in list(self._buckets.items()):
            if tokens + (now - stamp) * rate >= burst:
                del self._buckets[key]
        if len(self._buckets) >= self.max_keys:
            self._buckets.clear()  # a flood of keys: forgetting everyone only loosens limits

    def take(self, key: Hashable, limit: Limit, cost: float = 1.0) -> bool:
        """Spend ``cost`` tokens (at most a whole burst) from ``key``'s bucket; False if
        it has fewer."""
        bucket = self._tokens(key, limit, self.clock())
        cost = min(cost, limit.burst)
        if bucket[0] >= cost:
            bucket[0] -= cost
            return True
        return False

    def take_all(self, items: Sequence[Bucket]) -> bool:
        """Spend from every bucket of ``items`` if each has enough, else from none."""
        now = self.clock()
        buckets = [self._tokens(key, limit, now) for key, limit, _ in items]
        costs = [min(cost, limit.burst) for _, limit, cost in items]
        if any(b[0] < c for b, c in zip(buckets, costs, strict=True)):
            return False
        for bucket, cost in zip(buckets, costs, strict=True):
            bucket[0] -= cost
        return True

    def peek(self, key: Hashable, limit: Limit) -> bool:
        """Whether ``key``'s bucket has a token, without spending it."""
        bucket = self._buckets.get(key)
        if bucket is None:
            return limit.burst >= 1
        return self._tokens(key, limit, self.clock())[0] >= 1

    def __len__(self) -> int:
        return len(self._buckets)


class Gate(Protocol):
    """Counts what is open per key (sockets of a seat, connections of an address)."""

    def enter(self, key: Hashable, cap: int) -> bool:
        """Count one more for ``key`` unless ``cap`` are open already (then False)."""
        ...

    def leave(self, key: Hashable) -> None:
        """One of ``key``'s closed."""
        ...

    def count(self, key: Hashable) -> int:
        """How many ``key`` has open."""
        ...


class LocalGate:
    """A :class:`Gate` in this process's memory (keys with nothing open are dropped).

    >>> g = LocalGate()
    >>> g.enter("a", 2), g.enter("a", 2), g.enter("a", 2), g.count("a")
    (True, True, False, 2)
    >>> g.leave("a"); g.leave("a"); g.count("a"), len(g)
    (0, 0)
    """

    def __init__(self) -> None:
        self._open: dict[Hashable, int] = {}

    def enter(self, key: Hashable, cap: int) -> bool:
        """Count one more for ``key`` unless ``cap`` are open already (then False)."""
        n = self._open.get(key, 0)
        if n >= cap:
            return False
        self._open[key] = n + 1
        return True

    def leave(self, key: Hashable) -> None:
        """One of ``key``'s closed."""
        n = self._open.get(key, 0) - 1
        if n > 0:
            self._open[key] = n
        else:
            self._open.pop(key, None)

    def count(self, key: Hashable) -> int:
        """How many ``key`` has open."""
        return self._open.get(key, 0)

    def __len__(self) -> int:
        return len(self._open)


def client_address(scope: object) -> str:
    """The client's address of an ASGI scope (behind a trusted proxy, the one it
    forwarded); ``"?"`` when the server does not know it."""
    client = scope.get("client") if isinstance(scope, dict) else None
    return str(client[0]) if client else "?"


# ---------------------------------------------------------------------- JSON shape

MAX_JSON_DEPTH = 32


class TooDeep(ValueError):
    """A JSON document nested deeper than allowed."""


def check_json_depth(raw: bytes | str, max_depth: int = MAX_JSON_DEPTH) -> None:
    """Raise :class:`TooDeep` if ``raw`` nests arrays/objects deeper than ``max_depth``.

    Run before decoding: the decoder recurses once per level, and thousands of levels
    end in a ``RecursionError`` instead of a clear refusal. Brackets inside strings do
    not count. Malformed JSON passes (the decoder reports it).

    >>> check_json_depth(b'{"a": [[1], "[[[["]}', max_depth=3)
    >>> check_json_depth("[" * 40 + "]" * 40)
    Traceback (most recent call last):
    ...
    reverie.web.limits.TooDeep: JSON nested deeper than 32 levels.
    """
    data = raw.encode() if isinstance(raw, str) else raw
    if data.count(b"[") + data.count(b"{") <= max_depth:
        return  # the common case: too few brackets to nest too deep, no scan
    depth = 0
    in_string = False
    escaped = False
    for byte in data:
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:  # backslash
                escaped = True
            elif byte == 0x22:  # quote
                in_string = False
        elif byte == 0x22:
            in_string = True
        elif byte in (0x5B, 0x7B):  # [ {
            depth += 1
            if depth > max_depth:
                raise TooDeep(f"JSON nested deeper than {max_depth} levels.")
        elif byte in (0x5D, 0x7D):  # ] }
            depth -= 1


# ---------------------------------------------------------------------- the registries

#: A seat's general allowance of frames, and of chat lines (docs/protocol.md).
FRAMES = Limit(rate=10, burst=20)
CHAT = Limit(rate=1, burst=5)


def scaled(limit: Limit, factor: float) -> Limit:
    """``limit`` times ``factor``: an address's allowance is several seats'.

    >>> scaled(Limit(rate=1, burst=5), 8)
    Limit(rate=8, burst=40)
    """
    return Limit(rate=limit.rate * factor, burst=limit.burst * factor)


class SharedLimiter(Protocol):
    """Token buckets kept outside the process (every process spends from the same)."""

    async def take_all(self, items: Sequence[Bucket]) -> bool:
        """Spend from every bucket if each has enough, else from none."""
        ...

    async def peek(self, key: Hashable, limit: Limit) -> bool:
        """Whether ``key``'s bucket has a token, without spending it."""
        ...


class Registry:
    """The limits a server process keeps: token buckets (in this process, or shared
    between processes), open sockets per seat and open connections per address."""

    def __init__(
        self,
        limiter: LocalLimiter | None = None,
        seats: Gate | None = None,
        addresses: Gate | None = None,
        clock: Callable[[], float] = time.monotonic,
        shared: SharedLimiter | None = None,
    ) -> None:
        self.limiter = limiter if limiter is not None else LocalLimiter(clock)
        self.shared = shared
        self.seats: Gate = seats if seats is not None else LocalGate()
        self.addresses: Gate = addresses if addresses is not None else LocalGate()

    async def allow(self, *items: Bucket) -> bool:
        """Spend ``cost`` from each ``(key, limit, cost)`` bucket if all have enough
        (else from none)."""
        if self.shared is not None:
            return await self.shared.take_all(items)
        return self.limiter.take_all(items)

    async def _peek(self, key: Hashable, limit: Limit) -> bool:
        if self.shared is not None:
            return await self.shared.peek(key, limit)
        return self.limiter.peek(key, limit)

    async def lookups_allowed(self, address: str, misses_per_minute: float) -> bool:
        """Whether ``address`` may look a room code up: not once it has missed
        ``misses_per_minute`` codes in the last minute (0: no limit). Hits are refused
        too then, or the answer would still tell a real code from a guess."""
        limit = _misses(misses_per_minute)
        return limit is None or await self._peek(("misses", address), limit)

    async def missed(self, address: str, misses_per_minute: float) -> None:
        """``address`` looked up a code that names no room."""
        limit = _misses(misses_per_minute)
        if limit is not None:
            await self.allow((("misses", address), limit, 1.0))


def _misses(per_minute: float) -> Limit | None:
    return Limit(rate=per_minute / 60, burst=per_minute) if per_minute > 0 else None
