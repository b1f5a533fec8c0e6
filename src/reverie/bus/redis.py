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

Everything a process sends to Redis in one turn of its event loop (news, strokes, lease
renewals, rate-limit checks) goes in one pipeline, one round trip, on one connection
(:class:`Pipeliner`): with hundreds of rooms drawing, a command each would cost a round
trip each and exhaust the connection pool.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import time
from typing import Any

import msgspec
import redis.asyncio as aioredis
from redis.exceptions import NoScriptError, RedisError, ResponseError

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
#: Seconds close() waits for the listener and the heartbeat to stop.
CLOSE_WAIT = 2.0
_ENCODE = msgspec.json.Encoder().encode
_DECODE = msgspec.json.Decoder(dict[str, Any]).decode

# KEYS: the log, the room's channel; ARGV: the entry, the log's time to live, and the
# message around its position ``n`` (known only once the entry is in the list).
_SHARE = """
local n = redis.call('RPUSH', KEYS[1], ARGV[1])
redis.call('EXPIRE', KEYS[1], ARGV[2])
redis.call('PUBLISH', KEYS[2], ARGV[3] .. n .. ARGV[4])
return n
"""


def _pack(command: tuple[Any, ...]) -> bytes:
    """A command in Redis's wire format (RESP): strings as UTF-8, numbers as text."""
    parts = [b"*%d\r\n" % len(command)]
    for arg in command:
        if isinstance(arg, str):
            data = arg.encode()
        elif isinstance(arg, bytes):
            data = arg
        elif isinstance(arg, int | float):
            data = repr(arg).encode()
        else:
            raise TypeError(f"cannot send {type(arg).__name__} to Redis")
        parts.append(b"$%d\r\n%b\r\n" % (len(data), data))
    return b"".join(parts)


class Script:
    """A Lua script run by its SHA1 (sent whole only when Redis does not have it)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.sha = hashlib.sha1(text.encode()).hexdigest()

    def command(self, keys: list[str], args: list[Any]) -> tuple[Any, ...]:
        """The EVALSHA command for these keys and arguments."""
        return ("EVALSHA", self.sha, len(keys), *keys, *args)


class Pipeliner:
    """Sends the Redis commands of one event-loop turn in one pipeline.

    :meth:`call` queues a command and returns a future for its reply; the first command
    queued starts a task that sends everything queued by then, then again whatever was
    queued while that round trip was under way, until the queue is empty. So this
    process has at most one pipeline in flight, its commands reach Redis in the order
    they were queued, and under load the batches grow instead of the round trips.
    """

    def __init__(self, client: aioredis.Redis) -> None:
        self.client = client
        self._queue: list[tuple[tuple[Any, ...], asyncio.Future[Any], Script | None]] = []
        self._task: asyncio.Task[None] | None = None
        self.round_trips = 0  # for the tests: how many pipelines were sent
        self.commands = 0

    def call(self, *command: Any, script: Script | None = None) -> asyncio.Future[Any]:
        """Queue ``command``; the future gets its reply, or the ``RedisError`` (or
        ``OSError``) it met. ``script``: the script an EVALSHA runs, sent whole if Redis
        lost it (a restart)."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Any] = loop.create_future()
        self._queue.append((command, future, script))
        if self._task is None:
            self._task = loop.create_task(self._run(), name="reverie-redis-pipeline")
        return future

    async def _run(self) -> None:
        try:
            while self._queue:
                batch, self._queue = self._queue, []
                await self._send(batch)
        finally:
            self._task = None
            for _, future, _ in self._queue:  # cancelled (closing): nobody will send these
                if not future.done():
                    future.set_exception(RedisError("the bus is closed"))
            self._queue = []

    async def _send(
        self, batch: list[tuple[tuple[Any, ...], asyncio.Future[Any], Script | None]]
    ) -> None:
        self.round_trips += 1
        self.commands += len(batch)
        try:
            try:
                replies = await self._round_trip([command for command, _, _ in batch])
            except (RedisError, OSError) as exc:
                replies = [RedisError(str(exc)) for _ in batch]
            for (command, future, script), reply in zip(batch, replies, strict=True):
                if isinstance(reply, NoScriptError) and script is not None:
                    try:  # EVAL also leaves the script in Redis for the next EVALSHA
                        reply = await self.client.eval(script.text, *command[2:])
                    except (RedisError, OSError) as exc:
                        reply = exc
                if future.done():  # its caller was cancelled
                    continue
                if isinstance(reply, BaseException):
                    future.set_exception(reply)
                else:
                    future.set_result(reply)
        except asyncio.CancelledError:
            for _, future, _ in batch:
                if not future.done():
                    future.set_exception(RedisError("the bus is closed"))
            raise

    async def _round_trip(self, commands: list[tuple[Any, ...]]) -> list[Any]:
        """Send the commands in one write and read their replies (an error reply is
        returned, not raised). A plain pipeline without redis-py's per-command
        bookkeeping, which cost more than the round trip it saves."""
        pool = self.client.connection_pool
        connection = await pool.get_connection()  # type: ignore[no-untyped-call]
        try:
            await connection.send_packed_command(b"".join(map(_pack, commands)))
            replies: list[Any] = []
            for _ in commands:
                try:
                    replies.append(await connection.read_response())
                except ResponseError as exc:
                    replies.append(exc)
        except BaseException:
            # The replies may be half read: this connection must not be used again.
            await connection.disconnect(nowait=True)
            raise
        finally:
            await pool.release(connection)
        return replies

    async def close(self) -> None:
        """Stop sending (what is still queued fails)."""
        task = self._task
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task


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
        #: What this process sends to Redis (news, drawings, leases, rate limits).
        self.pipeliner = Pipeliner(self.client)
        self._share = Script(_SHARE)
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
        if self._tasks:
            # Bounded: a cancellation swallowed inside redis-py must not hang the exit.
            await asyncio.wait(self._tasks, timeout=CLOSE_WAIT)
        await self.pipeliner.close()
        await self._drop_pubsub()
        with contextlib.suppress(RedisError, OSError):
            await self.client.aclose()
        self.clear()

    # ------------------------------------------------------------------ sending

    async def _send(self, channel: str, message: dict[str, Any]) -> None:
        await self.pipeliner.call("PUBLISH", channel, _ENCODE({**message, "pid": self.process_id}))

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
        size = self.pipeliner.call("RPUSH", key, entry)
        expire = self.pipeliner.call("EXPIRE", key, LOG_TTL)
        replies = await asyncio.gather(size, expire, return_exceptions=True)
        n = replies[0]
        if isinstance(n, BaseException):
            self.errors += 1
            raise BusUnavailable(f"Redis refused a drawing: {n}") from None
        return int(n)

    async def share(self, room: str, name: str, entry: str, message: dict[str, Any]) -> int:
        """Append ``entry`` to the room's log ``name`` and publish ``message`` with the
        entry's position as ``n``, in one step (one script, no second round trip)."""
        try:
            return await self.share_soon(room, name, entry, message)
        except (RedisError, OSError) as exc:
            raise BusUnavailable(f"Redis refused a drawing: {exc}") from None

    def share_soon(
        self, room: str, name: str, entry: str, message: dict[str, Any]
    ) -> asyncio.Future[int]:
        """:meth:`share` without waiting: the future gets the position, or the
        ``RedisError`` met (shares from this process land in the order they were made)."""
        encoded = _ENCODE({**message, "pid": self.process_id})
        head, tail = encoded[:-1] + b',"n":', b"}"
        command = self._share.command(
            [f"reverie:log:{room}:{name}", PREFIX + room], [entry, LOG_TTL, head, tail]
        )
        future = self.pipeliner.call(*command, script=self._share)
        future.add_done_callback(self._count_error)
        return future

    def _count_error(self, future: asyncio.Future[Any]) -> None:
        if not future.cancelled() and future.exception() is not None:
            self.errors += 1

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
                # Blocking (close() cancels it): a read with a timeout arms and cancels
                # a timer per message, which cost more than parsing the message.
                message = await self._pubsub.get_message(timeout=None)
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
