"""Guessing room codes is throttled per address: after 20 unknown codes a minute, every
lookup from that address waits (so a hit cannot be told from a miss)."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from .harness import ServerThread, SkewClock, StoppedClock, create_room


def test_probing_room_codes_is_throttled_per_address(tmp_path: Path) -> None:
    clock = StoppedClock()  # no refill unless the test skips time ahead
    server = ServerThread(tmp_path, limits_clock=clock).start()
    try:
        code, _ = create_room(server.base, "dixit", 3)
        misses = 0
        while (r := httpx.get(f"{server.base}/api/rooms/ZZZZ{misses:02d}")).status_code == 404:
            misses += 1
            assert misses < 60, "never throttled"
        # 20 at once, and not one more while no time passes.
        assert misses == 20
        assert r.status_code == 429 and r.json()["error"]["code"] == "rate_limited"
        # A real code answers the same while the address is throttled.
        assert httpx.get(f"{server.base}/api/rooms/{code}").status_code == 429
        with connect(server.base.replace("http", "ws") + "/ws/ZZZZ98") as ws:
            assert json.loads(ws.recv(timeout=10))["code"] == "rate_limited"
            with pytest.raises(ConnectionClosed):
                ws.recv(timeout=10)
            assert ws.close_code == 1008
        clock.advance(2.9)  # one lookup refills every 3 s: not yet
        assert httpx.get(f"{server.base}/api/rooms/{code}").status_code == 429
        clock.advance(60)  # a minute later the allowance is back
        assert httpx.get(f"{server.base}/api/rooms/{code}").status_code == 200
        assert httpx.get(f"{server.base}/api/rooms/ZZZZ99").status_code == 404
    finally:
        server.stop()


def test_socket_misses_count_too(tmp_path: Path) -> None:
    clock = SkewClock()
    server = ServerThread(tmp_path, limits_clock=clock, room_misses_per_minute=3).start()
    try:
        codes = []
        for i in range(4):
            with connect(server.base.replace("http", "ws") + f"/ws/ZZZZ{i:02d}") as ws:
                codes.append(json.loads(ws.recv(timeout=10))["code"])
        assert codes == ["unknown_room"] * 3 + ["rate_limited"]
        assert httpx.get(f"{server.base}/api/rooms/ZZZZ99").status_code == 429
    finally:
        server.stop()
