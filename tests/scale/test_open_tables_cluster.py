"""The open tables across two real server processes behind nginx (deploy/nginx/), on one
PostgreSQL database and one Redis: a public table opened on one process shows on the
other's ``/api/open`` and through nginx, and leaves the list when its game ends, when
everyone has left it, and after ``kill -9`` of the process that runs it."""

from __future__ import annotations

import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx

from tests.scale.cluster import Nginx, Process
from tests.web.harness import Client, play

BODY = {"name": "Host", "color": "#e63946", "variant": "dixit", "seats": 4, "options": {},
        "public": True}  # fmt: skip


def _until(check: Callable[[], bool], what: str, timeout: float = 30.0) -> None:
    end = time.monotonic() + timeout
    while not check():
        if time.monotonic() > end:
            raise AssertionError(f"not in time: {what}")
        time.sleep(0.2)


def _listed(base: str) -> dict[str, str]:
    """The listed tables' codes and phases, as ``base`` answers them."""
    r = httpx.get(f"{base}/api/open", timeout=10)
    assert r.status_code == 200, r.text
    return {t["code"]: t["phase"] for t in r.json()["tables"]}


def _open(process: Process, **options: object) -> Client:
    """A public Dixit table opened on ``process``, its host's socket there."""
    r = httpx.post(f"{process.base}/api/rooms", json={**BODY, "options": options})
    assert r.status_code == 201, r.text
    host = Client(process.base, r.json()["code"], r.json()["token"])
    host.until(lambda f: f["type"] == "state")
    return host


def test_the_list_is_shared_and_drops_tables_ended_left_or_orphaned(
    tmp_path: Path, postgres_url: str, redis_url: str
) -> None:
    env = {"REVERIE_OPEN_EMPTY_SECONDS": "2"}
    first, second = (Process(tmp_path, postgres_url, redis_url, **env) for _ in range(2))
    nginx = Nginx(tmp_path, [first.port, second.port])
    try:
        with ThreadPoolExecutor(2) as pool:  # both start at once (each takes seconds)
            list(pool.map(Process.start, (first, second)))
        nginx.start()
        # Two tables on the first process: one to play to its end, one to be left.
        ends = _open(first, target_score=2, first_storyteller=0)
        left = _open(first)
        codes = {ends.code, left.code}
        for base in (second.base, nginx.base):
            _until(lambda: codes <= _listed(base).keys(), "shown on the other process")  # noqa: B023

        # A game that runs is listed running (a bot's seat to take), then goes at its end.
        for _ in range(2):
            assert ends.request({"type": "add_bot"})["type"] == "ack"
        assert ends.request({"type": "start"})["type"] == "ack"
        _until(lambda: _listed(second.base).get(ends.code) == "playing", "listed running")
        assert play([ends], seed=1)["game"]["phase"] == "over"
        _until(lambda: ends.code not in _listed(second.base), "a table whose game ended drops")
        assert ends.code not in _listed(nginx.base)

        # Everyone leaves: gone once the last person has been gone a while (2 s here).
        assert left.code in _listed(second.base)
        left.close()
        _until(lambda: left.code not in _listed(second.base), "a table everyone left drops")
        assert left.code not in _listed(nginx.base)

        orphan = _open(first)
        _until(lambda: orphan.code in _listed(second.base), "the third table shows")
        first.kill9()
        # Its process is dead: the entry runs out with the lease (2 s here).
        _until(lambda: orphan.code not in _listed(second.base), "a killed process's table drops")
        assert orphan.code not in _listed(nginx.base)
        ends.close()
    finally:
        nginx.stop()
        first.stop()
        second.stop()
