"""The Redis pieces on their own, against a real Redis: leases, shared rate limits, the
bus's messages, shared logs, "gone" processes and the resync after a lost connection."""

from __future__ import annotations

import asyncio
from typing import Any

import redis.asyncio as aioredis

from reverie.bus.leases import MARKER, RedisLeases
from reverie.bus.redis import RedisBus
from reverie.games import Limit
from reverie.web.limits import Registry
from reverie.web.shared_limits import RedisLimiter
from tests.aio import run_async
from tests.services import RedisServer


async def _until(check: Any, timeout: float = 5.0) -> None:
    end = asyncio.get_running_loop().time() + timeout
    while not check():
        if asyncio.get_running_loop().time() > end:
            raise AssertionError("condition not met in time")
        await asyncio.sleep(0.02)


async def _up_for_long(client: aioredis.Redis) -> None:
    """Say Redis has kept its keys since long ago (a lease taken just after it started
    empty waits out a lease first: see the next tests)."""
    await client.set(MARKER, 0)


def test_a_lease_has_one_holder_until_it_runs_out_or_is_released(redis_url: str) -> None:
    async def main() -> None:
        client = aioredis.Redis.from_url(redis_url)
        await _up_for_long(client)
        # Redis's clock runs the leases: the margins (half a lease) outlast a pause of
        # this process on a busy machine (the tests run in parallel).
        a = RedisLeases(client, "A", seconds=1.0)
        b = RedisLeases(client, "B", seconds=1.0)
        assert await a.take("ROOM1") and await a.take("ROOM1")  # taken, then renewed
        assert not await b.take("ROOM1")
        await asyncio.sleep(0.5)
        assert await a.take("ROOM1")  # renewal pushes the end back ...
        await asyncio.sleep(0.6)
        assert not await b.take("ROOM1")  # ... so it is still A's (the first end is past)
        await asyncio.sleep(1.0)  # A stopped renewing (died): it runs out
        assert await b.take("ROOM1") and not await a.take("ROOM1")
        await a.release("ROOM1")  # not A's to release
        assert not await a.take("ROOM1")
        await b.release("ROOM1")
        assert await a.take("ROOM1")
        assert a.moves == 2 and b.moves == 1
        await client.aclose()

    run_async(main())


def test_a_lease_taken_just_after_redis_forgot_its_keys_waits_out_a_lease(
    redis_url: str,
) -> None:
    # A Redis restarted without persistence forgets the leases while their holders still
    # count them down: a process taking one anew must not count it as its own before the
    # old holder's time is surely over (issue #24, item 6).
    async def main() -> None:
        client = aioredis.Redis.from_url(redis_url)
        await _up_for_long(client)
        a = RedisLeases(client, "A", seconds=0.5)
        b = RedisLeases(client, "B", seconds=0.5)
        assert await a.take("ROOM1") and a.holds("ROOM1")
        await client.flushdb()  # Redis forgets everything
        assert not await b.take("ROOM1")  # B has the key, but A may still count on it
        assert await client.get("reverie:lease:ROOM1") == b"B"
        assert a.holds("ROOM1") and not b.holds("ROOM1")
        assert not await a.take("ROOM1") and not a.holds("ROOM1")  # A learns it is B's
        await asyncio.sleep(0.5 * 1.1)  # the rest of a lease since Redis started empty
        assert await b.take("ROOM1") and b.holds("ROOM1")
        # A holder whose lease Redis forgot, taking it again first, goes on at once.
        await client.flushdb()
        assert await b.take("ROOM1") and b.holds("ROOM1")
        await client.aclose()

    run_async(main())


def test_a_lease_is_not_held_while_redis_is_unreachable() -> None:
    async def main() -> None:
        client = aioredis.Redis(port=1, socket_connect_timeout=0.2)
        assert not await RedisLeases(client, "A").take("ROOM1")
        await client.aclose()

    run_async(main())


def test_rate_limits_are_shared_by_every_process(redis_url: str) -> None:
    async def main() -> None:
        now = [1000.0]
        client = aioredis.Redis.from_url(redis_url)
        one = Registry(shared=RedisLimiter(client, clock=lambda: now[0]))
        two = Registry(shared=RedisLimiter(client, clock=lambda: now[0]))
        chat = Limit(rate=1, burst=3)
        seat = (("seat", "R", "t", "chat"), chat, 1.0)
        spent = [await (one, two)[i % 2].allow(seat) for i in range(5)]
        assert spent == [True, True, True, False, False]  # 3 in all, not 3 per process
        now[0] += 1.0
        assert await two.allow(seat) and not await one.allow(seat)
        # All or nothing: a full address bucket spends nothing from the seat's.
        address = (("address", "1.2.3.4", "chat"), Limit(rate=1, burst=1), 1.0)
        other = (("seat", "R", "u", "chat"), chat, 1.0)
        assert await one.allow(other, address)
        assert not await one.allow(other, address)
        assert await one.allow(other) and await one.allow(other)  # two of three left
        assert not await one.allow(other)
        # Lookups: peeking spends nothing.
        for _ in range(3):
            assert await one.lookups_allowed("5.6.7.8", 2)
        await one.missed("5.6.7.8", 2)
        await two.missed("5.6.7.8", 2)
        assert not await one.lookups_allowed("5.6.7.8", 2)
        await client.aclose()

    run_async(main())


def test_limits_let_frames_pass_when_redis_is_away() -> None:
    async def main() -> None:
        client = aioredis.Redis(port=1, socket_connect_timeout=0.2)
        limiter = RedisLimiter(client)
        assert await Registry(shared=limiter).allow((("k",), Limit(rate=1, burst=1), 5.0))
        assert limiter.errors == 1
        await client.aclose()

    run_async(main())


def test_the_bus_carries_messages_logs_and_goodbyes_between_processes(redis_url: str) -> None:
    async def main() -> None:
        a = RedisBus(redis_url, process_id="A", heartbeat=0.1)
        b = RedisBus(redis_url, process_id="B", heartbeat=0.1)
        got: list[tuple[str | None, dict[str, Any]]] = []
        b.on_message(lambda room, m: got.append((room, m)))
        a.on_message(lambda room, m: None)
        await a.start()
        await b.start()
        await b.watch("ROOM1")
        await a.broadcast("ROOM1", {"k": "ev", "v": 2})
        await a.broadcast("ROOM2", {"k": "ev", "v": 9})  # B does not watch ROOM2
        await b.broadcast("ROOM1", {"k": "ev", "v": 3})  # its own: not handed back
        await _until(lambda: any(m.get("v") == 2 for _, m in got))
        await asyncio.sleep(0.1)
        assert [(r, m["v"]) for r, m in got if m.get("k") == "ev"] == [("ROOM1", 2)]
        assert got[0][1]["pid"] == "A"
        assert "A" in b.peers()
        # Shared logs: positions count from one; readers start anywhere.
        assert [await a.append_log("ROOM1", "canvas:1", e) for e in "xyz"] == [1, 2, 3]
        assert await b.read_log("ROOM1", "canvas:1", 1) == ["y", "z"]
        # A goes away politely: B hears it at once.
        await a.close()
        await _until(lambda: "gone" in [m.get("k") for r, m in got if r is None])
        assert (None, {"k": "gone", "pid": "A"}) in got
        await b.close()

    run_async(main())


def test_a_process_that_goes_silent_is_forgotten(redis_url: str) -> None:
    async def main() -> None:
        a = RedisBus(redis_url, process_id="A", heartbeat=0.1)
        b = RedisBus(redis_url, process_id="B", heartbeat=0.1)
        gone: list[str] = []
        b.on_message(lambda room, m: gone.append(m["pid"]) if m.get("k") == "gone" else None)
        a.on_message(lambda room, m: None)
        await a.start()
        await b.start()
        await _until(lambda: "A" in b.peers())
        for task in a._tasks:  # A dies: no beat, no goodbye
            task.cancel()
        # (A beat already on its way when A died may arrive late on a loaded machine
        # and bring A back for one more silence: "gone" then comes twice.)
        await _until(lambda: "A" in gone and "A" not in b.peers(), timeout=3)
        assert set(gone) == {"A"}
        await b.close()
        await a.client.aclose()

    run_async(main())


def test_after_losing_redis_the_bus_asks_for_every_room_to_be_reloaded(
    redis_server: RedisServer,
) -> None:
    # A server of the test's own: dropping every subscriber of a shared one would drop
    # other tests' (and other people's) too.
    redis_url = redis_server.url

    async def main() -> None:
        b = RedisBus(redis_url, process_id="B", heartbeat=0.1)
        got: list[tuple[str | None, dict[str, Any]]] = []
        b.on_message(lambda room, m: got.append((room, m)))
        await b.start()
        await b.watch("ROOM1")
        await b.watch("ROOM2")
        admin = aioredis.Redis.from_url(redis_url)
        await admin.client_kill_filter(_type="pubsub")  # the subscription drops
        await _until(lambda: {r for r, m in got if m.get("k") == "resync"} == {"ROOM1", "ROOM2"})
        # And it listens again.
        sender = RedisBus(redis_url, process_id="C")
        await sender.broadcast("ROOM1", {"k": "ev", "v": 5})
        await _until(lambda: any(m.get("v") == 5 for _, m in got))
        await b.check()
        for bus in (b, sender):
            await bus.close()
        await admin.aclose()

    run_async(main())


def test_what_a_turn_of_the_loop_sends_goes_in_one_round_trip_in_order(redis_url: str) -> None:
    async def main() -> None:
        a = RedisBus(redis_url, process_id="A", heartbeat=60)
        b = RedisBus(redis_url, process_id="B", heartbeat=60)
        got: list[dict[str, Any]] = []
        b.on_message(lambda room, m: got.append(m))
        a.on_message(lambda room, m: None)
        await a.start()
        await b.start()
        await b.watch("ROOM1")
        await _up_for_long(a.client)
        leases = RedisLeases(a.client, "A", seconds=5, pipeliner=a.pipeliner)
        rooms = [f"ROOM{i}" for i in range(50)]
        before = a.pipeliner.round_trips
        # Fifty strokes (log + news), fifty broadcasts and fifty lease renewals at once.
        shared, _, held = await asyncio.gather(
            asyncio.gather(
                *(a.share("ROOM1", "canvas:1", f"e{i}", {"k": "side", "i": i}) for i in range(50))
            ),
            asyncio.gather(*(a.broadcast("ROOM1", {"k": "ev", "v": i}) for i in range(50))),
            leases.take_many(rooms),
        )
        # One pipeline for the first turn's commands; none is sent one by one.
        assert a.pipeliner.round_trips - before <= 2
        assert shared == list(range(1, 51)) and held == [True] * 50
        await _until(lambda: len(got) == 100)
        # Each stroke's news carries its position in the log, in the order they were made.
        assert [(m["i"], m["n"]) for m in got if m["k"] == "side"] == [
            (i, i + 1) for i in range(50)
        ]
        assert [m["v"] for m in got if m["k"] == "ev"] == list(range(50))
        assert await b.read_log("ROOM1", "canvas:1") == [f"e{i}" for i in range(50)]
        # After a restart Redis forgets its scripts: they are sent whole again.
        await a.client.script_flush()
        assert await a.share("ROOM1", "canvas:1", "late", {"k": "side", "i": 50}) == 51
        assert await leases.take_many(rooms[:2]) == [True, True]
        await leases.release_many(rooms)
        assert await a.client.exists(*(f"reverie:lease:{r}" for r in rooms)) == 0
        await a.close()
        await b.close()

    run_async(main())
