"""The Redis bus: rooms kept in step between server processes through Redis pub/sub.

Each room has a channel (``reverie:room:<code>``) that the processes serving it
subscribe to; a message carries the sender's process id, so a process ignores its own.
Processes also say "alive" on ``reverie:processes`` every few seconds (and "bye" when
they stop), so the others can forget the players of a process that died.

Pub/sub drops messages while a subscriber is disconnected. The bus does not try to hide
that: when its connection comes back it tells the service to ``resync`` every room it
watches, and the service reloads them from the event store, which is the truth.
A turn's drawing is kept in a Redis list beside the channel, so a process that opens the
room mid-turn, or missed strokes, reads the whole picture.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any

import msgspec
import redis.asyncio as aioredis
from redis.exceptions import RedisError

from reverie.bus.base import BusUnavailable, LocalFanout, RemoteHandler, new_process_id
from reverie.store.base import redact

log = logging.getLogger("reverie.bus")

PREFIX = "reverie:room:"
PROCESSES = "reverie:processes"
#: A turn's drawing outlives the turn by far; the key expires so Redis keeps nothing
#: for rooms long over.
LOG_TTL = 6 * 3600
#: Waits before reconnecting to Redis after a failure, growing up to the last.
RECONNECT_DELAYS = (0.1, 0.25, 0.5, 1.0, 2.0)
_ENCODE = msgspec.json.Encoder().encode
_DECODE = msgspec.json.Decoder(dict[str, Any]).decode


class RedisBus(LocalFanout):
    """A :class:`~reverie.bus.base.Bus` over Redis (``redis://host:port/db``)."""

    shared = True

    def __init__(self, url: str, *, heartbeat: float = 2.0, process_id: str | None = None) -> None:
        super().__init__()
        self.url = url
        self.process_id = process_id or new_process_id()
        self.heartbeat = heartbeat
        self.client: aioredis.Redis = aioredis.Redis.from_url(
            url, socket_connect_timeout=2.0, socket_timeout=5.0
        )
        self.errors = 0  # broker failures seen (for the metrics)
        self._watched: set[str] = set()
        self._handler: RemoteHandler | None = None
        self._pubsub: Any = None
        self._tasks: list[asyncio.Task[None]] = []
        self._peers: dict[str, float] = {}
        self._closed = False

    # ------------------------------------------------------------------ lifecycle

    async def start(self) -> None:
        """Check Redis answers, subscribe and start listening."""
        try:
            await self.client.ping()
        except (RedisError, OSError) as exc:
            raise BusUnavailable(f"cannot reach Redis at {redact(self.url)}: {exc}") from None
        await self._subscribe_all()
        self._tasks = [
            asyncio.create_task(self._listen(), name="reverie-bus-listen"),
            asyncio.create_task(self._beat(), name="reverie-bus-heartbeat"),
        ]

    async def check(self) -> None:
        """Raise :class:`BusUnavailable` unless Redis answers (and this process still
        listens)."""
        if self._pubsub is None and self._tasks:
            raise BusUnavailable("not subscribed to Redis (reconnecting)")
        try:
            await self.client.ping()
        except (RedisError, OSError) as exc:
            raise BusUnavailable(f"Redis does not answer: {exc}") from None

    async def close(self) -> None:
        """Say bye (the others drop our players at once), stop listening, disconnect."""
        self._closed = True
        with contextlib.suppress(RedisError, OSError):
            await self._send(PROCESSES, {"k": "bye"})
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        await self._drop_pubsub()
        with contextlib.suppress(RedisError, OSError):
            await self.client.aclose()
        self.clear()

    # ------------------------------------------------------------------ sending

    async def _send(self, channel: str, message: dict[str, Any]) -> None:
        await self.client.publish(channel, _ENCODE({**message, "pid": self.process_id}))

    async def broadcast(self, room: str, message: dict[str, Any]) -> None:
        """Publish ``message`` on the room's channel."""
        try:
            await self._send(PREFIX + room, message)
        except (RedisError, OSError) as exc:
            self.errors += 1
            raise BusUnavailable(f"Redis refused a message: {exc}") from None

    async def append_log(self, room: str, name: str, entry: str) -> int:
        """RPUSH to the room's log ``name`` (it expires :data:`LOG_TTL` after the last
        entry)."""
        key = f"reverie:log:{room}:{name}"
        try:
            async with self.client.pipeline(transaction=True) as pipe:
                pipe.rpush(key, entry)
                pipe.expire(key, LOG_TTL)
                size, _ = await pipe.execute()
        except (RedisError, OSError) as exc:
            self.errors += 1
            raise BusUnavailable(f"Redis refused a drawing: {exc}") from None
        return int(size)

    async def read_log(self, room: str, name: str, start: int = 0) -> list[str]:
        """LRANGE of the log from ``start``."""
        try:
            raw = await self.client.lrange(f"reverie:log:{room}:{name}", start, -1)
        except (RedisError, OSError) as exc:
            self.errors += 1
            raise BusUnavailable(f"Redis did not answer: {exc}") from None
        return [r.decode() if isinstance(r, bytes) else str(r) for r in raw]

    # ------------------------------------------------------------------ receiving

    def on_message(self, handler: RemoteHandler) -> None:
        """Messages from other processes go to ``handler``."""
        self._handler = handler

    async def watch(self, room: str) -> None:
        """Subscribe to the room's channel (if Redis is away, the reconnect does it)."""
        if room in self._watched:
            return
        self._watched.add(room)
        if self._pubsub is not None:
            with contextlib.suppress(RedisError, OSError):
                await self._pubsub.subscribe(PREFIX + room)

    async def unwatch(self, room: str) -> None:
        """Unsubscribe from the room's channel."""
        if room not in self._watched:
            return
        self._watched.discard(room)
        if self._pubsub is not None:
            with contextlib.suppress(RedisError, OSError):
                await self._pubsub.unsubscribe(PREFIX + room)

    def peers(self) -> frozenset[str]:
        """The other processes heard from lately."""
        return frozenset(self._peers)

    async def _subscribe_all(self) -> None:
        pubsub = self.client.pubsub(ignore_subscribe_messages=True)
        await pubsub.subscribe(PROCESSES, *(PREFIX + r for r in self._watched))
        self._pubsub = pubsub

    async def _drop_pubsub(self) -> None:
        pubsub, self._pubsub = self._pubsub, None
        if pubsub is not None:
            with contextlib.suppress(RedisError, OSError, RuntimeError):
                await pubsub.aclose()

    async def _listen(self) -> None:
        failures = 0
        while not self._closed:
            try:
                if self._pubsub is None:
                    await self._subscribe_all()
                    log.warning("bus: Redis is back; reloading %d room(s)", len(self._watched))
                    for room in list(self._watched):
                        self._dispatch_to(room, {"k": "resync"})
                    failures = 0
                message = await self._pubsub.get_message(timeout=1.0)
                if message is not None and message.get("type") == "message":
                    self._dispatch(message)
            except (RedisError, OSError) as exc:
                self.errors += 1
                delay = RECONNECT_DELAYS[min(failures, len(RECONNECT_DELAYS) - 1)]
                failures += 1
                if failures == 1:
                    log.warning("bus: lost Redis (%s); reconnecting", exc)
                await self._drop_pubsub()
                await asyncio.sleep(delay)
            except asyncio.CancelledError:
                raise
            except Exception:  # a bad message must not stop the listener
                log.exception("bus: message not handled")

    def _dispatch(self, message: dict[str, Any]) -> None:
        channel = message["channel"]
        channel = channel.decode() if isinstance(channel, bytes) else str(channel)
        try:
            data = _DECODE(message["data"])
        except msgspec.DecodeError:
            log.warning("bus: undecodable message on %s", channel)
            return
        pid = data.get("pid")
        if pid == self.process_id or not isinstance(pid, str):
            return
        known = pid in self._peers
        self._peers[pid] = time.monotonic()
        if channel == PROCESSES:
            if data.get("k") == "bye":
                self._peers.pop(pid, None)
                self._dispatch_to(None, {"k": "gone", "pid": pid})
            elif not known:
                log.info("bus: process %s joined", pid)
            return
        if channel.startswith(PREFIX):
            self._dispatch_to(channel[len(PREFIX) :], data)

    def _dispatch_to(self, room: str | None, data: dict[str, Any]) -> None:
        if self._handler is not None:
            self._handler(room, data)

    async def _beat(self) -> None:
        """Say "alive" and forget processes silent for three beats."""
        while not self._closed:
            with contextlib.suppress(RedisError, OSError):
                await self._send(PROCESSES, {"k": "alive"})
            cutoff = time.monotonic() - 3 * self.heartbeat
            for pid, seen in list(self._peers.items()):
                if seen < cutoff:
                    del self._peers[pid]
                    log.info("bus: process %s went silent", pid)
                    self._dispatch_to(None, {"k": "gone", "pid": pid})
            await asyncio.sleep(self.heartbeat)
