"""A store that fails is reported: health says 503, requests 503, sockets `unavailable`."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import psycopg
from websockets.sync.client import connect

from .harness import Client, ServerThread, create_room, join


def test_a_broken_database_is_reported_not_hidden(tmp_path: Path, postgres_url: str) -> None:
    server = ServerThread(tmp_path, database_url=postgres_url).start()
    try:
        assert httpx.get(f"{server.base}/healthz").status_code == 200
        code, token = create_room(server.base, "dixit", 4)
        host = Client(server.base, code, token)
        ann = join(server.base, code, "Ann", "#2a9d8f")
        # The database loses its tables (a damaged database, a wrong restore).
        with psycopg.connect(postgres_url, autocommit=True) as con:
            con.execute("DROP TABLE snapshots, events, rooms CASCADE")
        health = httpx.get(f"{server.base}/healthz")
        assert health.status_code == 503 and health.json()["ok"] is False
        # A move: the socket gets `unavailable` and stays open.
        error = ann.request({"type": "chat", "text": "still here?"})
        assert error["type"] == "error" and error["code"] == "unavailable"
        assert ann.request({"type": "chat", "text": "and now?"})["code"] == "unavailable"
        # A new room and an unknown room over HTTP: 503 with a clear error.
        r = httpx.post(
            f"{server.base}/api/rooms",
            json={"name": "Bo", "color": "#e63946", "variant": "dixit", "seats": 3},
        )
        assert r.status_code == 503 and r.json()["error"]["code"] == "unavailable"
        r = httpx.get(f"{server.base}/api/rooms/ZZZZZZ")
        assert r.status_code == 503
        # A socket to a room not in memory: an error frame, then the close.
        url = server.base.replace("http://", "ws://") + "/ws/QQQQQQ"
        with connect(url) as lost:
            assert json.loads(lost.recv(timeout=10))["code"] == "unavailable"
        for c in (host, ann):
            c.close()
    finally:
        server.stop()
