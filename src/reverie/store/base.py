"""The event-store interface the room service relies on."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable
from urllib.parse import urlsplit, urlunsplit


class VersionConflict(RuntimeError):
    """Another writer appended to the room first: the expected version is stale."""


class StoreUnavailable(RuntimeError):
    """The store cannot be used: the database is unreachable, or another server holds
    the SQLite file. The message says what to do, in one line."""


@dataclass(frozen=True, slots=True)
class StoredEvent:
    """One event as the log keeps it."""

    version: int
    payload: bytes
    at: float


class EventStore(Protocol):
    """An append-only log per room with optimistic concurrency.

    ``append`` writes the event as version ``expected + 1`` only if the room's last
    version is ``expected``; otherwise it raises :class:`VersionConflict` and writes
    nothing. An event is durable when ``append`` returns: only then is it acknowledged.
    """

    async def open(self) -> None:
        """Connect and bring the schema up to date (the other calls do it if needed;
        calling it at start-up makes a bad URL fail there)."""

    async def create(self, code: str, payload: bytes, at: float) -> None:
        """Open a room's log with its first event (version 1); conflict if it exists."""

    async def append(self, code: str, expected: int, payload: bytes, at: float) -> int:
        """Append after version ``expected``; returns the new version."""

    async def load(self, code: str, after: int = 0) -> list[StoredEvent]:
        """The events of a room after version ``after`` in order (empty if the room is
        unknown)."""

    async def active_rooms(self, since: float) -> list[str]:
        """Codes of rooms written to since ``since`` (epoch seconds)."""

    async def save_snapshot(self, code: str, version: int, payload: bytes, at: float) -> None:
        """Keep ``payload`` as the room's state at ``version`` (replacing an older one):
        a cache of the log's fold, never the truth."""

    async def load_snapshot(self, code: str) -> StoredEvent | None:
        """The room's latest snapshot, if any."""

    async def schema_version(self) -> int:
        """The version of the store's schema (recorded by its migrations)."""

    async def check(self) -> None:
        """Raise ``StoreUnavailable`` unless every table answers (the health check)."""

    async def close(self) -> None:
        """Release the connection."""


@runtime_checkable
class RoomDeletion(Protocol):
    """What retention (``reverie.rooms.retention``) needs of a store beside the log: the
    rooms nobody has written to for a while, and deleting a room with all it left."""

    async def idle_rooms(self, before: float) -> list[tuple[str, float]]:
        """``(code, last write)`` of every room last written to before ``before`` (epoch
        seconds), the longest idle first."""

    async def delete_rooms(
        self, codes: Sequence[str], *, idle_before: float | None = None
    ) -> list[str]:
        """Delete these rooms: their log, snapshot and record of the decks they played,
        in one transaction. With ``idle_before``, only those still last written to before
        it (a move made meanwhile keeps its room). Returns the codes deleted."""


def open_store(url: str, *, beside_server: bool = False) -> EventStore:
    """The store for a URL (``sqlite:///data/reverie.db``, ``sqlite:///:memory:``,
    ``postgresql://user@host:5432/db``). ``beside_server``: for an operator's command,
    which may run while servers use the store (a SQLite file is then opened without
    the lock a server takes on it)."""
    if is_postgres(url):
        from reverie.store.postgres import PostgresStore

        return PostgresStore(url)
    if url.startswith("sqlite://"):
        from reverie.store.sqlite import SQLiteStore

        return SQLiteStore(sqlite_path(url), beside_server=beside_server)
    scheme = url.split(":", 1)[0]
    raise ValueError(
        f"No event store for {scheme!r} URLs; use sqlite:///path/to/file.db or "
        "postgresql://user@host/db"
    )


def is_postgres(url: str) -> bool:
    """Whether ``url`` names a PostgreSQL database."""
    return url.startswith(("postgresql://", "postgres://"))


def sqlite_path(url: str) -> str:
    """The file of a ``sqlite://`` URL (``:memory:`` for none).

    >>> sqlite_path("sqlite:///data/reverie.db"), sqlite_path("sqlite:////srv/r.db")
    ('data/reverie.db', '/srv/r.db')
    """
    path = url.removeprefix("sqlite://")
    if path.startswith("/"):
        path = path[1:]  # sqlite:///rel/path → rel/path; sqlite:////abs → /abs
    return path or ":memory:"


async def check_store(url: str) -> None:
    """Open the store of ``url`` (migrating it) and close it again: raises
    ``StoreUnavailable`` (or ``RuntimeError`` for a schema from a newer server)."""
    store = open_store(url)
    try:
        await store.open()
    finally:
        await store.close()


def redact(url: str) -> str:
    """A URL fit to print: its password hidden.

    >>> redact("postgresql://ann:s3cret@db:5432/reverie")
    'postgresql://ann:***@db:5432/reverie'
    >>> redact("sqlite:///data/reverie.db")
    'sqlite:///data/reverie.db'
    """
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@", 1)
    return urlunsplit(parts._replace(netloc=netloc))
