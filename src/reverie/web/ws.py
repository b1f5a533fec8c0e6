"""The room WebSocket: one connection, validated frames in, views out.

Outgoing frames go through one writer task per connection so that acks, errors, chat
and state snapshots never interleave. State notifications are coalesced: a slow client
gets the latest snapshot, never a growing backlog.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from typing import Any

import msgspec
from starlette.websockets import WebSocket, WebSocketDisconnect

from reverie.rooms.commands import (
    COMMAND_DECODER,
    Chat,
    Command,
    DrawCmd,
    GuessCmd,
    Hello,
    Join,
)
from reverie.rooms.service import LiveRoom, RoomService
from reverie.rooms.state import RoomError, hash_token
from reverie.rules.errors import IllegalAction
from reverie.web.limits import TokenBucket

log = logging.getLogger("reverie.ws")

HELLO_TIMEOUT = 15.0
#: Stroke frames waiting for one slow client before they are dropped for one fresh
#: ``canvas`` frame (a few seconds of drawing): memory per connection stays bounded.
MAX_PENDING_DRAWS = 100
#: Replies (acks, errors) waiting for one client before it is cut off.
MAX_PENDING_REPLIES = 200
#: Refusals of a stroke frame that an honest drawer's client meets at the end of a turn
#: or on a full canvas; they do not count towards the flood cut-off.
_HARMLESS_DRAW_ERRORS = frozenset({"wrong_phase", "canvas_full", "not_drawer"})
MAX_STRIKES = 40  # refused frames in a row before a flooding client is cut off
CHAT_BACKLOG = 50
_ENCODER = msgspec.json.Encoder()


def _dumps(frame: dict[str, Any]) -> str:
    return _ENCODER.encode(frame).decode()


class Connection:
    """One open socket in a room."""

    def __init__(self, ws: WebSocket, service: RoomService, live: LiveRoom, max_frame: int):
        self.ws = ws
        self.service = service
        self.live = live
        self.max_frame = max_frame
        self.token_hash: str | None = None
        self.out: deque[str] = deque()
        self.draws_out: deque[str] = deque()
        self.canvas_stale = False
        self.chat: deque[dict[str, Any]] = deque(maxlen=CHAT_BACKLOG)
        self.dirty = False
        self.wake = asyncio.Event()
        self.frames = TokenBucket(rate=10, burst=20)
        self.chats = TokenBucket(rate=1, burst=5)
        # Drawing streams many small frames; they have their own, larger allowance.
        self.draws = TokenBucket(rate=30, burst=60)
        self.guesses = TokenBucket(rate=2, burst=6)
        self.strikes = 0
        self.overflowed = False
        self.closed = False
        self._seat: tuple[int, str | None, int | None] = (-1, None, None)  # version, token

    @property
    def seat(self) -> int | None:
        """This connection's seat now (seats move in the lobby; the token does not)."""
        if self.token_hash is None:
            return None
        state = self.live.state
        version, token_hash, seat = self._seat
        # Strokes ask often; a seat changes only with the room's version or the token.
        if version != state.version or token_hash != self.token_hash:
            seat = state.seat_of(self.token_hash)
            self._seat = (state.version, self.token_hash, seat)
        return seat

    # -------------------------------------------------------------- outgoing

    def may_see(self, team: int | None) -> bool:
        """Whether a chat line meant for ``team`` (None: everyone) reaches this client:
        team lines go to that team's members."""
        return team is None or self.live.state.team_of(self.seat) == team

    def on_bus(self, message: dict[str, Any]) -> None:
        """Bus subscriber: mark the snapshot stale, or queue a chat line or strokes."""
        kind = message.get("kind")
        if kind == "chat":
            line = message["message"]
            if not self.may_see(line.get("team")):
                return
            self.chat.append(line)
        elif kind == "draw":
            if message["sender"] == id(self):
                return
            if not self.service.sees_canvas(self.live.state, self.seat, message["drawer"]):
                return
            if len(self.draws_out) >= MAX_PENDING_DRAWS:
                self.draws_out.clear()  # a slow client gets the whole picture once instead
                self.canvas_stale = True
            elif not self.canvas_stale:
                self.draws_out.append(message["frame"])
        else:
            self.dirty = True
        self.wake.set()

    def send(self, frame: dict[str, Any]) -> None:
        """Queue a frame for this client alone (a client that lets its replies pile up
        past ``MAX_PENDING_REPLIES`` is cut off: it does not read what it asks for)."""
        if len(self.out) >= MAX_PENDING_REPLIES:
            self.overflowed = True
            return
        self.out.append(_dumps(frame))
        self.wake.set()

    def error(self, ref: int | None, code: str, message: str) -> None:
        """Queue an error frame for this client."""
        self.send({"type": "error", "ref": ref, "code": code, "message": message})

    async def writer(self) -> None:
        """Send queued frames, strokes, chat and the latest snapshot, in that order."""
        while not self.closed:
            await self.wake.wait()
            self.wake.clear()
            while self.out:
                await self.ws.send_text(self.out.popleft())
            if self.canvas_stale:
                self.canvas_stale = False
                self.draws_out.clear()
                canvas = self.service.canvas_frame(self.live, self.seat)
                if canvas is not None:
                    await self.ws.send_text(_dumps(canvas))
            while self.draws_out:
                await self.ws.send_text(self.draws_out.popleft())
            if self.chat:
                lines = list(self.chat)
                self.chat.clear()
                await self.ws.send_text(_dumps({"type": "chat", "messages": lines}))
            if self.dirty:
                self.dirty = False
                frame = self.service.snapshot_json(self.live, self.seat)
                await self.ws.send_text(frame.decode())

    # -------------------------------------------------------------- incoming

    def _accept_rate(self, cmd: Command | None) -> bool:
        if isinstance(cmd, DrawCmd):
            return self.draws.take()
        if not self.frames.take():
            return False
        if isinstance(cmd, GuessCmd):
            return self.guesses.take()
        return not isinstance(cmd, Chat) or self.chats.take()

    async def handle(self, raw: str) -> None:
        """Validate and carry out one client frame; errors go to this client only."""
        if len(raw.encode()) > self.max_frame:
            self.strikes += 1
            self.error(None, "too_large", f"Messages are at most {self.max_frame} bytes.")
            return
        try:
            cmd = COMMAND_DECODER.decode(raw)
        except (msgspec.ValidationError, msgspec.DecodeError) as exc:
            self.strikes += 1
            if not self.frames.take():
                return
            self.error(None, "bad_message", f"Malformed message: {exc}")
            return
        if not self._accept_rate(cmd):
            self.strikes += 1
            self.error(cmd.id, "rate_limited", "Slow down: too many messages.")
            return
        try:
            await self._dispatch(cmd)
            self.strikes = 0
        except (RoomError, IllegalAction) as exc:
            if not (isinstance(cmd, DrawCmd) and exc.code in _HARMLESS_DRAW_ERRORS):
                self.strikes += 1
            self.error(cmd.id, exc.code, exc.message)
            if isinstance(cmd, DrawCmd) and exc.code in ("bad_stroke", "canvas_full"):
                # The drawer's page painted the refused strokes already: show it the
                # picture everyone else has.
                canvas = self.service.canvas_frame(self.live, self.seat)
                if canvas is not None:
                    self.send(canvas)

    async def _dispatch(self, cmd: Command) -> None:
        if isinstance(cmd, Hello):
            raise RoomError("bad_message", "Already said hello.")
        if isinstance(cmd, Join):
            if self.seat is not None:
                raise RoomError("bad_message", "You already have a seat at this table.")
            seat, token = await self.service.join(self.live, cmd)
            await self.service.disconnect(self.live, None)
            self.token_hash = hash_token(token)
            await self.service.connect(self.live, self.token_hash)
            self.send({"type": "welcome", "token": token, "seat": seat})
            self.send({"type": "ack", "ref": cmd.id, "version": self.live.state.version})
            return
        if isinstance(cmd, DrawCmd):
            await self.service.draw(self.live, self.seat, cmd.ops, id(self))
            if cmd.id is not None:
                self.send({"type": "ack", "ref": cmd.id, "version": self.live.state.version})
            return
        version = await self.service.command(self.live, self.seat, cmd)
        self.send({"type": "ack", "ref": cmd.id, "version": version})


async def room_socket(ws: WebSocket) -> None:
    """The ``/ws/{code}`` endpoint."""
    service: RoomService = ws.app.state.service
    max_frame: int = ws.app.state.settings.max_frame
    await ws.accept()
    live = await service.get(ws.path_params["code"])
    if live is None:
        await ws.send_text(
            _dumps(
                {"type": "error", "ref": None, "code": "unknown_room", "message": "No such room."}
            )
        )
        await ws.close(code=4404)
        return
    conn = Connection(ws, service, live, max_frame)
    try:
        hello = await _receive_hello(ws, conn)
    except (WebSocketDisconnect, TimeoutError):
        return
    if hello is None:
        await ws.close(code=1008)
        return
    if hello.token and service.seat_for_token(live, hello.token) is not None:
        conn.token_hash = hash_token(hello.token)
    code = live.state.code
    service.bus.subscribe(code, conn.on_bus)
    await service.connect(live, conn.token_hash)
    if conn.seat is not None and hello.token:
        conn.send({"type": "welcome", "token": hello.token, "seat": conn.seat})
    history = [
        {"seat": c.seat, "name": c.name, "text": c.text, "at": int(c.at * 1000), "team": c.team}
        for c in live.state.chat
        if conn.may_see(c.team)
    ]
    if history:
        conn.send({"type": "chat", "messages": history})
    canvas = service.canvas_frame(live, conn.seat)
    if canvas is not None:  # a late joiner sees the whole drawing so far
        conn.send(canvas)
    conn.dirty = True
    conn.wake.set()
    writer = asyncio.create_task(conn.writer())
    try:
        while True:
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                break
            raw = message.get("text")
            if raw is None:
                data = message.get("bytes") or b""
                raw = data.decode("utf-8", errors="replace")
            await conn.handle(raw)
            if conn.strikes >= MAX_STRIKES or conn.overflowed:
                await asyncio.sleep(0)  # let the writer flush the last error
                await ws.close(code=1008)
                break
            if writer.done():
                break
    except WebSocketDisconnect:
        pass
    except Exception:  # a bug must not take the room down with it
        log.exception("websocket handler failed in room %s", code)
    finally:
        conn.closed = True
        conn.wake.set()
        service.bus.unsubscribe(code, conn.on_bus)
        writer.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await writer
        await service.disconnect(live, conn.token_hash)


async def _receive_hello(ws: WebSocket, conn: Connection) -> Hello | None:
    message = await asyncio.wait_for(ws.receive(), HELLO_TIMEOUT)
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect()
    raw = message.get("text") or (message.get("bytes") or b"").decode("utf-8", "replace")
    try:
        cmd = COMMAND_DECODER.decode(raw) if len(raw) <= conn.max_frame else None
    except (msgspec.ValidationError, msgspec.DecodeError):
        cmd = None
    if not isinstance(cmd, Hello):
        await ws.send_text(
            _dumps(
                {
                    "type": "error",
                    "ref": None,
                    "code": "bad_message",
                    "message": 'The first message must be {"type": "hello"}.',
                }
            )
        )
        return None
    return cmd
