"""Live rooms: commands in, events to the log, news out.

A command is decided (who may do it), evolved (does it fit the room and the rules),
written to the event log with the version it expects, and only then applied and
published. Bots and phase timers feed their moves through the same path, so everything
that changes a room is in its log and a restarted server resumes it exactly.

Several processes may serve one room (a shared bus): each keeps a copy, any of them
takes commands, and the log decides. A write that finds its version taken catches up
from the log and decides again; what a process commits it broadcasts, and the others
apply it to their copy (or reload from the log when they see a gap). Only the process
holding the room's lease runs its timers, bots and stand-ins.
"""

from __future__ import annotations

import asyncio
import logging
import random
import re
import secrets
import time
from collections.abc import Callable, Mapping
from typing import Any

import msgspec

from reverie.bots.thinking import think_seconds
from reverie.bus import Bus, BusUnavailable
from reverie.bus.leases import Leases, LocalLeases
from reverie.content.custom_words import SHELF as WORD_SHELF
from reverie.content.decks import DEFAULT_DECK, Deck
from reverie.errors import ReverieError
from reverie.games import Admits, Frame, SideChannel, SideCommand
from reverie.rooms.commands import Join, SetOptions, decide, decoder_for
from reverie.rooms.errors import RoomDamaged
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
from reverie.rooms.live import LiveRoom, Presence, PresenceBatch
from reverie.rooms.snapshot import state_frames
from reverie.rooms.snapshots import UnusableSnapshot, decode_snapshot, encode_snapshot
from reverie.rooms.state import (
    LANGUAGES,
    RoomError,
    RoomState,
    check_new_name,
    evolve,
    hash_token,
    stand_in_level,
)
from reverie.rooms.visibility import chat_audience
from reverie.store import EventStore, StoreUnavailable, VersionConflict

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
#: Times a command is decided again after another process wrote first.
CONFLICT_RETRIES = 5
#: Seconds the shutdown waits for the rooms' tasks to end once cancelled.
CLOSE_WAIT = 5.0

__all__ = ["LiveRoom", "RoomService", "normalise_code"]


def _loop_running() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


def _always(event: RoomEvent) -> Callable[[RoomState], RoomEvent]:
    """A decision that does not depend on the room (a stand-in worked out before)."""
    return lambda _room: event


def _count(live: LiveRoom, token_hash: str | None) -> None:
    """One more open connection for the seat token (None: a spectator)."""
    if token_hash is None:
        live.spectators += 1
    else:
        live.connections[token_hash] = live.connections.get(token_hash, 0) + 1


def _uncount(live: LiveRoom, token_hash: str | None) -> None:
    """One connection fewer."""
    if token_hash is None:
        live.spectators = max(0, live.spectators - 1)
    else:
        left = live.connections.get(token_hash, 0) - 1
        if left > 0:
            live.connections[token_hash] = left
        else:
            live.connections.pop(token_hash, None)


def normalise_code(code: str) -> str:
    """Room codes are case-insensitive."""
    return code.strip().upper()


#: A stored word list's id (``reverie.web.words_api``).
WORD_LIST_ID = re.compile(r"^w-[a-z2-7]{26}$")


async def check_word_list(options: Mapping[str, Any]) -> None:
    """Refuse options naming a word list of the table's own (the drawing game's
    ``words``) that does not exist, when the room is opened or its options change: once
    accepted, such a room would answer "still being loaded" at every start."""
    list_id = options.get("words") if isinstance(options, Mapping) else None
    # A malformed id is the options' own check (``bad_options``): no read for it.
    if isinstance(list_id, str) and WORD_LIST_ID.match(list_id) is None:
        return
    if isinstance(list_id, str) and await WORD_SHELF.fetch(list_id) is None:
        raise RoomError("unknown_words", "There is no such word list.")


class RoomService:
    """Creates, loads and runs rooms on an event store and a bus."""

    def __init__(
        self,
        store: EventStore,
        bus: Bus,
        decks: Mapping[str, Deck],
        *,
        default_deck: str = DEFAULT_DECK,
        bot_delay: float = 1.0,
        away_grace: float = AWAY_GRACE,
        snapshot_every: int = SNAPSHOT_EVERY,
        clock: Callable[[], float] = time.time,
        leases: Leases | None = None,
    ) -> None:
        self.store = store
        self.bus = bus
        self.decks = decks
        self.default_deck = default_deck
        self.bot_delay = bot_delay
        self.away_grace = away_grace
        self.snapshot_every = snapshot_every
        self.clock = clock
        self.leases: Leases = leases if leases is not None else LocalLeases()
        self.rooms: dict[str, LiveRoom] = {}
        self._loading: dict[str, asyncio.Lock] = {}
        #: Rooms whose log cannot be replayed, closed until the server restarts (each is
        #: said once, in one log line).
        self.damaged: dict[str, RoomDamaged] = {}
        self._rng = random.Random()
        self._closed = False
        #: Counters for the metrics (see reverie.web.metrics).
        self.stats: dict[str, int] = {
            "actions": 0,
            "conflicts": 0,
            "catch_ups": 0,
            "bus_errors": 0,
            "store_errors": 0,
            "leases_taken": 0,
            "leases_lost": 0,
            "leases_handed": 0,
            "presence_batches": 0,
        }
        bus.on_message(self._on_remote)

    # ------------------------------------------------------------------ lifecycle

    async def resume_active(self) -> int:
        """Load rooms touched recently so their bots and timers go on after a restart."""
        codes = await self.store.active_rooms(self.clock() - RESUME_WINDOW)
        resumed = 0
        for code in codes:
            try:
                await self.get(code)  # loading a room restarts its bots and timers
                resumed += 1
            except RoomDamaged:
                pass  # closed, and said in one line already
            except Exception:  # one broken room must not keep the others (or the server) down
                log.exception("room %s could not be resumed", code)
        return resumed

    def closing(self) -> None:
        """The server is stopping: the background loops (leases, janitor) end at their
        next look, even if a library swallowed their cancellation."""
        self._closed = True

    async def close(self) -> None:
        """Stop bots and timers and give up the leases (the log holds everything)."""
        self._closed = True
        for live in self.rooms.values():
            self._stop_runners(live)
            if live.inbox_task is not None:
                live.inbox_task.cancel()
        tasks = [t for live in self.rooms.values() for t in live.bot_tasks.values()]
        tasks += [live.inbox_task for live in self.rooms.values() if live.inbox_task]
        if tasks:
            # Bounded: a task that ignores its cancellation must not hold the shutdown.
            done, stuck = await asyncio.wait(tasks, timeout=CLOSE_WAIT)
            for task in done:
                if not task.cancelled() and task.exception() is not None:
                    log.debug("task ended with %r", task.exception())
            if stuck:
                log.warning("%d room task(s) still running at shutdown", len(stuck))
        # Every room's, not only those running here: a lease taken just after Redis
        # started empty is in Redis before it counts here (the script releases only
        # what is this process's).
        held = list(self.rooms)
        if held and self.bus.shared:
            await self.leases.release_many(held)

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
        time_factor: int = 1,
        text_filter: str = "mild",
    ) -> tuple[LiveRoom, str]:
        """Open a room with its creator seated as host; returns the room and their token."""
        name = check_new_name(None, name, text_filter)
        if lang not in LANGUAGES:  # the fold reads an unknown one as English (old logs)
            raise RoomError(
                "bad_language", f"The table's language must be one of {', '.join(LANGUAGES)}."
            )
        await check_word_list(options)
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
                time_factor=time_factor,
                text_filter=text_filter,
            )
            state = evolve(None, event)  # validates before anything is written
            try:
                await self.store.create(code, encode_event(event), now)
            except VersionConflict:
                continue
            live = LiveRoom(state, last_active=now, phase_started=now, loaded_at=now)
            await self.bus.watch(code)
            live.leased = await self.leases.take(code)
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
        if code in self.damaged:
            raise self.damaged[code]
        lock = self._loading.setdefault(code, asyncio.Lock())
        try:
            async with lock:
                live = self.rooms.get(code)
                if live is None:
                    live = await self._load(code)
            return live
        finally:
            # Forget the loading lock once nobody holds it (waiters keep their reference),
            # so probing unknown codes cannot grow this map.
            if self._loading.get(code) is lock and not lock.locked():
                del self._loading[code]

    async def _load(self, code: str) -> LiveRoom | None:
        # Listen before reading, so nothing written meanwhile by another process is
        # missed: what arrives before the room is in memory is caught up below.
        if self.bus.shared:
            await self.bus.watch(code)
        try:
            replayed = await self._replay(code)
        except RoomDamaged:
            if self.bus.shared:
                await self.bus.unwatch(code)
            raise
        if replayed is None:
            if self.bus.shared:
                await self.bus.unwatch(code)
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
        if self.bus.shared:
            async with live.lock:
                await self._catch_up(live)
                await self._load_channels(live)
            await self._broadcast(live, {"k": "who"})  # the others say who they hold
        live.leased = await self.leases.take(code)
        # A room back in memory picks up where it was: bots and timers go on.
        self._after_change(live)
        return live

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
            self._stop_runners(live)
            del self.rooms[code]
            if self.bus.shared:
                await self.bus.unwatch(code)
                await self.leases.release(code)  # if it is this process's (see close)
            gone += 1
        return gone

    async def run_janitor(self, every: float = 60.0) -> None:
        """Evict idle rooms every ``every`` seconds, until cancelled."""
        while not self._closed:
            await asyncio.sleep(every)
            await self.evict_idle()

    async def run_leases(self) -> None:
        """Take or renew the lease of every room in memory, a few times per lease
        period, until cancelled: a room whose holder died moves here within the lease
        time (with one process every lease is held and this is not run)."""
        every = self.leases.seconds / 4
        while not self._closed:
            await self._poll_if_deaf()
            await self._resend_heads()
            codes = []
            for code, here in list(self.rooms.items()):
                if self._lease_belongs_elsewhere(here):
                    if here.leased:
                        await self._hand_lease_over(code, here)
                    continue
                codes.append(code)
            # All at once: with Redis, one round trip renews every room's lease.
            taken = await self.leases.take_many(codes)
            for code, held in zip(codes, taken, strict=True):
                live = self.rooms.get(code)
                if live is None or self._closed:
                    continue
                if held and not live.leased:
                    live.leased = True
                    self.stats["leases_taken"] += 1
                    log.info("room %s: lease taken; its timers and bots run here", code)
                    async with live.lock:
                        await self._catch_up(live)
                    self._after_change(live)
                elif not held and live.leased:
                    live.leased = False
                    self.stats["leases_lost"] += 1
                    # Another process holds it, or Redis was away for the whole lease.
                    log.info("room %s: lease lost; its timers and bots stop here", code)
                    self._stop_runners(live)
            await asyncio.sleep(every)

    @staticmethod
    def _lease_belongs_elsewhere(live: LiveRoom) -> bool:
        """Whether the room's timers and bots should run in another process: none of
        its sockets are here and another process has some (the proxy sends a room's
        sockets to one process; the room may have been created or resumed here)."""
        if live.spectators or any(live.connections.values()):
            return False
        return any(p.spectators or any(p.tokens.values()) for p in live.remote.values())

    async def _hand_lease_over(self, code: str, live: LiveRoom) -> None:
        """Give the lease up so the process with the room's sockets takes it on its next
        round: its bots' moves and timers are then decided where the players are."""
        live.leased = False
        self._stop_runners(live)
        self.stats["leases_handed"] += 1
        await self.leases.release(code)
        log.info("room %s: lease handed to the process with its players", code)

    async def _resend_heads(self) -> None:
        """Rooms whose news could not be sent: say how far their log goes, so the other
        processes catch up from it."""
        for live in list(self.rooms.values()):
            if live.unsent:
                live.unsent = False
                await self._broadcast(live, {"k": "head", "v": live.state.version})
                await self._broadcast_presence(live)

    async def _poll_if_deaf(self) -> None:
        """While the bus is down, nothing tells this process what the others commit:
        read the log of every room someone watches here instead, so that players see
        the others' moves a moment late rather than not at all."""
        try:
            await self.bus.check()
            return
        except BusUnavailable:
            pass
        for live in list(self.rooms.values()):
            if live.connections or live.spectators:
                async with live.lock:
                    await self._catch_up(live)

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
        else:
            snapshot_version = state.version
            stored = await self.store.load(code, after=state.version)
        for record in stored:
            try:
                if state is None:
                    event = decode_log([record.payload])[0]
                else:
                    event = decode_event(record.payload, state.family)
                state = evolve(state, event)
            except Exception as exc:  # a damaged event: this room closes, not the server
                raise self._quarantine(code, record.version, exc) from None
            if state.phase_version == state.version:
                phase_started = record.at
        return None if state is None else (state, phase_started, snapshot_version)

    def _quarantine(self, code: str, version: int, exc: Exception) -> RoomDamaged:
        """Close a room whose log cannot be replayed: it leaves memory (its timers and
        bots stop), every later visit gets ``room_damaged`` without reading the log
        again, and the operator is told once, in one line. Returns the error to raise."""
        reason = " ".join(str(exc).split())[:200] or type(exc).__name__
        damaged = RoomDamaged(code, version, f"{type(exc).__name__}: {reason}")
        if code not in self.damaged:
            self.damaged[code] = damaged
            log.error(
                "room %s is damaged: event %d of its log cannot be replayed (%s); the "
                "room is closed until its log is repaired and the server restarted, "
                "other rooms go on",
                code,
                version,
                damaged.reason,
            )
        live = self.rooms.pop(code, None)
        if live is not None:
            self._stop_runners(live)
        return self.damaged[code]

    async def _catch_up(self, live: LiveRoom) -> bool:
        """Apply what the log holds past this copy of the room (another process wrote
        it); under the room's lock. Returns whether anything changed. A store that
        fails leaves the copy as it is (the next command or message tries again)."""
        room = live.state
        try:
            stored = await self.store.load(room.code, after=room.version)
        except StoreUnavailable as exc:
            log.warning("room %s not caught up: %s", room.code, exc)
            return False
        for record in stored:
            if record.version != live.state.version + 1:
                break  # cannot happen with a sound store; the next catch-up retries
            try:
                event = decode_event(record.payload, room.family)
                after = evolve(live.state, event)
            except Exception as exc:  # a damaged event: this room closes, not the server
                self._quarantine(room.code, record.version, exc)
                live.damaged = True
                return False
            self._apply(live, event, record.at, local=False, after=after)
        if stored:
            self.stats["catch_ups"] += 1
            self._changed(live)
        return bool(stored)

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
            # Under the lock, and again after a conflict: names are unique.
            await self._commit(
                live, lambda room: Joined(check_new_name(room, cmd.name), cmd.color, token_hash)
            )
            seat = live.state.seat_of(token_hash)
            self.stats["actions"] += 1
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
            await self._commit(live, lambda room: TokenRotated(seat, hash_token(token)))
            self.stats["actions"] += 1
        self.bus.deliver(live.state.code, {"kind": "revoked", "token_hash": old, "sender": sender})
        return token

    async def command(self, live: LiveRoom, seat: int | None, cmd: Frame) -> int:
        """Do what ``seat`` asks; returns the room version after it, or raises RoomError
        or IllegalAction (nothing changes then)."""
        if isinstance(cmd, SetOptions):
            await check_word_list(cmd.options)
        async with live.lock:
            await self._commit(
                live,
                lambda room: decide(
                    room, seat, cmd, self.clock(), away=self.away_seats(live), rng=self._rng
                ),
            )
            self.stats["actions"] += 1
            return live.state.version

    async def _commit(self, live: LiveRoom, make: Callable[[RoomState], RoomEvent]) -> RoomEvent:
        """Write the event ``make`` decides on the room as this process knows it; when
        another process wrote first, catch up from the log and decide again (``make``
        may refuse then: the phase moved on). Under the room's lock."""
        for _ in range(CONFLICT_RETRIES):
            if live.damaged:
                raise self.damaged[live.state.code]
            event = make(live.state)
            try:
                await self._commit_locked(live, event)
                return event
            except VersionConflict:
                self.stats["conflicts"] += 1
                if not await self._catch_up(live):
                    # The store lost a race with itself or cannot be read: give up now.
                    break
        raise RoomError("stale_version", "The table has moved on; look again and retry.")

    async def _commit_locked(self, live: LiveRoom, event: RoomEvent) -> None:
        """Append ``event`` at the next version (raises ``VersionConflict`` and changes
        nothing if that version is taken), then apply and publish it."""
        before = live.state
        after = evolve(before, event)
        now = self.clock()
        payload = encode_event(event)
        try:
            await self.store.append(before.code, before.version, payload, now)
        except StoreUnavailable:
            self.stats["store_errors"] += 1
            raise
        self._apply(live, event, now, local=True, after=after)
        if before.status != after.status and after.status != "lobby":
            log.info("room %s: game %d %s", after.code, after.games, after.status)
        await self._snapshot(live)
        live.last_active = self.clock()
        if self.bus.shared:
            message = {"k": "ev", "v": after.version, "at": now, "e": payload.decode()}
            await self._broadcast(live, message)
        self._changed(live)

    def _apply(
        self,
        live: LiveRoom,
        event: RoomEvent,
        at: float,
        *,
        local: bool,
        after: RoomState | None = None,
    ) -> None:
        """Fold an event written to the log (here, or by another process) into the
        live room, and tell this process's connections what only it says (a chat line,
        a revoked link)."""
        before = live.state
        live.state = after if after is not None else evolve(before, event)
        if live.state.phase_version == live.state.version:
            live.phase_started = at
        code = before.code
        if isinstance(event, Chatted):
            line = live.state.chat[-1]
            self.bus.deliver(
                code,
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
        elif isinstance(event, TokenRotated) and not local:
            # Sockets here that used the old link close (the writer told its own).
            old = before.players[event.seat].token_hash
            self.bus.deliver(code, {"kind": "revoked", "token_hash": old, "sender": None})

    def _changed(self, live: LiveRoom) -> None:
        """The room moved on: connections here send a fresh view; timers and bots look
        again."""
        self.publish_state(live)
        self._after_change(live)

    def publish_state(self, live: LiveRoom) -> None:
        """Tell every connection of the room in this process to send a fresh snapshot."""
        self.bus.deliver(live.state.code, {"kind": "state", "version": live.state.version})

    async def _broadcast(self, live: LiveRoom, message: dict[str, Any]) -> None:
        """Tell the other processes (a bus that is down only delays them: they reload
        the room from the log when it is back)."""
        if not self.bus.shared:
            return
        try:
            await self.bus.broadcast(live.state.code, message)
        except BusUnavailable as exc:
            self.stats["bus_errors"] += 1
            # The others would wait for news that never comes: tell them to read the
            # log once the bus is back (see run_leases).
            live.unsent = True
            log.warning("room %s: %s", live.state.code, exc)

    # ------------------------------------------------------------------ other processes

    def _on_remote(self, code: str | None, message: dict[str, Any]) -> None:
        """A message from another process: queue it for the room's inbox task (one
        room's messages are handled in order, a slow one delays no other room)."""
        if code is None:
            if message.get("k") == "gone":
                self._process_gone(str(message.get("pid")))
            return
        live = self.rooms.get(code)
        if live is None or self._closed:
            return
        # Strokes are most of the traffic between processes: the next stroke of the
        # turn goes straight to the connections here.
        if message.get("k") == "side" and self._remote_side_now(live, message):
            return
        live.inbox.append(message)
        if live.inbox_task is None or live.inbox_task.done():
            live.inbox_task = asyncio.get_running_loop().create_task(self._drain(live))

    async def _drain(self, live: LiveRoom) -> None:
        while live.inbox and not self._closed:
            message = live.inbox.popleft()
            try:
                await self._handle_remote(live, message)
            except Exception:  # one bad message must not stop the room's inbox
                log.exception("room %s: message %s not handled", live.state.code, message.get("k"))

    async def _handle_remote(self, live: LiveRoom, message: dict[str, Any]) -> None:
        kind = message.get("k")
        pid = str(message.get("pid"))
        if kind == "ev":
            async with live.lock:
                version = int(message["v"])
                if version <= live.state.version:
                    return  # caught up already
                if version == live.state.version + 1:
                    payload = str(message["e"]).encode()
                    event = decode_event(payload, live.state.family)
                    self._apply(live, event, float(message["at"]), local=False)
                    self._changed(live)
                else:  # a gap: messages were lost, the log has them
                    await self._catch_up(live)
        elif kind == "head":
            if int(message["v"]) > live.state.version:
                async with live.lock:
                    await self._catch_up(live)
        elif kind == "presence":
            tokens = message.get("tokens") or {}
            spectators = int(message.get("spectators") or 0)
            presence = Presence({str(t): int(n) for t, n in tokens.items()}, spectators)

            def said() -> None:
                live.remote[pid] = presence

            await self._update_presence(live, said)
        elif kind == "presence_gone":
            await self._update_presence(live, lambda: live.remote.pop(pid, None))
        elif kind == "who":
            await self._broadcast_presence(live)
        elif kind == "side":
            await self._remote_side(live, message)
        elif kind == "resync":
            async with live.lock:
                await self._catch_up(live)
                await self._load_channels(live)
            self.bus.deliver(live.state.code, {"kind": "side_resync"})
            await self._broadcast(live, {"k": "who"})

    def _process_gone(self, pid: str) -> None:
        """Another process stopped: its sockets are gone from every room."""
        for live in self.rooms.values():
            if pid in live.remote:
                live.inbox.append({"k": "presence_gone", "pid": pid})
                if live.inbox_task is None or live.inbox_task.done():
                    live.inbox_task = asyncio.get_running_loop().create_task(self._drain(live))

    async def _broadcast_presence(self, live: LiveRoom) -> None:
        if self.bus.shared:
            await self._broadcast(
                live,
                {"k": "presence", "tokens": dict(live.connections), "spectators": live.spectators},
            )

    # ------------------------------------------------------------------ presence

    def away_seats(self, live: LiveRoom, grace: float | None = None) -> frozenset[int]:
        """Seats of people with no open connection for at least ``grace`` seconds (the
        server's grace period for handing a seat or the host role by hand)."""
        wait = self.away_grace if grace is None else grace
        now = self.clock()
        away = set()
        for seat, player in enumerate(live.state.players):
            token = player.token_hash
            if token is None or live.sockets(token) > 0:
                continue
            if now - live.gone_since.get(token, live.loaded_at) >= wait:
                away.add(seat)
        return frozenset(away)

    @staticmethod
    def paused(live: LiveRoom) -> bool:
        """Whether every person at the table is gone: bots do not play on alone, and the
        clock stops, until someone is back."""
        people = [p.token_hash for p in live.state.players if p.token_hash is not None]
        return bool(people) and not any(live.sockets(t) > 0 for t in people)

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
                BotSeat(s, on=True, auto=True, level=stand_in_level(room))
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
        if wait is None or self._closed or not live.leased:
            return
        now = self.clock()
        if self._stand_ins(live):
            delay = 0.0
        else:
            due = [
                live.gone_since.get(p.token_hash, live.loaded_at) + wait
                for p in live.state.players
                if p.token_hash is not None and live.sockets(p.token_hash) == 0
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
            if self._closed or not self._holds_lease(live):
                return
            for event in self._stand_ins(live):
                try:
                    await self._commit(live, _always(event))
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

    async def _update_presence(
        self, live: LiveRoom, change: Callable[[], object], *, tell_others: bool = False
    ) -> None:
        """Apply ``change`` to who is connected (here or in another process) now, and
        wait for what follows: when each seat was last seen, a paused game resuming,
        the host getting the role back, stand-ins, a fresh view for everyone, and (if
        ``tell_others``) this process's presence sent to the others.

        What follows is done once for all the changes made to the room in the same turn
        of the event loop (:class:`~reverie.rooms.live.PresenceBatch`): a shutdown that
        closes every socket, or a crowd reconnecting, costs one follow-up per room, not
        one per socket."""
        batch = live.presence_batch
        if batch is None:
            loop = asyncio.get_running_loop()
            batch = PresenceBatch(self.paused(live), live.present_tokens(), loop.create_future())
            live.presence_batch = batch
            batch.task = loop.create_task(self._follow_presence(live, batch))
        change()
        batch.changes += 1
        batch.tell_others = batch.tell_others or tell_others
        # Shielded: a caller cancelled (its socket dropped) must not cancel the others'.
        await asyncio.shield(batch.done)

    async def _follow_presence(self, live: LiveRoom, batch: PresenceBatch) -> None:
        """Follow a batch of presence changes up (see :meth:`_update_presence`)."""
        try:
            await asyncio.sleep(0)  # the changes of this turn join the batch meanwhile
            live.presence_batch = None  # changes from now on start the next batch
            self.stats["presence_batches"] += 1
            after = live.present_tokens()
            now = self.clock()
            for token in batch.before - after:
                live.gone_since[token] = now
            for token in after - batch.before:
                live.gone_since.pop(token, None)
            live.presence += 1
            live.last_active = now
            home = live.state.home_host
            if home is not None and home in after - batch.before and live.leased:
                await self._host_returns(live, home)
            if batch.was_paused and not self.paused(live):
                self._resume(live)
            if not self._closed:
                self._watch_absence(live)
                self.publish_state(live)
                if batch.tell_others:
                    await self._broadcast_presence(live)
        except Exception:  # the sockets that changed must not fail for a follow-up
            log.exception("room %s: presence change not followed up", live.state.code)
        finally:
            if not batch.done.done():
                batch.done.set_result(None)

    async def connect(self, live: LiveRoom, token_hash: str | None) -> None:
        """A connection opened for the seat holding ``token_hash`` (None: a spectator).

        Presence is kept by token, not seat number, because lobby seats move when
        someone leaves or the host reorders them.
        """
        await self._update_presence(live, lambda: _count(live, token_hash), tell_others=True)

    async def move(self, live: LiveRoom, old: str | None, new: str | None) -> None:
        """A connection counted under ``old`` is counted under ``new`` now (a join, a
        leave, a kick): one change, made at once, so that a socket's writer and reader
        moving it at the same moment cannot interleave their counts."""

        def change() -> None:
            _uncount(live, old)
            _count(live, new)

        await self._update_presence(live, change, tell_others=True)

    def _resume(self, live: LiveRoom) -> None:
        """Someone is back: a paused game's bots and clock go on, the phase with at least
        :data:`RESUME_TIMER` left."""
        if live.deadline is not None and live.deadline < self.clock() + RESUME_TIMER:
            live.phase_started += self.clock() + RESUME_TIMER - live.deadline
            live.deadline_key = None  # re-armed below with the moved deadline
        self._after_change(live)

    async def _host_returns(self, live: LiveRoom, token_hash: str) -> None:
        """A host whose role was taken while they were away gets it back."""

        def give_back(room: RoomState) -> RoomEvent:
            seat = room.seat_of(token_hash)
            if room.home_host != token_hash or seat is None:
                raise RoomError("bad_message", "The host role was settled meanwhile.")
            return HostChanged(seat)

        async with live.lock:
            try:
                await self._commit(live, give_back)
            except ReverieError as exc:
                log.info("host of %s not given back: %s", live.state.code, exc)

    async def disconnect(self, live: LiveRoom, token_hash: str | None) -> None:
        """A connection closed."""
        await self._update_presence(live, lambda: _uncount(live, token_hash), tell_others=True)

    def snapshot_json(self, live: LiveRoom, seat: int | None) -> bytes:
        """The encoded ``state`` frame for ``seat``; all seats of a change share one build."""
        key = (live.state.version, live.presence)
        if live.frame_key != key or seat not in live.frames:
            if live.frame_key != key:
                live.frames = {}
                live.frame_key = key
            connected = live.connected
            watching: set[int | None] = set(connected)
            if live.spectators:
                watching.add(None)
            wanted = watching | {seat}
            wanted -= live.frames.keys()
            built = state_frames(
                live.state,
                wanted,
                connected=connected,
                spectators=live.all_spectators,
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

    def _stop_runners(self, live: LiveRoom) -> None:
        """Cancel the room's timers and bots here (the lease moved, or the room left
        memory)."""
        if live.timer is not None:
            live.timer.cancel()
            live.timer = None
        if live.absence_timer is not None:
            live.absence_timer.cancel()
            live.absence_timer = None
        current = asyncio.current_task()
        for task in live.bot_tasks.values():
            if task is not current:  # a bot that finds the lease gone just returns
                task.cancel()

    def _holds_lease(self, live: LiveRoom) -> bool:
        """Whether a timer, bot or stand-in may act in the room now: this process holds
        its lease, and the lease surely has not run out since its last renewal (while
        Redis is away the room runs on until then, by this process's own clock, and no
        longer: another process may take the lease after that). A lease found run out
        is let go here, as the next round of :meth:`run_leases` would."""
        if not live.leased:
            return False
        code = live.state.code
        if self.leases.holds(code):
            return True
        live.leased = False
        self.stats["leases_lost"] += 1
        log.info("room %s: lease ran out unrenewed; its timers and bots wait", code)
        self._stop_runners(live)
        return False

    def _arm_timer(self, live: LiveRoom) -> None:
        """Work out the phase's deadline (every process shows it) and, in the process
        holding the lease, set the timer that ends the phase."""
        room = live.state
        timer = room.timer()  # the table's time factor included
        phase = room.phase_key()
        key = None if timer is None or phase is None else (*phase, timer[0])
        if key == live.deadline_key and (key is None or (live.timer is not None) == live.leased):
            return
        if live.timer is not None:
            live.timer.cancel()
            live.timer = None
        if key != live.deadline_key:
            live.presence += 1  # the deadline is part of the frames
        live.deadline_key = key
        live.deadline = None
        if key is None or timer is None:
            return
        live.deadline = live.phase_started + timer[1]
        if live.leased:
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
            if live.deadline_key != key or self._closed or not self._holds_lease(live):
                return
            if self.paused(live):
                return  # nobody is there: the clock waits for someone to come back
            timeout = live.state.family.timeout()
            if timeout is None:
                return

            def time_is_up(room: RoomState) -> RoomEvent:
                if live.deadline_key != key:
                    raise RoomError("wrong_phase", "The phase ended meanwhile.")
                return Acted(timeout)

            try:
                await self._commit(live, time_is_up)
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
        if game is None or room.status != "playing" or self.paused(live) or not live.leased:
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
                if not self._holds_lease(live) or room.game is None:
                    return
                if not room.players[seat].controlled_by_bot:
                    return
                deck = self.decks.get(room.deck)
                level = room.players[seat].bot_level
                # In a thread: a clever bot's first move loads its encoder (seconds), and
                # the event loop serves the other rooms meanwhile.
                action = await asyncio.to_thread(
                    room.family.bot_action, room.game, seat, self._rng, deck, room.lang, level
                )
                # The bot thought in a thread (seconds, the first time): the lease may
                # have run out meanwhile.
                if action is None or not self._holds_lease(live):
                    return
                decided_on = room.version

                def bot_move(now: RoomState) -> RoomEvent:
                    # Decided on the room as it was: if another process moved it on
                    # meanwhile, this move is dropped and the bot looks again.
                    if now.version != decided_on:
                        raise RoomError("stale_version", "The table moved on; look again.")
                    return Acted(action)

                try:
                    await self._commit(live, bot_move)
                    live.failures = 0
                except ReverieError as exc:
                    log.debug("bot move in %s not made: %s", live.state.code, exc)
                except Exception:
                    live.failures += 1
                    log.exception("bot move in %s not written; will retry", live.state.code)
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
            live.channel_counts[channel.name] = 0
        return live.channel_states[channel.name]

    @staticmethod
    def _log_name(live: LiveRoom, channel: SideChannel[Any, Any]) -> str:
        """The shared log of a channel's current key (a turn's drawing)."""
        key = live.channel_keys.get(channel.name)
        cached = live.channel_logs.get(channel.name)
        if cached is None or cached[0] != key:
            # Asked for every stroke: the key's repr is built once per turn.
            cached = (key, f"{channel.name}:{key!r}")
            live.channel_logs[channel.name] = cached
        return cached[1]

    async def side(self, live: LiveRoom, seat: int | None, cmd: SideCommand, sender: int) -> None:
        """Take a side-channel frame from ``seat`` and send what it adds to whoever the
        family's rule lets see it.

        Not written to the event log: a drawing is as fleeting as the turn. With
        several processes the frame also goes to the room's shared log (a process that
        opens the room mid-turn reads the whole picture there) and to the others.
        ``sender`` (the connection's id) does not get its own frame back.
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
        self.bus.deliver(
            room.code,
            {
                "kind": "side",
                "audience": audience,
                "sender": sender,
                "frame": _ENCODER.encode(frame).decode(),
            },
        )
        if self.bus.shared:
            self._share_side(live, channel, seat, cmd)

    def _share_side(
        self, live: LiveRoom, channel: SideChannel[Any, Any], seat: int, cmd: SideCommand
    ) -> None:
        """Put the frame in the room's shared log and tell the other processes, in one
        step, without holding the sender up: its next stroke is taken meanwhile, and the
        bus keeps them in order."""
        name = self._log_name(live, channel)
        entry = _ENCODER.encode({"seat": seat, "cmd": _ENCODER.encode(cmd).decode()}).decode()
        message = {"k": "side", "log": name, "ch": channel.name, "x": entry}
        future = self.bus.share_soon(live.state.code, name, entry, message)

        def shared(done: asyncio.Future[int]) -> None:
            if done.cancelled():
                return
            exc = done.exception()
            if exc is not None:
                # Drawn here, lost for the other processes until Redis is back (they
                # reload the drawing then).
                self.stats["bus_errors"] += 1
                log.warning("room %s: a drawing was not shared: %s", live.state.code, exc)
                return
            if (
                live.channel_keys.get(channel.name) is not None
                and self._log_name(live, channel) == name
            ):
                have = live.channel_counts.get(channel.name, 0)
                live.channel_counts[channel.name] = max(have, done.result())

        future.add_done_callback(shared)

    def _remote_side_now(self, live: LiveRoom, message: dict[str, Any]) -> bool:
        """The usual case of a frame another process took, done at once (no task, no
        lock): the room is free, nothing is queued before it, and the frame is the next
        one of the turn this copy is in. False: it needs :meth:`_remote_side`."""
        if live.inbox or live.lock.locked():
            return False
        room = live.state
        channel = next((c for c in room.family.channels if c.name == message.get("ch")), None)
        if channel is None or room.game is None or room.status != "playing":
            return channel is None  # a frame for no channel: dropped
        self._channel_state(live, channel)
        if self._log_name(live, channel) != message.get("log"):
            return False
        n = message.get("n")
        if not isinstance(n, int) or n != live.channel_counts.get(channel.name, 0) + 1:
            return False
        self._deliver_entry(live, channel, n, message)
        return True

    def _deliver_entry(
        self, live: LiveRoom, channel: SideChannel[Any, Any], n: int, message: dict[str, Any]
    ) -> None:
        """Apply the ``n``-th entry of the channel's log to this copy and send its frame
        to the connections here."""
        live.channel_counts[channel.name] = n
        delivered = self._accept_entry(live, channel, str(message["x"]))
        if delivered is not None:
            frame, audience = delivered
            self.bus.deliver(
                live.state.code,
                {
                    "kind": "side",
                    "audience": audience,
                    "sender": None,
                    "frame": _ENCODER.encode(frame).decode(),
                },
            )

    async def _remote_side(self, live: LiveRoom, message: dict[str, Any]) -> None:
        """A frame another process took: apply it to this copy of the channel and send
        it on to the connections here (or, after a gap, reload the whole channel)."""
        async with live.lock:
            room = live.state
            channel = next((c for c in room.family.channels if c.name == message.get("ch")), None)
            if channel is None or room.game is None or room.status != "playing":
                return
            self._channel_state(live, channel)
            if self._log_name(live, channel) != message.get("log"):
                # Drawn in a turn this copy has not reached yet: catch up first.
                await self._catch_up(live)
                room = live.state
                if room.game is None or room.status != "playing":
                    return
                self._channel_state(live, channel)
                if self._log_name(live, channel) != message.get("log"):
                    return  # an old turn's stroke, late
            n = int(message["n"])
            have = live.channel_counts.get(channel.name, 0)
            if n <= have:
                return
            if n > have + 1:
                await self._load_channel(live, channel)
                self.bus.deliver(room.code, {"kind": "side_resync"})
                return
            self._deliver_entry(live, channel, n, message)

    def _accept_entry(
        self, live: LiveRoom, channel: SideChannel[Any, Any], entry: str
    ) -> tuple[dict[str, Any], Any] | None:
        """Apply one shared-log entry to this copy of the channel (its frame and
        audience), or None if it does not apply here."""
        room = live.state
        try:
            data = msgspec.json.decode(entry)
            cmd = decoder_for(room.family).decode(data["cmd"])
            if not isinstance(cmd, SideCommand):
                return None
            state = self._channel_state(live, channel)
            return channel.accept(room.game, room.games, state, int(data["seat"]), cmd)
        except (ReverieError, msgspec.DecodeError, msgspec.ValidationError, KeyError) as exc:
            log.debug("room %s: shared %s entry not applied: %s", room.code, channel.name, exc)
            return None

    async def _load_channel(self, live: LiveRoom, channel: SideChannel[Any, Any]) -> None:
        """Rebuild a channel from its shared log (a late process, or a missed frame)."""
        room = live.state
        if room.game is None or room.status != "playing":
            return
        self._channel_state(live, channel)
        name = self._log_name(live, channel)
        try:
            entries = await self.bus.read_log(room.code, name)
        except BusUnavailable as exc:
            self.stats["bus_errors"] += 1
            log.warning("room %s: drawing not reloaded: %s", room.code, exc)
            return
        live.channel_states[channel.name] = channel.new_state()
        for entry in entries:
            self._accept_entry(live, channel, entry)
        live.channel_counts[channel.name] = len(entries)

    async def _load_channels(self, live: LiveRoom) -> None:
        for channel in live.state.family.channels:
            await self._load_channel(live, channel)

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
