"""A client too slow for the strokes gets one fresh picture, not an endless backlog."""

from __future__ import annotations

import asyncio
from typing import Any

from reverie.games import EVERYONE
from reverie.rooms.deliveries import SideFrame
from reverie.web.ws import MAX_PENDING_DRAWS, MAX_PENDING_REPLIES, Connection
from tests.rooms.test_service import run


class StubRoom:
    """Just enough of a live room for a spectator's connection."""

    class state:
        version = 1

        @staticmethod
        def team_of(seat: int | None) -> int | None:
            return None


class StubService:
    def __init__(self) -> None:
        self.canvas_asked = 0

    def channel_frames(self, live: Any, admits: Any, only: Any = None) -> list[dict[str, Any]]:
        self.canvas_asked += 1
        return [{"type": "canvas", "game": 1, "turn": 1, "canvases": {"0": [[0, 1, 1, 5, 5]]}}]

    def snapshot_json(self, live: Any, seat: int | None) -> bytes:
        return b'{"type":"state"}'


class SlowSocket:
    """A socket whose sends wait until the test lets them through."""

    def __init__(self) -> None:
        self.sent: list[str] = []
        self.gate = asyncio.Event()

    async def send_text(self, text: str) -> None:
        await self.gate.wait()
        self.sent.append(text)


def test_a_slow_client_gets_the_whole_picture_once_instead_of_a_backlog() -> None:
    async def main() -> None:
        ws, service = SlowSocket(), StubService()
        conn = Connection(ws, service, StubRoom(), 4096)  # type: ignore[arg-type]
        writer = asyncio.create_task(conn.writer())
        stroke = SideFrame(EVERYONE, 0, '{"type":"draw"}')
        conn.on_bus(stroke)
        await asyncio.sleep(0)  # the writer takes the first frame and blocks on the socket
        for _ in range(3 * MAX_PENDING_DRAWS):
            conn.on_bus(stroke)
            assert len(conn.side_out) <= MAX_PENDING_DRAWS
        assert conn.side_stale
        ws.gate.set()
        for _ in range(20):
            await asyncio.sleep(0)
        conn.closed = True
        conn.wake.set()
        await asyncio.sleep(0)
        writer.cancel()
        # The first stroke, then one canvas frame with the picture, and nothing queued.
        assert ws.sent[0] == '{"type":"draw"}'
        assert ws.sent[1].startswith('{"type":"canvas"') and service.canvas_asked == 1
        assert len(ws.sent) == 2 and not conn.side_out
        # Strokes flow again once the client keeps up.
        conn.closed = False
        writer = asyncio.create_task(conn.writer())
        conn.on_bus(stroke)
        for _ in range(5):
            await asyncio.sleep(0)
        assert ws.sent[-1] == '{"type":"draw"}'
        conn.closed = True
        conn.wake.set()
        writer.cancel()

    run(main)


def test_a_client_that_never_reads_its_replies_is_cut_off() -> None:
    async def main() -> None:
        ws, service = SlowSocket(), StubService()
        conn = Connection(ws, service, StubRoom(), 4096)  # type: ignore[arg-type]
        for i in range(MAX_PENDING_REPLIES + 50):
            conn.error(i, "rate_limited", "Slow down.")
        assert len(conn.out) == MAX_PENDING_REPLIES and conn.overflowed

    run(main)
