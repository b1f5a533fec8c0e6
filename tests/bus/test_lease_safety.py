"""Leases without Redis's help: a holder that cannot reach Redis goes on until its lease
would run out, and never longer (issue #24, item 6). A simulated Redis on a simulated
clock, with processes whose clocks run at their own rates and a network that loses
commands, loses replies, delays both and goes away for a while."""

from __future__ import annotations

import asyncio
import functools
import heapq
import random
from collections.abc import Callable
from typing import Any

from redis.exceptions import ConnectionError as RedisConnectionError

from reverie.bus.leases import _RELEASE, _TAKE, DRIFT, MARKER, RedisLeases
from reverie.bus.redis import Script
from tests.aio import run_async

TAKE_SHA = Script(_TAKE).sha
RELEASE_SHA = Script(_RELEASE).sha
SECONDS = 8.0


class FakeRedis:
    """The two lease scripts, on keys that expire on the true clock; ``restart()``
    forgets every key, as a Redis without persistence does."""

    def __init__(self) -> None:
        self.keys: dict[str, tuple[str, float]] = {}  # key → (value, expires at)

    restarted = -1e9  # when it last forgot everything (true time)

    def restart(self, now: float) -> None:
        self.keys.clear()
        self.restarted = now

    def get(self, key: str, now: float) -> str | None:
        entry = self.keys.get(key)
        if entry is None or entry[1] <= now:
            self.keys.pop(key, None)
            return None
        return entry[0]

    def holder(self, key: str, now: float) -> str | None:
        return self.get(key, now)

    def run(self, command: tuple[Any, ...], now: float) -> Any:
        _, sha, nkeys, *rest = command
        keys, args = rest[:nkeys], rest[nkeys:]
        holder = self.get(keys[0], now)
        pid = args[0]
        if sha == TAKE_SHA:
            since = self.get(MARKER, now)
            if since is None:
                since = str(now)
                self.keys[MARKER] = (since, float("inf"))
            age = int((now - float(since)) * 1000)
            ttl = int(args[1]) / 1000
            if holder == pid:
                self.keys[keys[0]] = (pid, now + ttl)
                return [1, age]
            if holder is None:
                self.keys[keys[0]] = (pid, now + ttl)
                return [2, age]
            return [0, age]
        assert sha == RELEASE_SHA
        if holder == pid:
            del self.keys[keys[0]]
            return 1
        return 0


class Network:
    """Time, Redis and what is on the way between them: ``at(t, f)`` runs ``f`` at the
    true time ``t``."""

    def __init__(self, rng: random.Random) -> None:
        self.now = 0.0
        self.rng = rng
        self.redis = FakeRedis()
        self.down_until = 0.0  # Redis unreachable until then
        self.lose_command = 0.05
        self.lose_reply = 0.05
        self._events: list[tuple[float, int, Callable[[], None]]] = []
        self._seq = 0

    def at(self, when: float, action: Callable[[], None]) -> None:
        self._seq += 1
        heapq.heappush(self._events, (when, self._seq, action))

    def restart_redis(self) -> None:
        self.redis.restart(self.now)

    def go_away(self, seconds: float) -> None:
        self.down_until = self.now + seconds

    def delay(self) -> float:
        # Mostly quick, now and then very slow (a stalled connection).
        return self.rng.expovariate(20) if self.rng.random() < 0.95 else self.rng.uniform(1, 6)

    def send(self, command: tuple[Any, ...], reply: asyncio.Future[Any]) -> None:
        def fail() -> None:
            if not reply.done():
                reply.set_exception(RedisConnectionError("connection lost"))

        if self.now < self.down_until or self.rng.random() < self.lose_command:
            self.at(self.now + self.delay(), fail)  # never reached Redis
            return

        def arrive() -> None:
            result = self.redis.run(command, self.now)

            def answer() -> None:
                if not reply.done():
                    reply.set_result(result)

            lost = self.rng.random() < self.lose_reply  # done, but nobody hears it
            self.at(self.now + self.delay(), fail if lost else answer)

        self.at(self.now + self.delay(), arrive)

    def next_time(self) -> float | None:
        return self._events[0][0] if self._events else None

    def step(self) -> None:
        self.now, _, action = heapq.heappop(self._events)
        action()


class FakePipeliner:
    """What RedisLeases sends, through the simulated network."""

    def __init__(self, network: Network) -> None:
        self.network = network

    def call(self, *command: Any, script: Script | None = None) -> asyncio.Future[Any]:
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self.network.send(command, future)
        return future


class Process:
    """A server process renewing one room's lease every quarter lease (by its clock,
    which runs at ``rate`` times the true one), now and then giving it up."""

    def __init__(self, name: str, network: Network, rate: float) -> None:
        self.name = name
        self.network = network
        self.rate = rate
        self.offset = network.rng.uniform(0, 1000)
        self.leases = RedisLeases(
            None,  # type: ignore[arg-type]
            name,
            seconds=SECONDS,
            pipeliner=FakePipeliner(network),  # type: ignore[arg-type]
            clock=self.clock,
        )
        self.busy = False
        self.held_time = 0.0

    def clock(self) -> float:
        return self.offset + self.rate * self.network.now

    def schedule(self) -> None:
        self.network.at(self.network.now + SECONDS / 4 / self.rate, self.tick)

    def tick(self) -> None:
        rng = self.network.rng
        if not self.busy:
            self.busy = True
            if self.leases.holds("ROOM") and rng.random() < 0.02:
                work = self.leases.release("ROOM")
            else:
                work = self._take()
            task = asyncio.get_running_loop().create_task(work)
            task.add_done_callback(lambda _: setattr(self, "busy", False))
        self.schedule()

    async def _take(self) -> None:
        await self.leases.take("ROOM")


async def _settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


def _simulate(seed: int, duration: float = 400.0) -> list[Process]:
    async def main() -> list[Process]:
        rng = random.Random(seed)
        network = Network(rng)
        # Clocks 5% fast or slow: far worse than real ones (parts per million).
        procs = [Process(f"P{i}", network, rng.uniform(0.95, 1.05)) for i in range(3)]
        for p in procs:
            network.at(rng.uniform(0, 1), p.tick)
        # Look often, not only when something happens.
        for i in range(int(duration / 0.2)):
            network.at(i * 0.2, lambda: None)
        # Outages of Redis, some shorter than a lease, some longer; some of them end
        # with a Redis that forgot every key.
        t = 0.0
        while t < duration:
            t += rng.uniform(10, 60)
            length = rng.uniform(0.5, 2 * SECONDS)
            network.at(t, functools.partial(network.go_away, length))
            if rng.random() < 0.3:
                network.at(t + length / 2, network.restart_redis)
        last = 0.0
        while (when := network.next_time()) is not None and when < duration:
            believers = [p for p in procs if p.leases.holds("ROOM")]
            for p in believers:
                p.held_time += when - last
            last = when
            network.step()
            await _settle()
            believers = [p for p in procs if p.leases.holds("ROOM")]
            assert len(believers) <= 1, (seed, network.now, [p.name for p in believers])
            key_holder = network.redis.holder("reverie:lease:ROOM", network.now)
            if believers and network.now - network.redis.restarted > SECONDS:
                # Whoever believes it holds the lease holds it in Redis, unexpired (but
                # for the rest of a lease after Redis forgot every key).
                assert key_holder == believers[0].name, (seed, network.now, key_holder)
        return procs

    return run_async(main())


def test_no_two_processes_ever_believe_they_hold_a_lease() -> None:
    total = 0.0
    for seed in range(30):
        procs = _simulate(seed)
        total += sum(p.held_time for p in procs)
    # Not vacuous: someone held the lease most of the time (outages, losses and
    # releases included).
    assert total > 0.6 * 30 * 400, total


def test_a_holder_cut_off_from_redis_runs_on_until_its_lease_would_run_out() -> None:
    async def main() -> None:
        network = Network(random.Random(1))
        network.lose_command = network.lose_reply = 0.0
        network.delay = lambda: 0.001  # type: ignore[method-assign]
        network.redis.keys[MARKER] = ("-1000", float("inf"))  # Redis up for long
        holder = Process("A", network, 1.0)
        other = Process("B", network, 1.0)

        async def take(p: Process) -> bool:
            task = asyncio.get_running_loop().create_task(p.leases.take("ROOM"))
            await _settle()
            while not task.done():
                network.step()
                await _settle()
            return task.result()

        assert await take(holder)
        renewed = network.now
        network.down_until = network.now + 100  # Redis goes away
        # Still renewing every quarter lease, and failing: it runs on meanwhile ...
        while network.now + 0.5 < renewed + SECONDS * (1 - DRIFT) - 0.1:
            network.at(network.now + 0.5, lambda: None)
            network.step()
            assert await take(holder) and holder.leases.holds("ROOM")
        # ... and stops before the key can expire in Redis.
        network.at(renewed + SECONDS * (1 - DRIFT) + 0.01, lambda: None)
        network.step()
        assert not holder.leases.holds("ROOM") and not await take(holder)
        network.down_until = 0.0
        assert not await take(other)  # the key was still A's
        network.at(renewed + SECONDS + 0.01, lambda: None)
        network.step()
        assert await take(other) and not holder.leases.holds("ROOM")

    run_async(main())
