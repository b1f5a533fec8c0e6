"""Draining a process: on shutdown uvicorn closes every socket at once (1012), and what
follows a socket leaving (fresh views, the presence news for the other processes) is
done once per room, not once per socket. A process holding a thousand sockets would
otherwise send a thousand broadcasts and build a thousand rounds of views on its way
out, and take seconds or minutes to stop (docs/benchmarks.md, "Several processes")."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed

from tests.scale.cluster import server_pair
from tests.web.harness import Client, ServerThread, create_room

ROOMS = 4
SPECTATORS = 12  # sockets per room on the process that stops, besides the host's


@pytest.fixture
def pair(tmp_path: Path, postgres_url: str, redis_url: str) -> Iterator[list[ServerThread]]:
    """Two apps on one database and one bus; no per-address caps (one address opens
    every socket)."""
    with server_pair(
        tmp_path,
        postgres_url,
        redis_url,
        "drain",
        rooms_per_minute=0,
        max_connections_per_address=0,
        max_http_connections_per_address=0,
    ) as servers:
        yield servers


def _counting(calls: list[Any], method: Callable[..., Any]) -> Callable[..., Any]:
    def counted(*args: Any) -> Any:
        calls.append(args)
        return method(*args)

    return counted


def _until_spectators(client: Client, n: int) -> None:
    """Until the room ``client`` watches shows ``n`` spectators (in every process)."""
    if client.state is None or client.state["room"]["spectators"] != n:
        client.until(lambda f: f["type"] == "state" and f["room"]["spectators"] == n)


def test_a_draining_process_follows_each_rooms_leavers_up_once(
    pair: list[ServerThread],
) -> None:
    a, b = pair
    rooms = [create_room(a.base, "dixit", 3) for _ in range(ROOMS)]
    closing: list[Client] = []
    watchers: list[Client] = []
    for code, token in rooms:
        closing.append(Client(a.base, code, token))
        closing += [Client(a.base, code) for _ in range(SPECTATORS)]
        watchers.append(Client(b.base, code))  # stays, on the other process
    for c in closing + watchers:
        c.until(lambda f: f["type"] == "state")
    # The process that stays sees every socket of the one that stops.
    for w in watchers:
        _until_spectators(w, SPECTATORS + 1)

    service = a.app.state.service
    broadcasts: list[Any] = []
    views: list[Any] = []
    service.bus.broadcast = _counting(broadcasts, service.bus.broadcast)
    service.publish_state = _counting(views, service.publish_state)
    batches = service.stats["presence_batches"]

    a.stop()  # uvicorn closes every socket with 1012, then the app shuts down
    assert not a.thread.is_alive()

    sockets = len(closing)
    presence = [m for _, m in broadcasts if m.get("k") == "presence"]
    # One follow-up per room (a leaver that misses its room's batch may start a second
    # one): never one per socket, as each of the 13 leavers of a room used to cost.
    assert len(presence) <= 2 * ROOMS < sockets / 4
    assert len(views) <= 2 * ROOMS
    assert service.stats["presence_batches"] - batches <= 2 * ROOMS
    # And still correct: the rooms on the other process no longer count those sockets.
    for w in watchers:
        _until_spectators(w, 1)
    # 1012 "service restart": the pages reconnect, through the proxy, elsewhere.
    for c in closing:
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                c.recv(timeout=10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1012
