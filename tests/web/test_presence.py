"""Presence stays right when a socket joins, leaves and joins again."""

from __future__ import annotations

from collections.abc import Callable

from reverie.rooms.service import LiveRoom, RoomService
from reverie.rooms.state import hash_token

from .harness import Client, Frame, ServerThread, create_room


def live_room(server: ServerThread, code: str) -> LiveRoom:
    service: RoomService = server.app.state.service
    return service.rooms[code]


def watching(n: int) -> Callable[[Frame], bool]:
    def pred(f: Frame) -> bool:
        return f["type"] == "state" and bool(f["room"]["spectators"] == n)

    return pred


def test_join_leave_join_on_one_socket_keeps_presence_right(server: ServerThread) -> None:
    code, token = create_room(server.base, "dixit", 4)
    host = Client(server.base, code, token)
    watcher = Client(server.base, code)
    sam = Client(server.base, code)
    host.until(watching(2))
    assert sam.request({"type": "join", "name": "Sam", "color": "#2a9d8f"})["type"] == "ack"
    first = sam.token
    assert first is not None
    host.until(watching(1))
    assert sam.request({"type": "leave"})["type"] == "ack"
    host.until(watching(2))  # Sam watches again
    assert sam.request({"type": "join", "name": "Sam", "color": "#2a9d8f"})["type"] == "ack"
    second = sam.token
    assert second is not None and second != first
    state = host.until(watching(1))  # the watcher is still there
    assert [p["connected"] for p in state["room"]["players"]] == [True, True]
    live = live_room(server, code)
    assert live.spectators == 1
    assert set(live.connections) == {hash_token(token), hash_token(second)}
    for c in (host, watcher, sam):
        c.close()


def test_a_kicked_player_watches_and_leaves_no_stale_token(server: ServerThread) -> None:
    code, token = create_room(server.base, "dixit", 4)
    host = Client(server.base, code, token)
    sam = Client(server.base, code)
    host.until(watching(1))
    assert sam.request({"type": "join", "name": "Sam", "color": "#2a9d8f"})["type"] == "ack"
    host.until(watching(0))
    assert host.request({"type": "kick", "seat": 1})["type"] == "ack"
    host.until(watching(1))  # Sam, kicked, is a spectator now
    assert set(live_room(server, code).connections) == {hash_token(token)}
