"""One contract for every board (the public tables shared by the processes): what the
open tables page relies on, over the in-memory board and over Redis, where two
processes' boards see one list."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from reverie.bus import Bus
from reverie.bus.base import open_bus
from reverie.bus.board import Board, MemoryBoard, open_board
from tests.aio import run_async


def run(url: str, body: Callable[[Board, Board, bool], Awaitable[None]]) -> None:
    """Run ``body`` with the boards of two processes on ``url`` (the same board for
    the memory bus, which is one process) and whether they share one list."""

    async def main() -> None:
        buses: list[Bus] = [open_bus(url, process_id="A"), open_bus(url, process_id="B")]
        for bus in buses:
            bus.on_message(lambda room, m: None)
            await bus.start()
        try:
            a = open_board(buses[0])
            shared = buses[0].shared
            b = open_board(buses[1]) if shared else a
            for code in ("T1", "T2", "T3"):  # a board left from an earlier test
                await a.drop(code)
            await body(a, b, shared)
        finally:
            for bus in buses:
                await bus.close()

    run_async(main())


def _codes(entries: list[dict[str, object]]) -> set[object]:
    return {e["code"] for e in entries}


def test_a_table_put_by_one_process_is_read_by_every_process(bus_url: str) -> None:
    async def body(a: Board, b: Board, shared: bool) -> None:
        await a.put("T1", {"code": "T1", "game": "dixit", "people": 2}, ttl=30)
        await b.put("T2", {"code": "T2", "game": "visual", "people": 1}, ttl=30)
        for board in (a, b):
            entries = await board.entries()
            assert _codes(entries) == {"T1", "T2"}
            assert {"code": "T1", "game": "dixit", "people": 2} in entries
        # Put again: the entry is replaced, not listed twice.
        await a.put("T1", {"code": "T1", "game": "dixit", "people": 3}, ttl=30)
        entries = await b.entries()
        assert [e["people"] for e in entries if e["code"] == "T1"] == [3]
        # Dropped by anyone: gone for everyone; dropping twice is no error.
        await b.drop("T1")
        await b.drop("T1")
        assert _codes(await a.entries()) == {"T2"}
        await a.drop("T2")
        assert await b.entries() == []

    run(bus_url, body)


def test_an_entry_not_renewed_runs_out(bus_url: str) -> None:
    """A process that dies stops renewing: its tables leave by their time to live."""

    async def body(a: Board, b: Board, shared: bool) -> None:
        await a.put("T1", {"code": "T1"}, ttl=0.3)
        await a.put("T2", {"code": "T2"}, ttl=30)
        assert _codes(await b.entries()) == {"T1", "T2"}
        await asyncio.sleep(0.5)
        assert _codes(await b.entries()) == {"T2"}
        # Put again, it is listed again (a renewal sets a new time to live).
        await a.put("T1", {"code": "T1"}, ttl=30)
        assert _codes(await b.entries()) == {"T1", "T2"}
        await a.drop("T1")
        await a.drop("T2")

    run(bus_url, body)


def test_the_memory_board_runs_on_its_clock() -> None:
    async def main() -> None:
        now = [100.0]
        board = MemoryBoard(clock=lambda: now[0])
        await board.put("T1", {"code": "T1"}, ttl=8)
        now[0] += 7.9
        assert _codes(await board.entries()) == {"T1"}
        now[0] += 0.2
        assert await board.entries() == []

    run_async(main())
