"""One contract for every bus: what the room service relies on. Each test runs against
the in-memory bus and the Redis bus; what only a shared bus does (carrying news to the
other processes) is checked where ``shared`` says the bus does it."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from reverie.bus import Bus, BusUnavailable
from reverie.bus.base import MemoryBus, open_bus
from reverie.rooms.messages import (
    Event,
    Head,
    Message,
    PresenceSaid,
    Side,
    Who,
    decode_message,
    encode_message,
)
from tests.aio import run_async

Heard = list[tuple[str | None, dict[str, Any]]]


async def _until(check: Callable[[], bool], timeout: float = 5.0) -> None:
    end = asyncio.get_running_loop().time() + timeout
    while not check():
        if asyncio.get_running_loop().time() > end:
            raise AssertionError("condition not met in time")
        await asyncio.sleep(0.02)


def run(url: str, body: Callable[[Bus, Bus, Heard], Awaitable[None]]) -> None:
    """Run ``body`` with two processes' buses on ``url`` (A and B; what B hears from the
    others is in the list)."""

    async def main() -> None:
        a = open_bus(url, process_id="A")
        b = open_bus(url, process_id="B")
        heard: Heard = []
        a.on_message(lambda room, m: None)
        b.on_message(lambda room, m: heard.append((room, m)))
        await a.start()
        await b.start()
        try:
            await body(a, b, heard)
        finally:
            await a.close()
            await b.close()

    run_async(main())


def test_a_delivery_reaches_the_rooms_subscribers_here_at_once(bus_url: str) -> None:
    async def body(a: Bus, b: Bus, heard: Heard) -> None:
        got: list[tuple[str, dict[str, Any]]] = []

        def one(m: dict[str, Any]) -> None:
            got.append(("one", m))

        def two(m: dict[str, Any]) -> None:
            got.append(("two", m))

        a.subscribe("ROOM1", one)
        a.subscribe("ROOM1", two)
        a.subscribe("ROOM2", one)
        a.deliver("ROOM1", {"kind": "state", "version": 3})
        # A direct call: delivered before deliver returns, to each subscriber once.
        assert got == [
            ("one", {"kind": "state", "version": 3}),
            ("two", {"kind": "state", "version": 3}),
        ]
        got.clear()
        a.unsubscribe("ROOM1", two)
        a.unsubscribe("ROOM1", two)  # twice: nothing to remove, no error
        a.deliver("ROOM1", {"kind": "chat"})
        a.deliver("ROOM3", {"kind": "chat"})  # nobody subscribed: nothing happens
        assert got == [("one", {"kind": "chat"})]
        # Delivery stays in its process: B's subscribers hear nothing of A's.
        b.subscribe("ROOM1", two)
        a.deliver("ROOM1", {"kind": "state", "version": 4})
        await asyncio.sleep(0.1)
        assert [who for who, _ in got] == ["one", "one"]

    run(bus_url, body)


def test_a_shared_log_counts_from_one_and_reads_from_anywhere(bus_url: str) -> None:
    async def body(a: Bus, b: Bus, heard: Heard) -> None:
        assert [await a.append_log("ROOM1", "canvas:1", e) for e in "xyz"] == [1, 2, 3]
        assert await a.read_log("ROOM1", "canvas:1") == ["x", "y", "z"]
        assert await a.read_log("ROOM1", "canvas:1", 2) == ["z"]
        assert await a.read_log("ROOM1", "canvas:1", 3) == []
        # Logs are kept apart by room and by name.
        assert await a.append_log("ROOM1", "canvas:2", "other turn") == 1
        assert await a.append_log("ROOM2", "canvas:1", "other room") == 1
        assert await a.read_log("ROOM1", "canvas:2") == ["other turn"]
        assert await a.read_log("ROOM9", "canvas:1") == []
        if a.shared:  # every process reads the same log
            assert await b.read_log("ROOM1", "canvas:1", 1) == ["y", "z"]

    run(bus_url, body)


def test_shares_land_in_the_order_they_were_made(bus_url: str) -> None:
    async def body(a: Bus, b: Bus, heard: Heard) -> None:
        side = encode_message(Side(log="canvas:1", ch="canvas", x="e"))
        futures = [a.share_soon("ROOM1", "canvas:1", f"e{i}", side) for i in range(20)]
        assert await asyncio.gather(*futures) == list(range(1, 21))
        assert await a.share("ROOM1", "canvas:1", "e20", side) == 21
        assert await a.read_log("ROOM1", "canvas:1") == [f"e{i}" for i in range(21)]

    run(bus_url, body)


def test_a_broadcast_reaches_the_other_processes_watching_the_room(bus_url: str) -> None:
    async def body(a: Bus, b: Bus, heard: Heard) -> None:
        assert a.process_id == "A" and b.process_id == "B"
        await b.watch("ROOM1")
        await b.watch("ROOM1")  # twice: no error, one subscription
        await a.broadcast("ROOM1", encode_message(Head(v=2)))
        await a.broadcast("ROOM2", encode_message(Head(v=9)))  # B does not watch ROOM2
        await b.broadcast("ROOM1", encode_message(Head(v=3)))  # its own: not handed back
        if a.shared:
            await _until(lambda: len(heard) >= 1)
        await asyncio.sleep(0.1)
        expected = [("ROOM1", {"k": "head", "v": 2, "pid": "A"})] if a.shared else []
        assert heard == expected
        heard.clear()
        await b.unwatch("ROOM1")
        await b.unwatch("ROOM1")
        await a.broadcast("ROOM1", encode_message(Head(v=4)))
        await asyncio.sleep(0.1)
        assert heard == []

    run(bus_url, body)


def test_a_shares_news_carries_its_position_to_the_others(bus_url: str) -> None:
    async def body(a: Bus, b: Bus, heard: Heard) -> None:
        await b.watch("ROOM1")
        side = Side(log="canvas:1", ch="canvas", x="e")
        for i in range(3):
            await a.share("ROOM1", "canvas:1", f"e{i}", encode_message(side))
        if a.shared:
            await _until(lambda: len(heard) == 3)
        got = [decode_message(m) for _, m in heard]
        assert got == (
            [Side(log="canvas:1", ch="canvas", x="e", n=n, pid="A") for n in (1, 2, 3)]
            if a.shared
            else []
        )

    run(bus_url, body)


MESSAGES: list[Message] = [
    Event(v=7, at=12.5, e='{"type":"chatted"}'),
    Head(v=3),
    PresenceSaid(tokens={"t1": 2}, spectators=1),
    PresenceSaid(tokens={}, spectators=0),
    Who(),
]


def test_every_message_crosses_the_bus_as_it_was_sent(bus_url: str) -> None:
    async def body(a: Bus, b: Bus, heard: Heard) -> None:
        await b.watch("ROOM1")
        for message in MESSAGES:
            await a.broadcast("ROOM1", encode_message(message))
        if not a.shared:
            await asyncio.sleep(0.1)
            assert heard == []  # nobody else to tell
            return
        await _until(lambda: len(heard) == len(MESSAGES))
        for (room, data), sent in zip(heard, MESSAGES, strict=True):
            assert room == "ROOM1"
            got = decode_message(data)
            assert got.pid == "A"
            got.pid = ""
            assert got == sent

    run(bus_url, body)


def test_a_bus_that_answers_passes_its_check_and_closes_cleanly(bus_url: str) -> None:
    async def body(a: Bus, b: Bus, heard: Heard) -> None:
        await a.check()
        got: list[dict[str, Any]] = []
        a.subscribe("ROOM1", got.append)
        await a.close()
        a.deliver("ROOM1", {"kind": "state"})  # closed: its subscribers are forgotten
        assert got == []

    run(bus_url, body)


def test_the_url_chooses_the_bus() -> None:
    bus = open_bus("memory://", process_id="P")
    assert isinstance(bus, MemoryBus) and not bus.shared and bus.process_id == "P"
    assert open_bus("redis://localhost:1/0").shared
    with pytest.raises(ValueError, match="memory:// or redis://"):
        open_bus("kafka://broker")


def test_a_redis_bus_that_cannot_reach_redis_says_so_in_one_line() -> None:
    async def main() -> None:
        bus = open_bus("redis://127.0.0.1:1/0", process_id="P")
        with pytest.raises(BusUnavailable, match="cannot reach Redis"):
            await bus.start()
        await bus.close()

    run_async(main())
