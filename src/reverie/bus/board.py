"""The board: the public tables every server process lists, shared by all of them.

Each process puts the entries of the public tables it runs (the lease holder of each)
with a time to live, and renews them every few seconds; every process reads the whole
board for the open tables page. A process that dies stops renewing, so its tables leave
the board when their time to live runs out: no ghost tables after a ``kill -9``.

With one process the board is a dictionary in memory (:class:`MemoryBoard`); with Redis
(:class:`RedisBoard`) each entry is a key with a time to live, and a sorted set indexes
the keys by when they run out, so reading the board is two round trips and never a scan.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import Any, Protocol

import msgspec
import redis.asyncio as aioredis
from redis.exceptions import RedisError

from reverie.bus.base import BusUnavailable
from reverie.bus.redis import Pipeliner

log = logging.getLogger("reverie.bus")

#: The sorted set of listed codes, scored by when (ms since the epoch) each runs out.
INDEX = "reverie:open"
#: An entry's key: ``reverie:open:<code>``.
ENTRY = "reverie:open:"

_ENCODE = msgspec.json.Encoder().encode
_DECODE = msgspec.json.Decoder(dict[str, Any]).decode


class Board(Protocol):
    """The listed tables of every process."""

    async def put(self, code: str, entry: dict[str, Any], ttl: float) -> None:
        """List ``code`` with ``entry`` for ``ttl`` seconds (replacing what was there)."""

    async def drop(self, code: str) -> None:
        """Take ``code`` off the board now."""

    async def entries(self) -> list[dict[str, Any]]:
        """Every entry whose time has not run out, in no particular order (raises
        :class:`~reverie.bus.base.BusUnavailable` if the broker cannot be reached)."""


class MemoryBoard:
    """One process: the board is a dictionary with deadlines on ``clock``."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._entries: dict[str, tuple[float, dict[str, Any]]] = {}

    async def put(self, code: str, entry: dict[str, Any], ttl: float) -> None:
        """Keep ``entry`` until ``ttl`` seconds from now."""
        self._entries[code] = (self.clock() + ttl, entry)

    async def drop(self, code: str) -> None:
        """Forget ``code``."""
        self._entries.pop(code, None)

    async def entries(self) -> list[dict[str, Any]]:
        """The entries still in time (the others are forgotten on the way)."""
        now = self.clock()
        for code in [c for c, (until, _) in self._entries.items() if until <= now]:
            del self._entries[code]
        return [entry for _, entry in self._entries.values()]


class RedisBoard:
    """The board in Redis: ``reverie:open:<code>`` keys set with a time to live (Redis
    forgets them itself) and the ``reverie:open`` index of codes by deadline, trimmed on
    every read (the index needs trimming because members of a set do not expire)."""

    def __init__(
        self,
        client: aioredis.Redis,
        pipeliner: Pipeliner | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.client = client
        self.pipeliner = pipeliner if pipeliner is not None else Pipeliner(client)
        # Only for the index's scores: Redis's own clock decides when a key expires.
        self.clock = clock

    async def put(self, code: str, entry: dict[str, Any], ttl: float) -> None:
        """SET PX and ZADD, in the same pipeline (one round trip with whatever else this
        turn of the loop sends)."""
        ms = max(1, int(ttl * 1000))
        until = int(self.clock() * 1000) + ms
        try:
            await asyncio.gather(
                self.pipeliner.call("SET", ENTRY + code, _ENCODE(entry), "PX", ms),
                self.pipeliner.call("ZADD", INDEX, until, code),
            )
        except (RedisError, OSError) as exc:
            # Not listed this round; the next renewal tries again.
            log.warning("table %s not listed (Redis: %s)", code, exc)

    async def drop(self, code: str) -> None:
        """DEL and ZREM."""
        try:
            await asyncio.gather(
                self.pipeliner.call("DEL", ENTRY + code),
                self.pipeliner.call("ZREM", INDEX, code),
            )
        except (RedisError, OSError) as exc:
            # The key runs out by itself within its time to live.
            log.warning("table %s not taken off the list (Redis: %s)", code, exc)

    async def entries(self) -> list[dict[str, Any]]:
        """Trim the index of codes past their deadline, read the codes left, then their
        keys (a key Redis already forgot reads as nothing)."""
        now = int(self.clock() * 1000)
        try:
            trimmed = self.pipeliner.call("ZREMRANGEBYSCORE", INDEX, "-inf", now)
            codes = await self.pipeliner.call("ZRANGE", INDEX, 0, -1)
            await trimmed
            if not codes:
                return []
            keys = [ENTRY + (c.decode() if isinstance(c, bytes) else str(c)) for c in codes]
            values = await self.pipeliner.call("MGET", *keys)
        except (RedisError, OSError) as exc:
            raise BusUnavailable(f"cannot read the open tables from Redis: {exc}") from None
        found = []
        for value in values:
            if value is None:
                continue
            try:
                found.append(_DECODE(value))
            except msgspec.DecodeError:
                log.warning("an open table's entry in Redis is not JSON; skipped")
        return found


def open_board(bus: object) -> Board:
    """The board that goes with ``bus``: in Redis when the bus talks to Redis (every
    process sees the same tables), in memory otherwise."""
    client = getattr(bus, "client", None)
    if client is None:
        return MemoryBoard()
    return RedisBoard(client, getattr(bus, "pipeliner", None))
