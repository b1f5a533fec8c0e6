"""Live rooms: the one authority per room.

A command is decided (who may do it), evolved (does it fit the room and the rules),
written to the event log with the version it expects, and only then applied and
published. Bots and phase timers feed their moves through the same path, so everything
that changes a room is in its log and a restarted server resumes it exactly.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import secrets
import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any

import msgspec

from reverie.bots.thinking import think_seconds
from reverie.bus import Bus
from reverie.content.decks import Deck
from reverie.errors import ReverieError
from reverie.games import Admits, Frame, SideChannel, SideCommand
from reverie.rooms.commands import Join, decide
from reverie.rooms.events import (
    DEFAULT_AWAY,
    Acted,
    BotSeat,
    Chatted,
    Created,
    HostChanged,
    Joined,
    RoomEvent,
    TokenRotated,
    decode_event,
    decode_log,
    encode_event,
)
from reverie.rooms.snapshot import state_frames
from reverie.rooms.snapshots import UnusableSnapshot, decode_snapshot, encode_snapshot
from reverie.rooms.state import (
    DEFAULT_BOT_LEVEL,
    RoomError,
    RoomState,
    check_new_name,
    evolve,
    hash_token,
)
from reverie.rooms.visibility import chat_audience
from reverie.store import EventStore, VersionConflict

log = logging.getLogger("reverie.rooms")
_ENCODER = msgspec.json.Encoder()

CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6
#: How long a player must be gone (no open connection) before a bot may take their seat
#: or, for the host, someone else the host role: a dropped phone reconnecting in a few
#: seconds keeps both.
AWAY_GRACE = 60.0
#: A room's fold is snapshotted every this many events, so replaying it reads the latest
#: snapshot and at most this many events (a chatty room's log can grow long).
SNAPSHOT_EVERY = 250
RESUME_WINDOW = 7 * 24 * 3600  # rooms touched in the last week are resumed at start-up
IDLE_EVICT = 15 * 60  # a room nobody watches leaves memory after this long (the log stays)
#: A phase whose deadline passed while no process ran the room still gets this long once
#: it is loaded again, so players who reconnect see the clock before it ends the phase.
MIN_TIMER = 1.0
#: A game that paused with every person gone gives its phase at least this long once
#: someone is back.
RESUME_TIMER = 10.0
#: Waits before trying a failed timeout or bot move again (the store may be back).
RETRY_DELAYS = (0.5, 1.0, 2.0, 5.0, 10.0, 30.0)


def _loop_running() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


def normalise_code(code: str) -> str:
    """Room codes are case-insensitive."""
    return code.strip().upper()


@dataclass
class LiveRoom:
    """A room loaded in this process, with its runtime parts (connections, timers, bots)."""

    state: RoomState
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    connections: dict[str, int] = field(default_factory=dict)  # token hash → open sockets
    # When each seat token's last connection closed (a token never seen since the room
    # was loaded counts from ``loaded_at``).
    gone_since: dict[str, float] = field(default_factory=dict)
    loaded_at: float = 0.0
    spectators: int = 0
    deadline: float | None = None
    deadline_key: tuple[int, int, str, str] | None = None
    timer: asyncio.TimerHandle | None = None
    # When the current game phase began, from the log's event times: a phase's deadline
    # is this plus its timer, so a restart or another process keeps the same deadline.
    phase_started: float = 0.0
    # Failed writes of a timeout or a bot's move in a row (for the retry's backoff).
    failures: int = 0
    snapshot_version: int = 0  # the version of the room's latest snapshot
    # The next look at who has been gone long enough for a stand-in.
    absence_timer: asyncio.TimerHandle | None = None
    bot_tasks: dict[int, asyncio.Task[None]] = field(default_factory=dict)
    # Frames of the current version and presence, built once for every seat watching.
    presence: int = 0
    frame_key: tuple[int, int] = (-1, -1)
    frames: dict[int | None, bytes] = field(default_factory=dict)
    last_active: float = 0.0
    # The game's side channels (the drawing game's canvas), by channel name: memory
    # only, each with the key (say, the turn) its state belongs to.
    channel_keys: dict[str, Hashable] = field(default_factory=dict)
    channel_states: dict[str, Any] = field(default_factory=dict)

    @property
    def connected(self) -> set[int]:
        """Seats with at least one open connection."""
        seats = {p.token_hash: s for s, p in enumerate(self.state.players) if p.token_hash}
        return {seats[t] for t, n in self.connections.items() if n > 0 and t in seats}


class RoomService:
    """Creates, loads and runs rooms on an event store and a bus."""

    def __init__(
        self,
        store: EventStore,
        bus: Bus,
        decks: dict[str, Deck],
        *,
        default_deck: str = "default",
        bot_delay: float = 1.0,
        away_grace: float = AWAY_GRACE,
        snapshot_every: int = SNAPSHOT_EVERY,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.store = store
        self.bus = bus
        self.decks = decks
        self.default_deck = default_deck
        self.bot_delay = bot_delay
        self.away_grace = away_grace
        self.snapshot_every = snapshot_every
        self.clock = clock
        self.rooms: dict[str, LiveRoom] = {}
        self._loading: dict[str, asyncio.Lock] = {}
        self._rng = random.Random()
        self._closed = False

    # ------------------------------------------------------------------ lifecycle

    async def resume_active(self) -> int:
        """Load rooms touched recently so their bots and timers go on after a restart."""
        codes = await self.store.active_rooms(self.clock() - RESUME_WINDOW)
        resumed = 0
        for code in codes:
            try:
                await self.get(code)  # loading a room restarts its bots and timers
                resumed += 1
            except Exception:  # one broken room must not keep the others (or the server) down
                log.exception("room %s could not be resumed", code)
        return resumed

    async def close(self) -> None:
        """Stop bots and timers (the log already holds everything)."""
        self._closed = True
        for live in self.rooms.values():
            if live.timer is not None:
                live.timer.cancel()
            if live.absence_timer is not None:
                live.absence_timer.cancel()
            for task in live.bot_tasks.values():
                task.cancel()
        tasks = [t for live in self.rooms.values() for t in live.bot_tasks.values()]
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    # ------------------------------------------------------------------ rooms

    async def create_room(
        self,
        *,
        name: str,
        color: str,
        variant: str,
        seats: int,
        options: dict[str, Any],
        deck: str | None = None,
        lang: str = "en",
        away_seconds: int | None = DEFAULT_AWAY,
    ) -> tuple[LiveRoom, str]:
        """Open a room with its creator seated as host; returns the room and their token."""
        name = check_new_name(None, name)
        deck_name = deck or self.default_deck
        if deck_name not in self.decks:
            raise RoomError("bad_options", f"There is no deck called {deck_name!r}.")
        token = secrets.token_urlsafe(24)
        now = self.clock()
        for _ in range(20):
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            event = Created(
                code=code,
                variant=variant,
                seats=seats,
                options=options,
                deck=deck_name,
                card_count=self.decks[deck_name].count,
                seed=secrets.randbits(62),
                name=name,
                color=color,
                token_hash=hash_token(token),
                at=now,
                lang=lang,
                away_seconds=away_seconds,
            )
            state = evolve(None, event)  # validates before anything is written
            try:
                await self.store.create(code, encode_event(event), now)
            except VersionConflict:
                continue
            live = LiveRoom(state, last_active=now, phase_started=now, loaded_at=now)
            self.rooms[code] = live
            log.info("room %s created: %s, %d seats, deck %s", code, variant, seats, deck_name)
            return live, token
        raise RuntimeError("could not find a free room code")

    async def get(self, code: str) -> LiveRoom | None:
        """The live room, loading it from the log if needed (None if unknown)."""
        code = normalise_code(code)
        live = self.rooms.get(code)
        if live is not None:
            return live
        lock = self._loading.setdefault(code, asyncio.Lock())
        try:
            async with lock:
                live = self.rooms.get(code)
                if live is None:
                    replayed = await self._replay(code)
                    if replayed is None:
                        return None
                    state, phase_started, snapshot_version = replayed
                    now = self.clock()
                    live = LiveRoom(
                        state,
                        last_active=now,
                        phase_started=phase_started,
                        loaded_at=now,
                        snapshot_version=snapshot_version,
                    )
                    await self._snapshot(live)  # a long tail: replay less next time
                    self.rooms[code] = live
                    # A room back in memory picks up where it was: bots and timers go on.
                    self._after_change(live)
            return live
        finally:
            # Forget the loading lock once nobody holds it (waiters keep their reference),
            # so probing unknown codes cannot grow this map.
            if self._loading.get(code) is lock and not lock.locked():
                del self._loading[code]

    async def evict_idle(self, idle: float = IDLE_EVICT) -> int:
        """Drop rooms nobody has watched or touched for ``idle`` seconds from memory.

        Their logs stay; :meth:`get` loads them again on the next visit. A room with a
        bot about to move or a command in progress stays. Returns how many left memory.
        """
        now = self.clock()
        gone = 0
        for code, live in list(self.rooms.items()):
            busy = live.lock.locked() or live.bot_tasks or live.connections or live.spectators
            if busy or now - live.last_active < idle:
                continue
            if live.timer is not None:
                live.timer.cancel()
            if live.absence_timer is not None:
                live.absence_timer.cancel()
            del self.rooms[code]
            gone += 1
        return gone

    async def run_janitor(self, every: float = 60.0) -> None:
        """Evict idle rooms every ``every`` seconds, until cancelled."""
        while not self._closed:
            await asyncio.sleep(every)
            await self.evict_idle()

    async def _replay(self, code: str) -> tuple[RoomState, float, int] | None:
        """The room from its latest snapshot and the log after it (or the whole log),
        when its current phase began (the time of the event that began it), and the
        version of the snapshot used (0: none)."""
        state: RoomState | None = None
        phase_started = 0.0
        snapshot_version = 0
        snap = await self.store.load_snapshot(code)
        if snap is not None:
            try:
                state, phase_started = decode_snapshot(snap.payload)
            except UnusableSnapshot as exc:
                log.info("snapshot of %s ignored (%s): replaying the whole log", code, exc)
                state = None
        if state is None:
            stored = await self.store.load(code)
            events = decode_log(s.payload for s in stored)
        else:
            snapshot_version = state.version
            stored = await self.store.load(code, after=state.version)
            events = [decode_event(s.payload, state.family) for s in stored]
        for record, event in zip(stored, events, strict=True):
            state = evolve(state, event)
            if state.phase_version == state.version:
                phase_started = record.at
        return None if state is None else (state, phase_started, snapshot_version)

    async def _snapshot(self, live: LiveRoom) -> None:
        """Snapshot the room when enough events have passed since the last one (a failed
        write only costs a longer replay later)."""
        room = live.state
        if room.version - live.snapshot_version < self.snapshot_every:
            return
        live.snapshot_version = room.version
        payload = encode_snapshot(room, live.phase_started)
        try:
            await self.store.save_snapshot(room.code, room.version, payload, self.clock())
        except Exception:
            log.warning("snapshot of %s not written", room.code, exc_info=True)

    def seat_for_token(self, live: LiveRoom, token: str | None) -> int | None:
        """The seat a token holds in this room, if any."""
        if not token:
            return None
        return live.state.seat_of(hash_token(token))

    # ------------------------------------------------------------------ commands

    async def join(self, live: LiveRoom, cmd: Join) -> tuple[int, str]:
        """Seat a spectator; returns their seat and new token."""
        token = secrets.token_urlsafe(24)
        token_hash = hash_token(token)
        async with live.lock:
            name = check_new_name(live.state, cmd.name)  # under the lock: names are unique
            await self._commit_locked(live, Joined(name, cmd.color, token_hash))
            seat = live.state.seat_of(token_hash)
        assert seat is not None
        return seat, token

    async def new_link(self, live: LiveRoom, seat: int | None, sender: int) -> str:
        """Give ``seat`` a new token; the old one stops opening the seat, and the other
        sockets that used it are told (``revoked``) and closed. Returns the new token."""
        if seat is None:
            raise RoomError("not_seated", "Join the table first; spectators have no link.")
        token = secrets.token_urlsafe(24)
        async with live.lock:
            old = live.state.players[seat].token_hash
            await self._commit_locked(live, TokenRotated(seat, hash_token(token)))
        await self.bus.publish(
            live.state.code, {"kind": "revoked", "token_hash": old, "sender": sender}
        )
        return token

    async def command(self, live: LiveRoom, seat: int | None, cmd: Frame) -> int:
        """Do what ``seat`` asks; returns the room version after it, or raises RoomError
        or IllegalAction (nothing changes then)."""
        async with live.lock:
            away = self.away_seats(live)
            event = decide(live.state, seat, cmd, self.clock(), away=away, rng=self._rng)
            await self._commit_locked(live, event)
            return live.state.version

    async def _commit_locked(self, live: LiveRoom, event: RoomEvent) -> None:
        before = live.state
        after = evolve(before, event)
        try:
            now = self.clock()
            await self.store.append(before.code, before.version, encode_event(event), now)
        except VersionConflict:
            # Another process wrote first: take the log as the truth and let the client retry.
            fresh = await self._replay(before.code)
            if fresh is not None:
                live.state, live.phase_started, _ = fresh
                await self.publish_state(live)
            raise RoomError(
                "stale_version", "The table has moved on; look again and retry."
            ) from None
        live.state = after
        if after.phase_version == after.version:
            live.phase_started = now
        if before.status != after.status and after.status != "lobby":
            log.info("room %s: game %d %s", after.code, after.games, after.status)
        await self._snapshot(live)
        live.last_active = self.clock()
        if isinstance(event, Chatted):
            line = after.chat[-1]
            await self.bus.publish(
                before.code,
                {
                    "kind": "chat",
                    "audience": chat_audience(line.team),
                    "message": {
                        "seat": line.seat,
                        "name": line.name,
                        "text": line.text,
                        "at": int(line.at * 1000),
                        "team": line.team,
                    },
                },
            )
        else:
            await self.publish_state(live)
            self._after_change(live)

    async def publish_state(self, live: LiveRoom) -> None:
        """Tell every connection of the room to send a fresh snapshot."""
        await self.bus.publish(live.state.code, {"kind": "state", "version": live.state.version})

    # ------------------------------------------------------------------ presence

    def away_seats(self, live: LiveRoom, grace: float | None = None) -> frozenset[int]:
        """Seats of people with no open connection for at least ``grace`` seconds (the
        server's grace period for handing a seat or the host role by hand)."""
        wait = self.away_grace if grace is None else grace
        now = self.clock()
        away = set()
        for seat, player in enumerate(live.state.players):
            token = player.token_hash
            if token is None or live.connections.get(token, 0) > 0:
                continue
            if now - live.gone_since.get(token, live.loaded_at) >= wait:
                away.add(seat)
        return frozenset(away)

    @staticmethod
    def paused(live: LiveRoom) -> bool:
        """Whether every person at the table is gone: bots do not play on alone, and the
        clock stops, until someone is back."""
        people = [p.token_hash for p in live.state.players if p.token_hash is not None]
        return bool(people) and not any(live.connections.get(t, 0) > 0 for t in people)

    def _stand_ins(self, live: LiveRoom) -> list[RoomEvent]:
        """What the room should do now about people gone past the table's
        ``away_seconds``: a bot for each such seat in a game, and the host role of such a
        host to someone at the table."""
        room = live.state
        if room.away_seconds is None:
            return []
        gone = self.away_seats(live, grace=room.away_seconds)
        events: list[RoomEvent] = []
        if room.status == "playing":
            events += [
                BotSeat(s, on=True, auto=True, level=DEFAULT_BOT_LEVEL)
                for s in sorted(gone)
                if not room.players[s].bot_playing
            ]
        present = [s for s in live.connected if not room.players[s].bot]
        if room.host in gone and present:
            events.append(HostChanged(min(present), takeover=True))
        return events

    def _watch_absence(self, live: LiveRoom) -> None:
        """Look again now if a stand-in is due, else when the next person gone would
        pass the table's ``away_seconds`` (never again for those already handled)."""
        if live.absence_timer is not None:
            live.absence_timer.cancel()
            live.absence_timer = None
        wait = live.state.away_seconds
        if wait is None or self._closed:
            return
        now = self.clock()
        if self._stand_ins(live):
            delay = 0.0
        else:
            due = [
                live.gone_since.get(p.token_hash, live.loaded_at) + wait
                for p in live.state.players
                if p.token_hash is not None and live.connections.get(p.token_hash, 0) == 0
            ]
            later = [d for d in due if d > now]
            if not later:
                return
            delay = min(later) - now + 0.05
        self._call_absence_check(live, delay)

    def _call_absence_check(self, live: LiveRoom, delay: float) -> None:
        if live.absence_timer is not None:
            live.absence_timer.cancel()
        loop = asyncio.get_running_loop()
        live.absence_timer = loop.call_later(
            delay, lambda: loop.create_task(self._absence_check(live))
        )

    async def _absence_check(self, live: LiveRoom) -> None:
        """Carry out the stand-ins due (each commit looks again at who is gone)."""
        async with live.lock:
            room = live.state
            if self._closed:
                return
            for event in self._stand_ins(live):
                try:
                    await self._commit_locked(live, event)
                    live.failures = 0
                except ReverieError as exc:
                    log.info("stand-in in %s not taken: %s", room.code, exc)
                except Exception:
                    # The store failed: look again after the backoff, not at once.
                    delay = self._retry_delay(live)
                    log.exception("stand-in in %s not written; retrying in %.1fs", room.code, delay)
                    self._call_absence_check(live, delay)
                    return
        self._watch_absence(live)

    async def connect(self, live: LiveRoom, token_hash: str | None) -> None:
        """A connection opened for the seat holding ``token_hash`` (None: a spectator).

        Presence is kept by token, not seat number, because lobby seats move when
        someone leaves or the host reorders them.
        """
        was_paused = self.paused(live)
        if token_hash is None:
            live.spectators += 1
        else:
            live.connections[token_hash] = live.connections.get(token_hash, 0) + 1
            live.gone_since.pop(token_hash, None)
        live.presence += 1
        live.last_active = self.clock()
        if token_hash is not None and token_hash == live.state.home_host:
            await self._host_returns(live, token_hash)
        if was_paused and not self.paused(live):
            self._resume(live)
        self._watch_absence(live)
        await self.publish_state(live)

    def _resume(self, live: LiveRoom) -> None:
        """Someone is back: a paused game's bots and clock go on, the phase with at least
        :data:`RESUME_TIMER` left."""
        if live.deadline is not None and live.deadline < self.clock() + RESUME_TIMER:
            live.phase_started += self.clock() + RESUME_TIMER - live.deadline
            live.deadline_key = None  # re-armed below with the moved deadline
        self._after_change(live)

    async def _host_returns(self, live: LiveRoom, token_hash: str) -> None:
        """A host whose role was taken while they were away gets it back."""
        async with live.lock:
            seat = live.state.seat_of(token_hash)
            if live.state.home_host != token_hash or seat is None:
                return
            try:
                await self._commit_locked(live, HostChanged(seat))
            except ReverieError as exc:
                log.info("host of %s not given back: %s", live.state.code, exc)

    async def disconnect(self, live: LiveRoom, token_hash: str | None) -> None:
        """A connection closed."""
        if token_hash is None:
            live.spectators = max(0, live.spectators - 1)
        else:
            left = live.connections.get(token_hash, 0) - 1
            if left > 0:
                live.connections[token_hash] = left
            else:
                live.connections.pop(token_hash, None)
                live.gone_since[token_hash] = self.clock()
                if not self._closed:
                    self._watch_absence(live)
        live.presence += 1
        live.last_active = self.clock()
        if not self._closed:
            await self.publish_state(live)

    def snapshot_json(self, live: LiveRoom, seat: int | None) -> bytes:
        """The encoded ``state`` frame for ``seat``; all seats of a change share one build."""
        key = (live.state.version, live.presence)
        if live.frame_key != key or seat not in live.frames:
            if live.frame_key != key:
                live.frames = {}
                live.frame_key = key
            watching: set[int | None] = set(live.connected)
            if live.spectators:
                watching.add(None)
            wanted = watching | {seat}
            wanted -= live.frames.keys()
            built = state_frames(
                live.state,
                wanted,
                connected=live.connected,
                spectators=live.spectators,
                deadline=live.deadline,
                now=self.clock(),
            )
            for s, frame in built.items():
                live.frames[s] = _ENCODER.encode(frame)
        return live.frames[seat]

    # ------------------------------------------------------------------ timers, bots

    def _after_change(self, live: LiveRoom) -> None:
        if self._closed:
            return
        self._arm_timer(live)
        self._schedule_bots(live)
        self._watch_absence(live)  # a game that starts may need stand-ins at once

    def _arm_timer(self, live: LiveRoom) -> None:
        room = live.state
        timer = None
        if room.game is not None and room.status == "playing":
            timer = room.family.timer(room.game)
        phase = room.phase_key()
        key = None if timer is None or phase is None else (*phase, timer[0])
        if key == live.deadline_key:
            return
        if live.timer is not None:
            live.timer.cancel()
            live.timer = None
        live.deadline_key = key
        live.deadline = None
        live.presence += 1  # the deadline is part of the frames
        if key is None or timer is None:
            return
        live.deadline = live.phase_started + timer[1]
        self._call_time_up(live, key, max(MIN_TIMER, live.deadline - self.clock()))

    def _call_time_up(self, live: LiveRoom, key: tuple[int, int, str, str], delay: float) -> None:
        loop = asyncio.get_running_loop()
        live.timer = loop.call_later(delay, lambda: loop.create_task(self._time_up(live, key)))

    @staticmethod
    def _backoff(live: LiveRoom) -> float:
        """How long to wait after ``live.failures`` failed writes in a row."""
        return RETRY_DELAYS[min(live.failures, len(RETRY_DELAYS)) - 1]

    def _retry_delay(self, live: LiveRoom) -> float:
        live.failures += 1
        return self._backoff(live)

    async def _time_up(self, live: LiveRoom, key: tuple[int, int, str, str]) -> None:
        async with live.lock:
            if live.deadline_key != key or self._closed:
                return
            if self.paused(live):
                return  # nobody is there: the clock waits for someone to come back
            timeout = live.state.family.timeout()
            if timeout is None:
                return
            try:
                await self._commit_locked(live, Acted(timeout))
                live.failures = 0
            except ReverieError as exc:  # the phase ended in the meantime
                log.debug("timeout in %s ignored: %s", live.state.code, exc)
            except Exception:
                # The store failed (disk full, database away): the phase must still end,
                # so try again later rather than leave the table frozen.
                delay = self._retry_delay(live)
                log.exception(
                    "timeout in %s not written; retrying in %.1fs", live.state.code, delay
                )
                if live.deadline_key == key:
                    self._call_time_up(live, key, delay)

    def _schedule_bots(self, live: LiveRoom) -> None:
        room = live.state
        game = room.game
        if game is None or room.status != "playing" or self.paused(live):
            return
        bots = [p.controlled_by_bot for p in room.players]
        for seat in room.family.bot_seats(game, bots):
            if seat in live.bot_tasks:
                continue
            task = asyncio.get_running_loop().create_task(self._bot_move(live, seat))
            live.bot_tasks[seat] = task

    async def _bot_move(self, live: LiveRoom, seat: int) -> None:
        try:
            if live.failures:  # the last write failed: give the store time to come back
                await asyncio.sleep(self._backoff(live))
            elif self.bot_delay > 0:
                await asyncio.sleep(self._think_seconds(live.state))
            else:
                await asyncio.sleep(0)
            async with live.lock:
                room = live.state
                if room.game is None or not room.players[seat].controlled_by_bot:
                    return
                deck = self.decks.get(room.deck)
                level = room.players[seat].bot_level
                # In a thread: a clever bot's first move loads its encoder (seconds), and
                # the event loop serves the other rooms meanwhile.
                action = await asyncio.to_thread(
                    room.family.bot_action, room.game, seat, self._rng, deck, room.lang, level
                )
                if action is None:
                    return
                try:
                    await self._commit_locked(live, Acted(action))
                    live.failures = 0
                except ReverieError as exc:
                    log.info("bot move in %s refused: %s", room.code, exc)
                except Exception:
                    live.failures += 1
                    log.exception("bot move in %s not written; will retry", room.code)
        finally:
            live.bot_tasks.pop(seat, None)
            # A coroutine discarded with a stopped server has no loop to schedule on.
            if not self._closed and _loop_running():
                self._schedule_bots(live)

    def _think_seconds(self, room: RoomState) -> float:
        """How long a bot seems to think: ``bot_delay`` times a human pace for the phase,
        shortened to fit the table's timer."""
        timer = room.family.timer(room.game) if room.game is not None else None
        phase, limit = timer if timer else (None, None)
        return think_seconds(self.bot_delay, phase, limit, self._rng)

    # ------------------------------------------------------------------ side channels

    def _channel_state(self, live: LiveRoom, channel: SideChannel[Any, Any]) -> Any:
        """A channel's state for the game in progress (fresh when its key changes)."""
        room = live.state
        key = channel.key(room.game, room.games)
        if live.channel_keys.get(channel.name) != key:
            live.channel_keys[channel.name] = key
            live.channel_states[channel.name] = channel.new_state()
        return live.channel_states[channel.name]

    async def side(self, live: LiveRoom, seat: int | None, cmd: SideCommand, sender: int) -> None:
        """Take a side-channel frame from ``seat`` and send what it adds to whoever the
        family's rule lets see it.

        Not written to the log: a drawing is as fleeting as the turn. ``sender`` (the
        connection's id) does not get its own frame back.
        """
        room = live.state
        if seat is None:
            raise RoomError("not_seated", "Join the table first; spectators can only watch.")
        channel = room.family.channel_for(cmd)
        if channel is None:
            raise RoomError("bad_message", "That message is not understood here.")
        if room.game is None or room.status != "playing":
            raise RoomError("wrong_phase", "No game is being played.")
        state = self._channel_state(live, channel)
        frame, audience = channel.accept(room.game, room.games, state, seat, cmd)
        live.last_active = self.clock()
        await self.bus.publish(
            room.code,
            {
                "kind": "side",
                "audience": audience,
                "sender": sender,
                "frame": _ENCODER.encode(frame).decode(),
            },
        )

    def channel_frames(
        self, live: LiveRoom, admits: Admits, only: SideChannel[Any, Any] | None = None
    ) -> list[dict[str, Any]]:
        """Every side channel of the game in progress (or ``only`` that one) as one frame
        each, holding only what ``admits`` lets through (a late joiner sees the whole
        drawing so far)."""
        room = live.state
        if room.game is None or room.status != "playing":
            return []
        frames = []
        for channel in room.family.channels:
            if only is not None and channel is not only:
                continue
            state = self._channel_state(live, channel)
            frame = channel.replay(room.game, room.games, state, admits)
            if frame is not None:
                frames.append(frame)
        return frames
