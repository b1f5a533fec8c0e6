"""A game's side channels (the drawing game's canvas): frames taken from a seat and
sent on to whoever the family's rule lets see them, kept in memory for the turn and,
with several processes, in a shared log per turn on the bus. Never in the event log: a
drawing is as fleeting as the turn."""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

import msgspec

from reverie.bus import BusUnavailable
from reverie.errors import ReverieError, RoomError
from reverie.games import Admits, SideChannel, SideCommand
from reverie.rooms.commands import decoder_for
from reverie.rooms.deliveries import SideFrame, SideResync
from reverie.rooms.live import LiveRoom
from reverie.rooms.messages import Side, encode_message

if TYPE_CHECKING:
    from reverie.rooms.service import RoomService

log = logging.getLogger("reverie.rooms")
_ENCODER = msgspec.json.Encoder()

Channel = SideChannel[Any, Any]


class Channels:
    """The side channels of the rooms in memory."""

    def __init__(self, service: RoomService) -> None:
        self.service = service

    def _state(self, live: LiveRoom, channel: Channel) -> Any:
        """A channel's state for the game in progress (fresh when its key changes)."""
        room = live.state
        key = channel.key(room.game, room.games)
        if live.channel_keys.get(channel.name) != key:
            live.channel_keys[channel.name] = key
            live.channel_states[channel.name] = channel.new_state()
            live.channel_counts[channel.name] = 0
        return live.channel_states[channel.name]

    @staticmethod
    def _log_name(live: LiveRoom, channel: Channel) -> str:
        """The shared log of a channel's current key (a turn's drawing)."""
        key = live.channel_keys.get(channel.name)
        cached = live.channel_logs.get(channel.name)
        if cached is None or cached[0] != key:
            # Asked for every stroke: the key's repr is built once per turn.
            cached = (key, f"{channel.name}:{key!r}")
            live.channel_logs[channel.name] = cached
        return cached[1]

    def _deliver(self, live: LiveRoom, frame: Any, audience: Any, sender: int | None) -> None:
        self.service.bus.deliver(
            live.state.code, SideFrame(audience, sender, _ENCODER.encode(frame).decode())
        )

    async def side(self, live: LiveRoom, seat: int | None, cmd: SideCommand, sender: int) -> None:
        """Take a side-channel frame from ``seat`` and send what it adds to whoever the
        family's rule lets see it.

        With several processes the frame also goes to the room's shared log (a process
        that opens the room mid-turn reads the whole picture there) and to the others.
        ``sender`` (the connection's id) does not get its own frame back.
        """
        svc = self.service
        room = live.state
        if seat is None:
            raise RoomError("not_seated", "Join the table first; spectators can only watch.")
        channel = room.family.channel_for(cmd)
        if channel is None:
            raise RoomError("bad_message", "That message is not understood here.")
        if room.game is None or room.status != "playing":
            raise RoomError("wrong_phase", "No game is being played.")
        state = self._state(live, channel)
        frame, audience = channel.accept(room.game, room.games, state, seat, cmd)
        live.last_active = svc.clock()
        self._deliver(live, frame, audience, sender)
        if svc.bus.shared:
            self._share(live, channel, seat, cmd)

    def _share(self, live: LiveRoom, channel: Channel, seat: int, cmd: SideCommand) -> None:
        """Put the frame in the room's shared log and tell the other processes, in one
        step, without holding the sender up: its next stroke is taken meanwhile, and the
        bus keeps them in order."""
        svc = self.service
        name = self._log_name(live, channel)
        entry = _ENCODER.encode({"seat": seat, "cmd": _ENCODER.encode(cmd).decode()}).decode()
        message = encode_message(Side(log=name, ch=channel.name, x=entry))
        future = svc.bus.share_soon(live.state.code, name, entry, message)

        def shared(done: asyncio.Future[int]) -> None:
            if done.cancelled():
                return
            exc = done.exception()
            if exc is not None:
                # Drawn here, lost for the other processes until Redis is back (they
                # reload the drawing then).
                svc.stats["bus_errors"] += 1
                log.warning("room %s: a drawing was not shared: %s", live.state.code, exc)
                return
            if (
                live.channel_keys.get(channel.name) is not None
                and self._log_name(live, channel) == name
            ):
                have = live.channel_counts.get(channel.name, 0)
                live.channel_counts[channel.name] = max(have, done.result())

        future.add_done_callback(shared)

    def remote_now(self, live: LiveRoom, message: Side) -> bool:
        """The usual case of a frame another process took, done at once (no task, no
        lock): the room is free, nothing is queued before it, and the frame is the next
        one of the turn this copy is in. False: it needs :meth:`remote`."""
        if live.inbox or live.lock.locked():
            return False
        room = live.state
        channel = next((c for c in room.family.channels if c.name == message.ch), None)
        if channel is None or room.game is None or room.status != "playing":
            return channel is None  # a frame for no channel: dropped
        self._state(live, channel)
        if self._log_name(live, channel) != message.log:
            return False
        if message.n != live.channel_counts.get(channel.name, 0) + 1:
            return False
        self._deliver_entry(live, channel, message)
        return True

    def _deliver_entry(self, live: LiveRoom, channel: Channel, message: Side) -> None:
        """Apply the ``message.n``-th entry of the channel's log to this copy and send
        its frame to the connections here."""
        live.channel_counts[channel.name] = message.n
        delivered = self._accept_entry(live, channel, message.x)
        if delivered is not None:
            frame, audience = delivered
            self._deliver(live, frame, audience, None)

    async def remote(self, live: LiveRoom, message: Side) -> None:
        """A frame another process took: apply it to this copy of the channel and send
        it on to the connections here (or, after a gap, reload the whole channel)."""
        svc = self.service
        async with live.lock:
            room = live.state
            channel = next((c for c in room.family.channels if c.name == message.ch), None)
            if channel is None or room.game is None or room.status != "playing":
                return
            self._state(live, channel)
            if self._log_name(live, channel) != message.log:
                # Drawn in a turn this copy has not reached yet: catch up first.
                await svc.history.catch_up(live)
                room = live.state
                if room.game is None or room.status != "playing":
                    return
                self._state(live, channel)
                if self._log_name(live, channel) != message.log:
                    return  # an old turn's stroke, late
            have = live.channel_counts.get(channel.name, 0)
            if message.n <= have:
                return
            if message.n > have + 1:
                await self._load(live, channel)
                svc.bus.deliver(room.code, SideResync())
                return
            self._deliver_entry(live, channel, message)

    def _accept_entry(
        self, live: LiveRoom, channel: Channel, entry: str
    ) -> tuple[dict[str, Any], Any] | None:
        """Apply one shared-log entry to this copy of the channel (its frame and
        audience), or None if it does not apply here."""
        room = live.state
        try:
            data = msgspec.json.decode(entry)
            cmd = decoder_for(room.family).decode(data["cmd"])
            if not isinstance(cmd, SideCommand):
                return None
            state = self._state(live, channel)
            return channel.accept(room.game, room.games, state, int(data["seat"]), cmd)
        except (ReverieError, msgspec.DecodeError, msgspec.ValidationError, KeyError) as exc:
            log.debug("room %s: shared %s entry not applied: %s", room.code, channel.name, exc)
            return None

    async def _load(self, live: LiveRoom, channel: Channel) -> None:
        """Rebuild a channel from its shared log (a late process, or a missed frame)."""
        svc = self.service
        room = live.state
        if room.game is None or room.status != "playing":
            return
        self._state(live, channel)
        name = self._log_name(live, channel)
        try:
            entries = await svc.bus.read_log(room.code, name)
        except BusUnavailable as exc:
            svc.stats["bus_errors"] += 1
            log.warning("room %s: drawing not reloaded: %s", room.code, exc)
            return
        live.channel_states[channel.name] = channel.new_state()
        for entry in entries:
            self._accept_entry(live, channel, entry)
        live.channel_counts[channel.name] = len(entries)

    async def load_all(self, live: LiveRoom) -> None:
        """Rebuild every channel of the room from the shared logs."""
        for channel in live.state.family.channels:
            await self._load(live, channel)

    def frames(
        self, live: LiveRoom, admits: Admits, only: Channel | None = None
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
            state = self._state(live, channel)
            frame = channel.replay(room.game, room.games, state, admits)
            if frame is not None:
                frames.append(frame)
        return frames
