"""Writing a room's events: decide on the room as this process knows it, append with the
version expected (catching up and deciding again when another process wrote first),
then apply, snapshot and publish."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

from reverie.bus import BusUnavailable
from reverie.errors import RoomError
from reverie.rooms.deliveries import Revoked
from reverie.rooms.events import Chatted, RoomEvent, TokenRotated, encode_event
from reverie.rooms.live import LiveRoom
from reverie.rooms.members import token_at
from reverie.rooms.messages import Event, Message, encode_message
from reverie.rooms.snapshots import encode_snapshot
from reverie.rooms.state import RoomState, evolve
from reverie.rooms.visibility import chat_message
from reverie.store import StoreUnavailable, VersionConflict

if TYPE_CHECKING:
    from reverie.rooms.service import RoomService

log = logging.getLogger("reverie.rooms")

#: Times a command is decided again after another process wrote first.
CONFLICT_RETRIES = 5


class Writer:
    """The one way a room's state changes: through its event log."""

    def __init__(self, service: RoomService) -> None:
        self.service = service

    async def commit(self, live: LiveRoom, make: Callable[[RoomState], RoomEvent]) -> RoomEvent:
        """Write the event ``make`` decides on the room as this process knows it; when
        another process wrote first, catch up from the log and decide again (``make``
        may refuse then: the phase moved on). Under the room's lock."""
        svc = self.service
        for _ in range(CONFLICT_RETRIES):
            if live.damaged:
                raise svc.damaged[live.state.code]
            event = make(live.state)
            try:
                await self._append(live, event)
                return event
            except VersionConflict:
                svc.stats["conflicts"] += 1
                if not await svc.history.catch_up(live):
                    # The store lost a race with itself or cannot be read: give up now.
                    break
        raise RoomError("stale_version", "The table has moved on; look again and retry.")

    async def _append(self, live: LiveRoom, event: RoomEvent) -> None:
        """Append ``event`` at the next version (raises ``VersionConflict`` and changes
        nothing if that version is taken), then apply and publish it."""
        svc = self.service
        before = live.state
        after = evolve(before, event)
        now = svc.clock()
        payload = encode_event(event)
        try:
            await svc.store.append(before.code, before.version, payload, now)
        except StoreUnavailable:
            svc.stats["store_errors"] += 1
            raise
        self.apply(live, event, now, local=True, after=after)
        if before.status != after.status and after.status != "lobby":
            log.info("room %s: game %d %s", after.code, after.games, after.status)
        await self.snapshot(live)
        live.last_active = svc.clock()
        if svc.bus.shared:
            await self.broadcast(live, Event(v=after.version, at=now, e=payload.decode()))
        self.changed(live)

    def apply(
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
        bus = self.service.bus
        before = live.state
        live.state = after if after is not None else evolve(before, event)
        if live.state.phase_version == live.state.version:
            live.phase_started = at
        code = before.code
        if isinstance(event, Chatted):
            bus.deliver(code, chat_message(live.state.chat[-1]))
        elif isinstance(event, TokenRotated) and not local:
            # Sockets here that used the old link close (the writer told its own).
            old = token_at(before.players[event.seat], event.member)
            bus.deliver(code, Revoked(old, None))

    def changed(self, live: LiveRoom) -> None:
        """The room moved on: connections here send a fresh view; timers and bots look
        again."""
        self.service.publish_state(live)
        self.service.runners.after_change(live)

    async def snapshot(self, live: LiveRoom) -> None:
        """Snapshot the room when enough events have passed since the last one (a failed
        write only costs a longer replay later)."""
        svc = self.service
        room = live.state
        if room.version - live.snapshot_version < svc.snapshot_every:
            return
        live.snapshot_version = room.version
        payload = encode_snapshot(room, live.phase_started)
        try:
            await svc.store.save_snapshot(room.code, room.version, payload, svc.clock())
        except Exception:
            log.warning("snapshot of %s not written", room.code, exc_info=True)

    async def broadcast(self, live: LiveRoom, message: Message) -> None:
        """Tell the other processes (a bus that is down only delays them: they reload
        the room from the log when it is back)."""
        svc = self.service
        if not svc.bus.shared:
            return
        try:
            await svc.bus.broadcast(live.state.code, encode_message(message))
        except BusUnavailable as exc:
            svc.stats["bus_errors"] += 1
            # The others would wait for news that never comes: tell them to read the
            # log once the bus is back (see Replica.run_leases).
            live.unsent = True
            log.warning("room %s: %s", live.state.code, exc)
