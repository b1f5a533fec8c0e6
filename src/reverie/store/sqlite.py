"""The embedded SQLite event store (the default: zero setup, one file).

Writes are short transactions on one connection; in WAL mode with
``synchronous=NORMAL`` a commit survives the process being killed (``kill -9``), which
is the durability the game needs; a power cut may lose the last moments. Every call
runs on one worker thread, so the occasional WAL checkpoint (which syncs the file to
disk) never stalls the event loop that serves every other room.

One server process owns the file: a second one would show its players rooms that the
first one moves on without it. An exclusive lock on ``<file>.lock`` refuses it at
start-up (PostgreSQL is the store for several processes). The operator's commands
(``reverie rooms``, ``decks``, ``words``) open the file ``beside_server``: without the
lock, waiting up to :data:`BUSY_SECONDS` for the server's write to end (WAL lets them
read meanwhile), in short transactions of their own.
"""

from __future__ import annotations

import asyncio
import secrets
import sqlite3
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import IO, TypeVar

from reverie.store.base import StoredEvent, StoreUnavailable, VersionConflict
from reverie.store.decks import DECK_TABLES
from reverie.store.sqlite_decks import (
    DECKS_MIGRATION,
    WORDS_MIGRATION,
    SQLiteDecks,
    transaction,
)

try:
    import fcntl
except ImportError:  # not on Windows: no lock there
    fcntl = None  # type: ignore[assignment]

T = TypeVar("T")
#: How long a writer waits for another connection's write transaction to end (the
#: server's and an operator's command, each on its own connection).
BUSY_SECONDS = 10.0

#: Each migration brings the schema from its index to the next version (recorded in
#: ``PRAGMA user_version``); never edit one that has shipped, add another. The first is
#: idempotent because files written before versions were recorded already hold it.
MIGRATIONS: Sequence[str] = (
    """
    CREATE TABLE IF NOT EXISTS rooms (
        code TEXT PRIMARY KEY,
        version INTEGER NOT NULL,
        created_at REAL NOT NULL,
        updated_at REAL NOT NULL
    );
    CREATE TABLE IF NOT EXISTS events (
        code TEXT NOT NULL,
        version INTEGER NOT NULL,
        payload BLOB NOT NULL,
        at REAL NOT NULL,
        PRIMARY KEY (code, version)
    );
    CREATE INDEX IF NOT EXISTS rooms_updated ON rooms (updated_at);
    """,
    # 2: the latest snapshot of each room's fold, so a long log replays from there.
    """
    CREATE TABLE snapshots (
        code TEXT PRIMARY KEY,
        version INTEGER NOT NULL,
        payload BLOB NOT NULL,
        at REAL NOT NULL
    );
    """,
    # 3: players' own decks (pictures, captions, the rooms that play them), word lists.
    DECKS_MIGRATION,
    # 4: the rooms that name each word list (filled from the logs), for retention.
    WORDS_MIGRATION,
)
SCHEMA_VERSION = len(MIGRATIONS)
#: What deleting a room removes, the room's row last.
_DELETE_ROOM = (
    "DELETE FROM events WHERE code = ?",
    "DELETE FROM snapshots WHERE code = ?",
    "DELETE FROM deck_uses WHERE room_code = ?",
    "DELETE FROM word_uses WHERE room_code = ?",
    "DELETE FROM rooms WHERE code = ?",
)


def migrate(db: sqlite3.Connection) -> int:
    """Apply the migrations the file lacks, each in its own transaction; returns the
    schema version. A file from a newer server is refused."""
    current = int(db.execute("PRAGMA user_version").fetchone()[0])
    if current > SCHEMA_VERSION:
        raise RuntimeError(
            f"the database schema is at version {current}; this server knows up to "
            f"{SCHEMA_VERSION}: upgrade the server"
        )
    for version in range(current + 1, SCHEMA_VERSION + 1):
        db.executescript(
            f"BEGIN IMMEDIATE; {MIGRATIONS[version - 1]}; PRAGMA user_version = {version}; COMMIT;"
        )
    return SCHEMA_VERSION


class SQLiteStore(SQLiteDecks):
    """Event log in one SQLite file, and players' decks (:class:`SQLiteDecks`)."""

    def __init__(self, path: str, *, beside_server: bool = False) -> None:
        """Open (and migrate) the file; ``beside_server``: an operator's command, which
        may run while a server holds the file."""
        self._lock: IO[str] | None = None
        if path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
            if not beside_server:
                self._lock = _lock_file(path)
        self.path = path
        try:
            self._db = sqlite3.connect(
                path, isolation_level=None, check_same_thread=False, timeout=BUSY_SECONDS
            )
        except sqlite3.Error as exc:
            self._unlock()
            raise StoreUnavailable(f"the event store at {path} cannot be opened: {exc}") from None
        try:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            migrate(self._db)
        except sqlite3.Error as exc:  # truncated, overwritten, not a database at all
            self._db.close()
            self._unlock()
            raise StoreUnavailable(_damaged(path, exc)) from None
        self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sqlite")
        # The health check's write (a row no room code can name: codes are A-Z, 2-9).
        self._probe_key = f"~health-{secrets.token_hex(4)}"

    def _unlock(self) -> None:
        if self._lock is not None:
            self._lock.close()  # closing the file releases the lock
            self._lock = None

    async def _run(self, fn: Callable[[], T]) -> T:
        try:
            return await asyncio.get_running_loop().run_in_executor(self._worker, fn)
        except sqlite3.Error as exc:  # a damaged file, a full disk: say so, in one line
            raise StoreUnavailable(f"The database cannot be used: {exc}") from exc

    async def open(self) -> None:
        """Check the whole file can be read (the file was opened and migrated in the
        constructor): a truncated or overwritten file stops the start-up with one line
        instead of failing room by room later. Reads every page once (0.6 s for a
        file of 120 MB with a warm page cache)."""

        def verify() -> None:
            try:
                rows = self._db.execute("PRAGMA quick_check(1)").fetchall()
            except sqlite3.DatabaseError as exc:
                raise StoreUnavailable(_damaged(self.path, exc)) from None
            if rows != [("ok",)]:
                raise StoreUnavailable(_damaged(self.path, rows[0][0]))

        await self._run(verify)

    async def check(self) -> None:
        """Raise ``StoreUnavailable`` unless every table answers and a write goes
        through: a row the size of a page, written and deleted in one committed
        transaction, so a full disk (or a file the database may not grow) says 503."""

        def probe() -> None:
            db = self._db
            for table in ("rooms", "events", "snapshots", *DECK_TABLES):
                db.execute(f"SELECT 1 FROM {table} LIMIT 1").fetchall()
            page = int(db.execute("PRAGMA page_size").fetchone()[0])

            def write(db: sqlite3.Connection) -> None:
                db.execute(
                    "INSERT OR REPLACE INTO snapshots (code, version, payload, at)"
                    " VALUES (?, 0, zeroblob(?), 0)",
                    (self._probe_key, page),
                )
                db.execute("DELETE FROM snapshots WHERE code = ?", (self._probe_key,))

            transaction(db, write)

        await self._run(probe)

    async def schema_version(self) -> int:
        """The schema version the file is at."""
        row = await self._run(lambda: self._db.execute("PRAGMA user_version").fetchone())
        return int(row[0])

    async def create(self, code: str, payload: bytes, at: float) -> None:
        """Open a room's log with its first event."""
        await self._run(lambda: self._create(code, payload, at))

    def _create(self, code: str, payload: bytes, at: float) -> None:
        def write(db: sqlite3.Connection) -> None:
            db.execute(
                "INSERT INTO rooms (code, version, created_at, updated_at) VALUES (?, 1, ?, ?)",
                (code, at, at),
            )
            db.execute(
                "INSERT INTO events (code, version, payload, at) VALUES (?, 1, ?, ?)",
                (code, payload, at),
            )

        try:
            transaction(self._db, write)
        except sqlite3.IntegrityError:
            raise VersionConflict(f"room {code} exists") from None

    async def append(self, code: str, expected: int, payload: bytes, at: float) -> int:
        """Append after version ``expected``; raise VersionConflict if it moved on."""
        return await self._run(lambda: self._append(code, expected, payload, at))

    def _append(self, code: str, expected: int, payload: bytes, at: float) -> int:
        version = expected + 1

        def write(db: sqlite3.Connection) -> None:
            cur = db.execute(
                "UPDATE rooms SET version = ?, updated_at = ? WHERE code = ? AND version = ?",
                (version, at, code, expected),
            )
            if cur.rowcount != 1:
                raise VersionConflict(f"room {code} is not at version {expected}")
            db.execute(
                "INSERT INTO events (code, version, payload, at) VALUES (?, ?, ?, ?)",
                (code, version, payload, at),
            )

        transaction(self._db, write)
        return version

    async def load(self, code: str, after: int = 0) -> list[StoredEvent]:
        """The events of a room after version ``after``, in order."""
        sql = (
            "SELECT version, payload, at FROM events"
            " WHERE code = ? AND version > ? ORDER BY version"
        )
        rows = await self._run(lambda: self._db.execute(sql, (code, after)).fetchall())
        return [StoredEvent(v, bytes(p), a) for v, p, a in rows]

    async def active_rooms(self, since: float) -> list[str]:
        """Rooms written to since ``since``."""
        sql = "SELECT code FROM rooms WHERE updated_at >= ? ORDER BY updated_at"
        rows = await self._run(lambda: self._db.execute(sql, (since,)).fetchall())
        return [r[0] for r in rows]

    async def save_snapshot(self, code: str, version: int, payload: bytes, at: float) -> None:
        """Keep the room's snapshot at ``version`` (an older one is replaced)."""
        sql = (
            "INSERT INTO snapshots (code, version, payload, at) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (code) DO UPDATE SET version = excluded.version,"
            " payload = excluded.payload, at = excluded.at"
            " WHERE excluded.version > snapshots.version"
        )
        await self._run(lambda: self._db.execute(sql, (code, version, payload, at)))

    async def load_snapshot(self, code: str) -> StoredEvent | None:
        """The room's latest snapshot, if any."""
        sql = "SELECT version, payload, at FROM snapshots WHERE code = ?"
        row = await self._run(lambda: self._db.execute(sql, (code,)).fetchone())
        return None if row is None else StoredEvent(row[0], bytes(row[1]), row[2])

    async def idle_rooms(self, before: float) -> list[tuple[str, float]]:
        """Rooms last written to before ``before``, the longest idle first."""
        sql = "SELECT code, updated_at FROM rooms WHERE updated_at < ? ORDER BY updated_at"
        rows = await self._run(lambda: self._db.execute(sql, (before,)).fetchall())
        return [(code, float(at)) for code, at in rows]

    async def delete_rooms(
        self, codes: Sequence[str], *, idle_before: float | None = None
    ) -> list[str]:
        """Delete the rooms (still idle since ``idle_before``, if given) in one
        transaction; returns the codes deleted."""

        def body(db: sqlite3.Connection) -> list[str]:
            gone = []
            for code in codes:
                row = db.execute("SELECT updated_at FROM rooms WHERE code = ?", (code,)).fetchone()
                if row is None or (idle_before is not None and row[0] >= idle_before):
                    continue
                for sql in _DELETE_ROOM:
                    db.execute(sql, (code,))
                gone.append(code)
            return gone

        return await self._run(lambda: transaction(self._db, body))

    async def close(self) -> None:
        """Close the file."""
        await self._run(self._db.close)
        self._worker.shutdown()
        self._unlock()


def _damaged(path: str, problem: object) -> str:
    shown = "/" + path.lstrip("/") if path.startswith("//") else path  # sqlite:////abs
    return (
        f"the event store at {shown} is damaged: {problem}; restore it from a backup, "
        "or move it away to start with an empty one"
    )


def _lock_file(path: str) -> IO[str] | None:
    """Hold an exclusive lock beside the database, or raise ``StoreUnavailable``.

    POSIX record locks belong to the process: the same process may open the file twice
    (tests do), another process may not.
    """
    if fcntl is None:
        return None
    lock = open(f"{path}.lock", "a+")  # noqa: SIM115  # held open until close()
    try:
        fcntl.lockf(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        lock.close()
        raise StoreUnavailable(
            f"Another Reverie server is using {path}: stop it, or give this one another "
            "--data-dir (several processes need PostgreSQL)."
        ) from None
    return lock
