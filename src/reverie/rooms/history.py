"""A room's past: replaying its log (from the latest snapshot) when it loads, catching
up with what other processes wrote, and closing a room whose log holds a damaged
event."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from reverie.rooms.errors import RoomDamaged
from reverie.rooms.events import decode_event, decode_log
from reverie.rooms.live import LiveRoom
from reverie.rooms.snapshots import UnusableSnapshot, decode_snapshot
from reverie.rooms.state import RoomState, evolve
from reverie.store import StoreUnavailable

if TYPE_CHECKING:
    from reverie.rooms.service import RoomService

log = logging.getLogger("reverie.rooms")


class History:
    """Bringing a copy of a room up to its log."""

    def __init__(self, service: RoomService) -> None:
        self.service = service

    async def replay(self, code: str) -> tuple[RoomState, float, int] | None:
        """The room from its latest snapshot and the log after it (or the whole log),
        when its current phase began (the time of the event that began it), and the
        version of the snapshot used (0: none). None: no such room."""
        store = self.service.store
        state: RoomState | None = None
        phase_started = 0.0
        snapshot_version = 0
        snap = await store.load_snapshot(code)
        if snap is not None:
            try:
                state, phase_started = decode_snapshot(snap.payload)
            except UnusableSnapshot as exc:
                log.info("snapshot of %s ignored (%s): replaying the whole log", code, exc)
                state = None
        if state is None:
            stored = await store.load(code)
        else:
            snapshot_version = state.version
            stored = await store.load(code, after=state.version)
        for record in stored:
            try:
                if state is None:
                    event = decode_log([record.payload])[0]
                else:
                    event = decode_event(record.payload, state.family)
                state = evolve(state, event)
            except Exception as exc:  # a damaged event: this room closes, not the server
                raise self.quarantine(code, record.version, exc) from None
            if state.phase_version == state.version:
                phase_started = record.at
        return None if state is None else (state, phase_started, snapshot_version)

    def quarantine(self, code: str, version: int, exc: Exception) -> RoomDamaged:
        """Close a room whose log cannot be replayed: it leaves memory (its timers and
        bots stop), every later visit gets ``room_damaged`` without reading the log
        again, and the operator is told once, in one line. Returns the error to raise."""
        svc = self.service
        reason = " ".join(str(exc).split())[:200] or type(exc).__name__
        damaged = RoomDamaged(code, version, f"{type(exc).__name__}: {reason}")
        if code not in svc.damaged:
            svc.damaged[code] = damaged
            log.error(
                "room %s is damaged: event %d of its log cannot be replayed (%s); the "
                "room is closed until its log is repaired and the server restarted, "
                "other rooms go on",
                code,
                version,
                damaged.reason,
            )
        live = svc.rooms.pop(code, None)
        if live is not None:
            svc.runners.stop(live)
        return svc.damaged[code]

    async def catch_up(self, live: LiveRoom) -> bool:
        """Apply what the log holds past this copy of the room (another process wrote
        it); under the room's lock. Returns whether anything changed. A store that
        fails leaves the copy as it is (the next command or message tries again)."""
        svc = self.service
        room = live.state
        try:
            stored = await svc.store.load(room.code, after=room.version)
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
                self.quarantine(room.code, record.version, exc)
                live.damaged = True
                return False
            svc.writer.apply(live, event, record.at, local=False, after=after)
        if stored:
            svc.stats["catch_ups"] += 1
            svc.writer.changed(live)
        return bool(stored)
