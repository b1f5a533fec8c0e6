"""Every outgoing frame of a connection passes its one visibility filter."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
from hypothesis import given
from hypothesis import strategies as st

from reverie.games import EVERYONE, Audience, SideChannel, seats_only, team_only
from reverie.rooms.deliveries import (
    ChatSaid,
    Delivery,
    Revoked,
    SideFrame,
    SideResync,
    StateChanged,
)
from reverie.rooms.visibility import Visibility, chat_audience
from reverie.web.ws import Connection
from tests.rooms.test_service import run

from .harness import Client, ServerThread, create_room, join
from .test_ws_backlog import SlowSocket, StubRoom, StubService


class RecordingFilter(Visibility):
    """Lets nothing through but new states, and remembers what it was asked."""

    def __init__(self) -> None:
        self.asked: list[Audience | None] = []
        self.kinds: list[str] = []
        self.states = 0

    def passes(self, message: Delivery) -> bool:
        self.kinds.append(type(message).__name__)
        return isinstance(message, StateChanged)

    def admits(self, audience: Audience | None) -> bool:
        self.asked.append(audience)
        return False

    def state_frame(self, *, queued: bool = False) -> bytes:
        self.states += 1
        return b'{"type":"state"}'

    def channel_frames(self, only: SideChannel[Any, Any] | None = None) -> list[dict[str, Any]]:
        return []


def test_every_bus_message_and_reply_asks_the_filter() -> None:
    async def main() -> None:
        ws = SlowSocket()
        ws.gate.set()
        conn = Connection(ws, StubService(), StubRoom(), 4096)  # type: ignore[arg-type]
        recorder = RecordingFilter()
        conn.visibility = recorder
        line = {"seat": 0, "name": "A", "text": "hi", "at": 0, "team": 1}
        conn.on_bus(ChatSaid(team_only(1), line))
        conn.on_bus(SideFrame(seats_only(2), 0, "{}"))
        conn.on_bus(Revoked("t", None))
        conn.on_bus(SideResync())
        conn.error(7, "bad_message", "no")
        conn.on_bus(StateChanged())
        writer = asyncio.create_task(conn.writer())
        for _ in range(5):
            await asyncio.sleep(0)
        conn.closed = True
        conn.wake.set()
        writer.cancel()
        assert recorder.kinds == ["ChatSaid", "SideFrame", "Revoked", "SideResync", "StateChanged"]
        assert recorder.asked == [None]  # the error, a reply
        # Denied messages changed nothing: only the state frame (the seat's own view,
        # built by the filter too) reached the socket.
        assert ws.sent == ['{"type":"state"}'] and recorder.states == 1
        assert not conn.revoked and not conn.side_stale and not conn.chat

    run(main)


def test_the_filter_judges_each_kind_of_message() -> None:
    """Chat and side frames by their audience (a side frame not back to its sender), a
    revoked link only for the sockets that used it."""
    seat: list[int | None] = [1]
    token: list[str | None] = ["mine"]
    room = StubRoom()
    v = Visibility(StubService(), room, lambda: seat[0], lambda: token[0], me=5)  # type: ignore[arg-type]
    assert v.passes(ChatSaid(seats_only(1), {}))
    assert not v.passes(ChatSaid(seats_only(2), {}))
    assert v.passes(SideFrame(EVERYONE, 4, "{}"))
    assert not v.passes(SideFrame(EVERYONE, 5, "{}"))
    assert v.passes(Revoked("mine", None))
    assert not v.passes(Revoked("mine", 5))
    assert not v.passes(Revoked("theirs", None))
    token[0] = None  # a spectator's socket: no link to revoke
    assert not v.passes(Revoked("mine", None))
    assert v.passes(SideResync()) and v.passes(StateChanged())
    v.release()
    assert not v.passes(ChatSaid(seats_only(1), {}))


seat = st.one_of(st.none(), st.integers(0, 11))
team = st.one_of(st.none(), st.integers(0, 5))


@given(seat, team, st.integers(0, 11), st.integers(0, 5))
def test_audiences(viewer: int | None, viewer_team: int | None, s: int, t: int) -> None:
    assert EVERYONE.admits(viewer, viewer_team)
    assert seats_only(s).admits(viewer, viewer_team) == (viewer == s)
    on_team = viewer is not None and viewer_team == t
    assert team_only(t).admits(viewer, viewer_team) == on_team
    assert chat_audience(t) == team_only(t) and chat_audience(None) == EVERYONE
    # A team seat's own chat: its members (every socket of the seat), no spectator,
    # whatever team the line might name.
    own = chat_audience(t, own=True, seat=s)
    assert own.admits(viewer, viewer_team) == (viewer == s)
    assert not chat_audience(None, own=True, seat=s).admits(None, None)


def test_the_http_summary_tells_public_facts_only(server: ServerThread) -> None:
    """GET /api/rooms/CODE, open to anyone with the code, says who sits where and whether
    the game runs, and nothing of the game, the chat or the seat links."""
    code, token = create_room(server.base, "dixit", 3, first_storyteller=0)
    host = Client(server.base, code, token)
    ann = join(server.base, code, "Ann", "#2a9d8f")
    bob = join(server.base, code, "Bob", "#8338ec")
    assert host.request({"type": "chat", "text": "secret plans"})["type"] == "ack"
    assert host.request({"type": "start"})["type"] == "ack"
    frame = host.until(lambda f: f["type"] == "state" and f["game"] is not None)
    summary = httpx.get(f"{server.base}/api/rooms/{code}").json()
    assert set(summary) == {"code", "variant", "status", "seats", "taken", "players", "colors"}
    assert summary["status"] == "playing" and summary["players"] == ["Host", "Ann", "Bob"]
    text = json.dumps(summary)
    assert "secret plans" not in text and token not in text and "hand" not in text
    assert str(frame["game"]["hand"]) not in text
    for c in (host, ann, bob):
        c.close()
