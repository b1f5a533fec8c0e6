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

The service is the command path; each of its other jobs is a part of its own, which
the service holds and which reach each other through it: ``writer`` (append, apply,
publish), ``history`` (replay, catch-up, damaged logs), ``presence`` (sockets, pauses,
stand-ins), ``runners`` (the phase timer and bots), ``channels`` (side channels),
``replica`` (leases and messages from other processes).
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
import time
from collections.abc import Callable, Mapping
from typing import Any

from reverie.bus import Bus
from reverie.bus.leases import Leases, LocalLeases
from reverie.content.library import Library
from reverie.errors import RoomError
from reverie.games import Admits, AnyFamily, Frame, SideChannel, SideCommand, family_of
from reverie.rooms.bans import check_not_banned
from reverie.rooms.channels import Channels
from reverie.rooms.commands import Join, SetOptions
from reverie.rooms.deciding import decide
from reverie.rooms.errors import RoomDamaged
from reverie.rooms.events import (
    DEFAULT_AWAY,
    Closed,
    Created,
    Joined,
    Left,
    Removed,
    RoomEvent,
    TokenRotated,
    Voted,
    VoteEnded,
    VoteStarted,
    encode_event,
)
from reverie.rooms.history import History
from reverie.rooms.live import LiveRoom
from reverie.rooms.members import member_of, smallest_seat, token_at, tokens
from reverie.rooms.messages import Who
from reverie.rooms.presence import Attendance
from reverie.rooms.replica import Replica
from reverie.rooms.runners import Runners
from reverie.rooms.snapshot import state_json
from reverie.rooms.state import LANGUAGES, RoomState, evolve, hash_token
from reverie.rooms.takeover import waiting_for
from reverie.rooms.texts import check_new_name
from reverie.rooms.votes import VOTE_COOLDOWN, VOTE_SECONDS
from reverie.rooms.writer import Writer
from reverie.store import EventStore, VersionConflict

log = logging.getLogger("reverie.rooms")

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
#: Seconds the shutdown waits for the rooms' tasks to end once cancelled.
CLOSE_WAIT = 5.0

#: The service's counters (``RoomService.stats``).
STATS = (
    *("actions", "conflicts", "catch_ups", "bus_errors", "store_errors"),
    *("leases_taken", "leases_lost", "leases_handed", "presence_batches"),
)

__all__ = ["LiveRoom", "RoomService", "normalise_code"]


def normalise_code(code: str) -> str:
    """Room codes are case-insensitive."""
    return code.strip().upper()


def _seat_for(room: RoomState, cmd: Join) -> int | None:
    """The seat a person joins: the one they chose, a free one, or (every seat taken,
    at a table of team seats) the team seat with the fewest people, so teams stay even
    as people come."""
    if cmd.seat is not None or len(room.players) < room.seats or room.status != "lobby":
        return cmd.seat
    return smallest_seat(room)


def _family(variant: str) -> AnyFamily:
    try:
        return family_of(variant)
    except LookupError as exc:  # refused as the fold refuses it
        raise RoomError("bad_options", str(exc)) from None


class RoomService:
    """Creates, loads and runs rooms on an event store and a bus."""

    def __init__(
        self,
        store: EventStore,
        bus: Bus,
        library: Library,
        *,
        bot_delay: float = 1.0,
        away_grace: float = AWAY_GRACE,
        snapshot_every: int = SNAPSHOT_EVERY,
        clock: Callable[[], float] = time.time,
        leases: Leases | None = None,
        vote_seconds: float = VOTE_SECONDS,
        vote_cooldown: float = VOTE_COOLDOWN,
    ) -> None:
        self.store = store
        self.vote_seconds = vote_seconds
        self.vote_cooldown = vote_cooldown
        #: People removed from rooms by this process, by how (the host, a vote).
        self.removals: dict[str, int] = {"host": 0, "vote": 0}
        self.bus = bus
        #: The content the families deal from (the rooms only pass it on).
        self.library = library
        self.bot_delay = bot_delay
        self.away_grace = away_grace
        self.snapshot_every = snapshot_every
        self.clock = clock
        self.leases: Leases = leases if leases is not None else LocalLeases()
        self.rooms: dict[str, LiveRoom] = {}
        self._vote_tasks: set[asyncio.Task[None]] = set()
        self._loading: dict[str, asyncio.Lock] = {}
        #: Rooms whose log cannot be replayed, closed until the server restarts (each is
        #: said once, in one log line).
        self.damaged: dict[str, RoomDamaged] = {}
        self.rng = random.Random()
        #: The server is stopping: loops, timers and bots end at their next look.
        self.closed = False
        #: Counters for the metrics (see reverie.web.metrics).
        self.stats: dict[str, int] = dict.fromkeys(STATS, 0)
        #: The service's parts, one job each (see the module's docstring).
        self.writer = Writer(self)
        self.history = History(self)
        self.presence = Attendance(self)
        self.runners = Runners(self)
        self.channels = Channels(self)
        self.replica = Replica(self)
        bus.on_message(self.replica.on_remote)

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
        self.closed = True

    async def close(self) -> None:
        """Stop bots and timers and give up the leases (the log holds everything)."""
        self.closed = True
        for live in self.rooms.values():
            self.runners.stop(live)
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
        choices: Mapping[str, Any] | None = None,
        lang: str = "en",
        away_seconds: int | None = DEFAULT_AWAY,
        time_factor: int = 1,
        text_filter: str = "mild",
        public: bool = False,
        ids: tuple[str, ...] = (),
        starts_at: float | None = None,
    ) -> tuple[LiveRoom, str]:
        """Open a room with its creator seated as host; returns the room and their token.

        ``choices``: the content the creator chose beside the options, which the game's
        family reads (the association games' ``deck``). ``ids``: the creator's browser
        and address, hashed (:mod:`reverie.web.browser_id`), banned if they are removed.
        ``starts_at``: when the table starts by itself with bots (a table play now opens)."""
        name = check_new_name(None, name, text_filter)
        if lang not in LANGUAGES:  # the fold reads an unknown one as English (old logs)
            raise RoomError(
                "bad_language", f"The table's language must be one of {', '.join(LANGUAGES)}."
            )
        family = _family(variant)
        await family.check_content(options, self.library)
        setup = await family.prepare(choices or {}, self.library)
        token = secrets.token_urlsafe(24)
        now = self.clock()
        for _ in range(20):
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            event = Created(
                code=code,
                variant=variant,
                seats=seats,
                options=options,
                setup=setup,
                seed=secrets.randbits(62),
                name=name,
                color=color,
                token_hash=hash_token(token),
                at=now,
                lang=lang,
                away_seconds=away_seconds,
                time_factor=time_factor,
                text_filter=text_filter,
                public=public,
                ids=ids,
                starts_at=starts_at,
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
            facts = family.setup_facts(state)  # "deck reverie2"
            told = "".join(f", {key} {value}" for key, value in facts.items())
            log.info("room %s created: %s, %d seats%s", code, variant, seats, told)
            await family.opened(code, state.setup, self.library)
            await family.options_named(code, options, self.library)
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
            replayed = await self.history.replay(code)
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
        await self.writer.snapshot(live)  # a long tail: replay less next time
        self.rooms[code] = live
        if self.bus.shared:
            async with live.lock:
                await self.history.catch_up(live)
                await self.channels.load_all(live)
            await self.writer.broadcast(live, Who())  # the others say who they hold
        live.leased = await self.leases.take(code)
        # A room back in memory picks up where it was: bots and timers go on.
        self.runners.after_change(live)
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
            self.runners.stop(live)
            del self.rooms[code]
            if self.bus.shared:
                await self.bus.unwatch(code)
                await self.leases.release(code)  # if it is this process's (see close)
            gone += 1
        return gone

    async def run_janitor(self, every: float = 60.0) -> None:
        """Evict idle rooms every ``every`` seconds, until cancelled."""
        while not self.closed:
            await asyncio.sleep(every)
            await self.evict_idle()

    def seat_for_token(self, live: LiveRoom, token: str | None) -> int | None:
        """The seat a token holds in this room, if any."""
        if not token:
            return None
        return live.state.seat_of(hash_token(token))

    def queued(self, live: LiveRoom, token_hash: str | None) -> bool:
        """Whether the token is a person's queued for a bot's seat (rooms/takeover.py)."""
        return waiting_for(live.state, token_hash)

    # ------------------------------------------------------------------ commands

    async def join(
        self, live: LiveRoom, cmd: Join, ids: tuple[str, ...] = ()
    ) -> tuple[int | None, str]:
        """Seat a spectator; returns their seat and new token. ``ids``: their browser and
        address, hashed; one removed from the room before is refused (``banned``). While
        a public table plays, the person is queued for a bot's seat instead (seat None:
        they take it at the next turn boundary, rooms/takeover.py)."""
        token = secrets.token_urlsafe(24)
        token_hash = hash_token(token)

        def joined(room: RoomState) -> RoomEvent:
            # Under the lock, and again after a conflict: names are unique, and a ban
            # written meanwhile by another process counts.
            check_not_banned(room, *ids)
            name = check_new_name(room, cmd.name)
            return Joined(name, cmd.color, token_hash, seat=_seat_for(room, cmd), ids=ids)

        async with live.lock:
            await self.writer.commit(live, joined)
            seat = live.state.seat_of(token_hash)
            self.stats["actions"] += 1
        assert seat is not None or waiting_for(live.state, token_hash)
        return seat, token

    async def leave_queue(self, live: LiveRoom, token_hash: str) -> None:
        """The person queued with ``token_hash`` for a seat at the next turn watches
        instead (rooms/takeover.py)."""
        async with live.lock:
            await self.writer.commit(live, lambda room: Left(-1, waiting=token_hash))
            self.stats["actions"] += 1

    async def new_link(
        self, live: LiveRoom, seat: int | None, sender: int, old_token: str | None = None
    ) -> str:
        """Give ``seat`` a new token; the old one stops opening the seat, and the other
        sockets that used it are told (``revoked``) and closed (``old_token``: the token
        hash the asker used, naming the member of a team seat). Returns the new token."""
        if seat is None:
            raise RoomError("not_seated", "Join the table first; spectators have no link.")
        token = secrets.token_urlsafe(24)
        async with live.lock:
            member = self.member_for(live, seat, old_token)
            old = token_at(live.state.players[seat], member)
            await self.writer.commit(
                live, lambda room: TokenRotated(seat, hash_token(token), member=member)
            )
            self.stats["actions"] += 1
        self.bus.deliver(live.state.code, {"kind": "revoked", "token_hash": old, "sender": sender})
        return token

    def member_for(self, live: LiveRoom, seat: int | None, token_hash: str | None) -> int:
        """Which member of ``seat`` holds ``token_hash`` (0: the seat's first person, a
        solo seat's, or a token not found)."""
        if seat is None or token_hash is None:
            return 0
        found = member_of(live.state, token_hash)
        return found[1] if found is not None and found[0] == seat else 0

    def present_members(self, live: LiveRoom, seat: int | None) -> int:
        """How many of a seat's people have a socket open, in any process."""
        if seat is None or not 0 <= seat < len(live.state.players):
            return 0
        return sum(1 for t in tokens(live.state.players[seat]) if live.sockets(t) > 0)

    async def command(
        self, live: LiveRoom, seat: int | None, cmd: Frame, *, by: str | None = None
    ) -> int:
        """Do what ``seat`` asks; returns the room version after it, or raises RoomError
        or IllegalAction (nothing changes then). ``by``: the token hash of the member of
        a team seat who asks (None: the seat's first person)."""
        if isinstance(cmd, SetOptions):
            family = live.state.family
            await family.check_content(cmd.options, self.library)
            # Noted before the change is written: retention never deletes a list that a
            # room's options name, even for a moment (a refused change only keeps it longer).
            await family.options_named(live.state.code, cmd.options, self.library)
        async with live.lock:
            before = live.state
            event = await self.writer.commit(
                live,
                lambda room: decide(
                    room,
                    seat,
                    cmd,
                    self.clock(),
                    away=self.presence.away_seats(live),
                    rng=self.rng,
                    by=self.member_for(live, seat, by),
                    present=self.present_members(live, seat),
                    at_table=frozenset(live.connected),
                    here=frozenset(live.present_tokens()),
                    vote_seconds=self.vote_seconds,
                    vote_cooldown=self.vote_cooldown,
                ),
            )
            self.stats["actions"] += 1
            self._counted_removal(before, live.state, event)
            if isinstance(event, VoteStarted) and live.state.vote is not None:
                self._end_vote_later(live, live.state.vote.started, event.seconds)
            return live.state.version

    def _counted_removal(self, before: RoomState, after: RoomState, event: RoomEvent) -> None:
        if isinstance(event, Removed):
            self.removals["host"] += 1
        elif (
            isinstance(event, Voted)
            and before.vote is not None
            and after.seat_of(before.vote.target) is None
        ):
            # The ballot that made the majority removed the vote's target.
            self.removals["vote"] += 1

    def _end_vote_later(self, live: LiveRoom, started: float, seconds: float) -> None:
        """End the vote that started at ``started`` once its time is up, if nobody decided
        it before (a vote whose process stopped ends by its deadline anyway: the fold
        and the snapshot read it as over)."""
        loop = asyncio.get_running_loop()
        task: asyncio.Task[None] | None = None

        def fire() -> None:
            nonlocal task
            task = loop.create_task(self._end_vote(live, started))
            self._vote_tasks.add(task)
            task.add_done_callback(self._vote_tasks.discard)

        loop.call_later(max(0.0, seconds), fire)

    async def _end_vote(self, live: LiveRoom, started: float) -> None:
        if self.closed:
            return

        def ended(room: RoomState) -> RoomEvent:
            vote = room.vote
            if vote is None or vote.started != started:
                raise RoomError("no_vote", "That vote is over.")
            return VoteEnded(max(self.clock(), vote.deadline))

        try:
            async with live.lock:
                if live.state.vote is None or live.state.vote.started != started:
                    return
                await self.writer.commit(live, ended)
        except RoomError:
            pass  # decided, or ended by another process meanwhile
        except Exception:  # the store may be down: the deadline ends it for the fold
            log.warning("room %s: the vote's end was not written", live.state.code)

    async def close_room(self, code: str, reason: str = "") -> bool:
        """Close a room for the site's operator (a ``Closed`` event: its players are told,
        it takes nothing more and leaves every list). False: no such room. A room closed
        already (by another process) counts as closed."""
        try:
            live = await self.get(code)
        except RoomDamaged:
            return False
        if live is None:
            return False
        if live.state.closed:
            return True
        async with live.lock:
            try:
                await self.writer.commit(live, lambda room: Closed(reason, self.clock()))
            except RoomError as exc:
                if exc.code != "room_closed":  # another process closed it meanwhile
                    raise
        log.info("room %s closed by the operator%s", live.state.code,
                 f": {reason}" if reason else "")  # fmt: skip
        return True

    # ------------------------------------------------------------------ the parts, for the web

    async def run_leases(self) -> None:
        """Take and renew the leases of the rooms in memory, until cancelled."""
        await self.replica.run_leases()

    async def connect(self, live: LiveRoom, token_hash: str | None) -> None:
        """A connection opened for the seat holding ``token_hash`` (None: a spectator).

        Presence is kept by token, not seat number, because lobby seats move when
        someone leaves or the host reorders them.
        """
        await self.presence.connect(live, token_hash)

    async def move(self, live: LiveRoom, old: str | None, new: str | None) -> None:
        """A connection counted under ``old`` is counted under ``new`` now (a join, a
        leave, a kick): one change, made at once."""
        await self.presence.move(live, old, new)

    async def disconnect(self, live: LiveRoom, token_hash: str | None) -> None:
        """A connection closed."""
        await self.presence.disconnect(live, token_hash)

    async def side(self, live: LiveRoom, seat: int | None, cmd: SideCommand, sender: int) -> None:
        """Take a side-channel frame (a stroke) from ``seat``, sent on to its audience."""
        await self.channels.side(live, seat, cmd, sender)

    def channel_frames(
        self, live: LiveRoom, admits: Admits, only: SideChannel[Any, Any] | None = None
    ) -> list[dict[str, Any]]:
        """Every side channel of the game in progress as one frame each, holding only
        what ``admits`` lets through."""
        return self.channels.frames(live, admits, only)

    def publish_state(self, live: LiveRoom) -> None:
        """Tell every connection of the room in this process to send a fresh snapshot."""
        self.bus.deliver(live.state.code, {"kind": "state", "version": live.state.version})

    def snapshot_json(self, live: LiveRoom, seat: int | None) -> bytes:
        """The encoded ``state`` frame for ``seat``; all seats of a change share one build."""
        return state_json(live, seat, self.clock())
