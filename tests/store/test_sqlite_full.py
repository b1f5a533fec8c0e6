"""SQLite on a full disk: a write is refused with the disk's own error, the transaction is
rolled back once, and the file takes writes again when there is room."""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path

import pytest

from reverie.store import open_store
from reverie.store.base import StoreUnavailable
from reverie.store.decks import NewCard
from reverie.store.sqlite import SQLiteStore
from tests.aio import run_async


def _fill(db: sqlite3.Connection) -> None:
    """Cap the file at its size, with no free page left: SQLite's SQLITE_FULL, as a full
    disk gives it."""
    db.execute("CREATE TABLE IF NOT EXISTS filler (x BLOB)")
    db.execute("VACUUM")
    pages = int(db.execute("PRAGMA page_count").fetchone()[0])
    db.execute(f"PRAGMA max_page_count = {pages}")
    with contextlib.suppress(sqlite3.OperationalError):
        for _ in range(100_000):
            db.execute("INSERT INTO filler VALUES (zeroblob(64))")


def _free(db: sqlite3.Connection) -> None:
    db.execute("DELETE FROM filler")
    db.execute(f"PRAGMA max_page_count = {1 << 30}")


@pytest.mark.parametrize("write", ["deck", "event", "room"])
def test_a_write_on_a_full_disk_says_so_and_the_next_one_works(tmp_path: Path, write: str) -> None:
    async def main() -> None:
        store = open_store(f"sqlite:///{tmp_path / 'r.db'}")
        assert isinstance(store, SQLiteStore)
        await store.open()
        try:
            await store.create("ROOM01", b"{}", 1.0)
            await store.create_deck("u-d1", "owner#", 1.0)
            big = [NewCard(f"c{i}", "image/webp", bytes([i]) * 50_000) for i in range(2)]

            async def attempt() -> None:
                if write == "deck":
                    await store.add_cards("u-d1", big, 100_000, max_cards=10, max_bytes=10**9)
                elif write == "event":
                    await store.append("ROOM01", 1, b"x" * 50_000, 2.0)
                else:
                    await store.create("ROOM02", b"y" * 50_000, 2.0)

            await store._run(lambda: _fill(store._db))
            with pytest.raises(StoreUnavailable) as full:
                await attempt()
            assert "full" in str(full.value)  # the disk's error, not a failed ROLLBACK
            assert not store._db.in_transaction
            await store._run(lambda: _free(store._db))
            await attempt()  # the same write again: nothing half-written is in the way
        finally:
            await store.close()

    run_async(main())
