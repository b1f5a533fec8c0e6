"""Room leases: which process runs a room's timers, bots and stand-ins.

Every process may take commands for any room (the event store refuses a second write of
the same version), but a phase timer or a bot must act once, not once per process. The
process holding a room's lease does; it renews the lease well before it expires, and when
it dies the lease runs out and another process serving the room takes it. The lease only
decides who *tries*: every write is still fenced by the version it expects, so a process
that lost its lease without noticing cannot write over the new holder's moves.

A holder that cannot reach Redis goes on for as long as its lease surely lasts: Redis set
the key's time to live when the command that took or renewed it *arrived*, so nobody can
take it before ``seconds`` after this process *sent* that command. The holder counts from
the sending on its own monotonic clock and stops :data:`DRIFT` of the lease earlier
(clock rates differ; the event loop may be late). So a short Redis outage leaves the
room's timers and bots running, and the lease is never believed held by two processes.

That reasoning needs Redis to keep a key until it runs out. A Redis restarted without
persistence (or flushed) forgets every lease at once, while their holders still count
theirs down. So Redis also keeps a marker of when it last started empty; a process that
takes a lease nobody held, within a lease's time of that, waits out the rest of that
time before it counts the lease as its own (unless it held the lease itself already).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import Any, Protocol

import redis.asyncio as aioredis

from reverie.bus.redis import Pipeliner, Script

log = logging.getLogger("reverie.bus")

#: How long a lease lasts without renewal, seconds: a dead holder's rooms move on after
#: at most this long (plus one renewal round of the taker).
LEASE_SECONDS = 8.0
#: The share of a lease its holder gives up at the end when it could not renew it: the
#: holder's clock may run slower than Redis's, and its event loop may act a little late.
DRIFT = 0.1
#: Redis's marker of when it last started with no keys (see the module's docstring).
MARKER = "reverie:leases-since"

# KEYS: the lease, the marker of Redis's memory; ARGV: the process id, the lease in ms.
# Returns {outcome, age}: 1 renewed, 2 taken (nobody held it), 0 another holds it; and
# how long (ms) Redis has kept its keys: the marker is set by the first take after Redis
# started empty (a restart without persistence, a flush), when leases may have vanished
# before they ran out.
_TAKE = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local since = tonumber(redis.call('GET', KEYS[2]))
if not since then
  since = now
  redis.call('SET', KEYS[2], now)
end
local age = now - since
local holder = redis.call('GET', KEYS[1])
if holder == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return {1, age}
end
if not holder then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return {2, age}
end
return {0, age}
"""

_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
"""


class Leases(Protocol):
    """Per-room leases held by this process."""

    #: Seconds a lease lasts without renewal.
    seconds: float

    async def take(self, room: str) -> bool:
        """Take the room's lease or renew it if held; True if this process holds it now
        (False when another process does or the broker cannot be reached)."""

    async def release(self, room: str) -> None:
        """Give the lease up (if held)."""

    def holds(self, room: str) -> bool:
        """Whether this process surely holds the room's lease at this moment, by its own
        clock (no round trip): what a timer or a bot checks before it acts."""

    async def take_many(self, rooms: list[str]) -> list[bool]:
        """:meth:`take` for each room, at once; whether each is held now."""

    async def release_many(self, rooms: list[str]) -> None:
        """:meth:`release` for each room, at once."""


class LocalLeases:
    """One process holds every lease."""

    def __init__(self, seconds: float = LEASE_SECONDS) -> None:
        self.seconds = seconds

    async def take(self, room: str) -> bool:
        """Always held."""
        return True

    async def release(self, room: str) -> None:
        """Nothing to give up."""

    def holds(self, room: str) -> bool:
        """Always held."""
        return True

    async def take_many(self, rooms: list[str]) -> list[bool]:
        """Always held."""
        return [True] * len(rooms)

    async def release_many(self, rooms: list[str]) -> None:
        """Nothing to give up."""


class RedisLeases:
    """Leases as Redis keys ``reverie:lease:<code>`` holding the process id, set with NX
    and a time to live, renewed and released only by their holder (a Lua script makes
    each check-and-set one step)."""

    def __init__(
        self,
        client: aioredis.Redis,
        process_id: str,
        seconds: float = LEASE_SECONDS,
        pipeliner: Pipeliner | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.client = client
        self.process_id = process_id
        self.seconds = seconds
        self.moves = 0  # leases this process took that nobody held
        self._failing = False  # one warning per outage, not one per room and renewal
        self.clock = clock
        # Until when (on ``clock``) each lease held here surely lasts.
        self._until: dict[str, float] = {}
        # Rooms released while a take was on its way (its reply must not revive them),
        # kept only while takes are in flight.
        self._in_flight = 0
        self._released: set[str] = set()
        # From when (on ``clock``) a lease taken just after Redis lost its keys counts.
        self._from: dict[str, float] = {}
        # The bus's pipeliner: renewals go out with everything else in one round trip.
        self.pipeliner = pipeliner if pipeliner is not None else Pipeliner(client)
        self._take = Script(_TAKE)
        self._release = Script(_RELEASE)

    def _call(
        self, script: Script, room: str, *args: Any, marker: bool = False
    ) -> asyncio.Future[Any]:
        keys = [f"reverie:lease:{room}", *([MARKER] if marker else [])]
        command = script.command(keys, list(args))
        return self.pipeliner.call(*command, script=script)

    async def take(self, room: str) -> bool:
        """SET NX PX, or PEXPIRE when already ours."""
        return (await self.take_many([room]))[0]

    async def take_many(self, rooms: list[str]) -> list[bool]:
        """Take or renew each room's lease, every command in the same pipeline. A room
        whose command failed (Redis away) counts as held while its last lease lasts."""
        ttl = int(self.seconds * 1000)
        # Before the commands leave: Redis starts the time to live later than this.
        until = self.clock() + self.seconds * (1 - DRIFT)
        calls = [self._call(self._take, room, self.process_id, ttl, marker=True) for room in rooms]
        self._in_flight += 1
        try:
            replies = await asyncio.gather(*calls, return_exceptions=True)
        finally:
            self._in_flight -= 1
        released = self._released
        if not self._in_flight:
            self._released = set()
        failed = next((r for r in replies if isinstance(r, Exception)), None)
        if failed is not None:
            if not self._failing:
                log.warning(
                    "leases not renewed while Redis is away (%s): their rooms run on "
                    "until each lease would run out",
                    failed,
                )
            self._failing = True
        elif self._failing:
            log.warning("leases renewed again: Redis is back")
            self._failing = False
        held = []
        for room, reply in zip(rooms, replies, strict=True):
            if isinstance(reply, BaseException):
                # Not renewed, but nobody else can have it before the last one runs out.
                held.append(self.holds(room))
                continue
            outcome, age = int(reply[0]), int(reply[1]) / 1000
            if outcome == 2:
                self.moves += 1
                if age < self.seconds and not self.holds(room):
                    # Redis started empty less than a lease ago: whoever held this lease
                    # before may still count on it for the rest of that lease.
                    self._from[room] = self.clock() + (self.seconds - age) * (1 + DRIFT)
            if outcome and room not in released:
                self._until[room] = until
                held.append(self.holds(room))
            else:
                self._until.pop(room, None)
                self._from.pop(room, None)
                held.append(False)
        return held

    def holds(self, room: str) -> bool:
        """Whether the lease taken or renewed last is surely still this process's (and
        surely nobody else's any more)."""
        until = self._until.get(room)
        if until is None:
            return False
        now = self.clock()
        if now >= until:
            del self._until[room]
            self._from.pop(room, None)
            return False
        start = self._from.get(room)
        if start is None:
            return True
        if now < start:
            return False
        del self._from[room]
        return True

    async def release(self, room: str) -> None:
        """Delete the key if it is still ours."""
        await self.release_many([room])

    async def release_many(self, rooms: list[str]) -> None:
        """Delete each room's key that is still ours, in one pipeline."""
        for room in rooms:  # given up now, whether or not Redis hears of it
            self._until.pop(room, None)
            self._from.pop(room, None)
            if self._in_flight:
                self._released.add(room)
        calls = [self._call(self._release, room, self.process_id) for room in rooms]
        replies = await asyncio.gather(*calls, return_exceptions=True)
        failed = [
            (room, r) for room, r in zip(rooms, replies, strict=True) if isinstance(r, Exception)
        ]
        if failed:
            room, reply = failed[0]
            log.warning("lease of %s and %d more not released (they run out): %s",
                        room, len(failed) - 1, reply)  # fmt: skip
