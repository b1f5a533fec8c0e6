"""The operator closes a room while two server processes serve it (one PostgreSQL, one
Redis): ``reverie moderation close`` writes the closure, a process carries it out within
REVERIE_CLOSE_POLL_SECONDS, and the players on both processes are told ``room_closed``;
the room then takes nothing more and leaves the public list."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from tests.scale.cluster import server_pair
from tests.test_cli_moderation import cli
from tests.web.harness import Client, create_room, join


def _closed(c: Client) -> int:
    """Read until the socket ends; returns its close code (after ``room_closed``)."""
    c.until(lambda f: f["type"] == "error" and f["code"] == "room_closed")
    try:
        while True:
            c.recv(timeout=10)
    except ConnectionClosed as exc:
        assert exc.rcvd is not None
        return exc.rcvd.code


def test_the_operator_closes_a_room_served_by_two_processes(
    tmp_path: Path, postgres_url: str, redis_url: str
) -> None:
    with server_pair(tmp_path, postgres_url, redis_url, "close", close_poll_seconds=0.2) as (a, b):
        code, token = create_room(a.base, "dixit", 4)
        host = Client(a.base, code, token)
        assert host.request({"type": "public", "public": True})["type"] == "ack"
        ann = join(b.base, code, "Ann", "#2a9d8f")  # on the other process
        assert host.request({"type": "start"})["type"] == "error"  # two people: not yet
        result = cli(postgres_url, "close", code, "--reason", "hate", "--by", "ann")
        assert result.exit_code == 0, result.output
        assert _closed(host) == 4410 and _closed(ann) == 4410
        assert host.state is not None and host.state["room"]["closed"] is True
        assert host.state["room"]["public"] is False  # out of every list
        # Nobody gets in again, on either process.
        for server in (a, b):
            with connect(f"ws://127.0.0.1:{server.port}/ws/{code}") as late:
                assert json.loads(late.recv(timeout=10))["code"] == "room_closed"
        summary = httpx.get(f"{b.base}/api/rooms/{code}").json()
        assert summary["status"] == "lobby"
        log = cli(postgres_url, "log")
        assert "close_room" in log.output and code in log.output
