"""A store that fails is reported: health says 503, requests 503, sockets `unavailable`."""

from __future__ import annotations

import contextlib
import json
import logging
import sqlite3
from pathlib import Path

import httpx
import psycopg
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from tests.aio import run_async

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


def test_a_damaged_event_closes_its_room_and_no_other(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    # Issue #24, item 5: an event that no longer decodes made GET /api/rooms/CODE a 500
    # with a traceback and dropped the socket without a word.
    server = ServerThread(tmp_path).start()
    try:
        damaged, token = create_room(server.base, "dixit", 3)
        sound, sound_token = create_room(server.base, "dixit", 3)
        for code, tok in ((damaged, token), (sound, sound_token)):
            c = Client(server.base, code, tok)
            assert c.request({"type": "chat", "text": "hello"})["type"] == "ack"
            c.close()
    finally:
        server.stop()
    # The disk garbles one event of one room (version 2: the chat line).
    with sqlite3.connect(tmp_path / "reverie.db") as db:
        db.execute(
            "UPDATE events SET payload = ? WHERE code = ? AND version = 2",
            (b'{"t":"chatted","seat":"zero"', damaged),
        )
    caplog.set_level(logging.INFO)
    server = ServerThread(tmp_path).start()  # resumes both rooms from their logs
    try:
        r = httpx.get(f"{server.base}/api/rooms/{damaged}")
        assert r.status_code == 500 and r.json()["error"]["code"] == "room_damaged"
        assert "Traceback" not in r.text
        url = server.base.replace("http://", "ws://") + f"/ws/{damaged}"
        with connect(url) as ws:
            frame = json.loads(ws.recv(timeout=10))
            assert frame["type"] == "error" and frame["code"] == "room_damaged"
            with pytest.raises(ConnectionClosed) as closed:
                ws.recv(timeout=10)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1011
        # Again: the same answer, without reading the log again or saying it again.
        assert httpx.get(f"{server.base}/api/rooms/{damaged}").status_code == 500
        # The other room is untouched.
        assert httpx.get(f"{server.base}/api/rooms/{sound}").status_code == 200
        other = Client(server.base, sound, sound_token)
        assert other.request({"type": "chat", "text": "still fine"})["type"] == "ack"
        other.close()
        assert httpx.get(f"{server.base}/healthz").status_code == 200
        # The operator is told once, in one line naming the room and the event.
        said = [r for r in caplog.records if damaged in r.getMessage()]
        errors = [r for r in said if r.levelno >= logging.ERROR]
        assert len(errors) == 1, [r.getMessage() for r in said]
        assert "event 2" in errors[0].getMessage() and errors[0].exc_info is None
        # This server's thread only: an earlier test's server on the same xdist worker may
        # still be saying goodbye into the same root logger.
        ours = server.thread.ident
        traced = [r.getMessage() for r in caplog.records if r.exc_info and r.thread == ours]
        assert not traced, traced  # no traceback anywhere
    finally:
        server.stop()


def test_health_says_503_while_the_database_cannot_grow(tmp_path: Path) -> None:
    # Issue #24, item 5: /healthz read the tables and said 200 while the disk was full.
    server = ServerThread(tmp_path).start()
    try:
        code, token = create_room(server.base, "dixit", 3)
        host = Client(server.base, code, token)
        assert host.request({"type": "chat", "text": "hello"})["type"] == "ack"
        assert httpx.get(f"{server.base}/healthz").status_code == 200
        store = server.app.state.service.store
        filler = 10**9  # versions past the room's own: its log ends before them

        def full() -> None:
            # On the server's own connection: SQLite's cap on the file's size fails a
            # write that needs one more page with SQLITE_FULL, as a full disk does.
            db = store._db
            db.execute("VACUUM")  # no free pages left inside the file
            pages = int(db.execute("PRAGMA page_count").fetchone()[0])
            db.execute(f"PRAGMA max_page_count = {pages}")
            # Fill the page the room's next event goes to.
            with contextlib.suppress(sqlite3.OperationalError):
                for i in range(100_000):
                    db.execute(
                        "INSERT INTO events (code, version, payload, at)"
                        " VALUES (?, ?, zeroblob(20), 0)",
                        (code, filler + i),
                    )

        def room_again() -> None:
            db = store._db
            db.execute("DELETE FROM events WHERE code = ? AND version >= ?", (code, filler))
            db.execute(f"PRAGMA max_page_count = {1 << 30}")

        run_async(store._run(full))
        health = httpx.get(f"{server.base}/healthz")
        assert health.status_code == 503, health.text
        assert "full" in health.json()["error"]
        # A move is refused meanwhile (nothing is lost: it was never acknowledged),
        # and the socket stays open.
        refused = host.request({"type": "chat", "text": "anyone?"})
        assert refused["type"] == "error" and refused["code"] == "unavailable", refused
        run_async(store._run(room_again))
        assert httpx.get(f"{server.base}/healthz").status_code == 200
        back = host.request({"type": "chat", "text": "back"})
        assert back["type"] == "ack", back
        host.close()
    finally:
        server.stop()
