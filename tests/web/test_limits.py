"""Allowances and caps are per seat and per address, not per socket: more sockets buy
nothing."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from .harness import Client, Frame, ServerThread, SkewClock, create_room, join


@contextlib.contextmanager
def running(tmp_path: Path, **settings: Any) -> Iterator[tuple[ServerThread, SkewClock]]:
    clock = SkewClock()
    server = ServerThread(tmp_path, limits_clock=clock, **settings).start()
    try:
        yield server, clock
    finally:
        server.stop()


def replying_to(ref: int) -> Callable[[Frame], bool]:
    return lambda f: f["type"] in ("ack", "error") and f.get("ref") == ref


def chat_flood(clients: list[Client], lines: int) -> int:
    """Every client sends ``lines`` chat lines at once; how many were accepted."""
    refs = [[c.send({"type": "chat", "text": f"hi {i}"}) for i in range(lines)] for c in clients]
    accepted = 0
    for c, sent in zip(clients, refs, strict=True):
        for ref in sent:
            reply = c.until(replying_to(ref))
            assert reply["type"] == "ack" or reply["code"] == "rate_limited", reply
            accepted += reply["type"] == "ack"
    return accepted


def refused(url: str, token: str | None = None) -> tuple[str, int | None]:
    """Open a socket expected to be refused: the error code and the close code."""
    ws: ClientConnection
    with connect(url, open_timeout=5) as ws:
        with contextlib.suppress(ConnectionClosed):
            ws.send(json.dumps({"type": "hello", "token": token}))
        code = json.loads(ws.recv(timeout=10))["code"]
        with pytest.raises(ConnectionClosed):
            ws.recv(timeout=10)
        return code, ws.close_code


def test_ten_sockets_of_one_seat_share_one_chat_allowance(tmp_path: Path) -> None:
    with running(tmp_path, max_sockets_per_seat=10) as (server, clock):
        code, token = create_room(server.base, "dixit", 3)
        sockets = [Client(server.base, code, token) for _ in range(10)]
        for c in sockets:
            c.until(lambda f: f["type"] == "state")
        began = clock()
        accepted = chat_flood(sockets, 10)
        elapsed = clock() - began
        # One seat's allowance: a burst of 5, then 1 a second (per socket it was 50).
        assert 1 <= accepted <= 5 + 1 * elapsed + 1


def test_seats_behind_one_address_share_the_address_allowance(tmp_path: Path) -> None:
    # address_factor 1: the whole address gets one seat's allowance.
    with running(tmp_path, address_factor=1.0) as (server, clock):
        code, token = create_room(server.base, "dixit", 3)
        host = Client(server.base, code, token)
        ann = join(server.base, code, "Ann", "#2a9d8f")
        began = clock()
        accepted = chat_flood([host, ann], 10)
        elapsed = clock() - began
        assert 1 <= accepted <= 5 + 1 * elapsed + 1


def test_a_seat_opens_at_most_four_sockets(tmp_path: Path) -> None:
    with running(tmp_path) as (server, _):
        assert server.settings.max_sockets_per_seat == 4
        code, token = create_room(server.base, "dixit", 3)
        url = server.base.replace("http", "ws") + f"/ws/{code}"
        tabs = [Client(server.base, code, token) for _ in range(4)]
        for c in tabs:
            assert c.until(lambda f: f["type"] == "welcome")["seat"] == 0
        assert refused(url, token) == ("too_many_connections", 1008)
        # A spectator of the same room is not that seat: it gets in.
        Client(server.base, code).until(lambda f: f["type"] == "state")
        # A closed tab frees its place (the server notices the close a moment later).
        tabs.pop().close()
        for _ in range(100):
            again = Client(server.base, code, token)
            first = again.until(lambda f: f["type"] in ("welcome", "error"))
            if first["type"] == "welcome":
                break
            again.close()
        else:
            raise AssertionError("the closed socket never freed its place")


def test_an_address_opens_at_most_its_cap_of_connections(tmp_path: Path) -> None:
    with running(tmp_path, max_connections_per_address=5) as (server, _):
        code, _token = create_room(server.base, "dixit", 3)
        url = server.base.replace("http", "ws") + f"/ws/{code}"
        watchers = [Client(server.base, code) for _ in range(5)]
        for w in watchers:
            w.until(lambda f: f["type"] == "state")
        assert refused(url) == ("too_many_connections", 1008)
        r = httpx.get(f"{server.base}/api/rooms/{code}")
        assert r.status_code == 429 and r.json()["error"]["code"] == "too_many_connections"
        for w in watchers:
            w.close()
        for _ in range(100):
            if httpx.get(f"{server.base}/api/rooms/{code}").status_code == 200:
                break
        else:
            raise AssertionError("closed sockets never freed their places")


def test_the_limits_module_examples() -> None:
    import doctest

    import reverie.web.limits

    assert doctest.testmod(reverie.web.limits).failed == 0
