"""The room WebSocket: one connection, validated frames in, views out.

Incoming frames are decoded with the room's family's decoder (its moves and side
channels beside the frames every room has). Every outgoing frame passes the
connection's :class:`~reverie.rooms.visibility.Visibility` filter, then one writer task
per connection so that acks, errors, chat and state snapshots never interleave. State
notifications are coalesced: a slow client gets the latest snapshot, never a growing
backlog.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import Hashable
from typing import Any

import msgspec
from starlette.websockets import WebSocket, WebSocketDisconnect

from reverie.content.textfilter import word_filter
from reverie.errors import RoomError
from reverie.games import Audience, Frame, GameCommand, Limit, SideCommand
from reverie.rooms.commands import (
    HELLO_DECODER,
    Ballot,
    Chat,
    Hello,
    Join,
    Leave,
    NewLink,
    Point,
    ReportCmd,
    SetOptions,
    SetPublic,
    VoteKick,
    decoder_for,
)
from reverie.rooms.deliveries import ChatSaid, Delivery, Revoked, SideFrame, SideResync
from reverie.rooms.errors import RoomDamaged
from reverie.rooms.service import LiveRoom, RoomService
from reverie.rooms.state import hash_token
from reverie.rooms.texts import clean_chat
from reverie.rooms.visibility import Visibility, chat_frame
from reverie.rules.errors import IllegalAction
from reverie.store import StoreUnavailable
from reverie.store.moderation import ModerationStore
from reverie.web.browser_id import person_ids
from reverie.web.limits import (
    CHAT,
    FRAMES,
    Bucket,
    Registry,
    TooDeep,
    check_json_depth,
    client_address,
    scaled,
)
from reverie.web.metrics import Metrics
from reverie.web.moderation import (
    CLOSED_CODE,
    ROOM_CLOSED,
    check_person,
    check_public_content,
    check_public_rate,
)
from reverie.web.reports import file_report, keep_original, kind_of
from reverie.web.settings import Settings

log = logging.getLogger("reverie.ws")

#: Stroke frames waiting for one slow client before they are dropped for one fresh
#: ``canvas`` frame (a few seconds of drawing): memory per connection stays bounded.
MAX_PENDING_DRAWS = 100
#: Replies (acks, errors) waiting for one client before it is cut off.
MAX_PENDING_REPLIES = 200
MAX_STRIKES = 40  # refused frames in a row before a flooding client is cut off
UNAVAILABLE = "The server cannot save moves right now; try again in a moment."
CHAT_BACKLOG = 50
#: Seconds a closed socket's writer has to finish before it is cancelled.
WRITER_GRACE = 1.0
_ENCODER = msgspec.json.Encoder()


def _dumps(frame: dict[str, Any]) -> str:
    return _ENCODER.encode(frame).decode()


class Connection:
    """One open socket in a room."""

    def __init__(
        self,
        ws: WebSocket,
        service: RoomService,
        live: LiveRoom,
        max_frame: int,
        limits: Registry | None = None,
        address: str = "?",
        address_factor: float = 8.0,
        metrics: Metrics | None = None,
    ):
        self.ws = ws
        self.service = service
        self.live = live
        self.max_frame = max_frame
        # Allowances are the seat's and the address's, shared by all their sockets, so
        # that opening more sockets buys nothing.
        self.limits = limits if limits is not None else Registry()
        self.address = address
        self.address_factor = address_factor
        self.metrics = metrics
        self.token_hash: str | None = None
        # The key this socket is counted under in the room's presence: it moves with
        # join, leave and kick (None: counted as a spectator).
        self.counted: str | None = None
        self.is_counted = False
        self.visibility = Visibility(
            service, live, lambda: self.seat, lambda: self.token_hash, me=id(self)
        )
        self.out: deque[str] = deque()
        self.side_out: deque[str] = deque()
        self.side_stale = False
        self.chat: deque[dict[str, Any]] = deque(maxlen=CHAT_BACKLOG)
        self.dirty = False
        self.wake = asyncio.Event()
        self.strikes = 0
        self.overflowed = False
        self.revoked = False  # the seat link this socket used was replaced
        self.closed = False
        self._seat: tuple[int, str | None, int | None] = (-1, None, None)  # version, token
        self.gated: tuple[str, str, str] | None = None  # the seat whose socket cap counts us
        #: This person's browser and address, hashed: a join records them, a ban holds them.
        self.ids: tuple[str, ...] = ()
        #: The operator's reports, bans and approvals (None: an app without them).
        app_state = getattr(getattr(ws, "app", None), "state", None)
        self.moderation: ModerationStore | None = getattr(app_state, "moderation", None)
        #: Seats one address may take (shared by every process), and votes and ballots
        #: per seat (None: no limit).
        self.join_limit: Limit | None = None
        self.vote_limit: Limit | None = None

    def gate_seat(self, cap: int) -> bool:
        """Count this socket against its seat's cap (False: the seat has ``cap`` open)."""
        self.ungate_seat()
        if self.token_hash is None or cap <= 0:  # a spectator, or no cap
            return True
        key = ("sockets", self.live.state.code, self.token_hash)
        if not self.limits.seats.enter(key, cap):
            return False
        self.gated = key
        return True

    def ungate_seat(self) -> None:
        """This socket no longer counts against a seat's cap."""
        if self.gated is not None:
            self.limits.seats.leave(self.gated)
            self.gated = None

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

    @property
    def queued(self) -> bool:
        """Whether this socket's person waits for a bot's seat at the next turn (no seat
        yet, a link that will open one: rooms/takeover.py)."""
        if self.token_hash is None:  # a spectator's socket
            return False
        return self.seat is None and self.service.queued(self.live, self.token_hash)

    # -------------------------------------------------------------- outgoing

    def on_bus(self, message: Delivery) -> None:
        """Bus subscriber: if the filter lets the message through, queue its chat line or
        side channel's frame, or mark the snapshot (or the side channels) stale, or
        close on a revoked link."""
        if not self.visibility.passes(message):
            return
        if isinstance(message, ChatSaid):
            self.chat.append(message.message)
        elif isinstance(message, Revoked):
            self.revoked = True  # the writer says so and closes the socket
        elif isinstance(message, SideResync):
            # Another process's frames were missed: send the whole picture again.
            self.side_out.clear()
            self.side_stale = True
        elif isinstance(message, SideFrame):
            if len(self.side_out) >= MAX_PENDING_DRAWS:
                self.side_out.clear()  # a slow client gets the whole picture once instead
                self.side_stale = True
            elif not self.side_stale:
                self.side_out.append(message.frame)
        else:
            self.dirty = True
        self.wake.set()

    def send(self, frame: dict[str, Any], audience: Audience | None = None) -> None:
        """Queue a frame for this client if the filter admits it (``audience`` None: a
        reply to its own frame). A client that lets its replies pile up past
        ``MAX_PENDING_REPLIES`` is cut off: it does not read what it asks for."""
        if not self.visibility.admits(audience):
            return
        if len(self.out) >= MAX_PENDING_REPLIES:
            self.overflowed = True
            return
        self.out.append(_dumps(frame))
        self.wake.set()

    def error(
        self, ref: int | None, code: str, message: str, params: dict[str, int | str] | None = None
    ) -> None:
        """Queue an error frame for this client (``params``: what a translation needs)."""
        frame: dict[str, object] = {"type": "error", "ref": ref, "code": code, "message": message}
        if params:
            frame["params"] = params
        self.send(frame)

    async def writer(self) -> None:
        """Send queued frames, side-channel frames, chat and the latest snapshot, in that
        order."""
        while not self.closed:
            await self.wake.wait()
            self.wake.clear()
            if self.closed:
                return
            if self.revoked:
                await self._revoke()
                return
            while self.out:
                await self.ws.send_text(self.out.popleft())
            if self.side_stale:
                self.side_stale = False
                self.side_out.clear()
                for frame in self.visibility.channel_frames():
                    await self.ws.send_text(_dumps(frame))
            while self.side_out:
                await self.ws.send_text(self.side_out.popleft())
            if self.chat:
                lines = list(self.chat)
                self.chat.clear()
                await self.ws.send_text(_dumps(chat_frame(lines)))
            if self.dirty:
                self.dirty = False
                queued = self.queued
                if self.counted is not None and self.seat is None and not queued:
                    # Kicked (or the seat left from another tab): a spectator now.
                    await self.move_presence(None)
                seen = self.visibility.state_frame(queued=True) if queued else None
                await self.ws.send_text((seen or self.visibility.state_frame()).decode())
                if self.live.state.closed:  # the operator closed the room: say so, stop
                    with contextlib.suppress(Exception):
                        await self.ws.send_text(_refusal("room_closed", ROOM_CLOSED))
                        await self.ws.close(code=CLOSED_CODE)
                    return

    async def _revoke(self) -> None:
        """The seat's link was replaced from another socket: this one's token is dead.
        Say so and close (4001), rather than quietly watching as a spectator."""
        message = "This seat's link was replaced on another device: open the new link."
        frame = {"type": "error", "ref": None, "code": "link_replaced", "message": message}
        with contextlib.suppress(Exception):
            await self.ws.send_text(_dumps(frame))
            await self.ws.close(code=4001)

    # -------------------------------------------------------------- incoming

    def _buckets(self, kind: Hashable, limit: Limit, cost: float = 1.0) -> list[Bucket]:
        """``kind``'s buckets of this seat (if seated) and of this address."""
        buckets: list[Bucket] = []
        if self.token_hash is not None and self.seat is not None:
            buckets.append((("seat", self.live.state.code, self.token_hash, kind), limit, cost))
        if self.address_factor > 0:  # 0: per-address rates lifted (load tests)
            address_key = ("address", self.address, kind)
            buckets.append((address_key, scaled(limit, self.address_factor), cost))
        return buckets

    async def _allow(self, kind: Hashable, limit: Limit, cost: float = 1.0) -> bool:
        """Spend ``cost`` of ``kind``'s tokens of this seat (if seated) and of this
        address."""
        return await self.limits.allow(*self._buckets(kind, limit, cost))

    async def _accept_rate(self, cmd: Frame) -> bool:
        """Whether the frame fits its allowances: all of them are spent at once (one
        round trip when the buckets are shared between processes), or none."""
        if isinstance(cmd, SideCommand):
            channel = self.live.state.family.channel_for(cmd)
            # A side channel streams many small frames: its own allowance only.
            if channel is None:
                return True
            return await self._allow(("side", channel.name), channel.limit, channel.cost(cmd))
        buckets = self._buckets("frames", FRAMES)
        if isinstance(cmd, GameCommand) and cmd.limit is not None:
            buckets += self._buckets(("move", type(cmd).__name__), cmd.limit)
        elif isinstance(cmd, Chat):
            buckets += self._buckets("chat", CHAT)
        elif isinstance(cmd, VoteKick | Ballot) and self.vote_limit is not None:
            buckets += self._buckets("votes", self.vote_limit)
        elif isinstance(cmd, Join) and self.join_limit is not None and self.address_factor > 0:
            # Per address, whatever the seat: a script taking seat after seat in room
            # after room, or a removed troll trying again and again.
            buckets.append((("joins", self.address), self.join_limit, 1.0))
        return await self.limits.allow(*buckets)

    async def handle(self, raw: str) -> None:
        """Validate and carry out one client frame; errors go to this client only."""
        if len(raw.encode()) > self.max_frame:
            self.strikes += 1
            self.error(None, "too_large", f"Messages are at most {self.max_frame} bytes.")
            return
        try:
            check_json_depth(raw)
            cmd = decoder_for(self.live.state.family).decode(raw)
        except TooDeep as exc:
            # The decoder would recurse once per level into a RecursionError: refuse
            # first, with one line in the log and the socket kept.
            log.warning("refused a frame in room %s from %s: %s", self.live.state.code,
                        self.address, exc)  # fmt: skip
            self.strikes += 1
            self.error(None, "bad_message", f"Malformed message: {exc}")
            return
        except (msgspec.ValidationError, msgspec.DecodeError) as exc:
            self.strikes += 1
            if not await self._allow("frames", FRAMES):
                return
            self.error(None, "bad_message", f"Malformed message: {exc}")
            return
        if not await self._accept_rate(cmd):
            self.strikes += 1
            self.error(cmd.id, "rate_limited", "Slow down: too many messages.")
            return
        try:
            await self._dispatch(cmd)
            self.strikes = 0
        except StoreUnavailable as exc:  # not the client's fault: no strike, socket kept
            log.warning("room %s: %s", self.live.state.code, exc)
            self.error(cmd.id, "unavailable", UNAVAILABLE)
        except RoomDamaged as exc:  # said in the log already; the socket closes after this
            self.error(cmd.id, exc.code, exc.message)
        except (RoomError, IllegalAction) as exc:
            channel = (
                self.live.state.family.channel_for(cmd) if isinstance(cmd, SideCommand) else None
            )
            # Refusals an honest client meets (the turn just ended) are no strikes.
            if channel is None or exc.code not in channel.harmless:
                self.strikes += 1
            self.error(cmd.id, exc.code, exc.message, exc.params)
            if channel is not None and exc.code in channel.resync:
                # The sender's page showed what was refused already: send it what
                # everyone else has.
                for frame in self.visibility.channel_frames(only=channel):
                    self.send(frame)

    async def _dispatch(self, cmd: Frame) -> None:
        if isinstance(cmd, Hello):
            raise RoomError("bad_message", "Already said hello.")
        if isinstance(cmd, Join):
            if self.seat is not None or self.queued:
                raise RoomError("bad_message", "You already have a seat at this table.")
            await check_person(self.moderation, self.ids)  # the operator's site bans
            _seat, token = await self.service.join(self.live, cmd, self.ids)
            await self.move_presence(hash_token(token))
            self.send(self.welcome(token))
            self.send({"type": "ack", "ref": cmd.id, "version": self.live.state.version})
            # The view as this seat, after the ack: the state sent while the presence
            # was being followed up may have gone out before it.
            self.dirty = True
            return
        if isinstance(cmd, Leave) and self.queued and self.token_hash is not None:
            # Out of the queue for a seat at the next turn: a spectator from now on.
            await self.service.leave_queue(self.live, self.token_hash)
            await self.move_presence(None)
            self.send({"type": "ack", "ref": cmd.id, "version": self.live.state.version})
            self.dirty = True
            return
        if isinstance(cmd, NewLink):
            token = await self.service.new_link(self.live, self.seat, id(self), self.token_hash)
            await self.move_presence(hash_token(token))
            self.send(self.welcome(token))
            self.send({"type": "ack", "ref": cmd.id, "version": self.live.state.version})
            self.dirty = True  # as for a join
            return
        room = self.live.state
        if isinstance(cmd, SetPublic) and cmd.public and not room.public:
            await check_public_content(self.moderation, room.options, room.setup)
            await check_public_rate(self.ws.app.state, self.ids, self.address)
        elif isinstance(cmd, SetOptions) and room.public:
            await check_public_content(self.moderation, cmd.options, room.setup)
        if isinstance(cmd, ReportCmd):
            report_id = await file_report(self, cmd)
            version = self.live.state.version
            self.send({"type": "ack", "ref": cmd.id, "version": version, "report": report_id})
            return
        if isinstance(cmd, Chat):
            # Cleaned here, where a line is said, not in the fold that replays old ones.
            cmd = msgspec.structs.replace(cmd, text=clean_chat(cmd.text))
        text = getattr(cmd, "text", None)
        if isinstance(cmd, Chat | GameCommand) and isinstance(text, str):
            # What others read (a chat line, a clue, a guess), at the table's filter level;
            # masked where it is said, like the cleaning above.
            level = self.live.state.text_filter
            masked = word_filter().mask(text, level)
            # The original is kept apart for a report (never in the log, nor shown).
            await keep_original(
                self.moderation,
                self.live.state.code,
                self.token_hash,
                kind_of(cmd),
                masked,
                text,
                time.time(),
            )
            cmd = msgspec.structs.replace(cmd, text=masked)
        if isinstance(cmd, Point) and cmd.move is not None:
            # A clue a teammate would tell is read by the others in the seat: masked too.
            said = cmd.move.get("text")
            if isinstance(said, str):
                masked = word_filter().mask(said, self.live.state.text_filter)
                await keep_original(
                    self.moderation,
                    self.live.state.code,
                    self.token_hash,
                    "clue",
                    masked,
                    said,
                    time.time(),
                )
                cmd = msgspec.structs.replace(cmd, move={**cmd.move, "text": masked})
        if isinstance(cmd, SideCommand):
            await self.service.side(self.live, self.seat, cmd, id(self))
            if cmd.id is not None:
                self.send({"type": "ack", "ref": cmd.id, "version": self.live.state.version})
            return
        started = time.perf_counter()
        version = await self.service.command(self.live, self.seat, cmd, by=self.token_hash)
        if self.metrics is not None:
            self.metrics.fanout.observe(time.perf_counter() - started)
        if self.counted is not None and self.seat is None and not self.queued:
            # Left the table: watches now.
            await self.move_presence(None)
        self.send({"type": "ack", "ref": cmd.id, "version": version})

    def welcome(self, token: str) -> dict[str, Any]:
        """The ``welcome`` frame: the seat link, the seat, and (a team seat) which of
        its members this socket is."""
        member = self.service.member_for(self.live, self.seat, hash_token(token))
        welcome = {"type": "welcome", "token": token, "seat": self.seat, "member": member}
        # Queued for a bot's seat at the next turn: the link opens it then.
        return {**welcome, "queued": True} if self.queued else welcome

    async def move_presence(self, token_hash: str | None) -> None:
        """Count this socket under ``token_hash`` (None: a spectator) instead of what it
        was counted under: after a join, a leave or a kick.

        The room's presence is kept by the key a socket was *counted* under, so the
        same key must be taken away again; a socket that kept its old token after
        leaving once left a stale token in the room (never evicted) and took a
        spectator away that it had never added.
        """
        old = self.counted
        self.token_hash = token_hash
        if token_hash is None:
            self.ungate_seat()
        else:
            self.gate_seat(cap=1 << 30)  # a new token: this is its first socket
        # The service counts at once, before its first await, and then follows up:
        # whenever a close cancels this, ``is_counted`` and ``counted`` say what the
        # final disconnect has to undo, and a move from the writer (a kick) and one
        # from the reader (a join) cannot interleave.
        was_counted = self.is_counted
        self.counted, self.is_counted = token_hash, True
        if was_counted:
            await self.service.move(self.live, old, token_hash)
        else:
            await self.service.connect(self.live, token_hash)


def _per_minute(n: float) -> Limit | None:
    """A limit of ``n`` a minute in bursts of as many (0: none)."""
    return Limit(rate=n / 60, burst=n) if n > 0 else None


def _refusal(code: str, message: str) -> str:
    return _dumps({"type": "error", "ref": None, "code": code, "message": message})


async def room_socket(ws: WebSocket) -> None:
    """The ``/ws/{code}`` endpoint."""
    service: RoomService = ws.app.state.service
    settings: Settings = ws.app.state.settings
    limits: Registry = ws.app.state.limits
    address = client_address(ws.scope)
    await ws.accept()
    per_minute = settings.room_misses_per_minute
    if not await limits.lookups_allowed(address, per_minute):  # guessing codes: hits wait too
        await ws.send_text(
            _refusal("rate_limited", "Too many unknown room codes from here; wait a bit.")
        )
        await ws.close(code=1008)
        return
    try:
        live = await service.get(ws.path_params["code"])
    except StoreUnavailable as exc:
        log.warning("room %s could not be loaded: %s", ws.path_params["code"], exc)
        await ws.send_text(_refusal("unavailable", UNAVAILABLE))
        await ws.close(code=1011)
        return
    except RoomDamaged as exc:  # the log said so once, when the room was closed
        await ws.send_text(_refusal(exc.code, exc.message))
        await ws.close(code=1011)
        return
    if live is None:
        await limits.missed(address, per_minute)
        await ws.send_text(_refusal("unknown_room", "No such room."))
        await ws.close(code=4404)
        return
    if live.state.closed:
        await ws.send_text(_refusal("room_closed", ROOM_CLOSED))
        await ws.close(code=CLOSED_CODE)
        return
    conn = Connection(
        ws,
        service,
        live,
        settings.max_frame,
        limits,
        address,
        settings.address_factor,
        getattr(ws.app.state, "metrics", None),
    )
    conn.ids = person_ids(ws)
    conn.join_limit = _per_minute(settings.joins_per_minute)
    conn.vote_limit = _per_minute(settings.votes_per_minute)
    try:
        hello = await _receive_hello(ws, conn, settings.hello_timeout)
    except (WebSocketDisconnect, TimeoutError):
        return
    if hello is None:
        await ws.close(code=1008)
        return
    # A seat's link, or one queued for a bot's seat at the next turn (rooms/takeover.py).
    held = bool(hello.token) and (
        service.seat_for_token(live, hello.token) is not None
        or service.queued(live, hash_token(hello.token or ""))
    )
    if held:
        conn.token_hash = hash_token(hello.token or "")
        if not conn.gate_seat(settings.max_sockets_per_seat):
            await ws.send_text(
                _refusal(
                    "too_many_connections",
                    f"This seat has {settings.max_sockets_per_seat} connections open already; "
                    "close a tab.",
                )
            )
            await ws.close(code=1008)
            return
    code = live.state.code
    service.bus.subscribe(code, conn.on_bus)
    conn.counted, conn.is_counted = conn.token_hash, True
    await service.connect(live, conn.counted)
    if held and hello.token:
        conn.send(conn.welcome(hello.token))
    for frame in conn.visibility.opening_frames():  # a late joiner sees the drawing so far
        conn.send(frame)
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
            if live.damaged:  # its log turned out damaged: the room is closed
                await asyncio.sleep(0)
                await ws.close(code=1011)
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
        # Let the writer end on its own (it sees ``closed``): a cancelled task keeps an
        # exception whose traceback holds this connection in a reference cycle, which
        # the garbage collector may no longer visit (reverie.web.gcpolicy). Cancel only
        # one stuck sending to a client that stopped reading.
        await asyncio.wait({writer}, timeout=WRITER_GRACE)
        if not writer.done():
            writer.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await writer
        elif not writer.cancelled() and writer.exception() is not None:
            log.debug("writer in room %s ended: %r", code, writer.exception())
        del writer
        conn.ungate_seat()
        if conn.is_counted:
            await service.disconnect(live, conn.counted)
        conn.visibility.release()


async def _receive_hello(ws: WebSocket, conn: Connection, timeout: float) -> Hello | None:
    message = await asyncio.wait_for(ws.receive(), timeout)
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect()
    raw = message.get("text") or (message.get("bytes") or b"").decode("utf-8", "replace")
    try:
        check_json_depth(raw)
        cmd = HELLO_DECODER.decode(raw) if len(raw) <= conn.max_frame else None
    except (msgspec.ValidationError, msgspec.DecodeError, TooDeep):
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
