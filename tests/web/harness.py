"""A real server in a thread (uvicorn) and real WebSocket clients, for in-process tests."""

from __future__ import annotations

import contextlib
import json
import re
import socket
import ssl
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import uvicorn
from websockets.sync.client import ClientConnection, connect

from reverie.web.app import create_app
from reverie.web.server import uvicorn_config
from reverie.web.settings import Settings

Frame = dict[str, Any]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class SkewClock:
    """The time plus whatever a test skipped ahead: rate limits refill and grace periods
    pass without the test sleeping."""

    def __init__(self) -> None:
        self.skew = 0.0

    def __call__(self) -> float:
        return time.time() + self.skew

    def advance(self, seconds: float) -> None:
        self.skew += seconds


class StoppedClock(SkewClock):
    """A clock that moves only when the test advances it: an allowance that refills with
    time stays spent however slowly a loaded machine runs the test."""

    def __init__(self) -> None:
        super().__init__()
        self.start = time.time()

    def __call__(self) -> float:
        return self.start + self.skew


class ServerThread:
    """uvicorn serving the app on a free port until ``stop``."""

    def __init__(
        self,
        data_dir: Path,
        bot_delay: float = 0.0,
        limits_clock: Callable[[], float] | None = None,
        *,
        clock: SkewClock | None = None,
        away_grace: float = 0.0,
        process_id: str | None = None,
        **settings: Any,
    ) -> None:
        """``settings``: fields of :class:`Settings` to change (limits, timeouts)."""
        self.port = free_port()
        self.data_dir = data_dir
        # Every client here joins from 127.0.0.1, and a shared Redis keeps the joins of
        # every test for a minute: the limit is on only where a test sets it.
        settings.setdefault("joins_per_minute", 0)
        # The settle freezes what is alive in the whole process every few seconds: in a
        # test process that is the tests' own objects (and their cycles) too. Off unless
        # a test is about it; the scale tests' real processes run with the default.
        settings.setdefault("gc_settle_seconds", 0)
        self.settings = Settings(
            data_dir=data_dir, bot_delay=bot_delay, away_grace=away_grace, **settings
        )
        app = create_app(self.settings, limits_clock=limits_clock)
        self.app = app
        if clock is not None:
            app.state.clock = clock  # the rooms' clock (grace periods, deadlines)
        if process_id is not None:  # two "processes" in one test process
            app.state.process_id = process_id
        # The same uvicorn options as `reverie serve`: timeouts and caps included.
        config = uvicorn_config(
            app, self.settings, host="127.0.0.1", port=self.port, log_level="warning",
            lifespan="on",
        )  # fmt: skip
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> ServerThread:
        self.thread.start()
        deadline = time.monotonic() + 10
        while not self.server.started:
            if time.monotonic() > deadline:
                raise RuntimeError("server did not start")
            time.sleep(0.02)
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)


def create_room(base: str, variant: str, seats: int, **options: object) -> tuple[str, str]:
    """Create a room as host "Host"; returns (code, host token)."""
    return create_room_over(base, variant, seats, None, options)


def create_room_over(
    base: str, variant: str, seats: int, tls: ssl.SSLContext | None, options: dict[str, object]
) -> tuple[str, str]:
    """:func:`create_room` at an https:// ``base`` whose certificate ``tls`` trusts (as
    for :class:`Client`)."""
    r = httpx.post(
        f"{base}/api/rooms",
        json={"name": "Host", "color": "#e63946", "variant": variant, "seats": seats,
              "options": options},
        verify=tls or True,
    )  # fmt: skip
    assert r.status_code == 201, r.text
    body = r.json()
    return body["code"], body["token"]


class Client:
    """A WebSocket client that records every frame it receives."""

    def __init__(
        self,
        base: str,
        code: str,
        token: str | None = None,
        *,
        tls: ssl.SSLContext | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        """``tls``: for an https:// ``base``, the context that trusts its certificate (the
        socket then goes over wss://). ``headers``: sent with the handshake (a browser's
        cookie, a proxy's ``X-Forwarded-For``)."""
        self.code = code
        url = re.sub(r"^http", "ws", base) + f"/ws/{code}"
        self._stack = contextlib.ExitStack()
        self.ws: ClientConnection = self._stack.enter_context(
            connect(url, open_timeout=5, max_size=2**22, ssl=tls, additional_headers=headers)
        )
        #: The handshake's answer headers (a new browser's ``Set-Cookie``).
        self.response_headers = self.ws.response.headers if self.ws.response else None
        self.acked = 0
        self.frames: list[Frame] = []
        self.state: Frame | None = None
        self.token = token
        self.seat: int | None = None
        self.next_id = 1
        self.chat: list[Frame] = []
        self.send({"type": "hello", "token": token, "lang": "en"})

    def send(self, frame: Frame) -> int:
        ref = self.next_id
        self.next_id += 1
        self.ws.send(json.dumps({**frame, "id": ref} if frame["type"] != "hello" else frame))
        return ref

    def send_raw(self, data: str | bytes) -> None:
        self.ws.send(data)

    def recv(self, timeout: float = 10.0) -> Frame:
        frame: Frame = json.loads(self.ws.recv(timeout=timeout))
        self.frames.append(frame)
        if frame["type"] == "state":
            self.state = frame
        elif frame["type"] == "welcome":
            self.token = frame["token"]
            self.seat = frame["seat"]
        elif frame["type"] == "chat":
            self.chat.extend(frame["messages"])
        elif frame["type"] == "ack":
            self.acked = max(self.acked, frame["version"])
        return frame

    def until(self, pred: Callable[[Frame], bool], timeout: float = 10.0) -> Frame:
        """Receive until a frame satisfies ``pred``."""
        end = time.monotonic() + timeout
        while True:
            left = end - time.monotonic()
            if left <= 0:
                raise TimeoutError("no matching frame")
            frame = self.recv(timeout=left)
            if pred(frame):
                return frame

    def request(self, frame: Frame, timeout: float = 10.0) -> Frame:
        """Send a frame and return its ack or error."""
        ref = self.send(frame)
        return self.until(lambda f: f["type"] in ("ack", "error") and f.get("ref") == ref, timeout)

    def state_at_least(self, version: int, timeout: float = 10.0) -> Frame:
        if self.state is not None and self.state["version"] >= version:
            return self.state
        return self.until(lambda f: f["type"] == "state" and f["version"] >= version, timeout)

    def close(self) -> None:
        self._stack.close()


def join(
    base: str,
    code: str,
    name: str,
    color: str,
    *,
    tls: ssl.SSLContext | None = None,
    headers: dict[str, str] | None = None,
) -> Client:
    c = Client(base, code, tls=tls, headers=headers)
    reply = c.request({"type": "join", "name": name, "color": color})
    assert reply["type"] == "ack", reply
    assert c.seat is not None or c.until(lambda f: f["type"] == "welcome")
    return c


def sync(clients: list[Client], timeout: float = 10.0) -> Frame:
    """Bring every client to the newest version any of them has seen."""
    latest = max([c.acked for c in clients] + [c.state["version"] for c in clients if c.state])
    for c in clients:
        c.state_at_least(latest, timeout)
    return clients[0].state  # type: ignore[return-value]


def play(
    clients: list[Client],
    *,
    seed: int = 0,
    until: Callable[[Frame], bool] | None = None,
    max_steps: int = 3000,
) -> Frame:
    """Play with the seated clients (moves chosen from their own views) until the game is
    over or ``until(state)``; bots in other seats move on the server."""
    import random

    from reverie.bots.simple import choose_action, to_frame

    rng = random.Random(seed)
    by_seat = {c.seat: c for c in clients if c.seat is not None}
    for _ in range(max_steps):
        state = sync(clients)
        game = state["game"]
        assert game is not None
        if game["phase"] == "over" or (until is not None and until(state)):
            return state
        mine = [s for s in game["waiting_for"] if s in by_seat]
        if not mine:  # only bots to move: wait for the server
            clients[0].state_at_least(state["version"] + 1)
            continue
        client = by_seat[rng.choice(mine)]
        view = client.state["game"]  # type: ignore[index]
        action = choose_action(view, lambda card: [], rng)
        assert action is not None
        reply = client.request(to_frame(action, client.state["version"]))  # type: ignore[index]
        if reply["type"] == "error" and reply["code"] == "rate_limited":
            time.sleep(0.1)  # a test player is faster than the limit allows: wait, retry
            continue
        if reply["type"] == "error" and reply["code"] == "stale_version":
            continue  # a bot moved the table on meanwhile: look again
        assert reply["type"] == "ack", reply
    raise AssertionError("the game did not end")


def logged_events(db: Path | str, code: str) -> list[tuple[int, Any]]:
    """Every (version, event) in a room's log, in order, read straight from the SQLite
    file (a path) or through the store of a URL."""
    import sqlite3

    from reverie.rooms.events import decode_log
    from reverie.store import open_store
    from tests.aio import run_async

    if isinstance(db, str):

        async def load() -> list[tuple[int, bytes]]:
            store = open_store(db)
            try:
                return [(e.version, e.payload) for e in await store.load(code)]
            finally:
                await store.close()

        rows = run_async(load())
    else:
        con = sqlite3.connect(db)
        rows = con.execute(
            "SELECT version, payload FROM events WHERE code = ? ORDER BY version", (code,)
        ).fetchall()
        con.close()
    events = decode_log(bytes(payload) for _, payload in rows)
    return [(version, event) for (version, _), event in zip(rows, events, strict=True)]


def room_history(db: Path | str, code: str) -> list[Any]:
    """The room after each event of its log: ``states[v]`` is the room at version v."""
    from reverie.rooms.state import evolve

    states: list[Any] = [None]
    room = None
    for version, event in logged_events(db, code):
        room = evolve(room, event)
        assert room.version == version
        states.append(room)
    return states


def game_is(**expected: object) -> Callable[[Frame], bool]:
    """A predicate: a ``state`` frame whose game has these values (e.g. phase="vote")."""

    def pred(frame: Frame) -> bool:
        game = frame.get("game") if frame["type"] == "state" else None
        return game is not None and all(game.get(k) == v for k, v in expected.items())

    return pred
