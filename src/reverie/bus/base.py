"""The bus interface and the in-memory bus.

A bus does two jobs. It fans a room's news out to the connections of *this* process
(:meth:`Bus.subscribe` / :meth:`Bus.deliver`: a direct call, never blocking), and, when
several processes serve the same rooms, it carries what one process committed to the
others (:meth:`Bus.broadcast` / :meth:`Bus.on_message`), which bring their copy of the
room up to date and then deliver locally. The in-memory bus is one process: there is
nobody to broadcast to.
"""

from __future__ import annotations

import asyncio
from collections import defaultdict
from collections.abc import Callable
from typing import Any, Protocol

from reverie.logs import PROCESS_ID
from reverie.store.base import redact

#: A message for the connections of this process: the bus hands it over as it is (the
#: rooms' typed deliveries, reverie.rooms.deliveries); it never leaves the process.
Subscriber = Callable[[Any], None]
#: ``handler(room, message)`` for a message from another process. ``room`` is None for
#: news about processes (``{"k": "gone", "pid": ...}``); after the bus lost its broker
#: and may have missed messages it calls ``handler(room, {"k": "resync"})`` for every
#: room it watches.
RemoteHandler = Callable[[str | None, dict[str, Any]], None]


class BusUnavailable(Exception):
    """The broker cannot be reached (the message was not sent)."""


def new_process_id() -> str:
    """This server process's id (the one its JSON log lines carry): messages it sends
    carry it, so it can tell its own from the others'."""
    return PROCESS_ID


class Bus(Protocol):
    """Fan-out in this process and, for a shared bus, news between processes."""

    #: This process's id (in every message it broadcasts).
    process_id: str
    #: Whether other processes may serve the same rooms (then rooms are kept in step
    #: through :meth:`broadcast`, and drawings through :meth:`append_log`).
    shared: bool

    def subscribe(self, room: str, subscriber: Subscriber) -> None:
        """Call ``subscriber(message)`` for each message delivered to ``room`` here."""

    def unsubscribe(self, room: str, subscriber: Subscriber) -> None:
        """Stop calling ``subscriber``."""

    def deliver(self, room: str, message: Any) -> None:
        """Give ``message`` to this process's subscribers of ``room``."""

    async def broadcast(self, room: str, message: dict[str, Any]) -> None:
        """Send ``message`` to the other processes watching ``room`` (raises
        :class:`BusUnavailable` if the broker cannot be reached)."""

    async def watch(self, room: str) -> None:
        """Receive the other processes' messages about ``room``."""

    async def unwatch(self, room: str) -> None:
        """Stop receiving them."""

    def on_message(self, handler: RemoteHandler) -> None:
        """Where messages from other processes go."""

    async def append_log(self, room: str, name: str, entry: str) -> int:
        """Add ``entry`` to the room's shared log ``name`` (a turn's drawing); returns
        its position, counting from one."""

    async def share(self, room: str, name: str, entry: str, message: dict[str, Any]) -> int:
        """Add ``entry`` to the room's shared log ``name`` and broadcast ``message`` with
        the entry's position (from one) as ``n``, in one step; returns the position
        (raises :class:`BusUnavailable` if the broker cannot be reached)."""

    def share_soon(
        self, room: str, name: str, entry: str, message: dict[str, Any]
    ) -> asyncio.Future[int]:
        """:meth:`share` without waiting for the broker: the future gets the position
        or the error (a process's shares land in the order they were made)."""

    async def read_log(self, room: str, name: str, start: int = 0) -> list[str]:
        """The entries of the shared log ``name`` from position ``start`` (from zero)."""

    async def start(self) -> None:
        """Connect (raises :class:`BusUnavailable` with one clear line if it cannot)."""

    async def check(self) -> None:
        """Raise :class:`BusUnavailable` unless the broker answers now."""

    async def close(self) -> None:
        """Say goodbye to the other processes and release resources."""


class LocalFanout:
    """The subscribers of this process, by room (every bus has one)."""

    def __init__(self) -> None:
        self._subs: dict[str, list[Subscriber]] = defaultdict(list)

    def subscribe(self, room: str, subscriber: Subscriber) -> None:
        """Add a subscriber to a room."""
        self._subs[room].append(subscriber)

    def unsubscribe(self, room: str, subscriber: Subscriber) -> None:
        """Remove a subscriber."""
        subs = self._subs.get(room)
        if subs and subscriber in subs:
            subs.remove(subscriber)
            if not subs:
                del self._subs[room]

    def deliver(self, room: str, message: Any) -> None:
        """Call every subscriber of the room with the message."""
        for sub in list(self._subs.get(room, ())):
            sub(message)

    def subscribers(self, room: str) -> int:
        """How many subscribers a room has here (for presence and tests)."""
        return len(self._subs.get(room, ()))

    def clear(self) -> None:
        """Forget every subscriber."""
        self._subs.clear()


class MemoryBus(LocalFanout):
    """One process: delivery is a direct call and there is nobody to broadcast to."""

    shared = False

    def __init__(self, process_id: str | None = None) -> None:
        super().__init__()
        self.process_id = process_id or new_process_id()
        self._logs: dict[tuple[str, str], list[str]] = {}

    async def broadcast(self, room: str, message: dict[str, Any]) -> None:
        """Nobody else to tell."""

    async def watch(self, room: str) -> None:
        """Nothing to watch."""

    async def unwatch(self, room: str) -> None:
        """Nothing to stop."""

    def on_message(self, handler: RemoteHandler) -> None:
        """No other process sends anything."""

    async def append_log(self, room: str, name: str, entry: str) -> int:
        """Not used by one process (its own memory is the whole truth); kept for the
        interface."""
        log = self._logs.setdefault((room, name), [])
        log.append(entry)
        return len(log)

    async def share(self, room: str, name: str, entry: str, message: dict[str, Any]) -> int:
        """Append (nobody else to tell)."""
        return await self.append_log(room, name, entry)

    def share_soon(
        self, room: str, name: str, entry: str, message: dict[str, Any]
    ) -> asyncio.Future[int]:
        """Append now (the future is done already)."""
        log = self._logs.setdefault((room, name), [])
        log.append(entry)
        future: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        future.set_result(len(log))
        return future

    async def read_log(self, room: str, name: str, start: int = 0) -> list[str]:
        """The entries from ``start``."""
        return self._logs.get((room, name), [])[start:]

    async def start(self) -> None:
        """Nothing to connect to."""

    async def check(self) -> None:
        """Always answers."""

    async def close(self) -> None:
        """Nothing to release."""
        self.clear()
        self._logs.clear()


def open_bus(url: str, process_id: str | None = None) -> Bus:
    """The bus for a URL: ``memory://`` (one process) or ``redis://host:port/db``
    (``process_id``: this process's id, by default :data:`reverie.logs.PROCESS_ID`;
    tests running two services in one process give each its own)."""
    if url.startswith("memory://"):
        return MemoryBus(process_id)
    if url.startswith(("redis://", "rediss://", "unix://")):
        from reverie.bus.redis import RedisBus

        return RedisBus(url, process_id=process_id)
    scheme = url.split(":", 1)[0]
    raise ValueError(f"No bus for {scheme!r} URLs; use memory:// or redis://")


async def check_bus(url: str) -> None:
    """Raise :class:`BusUnavailable` (or ``ValueError`` for an unknown scheme) unless the
    bus at ``url`` can be reached: the server's start-up check."""
    bus = open_bus(url)
    client = getattr(bus, "client", None)
    if client is None:
        return
    try:
        await client.ping()
    except Exception as exc:
        raise BusUnavailable(f"cannot reach Redis at {redact(url)}: {exc}") from None
    finally:
        await client.aclose()
