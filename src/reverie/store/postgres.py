"""The PostgreSQL event store: for several server processes sharing one log.

The database itself enforces the log's one rule: the primary key ``(code, version)``
admits one event per room and version, and ``append`` moves the room's version only
from the version the writer expected, in the same transaction. Two processes deciding
at once can therefore never both write version N: the second gets
:class:`VersionConflict` and catches up from the log.

The schema is created and migrated at start-up under an advisory lock (several
processes may start together); its version is recorded in ``reverie_schema``.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from collections.abc import AsyncIterator, Sequence

import psycopg
import psycopg_pool
from psycopg_pool import AsyncConnectionPool

from reverie.store.base import StoredEvent, StoreUnavailable, VersionConflict, redact
from reverie.store.decks import DECK_TABLES
from reverie.store.postgres_decks import DECKS_MIGRATION, WORDS_MIGRATION, PostgresDecks

#: Each migration brings the schema from its index to the next version; never edit one
#: that has shipped, add another.
MIGRATIONS: Sequence[str] = (
    """
    CREATE TABLE rooms (
        code TEXT PRIMARY KEY,
        version INTEGER NOT NULL,
        created_at DOUBLE PRECISION NOT NULL,
        updated_at DOUBLE PRECISION NOT NULL
    );
    CREATE TABLE events (
        code TEXT NOT NULL REFERENCES rooms (code),
        version INTEGER NOT NULL,
        payload BYTEA NOT NULL,
        at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (code, version)
    );
    CREATE INDEX rooms_updated ON rooms (updated_at);
    """,
    # 2: the latest snapshot of each room's fold, so a long log replays from there.
    """
    CREATE TABLE snapshots (
        code TEXT PRIMARY KEY REFERENCES rooms (code),
        version INTEGER NOT NULL,
        payload BYTEA NOT NULL,
        at DOUBLE PRECISION NOT NULL
    );
    """,
    # 3: players' own decks (pictures, captions, the rooms that play them), word lists.
    DECKS_MIGRATION,
    # 4: the rooms that name each word list (filled from the logs), for retention.
    WORDS_MIGRATION,
)
SCHEMA_VERSION = len(MIGRATIONS)
#: Serialises migrations between processes (any constant; "reverie" in ASCII).
_MIGRATION_LOCK = 0x72657665726965


#: A move's append in one statement, so one round trip: the room's version is the fence
#: (the update matches only at the expected version) and the event goes in only if it
#: matched, atomically.
_APPEND = (
    "WITH moved AS (UPDATE rooms SET version = %s, updated_at = %s"
    " WHERE code = %s AND version = %s RETURNING code)"
    " INSERT INTO events (code, version, payload, at) SELECT code, %s, %s, %s FROM moved"
)


#: Seconds a store call waits for a pooled connection before it fails as unavailable.
POOL_TIMEOUT = 5.0


class PostgresStore(PostgresDecks):
    """Event log in PostgreSQL, through a small pool of async connections, and players'
    decks (:class:`PostgresDecks`)."""

    def __init__(self, url: str, *, min_size: int = 1, max_size: int = 10) -> None:
        self.url = url
        # A move waits at most POOL_TIMEOUT for a connection: with the database away the
        # player hears "unavailable" in seconds, not after psycopg's default 30 s.
        self._pool = AsyncConnectionPool(
            url,
            min_size=min_size,
            max_size=max_size,
            open=False,
            timeout=POOL_TIMEOUT,
            # Autocommit: a one-statement call is one round trip (a move's append is the
            # hot path); calls of several statements say ``conn.transaction()``.
            kwargs={"connect_timeout": 5, "autocommit": True},
        )
        self._opened = False
        self._opening = asyncio.Lock()
        # The health check's write (a row no room code can name: codes are A-Z, 2-9).
        self._probe_key = f"~health-{secrets.token_hex(4)}"

    async def open(self) -> None:
        """Connect and bring the schema up to date (idempotent)."""
        async with self._opening:
            if self._opened:
                return
            try:
                await self._pool.open(wait=True, timeout=10)
            except psycopg_pool.PoolTimeout as exc:
                await self._pool.close()
                raise StoreUnavailable(
                    f"Cannot reach PostgreSQL at {redact(self.url)}: {exc}"
                ) from None
            self._opened = True
            await migrate(self._pool)

    async def _ready(self) -> AsyncConnectionPool:
        if not self._opened:
            await self.open()
        return self._pool

    @contextlib.asynccontextmanager
    async def _errors(self) -> AsyncIterator[None]:
        """Driver failures (the server gone, a table missing) as ``StoreUnavailable``;
        a conflict stays a conflict."""
        try:
            yield
        except (VersionConflict, StoreUnavailable):
            raise
        except (psycopg.Error, psycopg_pool.PoolTimeout) as exc:
            raise StoreUnavailable(f"The database cannot be used: {exc}") from exc

    async def create(self, code: str, payload: bytes, at: float) -> None:
        """Open a room's log with its first event (version 1); conflict if it exists."""
        async with self._errors():
            pool = await self._ready()
            try:
                async with pool.connection() as conn, conn.transaction():
                    await conn.execute(
                        "INSERT INTO rooms (code, version, created_at, updated_at)"
                        " VALUES (%s, 1, %s, %s)",
                        (code, at, at),
                    )
                    await conn.execute(
                        "INSERT INTO events (code, version, payload, at) VALUES (%s, 1, %s, %s)",
                        (code, payload, at),
                    )
            except psycopg.errors.UniqueViolation:
                raise VersionConflict(f"room {code} exists") from None

    async def append(self, code: str, expected: int, payload: bytes, at: float) -> int:
        """Append after version ``expected``; raise VersionConflict if it moved on."""
        async with self._errors():
            pool = await self._ready()
            version = expected + 1
            try:
                async with pool.connection() as conn:
                    cur = await conn.execute(
                        _APPEND, (version, at, code, expected, version, payload, at)
                    )
            except psycopg.errors.UniqueViolation:
                raise VersionConflict(f"room {code} already has version {version}") from None
            if cur.rowcount != 1:
                raise VersionConflict(f"room {code} is not at version {expected}")
            return version

    async def load(self, code: str, after: int = 0) -> list[StoredEvent]:
        """The events of a room after version ``after``, in order."""
        async with self._errors():
            pool = await self._ready()
            async with pool.connection() as conn:
                cur = await conn.execute(
                    "SELECT version, payload, at FROM events"
                    " WHERE code = %s AND version > %s ORDER BY version",
                    (code, after),
                )
                rows = await cur.fetchall()
            return [StoredEvent(v, bytes(p), a) for v, p, a in rows]

    async def active_rooms(self, since: float) -> list[str]:
        """Rooms written to since ``since``."""
        async with self._errors():
            pool = await self._ready()
            async with pool.connection() as conn:
                cur = await conn.execute(
                    "SELECT code FROM rooms WHERE updated_at >= %s ORDER BY updated_at", (since,)
                )
                rows = await cur.fetchall()
            return [r[0] for r in rows]

    async def save_snapshot(self, code: str, version: int, payload: bytes, at: float) -> None:
        """Keep the room's snapshot at ``version`` (an older one is replaced; a newer one
        written by another process meanwhile is kept)."""
        async with self._errors():
            pool = await self._ready()
            async with pool.connection() as conn:
                await conn.execute(
                    "INSERT INTO snapshots (code, version, payload, at) VALUES (%s, %s, %s, %s)"
                    " ON CONFLICT (code) DO UPDATE SET version = excluded.version,"
                    " payload = excluded.payload, at = excluded.at"
                    " WHERE snapshots.version < excluded.version",
                    (code, version, payload, at),
                )

    async def load_snapshot(self, code: str) -> StoredEvent | None:
        """The room's latest snapshot, if any."""
        async with self._errors():
            pool = await self._ready()
            async with pool.connection() as conn:
                cur = await conn.execute(
                    "SELECT version, payload, at FROM snapshots WHERE code = %s", (code,)
                )
                row = await cur.fetchone()
            return None if row is None else StoredEvent(row[0], bytes(row[1]), row[2])

    async def check(self) -> None:
        """Raise ``StoreUnavailable`` unless every table answers and a write goes
        through (a row written and deleted in one committed transaction: a database
        whose disk is full says so)."""
        async with self._errors():
            pool = await self._ready()
            async with pool.connection() as conn:
                for table in ("rooms", "events", "snapshots", *DECK_TABLES):
                    await conn.execute(f"SELECT 1 FROM {table} LIMIT 1".encode())
                async with conn.transaction():  # nobody else ever sees the row
                    await conn.execute(
                        "INSERT INTO rooms (code, version, created_at, updated_at)"
                        " VALUES (%s, 0, 0, 0) ON CONFLICT (code) DO NOTHING",
                        (self._probe_key,),
                    )
                    await conn.execute("DELETE FROM rooms WHERE code = %s", (self._probe_key,))

    async def schema_version(self) -> int:
        """The schema version the database is at."""
        async with self._errors():
            pool = await self._ready()
            async with pool.connection() as conn:
                return await _current_version(conn)

    async def idle_rooms(self, before: float) -> list[tuple[str, float]]:
        """Rooms last written to before ``before``, the longest idle first."""
        async with self._errors():
            pool = await self._ready()
            async with pool.connection() as conn:
                cur = await conn.execute(
                    "SELECT code, updated_at FROM rooms WHERE updated_at < %s ORDER BY updated_at",
                    (before,),
                )
                rows = await cur.fetchall()
            return [(code, float(at)) for code, at in rows]

    async def delete_rooms(
        self, codes: Sequence[str], *, idle_before: float | None = None
    ) -> list[str]:
        """Delete the rooms (still idle since ``idle_before``, if given) in one
        transaction; returns the codes deleted."""
        if not codes:
            return []
        async with self._errors():
            pool = await self._ready()
            async with pool.connection() as conn, conn.transaction():
                # Locked first: a move appended meanwhile either commits before (and the
                # room is no longer idle) or waits and then finds no room.
                cur = await conn.execute(
                    "SELECT code FROM rooms WHERE code = ANY(%s)"
                    " AND (%s::double precision IS NULL OR updated_at < %s) FOR UPDATE",
                    (list(codes), idle_before, idle_before),
                )
                gone = [r[0] for r in await cur.fetchall()]
                if gone:
                    await conn.execute("DELETE FROM events WHERE code = ANY(%s)", (gone,))
                    await conn.execute("DELETE FROM snapshots WHERE code = ANY(%s)", (gone,))
                    await conn.execute("DELETE FROM deck_uses WHERE room_code = ANY(%s)", (gone,))
                    await conn.execute("DELETE FROM word_uses WHERE room_code = ANY(%s)", (gone,))
                    await conn.execute("DELETE FROM rooms WHERE code = ANY(%s)", (gone,))
            return sorted(gone, key=list(codes).index)

    async def close(self) -> None:
        """Close the pool."""
        if self._opened:
            await self._pool.close()
            self._opened = False


async def _current_version(conn: psycopg.AsyncConnection[tuple[int]]) -> int:
    cur = await conn.execute("SELECT coalesce(max(version), 0) FROM reverie_schema")
    row = await cur.fetchone()
    return int(row[0]) if row else 0


async def migrate(pool: AsyncConnectionPool) -> int:
    """Apply the migrations the database lacks; returns the schema version.

    A database at a newer version than this code knows is refused: an older server must
    not write to a log whose shape it does not understand.
    """
    async with pool.connection() as conn, conn.transaction():
        await conn.execute("SELECT pg_advisory_xact_lock(%s)", (_MIGRATION_LOCK,))
        await conn.execute(
            "CREATE TABLE IF NOT EXISTS reverie_schema"
            " (version INTEGER PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())"
        )
        current = await _current_version(conn)
        if current > SCHEMA_VERSION:
            raise RuntimeError(
                f"the database schema is at version {current}; this server knows up to "
                f"{SCHEMA_VERSION}: upgrade the server"
            )
        for version in range(current + 1, SCHEMA_VERSION + 1):
            await conn.execute(MIGRATIONS[version - 1].encode())
            await conn.execute("INSERT INTO reverie_schema (version) VALUES (%s)", (version,))
    return SCHEMA_VERSION
