"""This process's copy of rooms that other processes serve too: the leases that say
which process runs a room's timers and bots, and the messages the others send (their
events, their sockets, their strokes), handled in order per room."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from reverie.bus import BusUnavailable
from reverie.rooms.deliveries import SideResync
from reverie.rooms.events import decode_event
from reverie.rooms.live import LiveRoom, Presence
from reverie.rooms.messages import (
    BadMessage,
    Event,
    Gone,
    Head,
    Message,
    PresenceGone,
    PresenceSaid,
    Resync,
    Side,
    Who,
    decode_message,
)

if TYPE_CHECKING:
    from reverie.rooms.service import RoomService

log = logging.getLogger("reverie.rooms")


class Replica:
    """Leases and news between the processes serving the same rooms."""

    def __init__(self, service: RoomService) -> None:
        self.service = service

    # ------------------------------------------------------------------ leases

    async def run_leases(self) -> None:
        """Take or renew the lease of every room in memory, a few times per lease
        period, until cancelled: a room whose holder died moves here within the lease
        time (with one process every lease is held and this is not run)."""
        svc = self.service
        every = svc.leases.seconds / 4
        while not svc.closed:
            await self._poll_if_deaf()
            await self._resend_heads()
            codes = []
            for code, here in list(svc.rooms.items()):
                if self._lease_belongs_elsewhere(here):
                    if here.leased:
                        await self._hand_lease_over(code, here)
                    continue
                codes.append(code)
            # All at once: with Redis, one round trip renews every room's lease.
            taken = await svc.leases.take_many(codes)
            for code, held in zip(codes, taken, strict=True):
                live = svc.rooms.get(code)
                if live is None or svc.closed:
                    continue
                if held and not live.leased:
                    live.leased = True
                    svc.stats["leases_taken"] += 1
                    log.info("room %s: lease taken; its timers and bots run here", code)
                    async with live.lock:
                        await svc.history.catch_up(live)
                    svc.runners.after_change(live)
                elif not held and live.leased:
                    live.leased = False
                    svc.stats["leases_lost"] += 1
                    # Another process holds it, or Redis was away for the whole lease.
                    log.info("room %s: lease lost; its timers and bots stop here", code)
                    svc.runners.stop(live)
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
        svc = self.service
        live.leased = False
        svc.runners.stop(live)
        svc.stats["leases_handed"] += 1
        await svc.leases.release(code)
        log.info("room %s: lease handed to the process with its players", code)

    async def _resend_heads(self) -> None:
        """Rooms whose news could not be sent: say how far their log goes, so the other
        processes catch up from it."""
        svc = self.service
        for live in list(svc.rooms.values()):
            if live.unsent:
                live.unsent = False
                await svc.writer.broadcast(live, Head(v=live.state.version))
                await svc.presence.tell_others(live)

    async def _poll_if_deaf(self) -> None:
        """While the bus is down, nothing tells this process what the others commit:
        read the log of every room someone watches here instead, so that players see
        the others' moves a moment late rather than not at all."""
        svc = self.service
        try:
            await svc.bus.check()
            return
        except BusUnavailable:
            pass
        for live in list(svc.rooms.values()):
            if live.connections or live.spectators:
                async with live.lock:
                    await svc.history.catch_up(live)

    # ------------------------------------------------------------------ messages

    def on_remote(self, code: str | None, data: Mapping[str, Any]) -> None:
        """A message from another process: queue it for the room's inbox task (one
        room's messages are handled in order, a slow one delays no other room)."""
        svc = self.service
        try:
            message = decode_message(data)
        except BadMessage as exc:
            log.warning("room %s: %s", code, exc)
            return
        if code is None:
            if isinstance(message, Gone):
                self._process_gone(message.pid)
            return
        live = svc.rooms.get(code)
        if live is None or svc.closed:
            return
        # Strokes are most of the traffic between processes: the next stroke of the
        # turn goes straight to the connections here.
        if isinstance(message, Side) and svc.channels.remote_now(live, message):
            return
        self._queue(live, message)

    def _queue(self, live: LiveRoom, message: Message) -> None:
        live.inbox.append(message)
        if live.inbox_task is None or live.inbox_task.done():
            live.inbox_task = asyncio.get_running_loop().create_task(self._drain(live))

    async def _drain(self, live: LiveRoom) -> None:
        while live.inbox and not self.service.closed:
            message = live.inbox.popleft()
            try:
                await self._handle(live, message)
            except Exception:  # one bad message must not stop the room's inbox
                kind = message.__struct_config__.tag
                log.exception("room %s: message %s not handled", live.state.code, kind)

    async def _handle(self, live: LiveRoom, message: Message) -> None:
        svc = self.service
        match message:
            case Event():
                async with live.lock:
                    if message.v <= live.state.version:
                        return  # caught up already
                    if message.v == live.state.version + 1:
                        event = decode_event(message.e.encode(), live.state.family)
                        svc.writer.apply(live, event, message.at, local=False)
                        svc.writer.changed(live)
                    else:  # a gap: messages were lost, the log has them
                        await svc.history.catch_up(live)
            case Head():
                if message.v > live.state.version:
                    async with live.lock:
                        await svc.history.catch_up(live)
            case PresenceSaid():
                presence = Presence(dict(message.tokens), message.spectators)
                pid = message.pid

                def said() -> None:
                    live.remote[pid] = presence

                await svc.presence.update(live, said)
            case PresenceGone():
                pid = message.pid
                await svc.presence.update(live, lambda: live.remote.pop(pid, None))
            case Who():
                await svc.presence.tell_others(live)
            case Side():
                await svc.channels.remote(live, message)
            case Resync():
                async with live.lock:
                    await svc.history.catch_up(live)
                    await svc.channels.load_all(live)
                svc.bus.deliver(live.state.code, SideResync())
                await svc.writer.broadcast(live, Who())
            case Gone():
                pass  # about a process, not a room (see on_remote)

    def _process_gone(self, pid: str) -> None:
        """Another process stopped: its sockets are gone from every room."""
        for live in self.service.rooms.values():
            if pid in live.remote:
                self._queue(live, PresenceGone(pid=pid))
