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
``replica`` (leases and messages from other processes), ``joining`` (seats taken,
given up, relinked), ``opening`` (rooms opened, resumed, evicted, shut down), ``moderation`` (the
operator's close, removals counted, votes ended on time).
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Callable, Mapping
from typing import Any

from reverie.bus import Bus
from reverie.bus.leases import Leases, LocalLeases
from reverie.content.library import Library
from reverie.games import Admits, Frame, SideChannel, SideCommand
from reverie.rooms.channels import Channels
from reverie.rooms.commands import Join, SetOptions
from reverie.rooms.deciding import decide
from reverie.rooms.deliveries import StateChanged
from reverie.rooms.errors import RoomDamaged
from reverie.rooms.events import (
    DEFAULT_AWAY,
    VoteStarted,
)
from reverie.rooms.history import History
from reverie.rooms.joining import Joining
from reverie.rooms.live import LiveRoom
from reverie.rooms.messages import Who
from reverie.rooms.moderation import Moderation
from reverie.rooms.opening import IDLE_EVICT, Opening
from reverie.rooms.presence import Attendance
from reverie.rooms.replica import Replica
from reverie.rooms.runners import Runners
from reverie.rooms.snapshot import state_json
from reverie.rooms.state import hash_token
from reverie.rooms.takeover import waiting_for
from reverie.rooms.votes import VOTE_COOLDOWN, VOTE_SECONDS
from reverie.rooms.writer import Writer
from reverie.store import EventStore

log = logging.getLogger("reverie.rooms")

#: How long a player must be gone (no open connection) before a bot may take their seat
#: or, for the host, someone else the host role: a dropped phone reconnecting in a few
#: seconds keeps both.
AWAY_GRACE = 60.0
#: A room's fold is snapshotted every this many events, so replaying it reads the latest
#: snapshot and at most this many events (a chatty room's log can grow long).
SNAPSHOT_EVERY = 250

#: The service's counters (``RoomService.stats``).
STATS = (
    *("actions", "conflicts", "catch_ups", "bus_errors", "store_errors"),
    *("leases_taken", "leases_lost", "leases_handed", "presence_batches"),
)

__all__ = ["LiveRoom", "RoomService", "normalise_code"]


def normalise_code(code: str) -> str:
    """Room codes are case-insensitive."""
    return code.strip().upper()


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
        self.bus = bus
        #: The content the families deal from (the rooms only pass it on).
        self.library = library
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
        self.joining = Joining(self)
        self.opening = Opening(self)
        self.moderation = Moderation(self)
        bus.on_message(self.replica.on_remote)

    # ------------------------------------------------------------------ lifecycle

    async def resume_active(self) -> int:
        """Load rooms touched recently so their bots and timers go on after a restart."""
        return await self.opening.resume_active()

    def closing(self) -> None:
        """The server is stopping: the background loops (leases, janitor) end at their
        next look, even if a library swallowed their cancellation."""
        self.closed = True

    async def close(self) -> None:
        """Stop bots and timers and give up the leases (the log holds everything)."""
        await self.opening.close()

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
        return await self.opening.create(
            name=name,
            color=color,
            variant=variant,
            seats=seats,
            options=options,
            choices=choices,
            lang=lang,
            away_seconds=away_seconds,
            time_factor=time_factor,
            text_filter=text_filter,
            public=public,
            ids=ids,
            starts_at=starts_at,
        )

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
        """Drop rooms nobody has watched or touched for ``idle`` seconds from memory (their
        logs stay; :meth:`get` loads them again). Returns how many left memory."""
        return await self.opening.evict_idle(idle)

    async def run_janitor(self, every: float = 60.0) -> None:
        """Evict idle rooms every ``every`` seconds, until cancelled."""
        await self.opening.run_janitor(every)

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
        return await self.joining.join(live, cmd, ids)

    async def leave_queue(self, live: LiveRoom, token_hash: str) -> None:
        """The person queued with ``token_hash`` for a seat at the next turn watches
        instead (rooms/takeover.py)."""
        await self.joining.leave_queue(live, token_hash)

    async def new_link(
        self, live: LiveRoom, seat: int | None, sender: int, old_token: str | None = None
    ) -> str:
        """Give ``seat`` a new token; the old one stops opening the seat, and the other
        sockets that used it are told (``revoked``) and closed (``old_token``: the token
        hash the asker used, naming the member of a team seat). Returns the new token."""
        return await self.joining.new_link(live, seat, sender, old_token)

    def member_for(self, live: LiveRoom, seat: int | None, token_hash: str | None) -> int:
        """Which member of ``seat`` holds ``token_hash`` (0: the seat's first person, a
        solo seat's, or a token not found)."""
        return self.joining.member_for(live, seat, token_hash)

    def present_members(self, live: LiveRoom, seat: int | None) -> int:
        """How many of a seat's people have a socket open, in any process."""
        return self.joining.present_members(live, seat)

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
            self.moderation.counted(before, live.state, event)
            if isinstance(event, VoteStarted) and live.state.vote is not None:
                self.moderation.end_vote_later(live, live.state.vote.started, event.seconds)
            return live.state.version

    async def close_room(self, code: str, reason: str = "") -> bool:
        """Close a room for the site's operator (a ``Closed`` event: its players are told,
        it takes nothing more and leaves every list). False: no such room. A room closed
        already (by another process) counts as closed."""
        return await self.moderation.close_room(code, reason)

    @property
    def removals(self) -> dict[str, int]:
        """People removed from rooms by this process, by how (the host, a vote)."""
        return self.moderation.removals

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
        self.bus.deliver(live.state.code, StateChanged(live.state.version))

    def snapshot_json(self, live: LiveRoom, seat: int | None) -> bytes:
        """The encoded ``state`` frame for ``seat``; all seats of a change share one build."""
        return state_json(live, seat, self.clock())
