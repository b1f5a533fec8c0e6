"""The open tables across two real server processes on one PostgreSQL database and one
Redis: a public table opened on one shows on the other's ``/api/open``, and leaves it
when everyone has left it, and after ``kill -9`` of the process that runs it."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import httpx

from tests.scale.cluster import Process
from tests.web.harness import Client

BODY = {"name": "Host", "color": "#e63946", "variant": "dixit", "seats": 4, "options": {},
        "public": True}  # fmt: skip


def _until(check: Callable[[], bool], what: str, timeout: float = 30.0) -> None:
    end = time.monotonic() + timeout
    while not check():
        if time.monotonic() > end:
            raise AssertionError(f"not in time: {what}")
        time.sleep(0.2)


def _listed(process: Process) -> set[str]:
    r = httpx.get(f"{process.base}/api/open", timeout=10)
    assert r.status_code == 200, r.text
    return {t["code"] for t in r.json()["tables"]}


def test_the_list_is_shared_and_drops_tables_left_or_orphaned(
    tmp_path: Path, postgres_url: str, redis_url: str
) -> None:
    env = {"REVERIE_OPEN_EMPTY_SECONDS": "2"}
    first = Process(tmp_path, postgres_url, redis_url, **env).start()
    second = Process(tmp_path, postgres_url, redis_url, **env).start()
    try:
        r = httpx.post(f"{first.base}/api/rooms", json=BODY)
        left = r.json()["code"]
        host = Client(first.base, left, r.json()["token"])
        host.until(lambda f: f["type"] == "state")
        _until(lambda: left in _listed(second), "a table opened on one process shows on the other")
        # Everyone leaves: gone from both lists once the last person is gone a while.
        host.close()
        _until(lambda: left not in _listed(second), "a table everyone left drops")
        assert left not in _listed(first)

        r = httpx.post(f"{first.base}/api/rooms", json=BODY)
        orphan = r.json()["code"]
        host = Client(first.base, orphan, r.json()["token"])
        host.until(lambda f: f["type"] == "state")
        _until(lambda: orphan in _listed(second), "the second table shows")
        first.kill9()
        # Its process is dead: the entry runs out with the lease (2 s here).
        _until(lambda: orphan not in _listed(second), "a killed process's table drops")
    finally:
        first.stop()
        second.stop()
