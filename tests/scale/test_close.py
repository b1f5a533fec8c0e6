"""The operator closes a room whose sockets are on two ``reverie serve`` processes behind
nginx (deploy/nginx/), on one PostgreSQL and one Redis: ``reverie moderation close``, run
as its own process against the same database, writes the closure; the processes carry it
out within REVERIE_CLOSE_POLL_SECONDS, every socket is told ``room_closed`` and closed
with 4410, and new sockets, through nginx or straight at a process, are refused the same
way. The room then leaves the public list."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import httpx
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from tests.scale.cluster import ROOT, landed, nginx_pair, sockets_on
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


def _refused(url: str) -> int:
    """A new socket at ``url``: its first frame must be ``room_closed``; returns the close
    code it then gets."""
    with connect(url) as late:
        assert json.loads(late.recv(timeout=10))["code"] == "room_closed"
        try:
            while True:
                late.recv(timeout=10)
        except ConnectionClosed as exc:
            assert exc.rcvd is not None
            return exc.rcvd.code


def reverie(database_url: str, *args: str) -> str:
    """``reverie moderation ARGS`` as the operator runs it: a process of its own."""
    done = subprocess.run(
        [sys.executable, "-m", "reverie", "moderation", *args, "--database-url", database_url],
        capture_output=True, text=True, cwd=ROOT, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def test_the_operator_closes_a_room_whose_sockets_are_on_both_processes(
    tmp_path: Path, postgres_url: str, redis_url: str
) -> None:
    env = {"REVERIE_CLOSE_POLL_SECONDS": "0.2"}
    with nginx_pair(tmp_path, postgres_url, redis_url, **env) as (nginx, processes):
        code, token = create_room(nginx.base, "dixit", 4)
        before = [sockets_on(p) for p in processes]
        ann = join(nginx.base, code, "Ann", "#2a9d8f")  # nginx picks her process by the code
        near = landed(processes, before)
        far = next(p for p in processes if p is not near)
        host = Client(far.base, code, token)  # the host straight at the other process
        assert host.request({"type": "public", "public": True})["type"] == "ack"
        bo = join(far.base, code, "Bo", "#8338ec")
        assert sockets_on(near) == 1 and sockets_on(far) == 2
        assert host.request({"type": "start"})["type"] == "ack"  # three people: it runs

        out = reverie(postgres_url, "close", code, "--reason", "hate", "--by", "ann")
        assert f"room {code} will be closed" in out
        assert [_closed(c) for c in (host, ann, bo)] == [4410, 4410, 4410]
        assert host.state is not None and host.state["room"]["closed"] is True
        assert host.state["room"]["public"] is False  # out of every list
        # Nobody gets in again: through nginx, or straight at either process.
        for base in (nginx.base, near.base, far.base):
            ws = base.replace("http://", "ws://")
            assert _refused(f"{ws}/ws/{code}") == 4410
        assert code not in {t["code"] for t in httpx.get(f"{nginx.base}/api/open").json()["tables"]}
        log = reverie(postgres_url, "log")
        assert "close_room" in log and code in log
