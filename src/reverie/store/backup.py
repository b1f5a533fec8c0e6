"""Backups of the event store: a consistent copy of a live SQLite file.

SQLite's online backup API copies the database page by page as one reader: in WAL mode
the server goes on writing meanwhile, and the copy is the database as it stood at one
commit, never a file torn between two (copying ``reverie.db`` with ``cp`` while the
server runs can be, and misses what is still in ``reverie.db-wal``). The copy is written
beside its destination and renamed into place only once it is whole and checked.

PostgreSQL has its own tools: :func:`pg_dump_command` gives the command line.
"""

from __future__ import annotations

import os
import shlex
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

__all__ = ["BackupError", "BackupReport", "backup_sqlite", "pg_dump_command", "pg_restore_command"]


class BackupError(RuntimeError):
    """The backup could not be made; the message says why, in one line."""


@dataclass(frozen=True, slots=True)
class BackupReport:
    """What a backup holds."""

    path: Path
    rooms: int
    events: int
    schema_version: int
    size: int


def backup_sqlite(source: str | Path, dest: str | Path, *, overwrite: bool = False) -> BackupReport:
    """Copy the SQLite database ``source`` (which a server may be writing) to ``dest``.

    The source is opened read-only and copied in one step of the backup API, so the copy
    is one consistent moment of it (a step that the server's writes interrupt would start
    again). The copy is checked (``PRAGMA quick_check``) before it replaces ``dest``.

    Raises:
        BackupError: the source is missing or unreadable, ``dest`` exists (unless
            ``overwrite``) or cannot be written, or the copy is not sound.
    """
    src_path, dest_path = Path(source), Path(dest)
    if not src_path.is_file():
        raise BackupError(f"there is no database at {src_path}")
    if dest_path.exists() and not overwrite:
        raise BackupError(f"{dest_path} exists already (give another path, or --overwrite)")
    if dest_path.resolve() == src_path.resolve():
        raise BackupError("the backup cannot overwrite the database itself")
    dest_path.parent.mkdir(parents=True, exist_ok=True)
    partial = dest_path.with_name(f".{dest_path.name}.partial")
    partial.unlink(missing_ok=True)
    try:
        # Read-only: this connection never checkpoints nor writes the server's file.
        src = sqlite3.connect(f"{src_path.resolve().as_uri()}?mode=ro", uri=True)
        try:
            copy = sqlite3.connect(partial)
            try:
                src.backup(copy, pages=-1)  # one step: one consistent snapshot
                # A self-contained file: no -wal beside it to lose when it is moved.
                copy.execute("PRAGMA journal_mode=DELETE")
                report = _check(copy, dest_path)
            finally:
                copy.close()
        finally:
            src.close()
        os.replace(partial, dest_path)
    except sqlite3.Error as exc:
        partial.unlink(missing_ok=True)
        raise BackupError(f"the backup of {src_path} failed: {exc}") from None
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    return BackupReport(
        dest_path, report.rooms, report.events, report.schema_version, dest_path.stat().st_size
    )


def _check(db: sqlite3.Connection, path: Path) -> BackupReport:
    rows = db.execute("PRAGMA quick_check").fetchall()
    if rows != [("ok",)]:
        raise BackupError(f"the copy is not sound: {rows[0][0]}")
    version = int(db.execute("PRAGMA user_version").fetchone()[0])
    tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    if "rooms" not in tables:
        raise BackupError("the source is no Reverie database (it has no rooms table)")
    rooms = int(db.execute("SELECT count(*) FROM rooms").fetchone()[0])
    events = int(db.execute("SELECT count(*) FROM events").fetchone()[0])
    return BackupReport(path, rooms, events, version, 0)


def _without_password(url: str) -> str:
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.replace(f":{parts.password}@", "@", 1)
    return urlunsplit(parts._replace(netloc=netloc))


def pg_dump_command(url: str, dest: str | Path) -> str:
    """The ``pg_dump`` line that backs up the database of ``url`` to ``dest`` (custom
    format, for ``pg_restore``); the password is left out (give it in ``PGPASSWORD`` or
    ``~/.pgpass``).

    >>> pg_dump_command("postgresql://ann:pw@db:5432/reverie", "/srv/backups/r.dump")
    'pg_dump --format=custom --no-owner --file=/srv/backups/r.dump postgresql://ann@db:5432/reverie'
    """
    return shlex.join(
        ["pg_dump", "--format=custom", "--no-owner", f"--file={dest}", _without_password(url)]
    )


def pg_restore_command(url: str, source: str | Path) -> str:
    """The ``pg_restore`` line that loads a ``pg_dump`` file into the (empty) database of
    ``url``.

    >>> pg_restore_command("postgresql://ann:pw@db/reverie", "r.dump")
    'pg_restore --no-owner --dbname=postgresql://ann@db/reverie r.dump'
    """
    return shlex.join(
        ["pg_restore", "--no-owner", f"--dbname={_without_password(url)}", str(source)]
    )
