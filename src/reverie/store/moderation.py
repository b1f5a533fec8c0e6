"""What the operator's moderation keeps: reports, site bans, approvals, room closures,
the originals of masked lines, and a log of every moderation action.

One interface, :class:`ModerationStore`, two backends sharing their SQL
(:class:`SqlModeration`): a SQLite file of its own beside the rooms' file
(``moderation.db``: the server holds a lock on ``reverie.db``, and ``reverie
moderation`` must work while it runs), or tables in the PostgreSQL database with their
own migration table (``reverie_moderation_schema``). Calls are few (a report, a ban
check on a join, a masked line), so both run blocking DB-API calls on a worker thread.

Every call that changes something writes the action log in the same transaction: who
(``by``), when, what, on what.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, Protocol, TypeVar, runtime_checkable

from reverie.errors import RoomError
from reverie.store.base import StoreUnavailable, is_postgres, redact, sqlite_path

T = TypeVar("T")

BanKind = Literal["browser", "address"]
ApprovalKind = Literal["deck", "words"]
ReportState = Literal["open", "closed"]

#: The reasons a report may give (the client offers these; docs/protocol.md).
REPORT_REASONS = ("abuse", "hate", "sexual", "spam", "cheating", "name", "other")
#: Longest free text of a report.
REPORT_TEXT_MAX = 500


class Banned(RoomError):
    """A browser or address the operator banned from the site until ``until`` (epoch
    seconds; ``params`` carries it for the client to say when)."""

    def __init__(self, until: float) -> None:
        super().__init__(
            "site_banned",
            "You cannot play on this site for now (the operator's decision).",
            {"until": int(until)},
        )
        self.until = until


@dataclass(frozen=True, slots=True)
class KeptLine:
    """One thing the reported person wrote in the room, as they wrote it."""

    kind: str  # name, chat, clue, guess, words
    text: str
    at: float = 0.0


@dataclass(frozen=True, slots=True)
class NewReport:
    """A report as a player sends it, with what was kept for the operator."""

    room: str
    target: Literal["player", "table"]
    target_name: str
    reason: str
    text: str
    reporter: str  # a hash: the reporter's browser, seat or address
    kept: tuple[KeptLine, ...] = ()


@dataclass(frozen=True, slots=True)
class Report:
    """A stored report."""

    id: int
    room: str
    target: str
    target_name: str
    reason: str
    text: str
    reporter: str
    created_at: float
    state: ReportState
    closed_at: float | None
    closed_by: str | None
    kept: tuple[KeptLine, ...] = field(default=())


@dataclass(frozen=True, slots=True)
class Ban:
    """A site ban of a browser id or an address (both hashed as the web layer gives them)."""

    kind: BanKind
    value: str
    until: float
    reason: str
    by: str
    at: float


@dataclass(frozen=True, slots=True)
class Approval:
    """A player's deck or word list the operator allowed at public tables."""

    kind: ApprovalKind
    item: str
    by: str
    at: float


@dataclass(frozen=True, slots=True)
class Action:
    """One line of the moderation log."""

    id: int
    at: float
    by: str
    action: str
    target: str
    detail: str


@runtime_checkable
class ModerationStore(Protocol):
    """What moderation needs of a database (both backends; tests/store/test_moderation.py)."""

    async def open(self) -> None:
        """Connect and bring the tables up to date."""

    async def close(self) -> None:
        """Release the connection."""

    async def add_report(self, report: NewReport, at: float) -> int:
        """Keep a report (open); returns its id."""

    async def reports(self, state: ReportState | None = "open") -> list[Report]:
        """Reports in that state (None: all), oldest first."""

    async def report(self, report_id: int) -> Report | None:
        """One report, with what was kept."""

    async def close_report(self, report_id: int, by: str, at: float) -> bool:
        """Close an open report; False if there was no open one of that id."""

    async def keep_original(
        self, room: str, author: str, kind: str, masked: str, original: str, at: float
    ) -> None:
        """Remember what ``author`` wrote before the filter masked it (for reports only:
        nobody at the table ever sees it)."""

    async def originals(self, room: str, author: str) -> dict[str, str]:
        """What ``author`` wrote in ``room`` before it was masked, by the masked text."""

    async def ban(
        self, kind: BanKind, value: str, until: float, reason: str, by: str, at: float
    ) -> None:
        """Ban a browser or an address until ``until`` (replacing a ban of it)."""

    async def unban(self, kind: BanKind, value: str, by: str, at: float) -> bool:
        """Lift a ban; False if there was none."""

    async def active_ban(self, browser: str | None, address: str | None, now: float) -> Ban | None:
        """The ban that holds now for this browser or address, if any (the longest)."""

    async def bans(self, now: float) -> list[Ban]:
        """Every ban that holds now."""

    async def approve(self, kind: ApprovalKind, item: str, by: str, at: float) -> None:
        """Allow a player's deck or word list at public tables."""

    async def withdraw(self, kind: ApprovalKind, item: str, by: str, at: float) -> bool:
        """Withdraw an approval; False if there was none."""

    async def is_approved(self, kind: ApprovalKind, item: str) -> bool:
        """Whether the operator approved it."""

    async def approvals(self) -> list[Approval]:
        """Every approval, oldest first."""

    async def close_room(self, code: str, reason: str, by: str, at: float) -> None:
        """Ask the servers to close a room (they append its ``Closed`` event)."""

    async def pending_closures(self) -> list[tuple[str, str]]:
        """``(code, reason)`` of the closures no server has applied yet."""

    async def closure_applied(self, code: str, at: float) -> None:
        """A server wrote the room's ``Closed`` event."""

    async def log_action(self, by: str, action: str, target: str, detail: str, at: float) -> None:
        """Add a line to the moderation log."""

    async def actions(self, limit: int = 100) -> list[Action]:
        """The latest lines of the moderation log, newest first."""

    async def prune(self, now: float, keep_seconds: float) -> int:
        """Forget closed reports' kept text, and originals, older than ``keep_seconds``;
        returns how many rows went."""


_TABLES = """
CREATE TABLE mod_reports (
    id {serial} PRIMARY KEY,
    room TEXT NOT NULL,
    target TEXT NOT NULL,
    target_name TEXT NOT NULL,
    reason TEXT NOT NULL,
    text TEXT NOT NULL,
    reporter TEXT NOT NULL,
    created_at {real} NOT NULL,
    state TEXT NOT NULL DEFAULT 'open',
    closed_at {real},
    closed_by TEXT,
    kept TEXT NOT NULL DEFAULT '[]'
);
CREATE INDEX mod_reports_state ON mod_reports (state, id);
CREATE TABLE mod_originals (
    room TEXT NOT NULL,
    author TEXT NOT NULL,
    kind TEXT NOT NULL,
    masked TEXT NOT NULL,
    original TEXT NOT NULL,
    at {real} NOT NULL
);
CREATE INDEX mod_originals_room ON mod_originals (room, author);
CREATE TABLE mod_bans (
    kind TEXT NOT NULL,
    value TEXT NOT NULL,
    until {real} NOT NULL,
    reason TEXT NOT NULL,
    by TEXT NOT NULL,
    at {real} NOT NULL,
    PRIMARY KEY (kind, value)
);
CREATE TABLE mod_approvals (
    kind TEXT NOT NULL,
    item TEXT NOT NULL,
    by TEXT NOT NULL,
    at {real} NOT NULL,
    PRIMARY KEY (kind, item)
);
CREATE TABLE mod_closures (
    code TEXT PRIMARY KEY,
    reason TEXT NOT NULL,
    by TEXT NOT NULL,
    at {real} NOT NULL,
    applied_at {real}
);
CREATE TABLE mod_actions (
    id {serial} PRIMARY KEY,
    at {real} NOT NULL,
    by TEXT NOT NULL,
    action TEXT NOT NULL,
    target TEXT NOT NULL,
    detail TEXT NOT NULL
);
"""

_SQLITE_TYPES = {"serial": "INTEGER", "real": "REAL"}
_PG_TYPES = {"serial": "BIGINT GENERATED ALWAYS AS IDENTITY", "real": "DOUBLE PRECISION"}

#: Each migration brings the moderation tables from its index to the next version.
MIGRATIONS: Sequence[str] = (_TABLES,)
SCHEMA_VERSION = len(MIGRATIONS)

_REPORT_COLUMNS = (
    "id, room, target, target_name, reason, text, reporter, created_at, state,"
    " closed_at, closed_by, kept"
)


def _kept_json(kept: Sequence[KeptLine]) -> str:
    return json.dumps([[k.kind, k.text, k.at] for k in kept], ensure_ascii=False)


def _report(row: Sequence[Any]) -> Report:
    kept = tuple(KeptLine(str(k), str(t), float(a)) for k, t, a in json.loads(row[11]))
    return Report(
        id=int(row[0]),
        room=row[1],
        target=row[2],
        target_name=row[3],
        reason=row[4],
        text=row[5],
        reporter=row[6],
        created_at=float(row[7]),
        state="closed" if row[8] == "closed" else "open",
        closed_at=None if row[9] is None else float(row[9]),
        closed_by=row[10],
        kept=kept,
    )


def _ban(row: Sequence[Any]) -> Ban:
    kind: BanKind = "address" if row[0] == "address" else "browser"
    return Ban(kind, row[1], float(row[2]), row[3], row[4], float(row[5]))


class Cursor(Protocol):
    """The part of a DB-API cursor the SQL below uses."""

    @property
    def rowcount(self) -> int:
        """Rows the last statement changed."""

    def execute(self, sql: str, params: Sequence[Any] = ..., /) -> Any:
        """Run one statement."""

    def fetchone(self) -> Any:
        """The next row."""

    def fetchall(self) -> list[Any]:
        """The remaining rows."""


class SqlModeration:
    """The moderation store over a DB-API connection; the backends say how to connect,
    how a transaction runs, and their placeholder. SQL is written with ``?``."""

    placeholder = "?"

    def __init__(self) -> None:
        self._lock = threading.Lock()

    # -- what a backend provides

    def _connect(self) -> None:
        raise NotImplementedError

    def _transaction(self, body: Callable[[Cursor], T]) -> T:
        raise NotImplementedError

    def _disconnect(self) -> None:
        raise NotImplementedError

    # -- the shared part

    async def _run(self, body: Callable[[Cursor], T]) -> T:
        def locked() -> T:
            with self._lock:  # one connection: one call at a time
                return self._transaction(body)

        return await asyncio.to_thread(locked)

    def _sql(self, sql: str) -> str:
        return sql if self.placeholder == "?" else sql.replace("?", self.placeholder)

    def _log(self, cur: Cursor, by: str, action: str, target: str, detail: str, at: float) -> None:
        cur.execute(
            self._sql(
                "INSERT INTO mod_actions (at, by, action, target, detail) VALUES (?, ?, ?, ?, ?)"
            ),
            (at, by, action, target, detail),
        )

    async def open(self) -> None:
        """Connect and bring the tables up to date."""
        await asyncio.to_thread(self._connect)

    async def close(self) -> None:
        """Release the connection."""
        await asyncio.to_thread(self._disconnect)

    async def add_report(self, report: NewReport, at: float) -> int:
        """Keep a report (open); returns its id."""

        def body(cur: Cursor) -> int:
            cur.execute(
                self._sql(
                    "INSERT INTO mod_reports (room, target, target_name, reason, text,"
                    " reporter, created_at, kept) VALUES (?,?,?,?,?,?,?,?) RETURNING id"
                ),
                (
                    report.room,
                    report.target,
                    report.target_name,
                    report.reason,
                    report.text,
                    report.reporter,
                    at,
                    _kept_json(report.kept),
                ),
            )
            report_id = int(cur.fetchone()[0])
            who = report.target_name if report.target == "player" else "the table"
            self._log(cur, "player", "report", report.room, f"#{report_id} {who}: "
                      f"{report.reason}", at)  # fmt: skip
            return report_id

        return await self._run(body)

    async def reports(self, state: ReportState | None = "open") -> list[Report]:
        """Reports in that state (None: all), oldest first."""

        def body(cur: Cursor) -> list[Report]:
            if state is None:
                cur.execute(f"SELECT {_REPORT_COLUMNS} FROM mod_reports ORDER BY id")
            else:
                cur.execute(
                    self._sql(
                        f"SELECT {_REPORT_COLUMNS} FROM mod_reports WHERE state = ? ORDER BY id"
                    ),
                    (state,),
                )
            return [_report(r) for r in cur.fetchall()]

        return await self._run(body)

    async def report(self, report_id: int) -> Report | None:
        """One report, with what was kept."""

        def body(cur: Cursor) -> Report | None:
            cur.execute(
                self._sql(f"SELECT {_REPORT_COLUMNS} FROM mod_reports WHERE id = ?"),
                (report_id,),
            )
            row = cur.fetchone()
            return None if row is None else _report(row)

        return await self._run(body)

    async def close_report(self, report_id: int, by: str, at: float) -> bool:
        """Close an open report."""

        def body(cur: Cursor) -> bool:
            cur.execute(
                self._sql(
                    "UPDATE mod_reports SET state = 'closed', closed_at = ?, closed_by = ?"
                    " WHERE id = ? AND state = 'open'"
                ),
                (at, by, report_id),
            )
            if cur.rowcount != 1:
                return False
            self._log(cur, by, "close_report", f"#{report_id}", "", at)
            return True

        return await self._run(body)

    async def keep_original(
        self, room: str, author: str, kind: str, masked: str, original: str, at: float
    ) -> None:
        """Remember what ``author`` wrote before the filter masked it."""

        def body(cur: Cursor) -> None:
            cur.execute(
                self._sql(
                    "INSERT INTO mod_originals (room, author, kind, masked, original, at)"
                    " VALUES (?,?,?,?,?,?)"
                ),
                (room, author, kind, masked, original, at),
            )

        await self._run(body)

    async def originals(self, room: str, author: str) -> dict[str, str]:
        """What ``author`` wrote in ``room`` before it was masked, by the masked text."""

        def body(cur: Cursor) -> dict[str, str]:
            cur.execute(
                self._sql(
                    "SELECT masked, original FROM mod_originals WHERE room = ? AND author = ?"
                    " ORDER BY at"
                ),
                (room, author),
            )
            return {str(m): str(o) for m, o in cur.fetchall()}

        return await self._run(body)

    async def ban(
        self, kind: BanKind, value: str, until: float, reason: str, by: str, at: float
    ) -> None:
        """Ban a browser or an address until ``until``."""

        def body(cur: Cursor) -> None:
            cur.execute(
                self._sql("DELETE FROM mod_bans WHERE kind = ? AND value = ?"), (kind, value)
            )
            cur.execute(
                self._sql(
                    "INSERT INTO mod_bans (kind, value, until, reason, by, at) VALUES (?,?,?,?,?,?)"
                ),
                (kind, value, until, reason, by, at),
            )
            self._log(cur, by, "ban", f"{kind} {value}", f"until {until:.0f}: {reason}", at)

        await self._run(body)

    async def unban(self, kind: BanKind, value: str, by: str, at: float) -> bool:
        """Lift a ban."""

        def body(cur: Cursor) -> bool:
            cur.execute(
                self._sql("DELETE FROM mod_bans WHERE kind = ? AND value = ?"), (kind, value)
            )
            if cur.rowcount < 1:
                return False
            self._log(cur, by, "unban", f"{kind} {value}", "", at)
            return True

        return await self._run(body)

    async def active_ban(self, browser: str | None, address: str | None, now: float) -> Ban | None:
        """The ban that holds now for this browser or address, if any."""
        if not browser and not address:
            return None

        def body(cur: Cursor) -> Ban | None:
            cur.execute(
                self._sql(
                    "SELECT kind, value, until, reason, by, at FROM mod_bans WHERE until > ?"
                    " AND ((kind = 'browser' AND value = ?) OR (kind = 'address' AND value = ?))"
                    " ORDER BY until DESC"
                ),
                (now, browser or "", address or ""),
            )
            row = cur.fetchone()
            return None if row is None else _ban(row)

        return await self._run(body)

    async def bans(self, now: float) -> list[Ban]:
        """Every ban that holds now."""

        def body(cur: Cursor) -> list[Ban]:
            cur.execute(
                self._sql(
                    "SELECT kind, value, until, reason, by, at FROM mod_bans WHERE until > ?"
                    " ORDER BY at"
                ),
                (now,),
            )
            return [_ban(r) for r in cur.fetchall()]

        return await self._run(body)

    async def approve(self, kind: ApprovalKind, item: str, by: str, at: float) -> None:
        """Allow a player's deck or word list at public tables."""

        def body(cur: Cursor) -> None:
            cur.execute(
                self._sql("DELETE FROM mod_approvals WHERE kind = ? AND item = ?"), (kind, item)
            )
            cur.execute(
                self._sql("INSERT INTO mod_approvals (kind, item, by, at) VALUES (?,?,?,?)"),
                (kind, item, by, at),
            )
            self._log(cur, by, "approve", f"{kind} {item}", "", at)

        await self._run(body)

    async def withdraw(self, kind: ApprovalKind, item: str, by: str, at: float) -> bool:
        """Withdraw an approval."""

        def body(cur: Cursor) -> bool:
            cur.execute(
                self._sql("DELETE FROM mod_approvals WHERE kind = ? AND item = ?"), (kind, item)
            )
            if cur.rowcount < 1:
                return False
            self._log(cur, by, "withdraw", f"{kind} {item}", "", at)
            return True

        return await self._run(body)

    async def is_approved(self, kind: ApprovalKind, item: str) -> bool:
        """Whether the operator approved it."""

        def body(cur: Cursor) -> bool:
            cur.execute(
                self._sql("SELECT 1 FROM mod_approvals WHERE kind = ? AND item = ?"), (kind, item)
            )
            return cur.fetchone() is not None

        return await self._run(body)

    async def approvals(self) -> list[Approval]:
        """Every approval, oldest first."""

        def body(cur: Cursor) -> list[Approval]:
            cur.execute("SELECT kind, item, by, at FROM mod_approvals ORDER BY at")
            return [
                Approval("deck" if k == "deck" else "words", i, b, float(a))
                for k, i, b, a in cur.fetchall()
            ]

        return await self._run(body)

    async def close_room(self, code: str, reason: str, by: str, at: float) -> None:
        """Ask the servers to close a room."""

        def body(cur: Cursor) -> None:
            cur.execute(self._sql("DELETE FROM mod_closures WHERE code = ?"), (code,))
            cur.execute(
                self._sql("INSERT INTO mod_closures (code, reason, by, at) VALUES (?,?,?,?)"),
                (code, reason, by, at),
            )
            self._log(cur, by, "close_room", code, reason, at)

        await self._run(body)

    async def pending_closures(self) -> list[tuple[str, str]]:
        """``(code, reason)`` of the closures no server has applied yet."""

        def body(cur: Cursor) -> list[tuple[str, str]]:
            cur.execute("SELECT code, reason FROM mod_closures WHERE applied_at IS NULL")
            return [(str(c), str(r)) for c, r in cur.fetchall()]

        return await self._run(body)

    async def closure_applied(self, code: str, at: float) -> None:
        """A server wrote the room's ``Closed`` event."""

        def body(cur: Cursor) -> None:
            cur.execute(
                self._sql("UPDATE mod_closures SET applied_at = ? WHERE code = ?"), (at, code)
            )

        await self._run(body)

    async def log_action(self, by: str, action: str, target: str, detail: str, at: float) -> None:
        """Add a line to the moderation log."""
        await self._run(lambda cur: self._log(cur, by, action, target, detail, at))

    async def actions(self, limit: int = 100) -> list[Action]:
        """The latest lines of the moderation log, newest first."""

        def body(cur: Cursor) -> list[Action]:
            cur.execute(
                self._sql(
                    "SELECT id, at, by, action, target, detail FROM mod_actions"
                    " ORDER BY id DESC LIMIT ?"
                ),
                (limit,),
            )
            return [Action(int(r[0]), float(r[1]), *r[2:]) for r in cur.fetchall()]

        return await self._run(body)

    async def prune(self, now: float, keep_seconds: float) -> int:
        """Forget what closed reports kept, and originals, older than ``keep_seconds``."""
        before = now - keep_seconds

        def body(cur: Cursor) -> int:
            cur.execute(
                self._sql(
                    "UPDATE mod_reports SET kept = '[]' WHERE state = 'closed'"
                    " AND closed_at < ? AND kept <> '[]'"
                ),
                (before,),
            )
            gone = max(cur.rowcount, 0)
            cur.execute(self._sql("DELETE FROM mod_originals WHERE at < ?"), (before,))
            return gone + max(cur.rowcount, 0)

        return await self._run(body)


class SQLiteModeration(SqlModeration):
    """Moderation in a SQLite file of its own (several processes may open it: the
    server and ``reverie moderation``; WAL, and a busy timeout instead of a lock)."""

    def __init__(self, path: str) -> None:
        super().__init__()
        self.path = path
        self._db: sqlite3.Connection | None = None

    def _connect(self) -> None:
        if self._db is not None:
            return
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        try:
            db = sqlite3.connect(
                self.path, isolation_level=None, check_same_thread=False, timeout=10
            )
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")
            current = int(db.execute("PRAGMA user_version").fetchone()[0])
            if current > SCHEMA_VERSION:
                raise RuntimeError(
                    f"the moderation file {self.path} is at schema version {current}; this"
                    f" server knows up to {SCHEMA_VERSION}: upgrade the server"
                )
            for version in range(current + 1, SCHEMA_VERSION + 1):
                script = MIGRATIONS[version - 1].format(**_SQLITE_TYPES)
                db.executescript(
                    f"BEGIN IMMEDIATE; {script}; PRAGMA user_version = {version}; COMMIT;"
                )
        except sqlite3.Error as exc:
            raise StoreUnavailable(
                f"the moderation file {self.path} cannot be used: {exc}"
            ) from None
        self._db = db

    def _disconnect(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None

    def _transaction(self, body: Callable[[Cursor], T]) -> T:
        self._connect()
        assert self._db is not None
        db = self._db
        try:
            db.execute("BEGIN IMMEDIATE")
            try:
                result = body(db.cursor())
                db.execute("COMMIT")
            except BaseException:
                if db.in_transaction:
                    db.execute("ROLLBACK")
                raise
        except sqlite3.Error as exc:
            raise StoreUnavailable(f"the moderation file cannot be used: {exc}") from exc
        return result


#: Serialises the moderation tables' migrations between processes ("revmod" in ASCII).
_PG_LOCK = 0x7265766D6F64


class PostgresModeration(SqlModeration):
    """Moderation in tables of the PostgreSQL database (migrations recorded in
    ``reverie_moderation_schema``, apart from the event log's)."""

    placeholder = "%s"

    def __init__(self, url: str) -> None:
        super().__init__()
        self.url = url
        self._conn: Any = None

    def _connect(self) -> None:
        if self._conn is not None and not self._conn.closed:
            return
        import psycopg

        try:
            conn = psycopg.connect(self.url, connect_timeout=5, autocommit=False)
        except psycopg.Error as exc:
            raise StoreUnavailable(
                f"Cannot reach PostgreSQL at {redact(self.url)}: {exc}"
            ) from None
        try:
            with conn.transaction():
                conn.execute("SELECT pg_advisory_xact_lock(%s)", (_PG_LOCK,))
                conn.execute(
                    "CREATE TABLE IF NOT EXISTS reverie_moderation_schema (version INTEGER)"
                )
                row = conn.execute("SELECT max(version) FROM reverie_moderation_schema").fetchone()
                current = int(row[0]) if row and row[0] is not None else 0
                if current > SCHEMA_VERSION:
                    raise RuntimeError(
                        f"the moderation tables are at schema version {current}; this server"
                        f" knows up to {SCHEMA_VERSION}: upgrade the server"
                    )
                for version in range(current + 1, SCHEMA_VERSION + 1):
                    for statement in MIGRATIONS[version - 1].format(**_PG_TYPES).split(";"):
                        if statement.strip():
                            conn.execute(statement)
                    conn.execute(
                        "INSERT INTO reverie_moderation_schema (version) VALUES (%s)", (version,)
                    )
        except BaseException:
            conn.close()
            raise
        self._conn = conn

    def _disconnect(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def _transaction(self, body: Callable[[Cursor], T]) -> T:
        import psycopg

        self._connect()
        conn = self._conn
        try:
            with conn.transaction(), conn.cursor() as cur:
                return body(cur)
        except psycopg.Error as exc:
            if conn.closed or conn.broken:
                self._conn = None  # the next call connects again
            raise StoreUnavailable(f"The moderation tables cannot be used: {exc}") from exc


def moderation_url(store_url: str) -> str:
    """Where moderation lives for an event store: the same PostgreSQL database, or
    ``moderation.db`` beside the rooms' SQLite file.

    >>> moderation_url("sqlite:///data/reverie.db")
    'sqlite:///data/moderation.db'
    >>> moderation_url("sqlite:///:memory:")
    'sqlite:///:memory:'
    """
    if is_postgres(store_url):
        return store_url
    path = sqlite_path(store_url)
    if path == ":memory:":
        return "sqlite:///:memory:"
    return f"sqlite:///{Path(path).parent / 'moderation.db'}"


def open_moderation(store_url: str) -> SqlModeration:
    """The moderation store that goes with the event store of ``store_url``."""
    url = moderation_url(store_url)
    if is_postgres(url):
        return PostgresModeration(url)
    return SQLiteModeration(sqlite_path(url))


async def check_site_ban(
    store: ModerationStore | None, browser: str | None, address: str | None, now: float
) -> None:
    """Raise :class:`Banned` if the operator banned this browser or address (hashed ids,
    as ``reverie.web.browser_id`` makes them) and the ban still holds."""
    if store is None:
        return
    ban = await store.active_ban(browser, address, now)
    if ban is not None:
        raise Banned(ban.until)
