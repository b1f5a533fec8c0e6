"""The bus interface and the in-memory bus."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from typing import Any, Protocol

Subscriber = Callable[[dict[str, Any]], None]


class Bus(Protocol):
    """Publish a room's news to every subscriber of that room (in this process or not)."""

    def subscribe(self, room: str, subscriber: Subscriber) -> None:
        """Call ``subscriber(message)`` for each message published to ``room``."""

    def unsubscribe(self, room: str, subscriber: Subscriber) -> None:
        """Stop calling ``subscriber``."""

    async def publish(self, room: str, message: dict[str, Any]) -> None:
        """Deliver ``message`` to the room's subscribers."""

    async def close(self) -> None:
        """Release resources."""


class MemoryBus:
    """Subscribers in this process; delivery is a direct call, never blocking."""

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

    async def publish(self, room: str, message: dict[str, Any]) -> None:
        """Call every subscriber of the room with the message."""
        for sub in list(self._subs.get(room, ())):
            sub(message)

    def subscribers(self, room: str) -> int:
        """How many subscribers a room has (for presence and tests)."""
        return len(self._subs.get(room, ()))

    async def close(self) -> None:
        """Nothing to release."""
        self._subs.clear()


def open_bus(url: str) -> Bus:
    """The bus for a URL (``memory://``)."""
    if url.startswith("memory://"):
        return MemoryBus()
    scheme = url.split(":", 1)[0]
    raise ValueError(f"No bus for {scheme!r} URLs; use memory://")
