"""One contract for every event store: what the room service relies on."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

import pytest

from reverie.store import EventStore, VersionConflict, open_store
from reverie.store import postgres as pg
from reverie.store import sqlite as lite
from tests.aio import run_async


def run(url: str, body: Callable[[EventStore], Awaitable[None]]) -> None:
    async def main() -> None:
        store = open_store(url)
        await store.open()
        try:
            await body(store)
        finally:
            await store.close()

    run_async(main())


def test_a_log_opens_once_and_grows_one_version_at_a_time(store_url: str) -> None:
    async def body(store: EventStore) -> None:
        await store.create("ROOM01", b'{"n":1}', 10.0)
        with pytest.raises(VersionConflict):
            await store.create("ROOM01", b'{"n":"again"}', 11.0)
        assert await store.append("ROOM01", 1, b'{"n":2}', 12.0) == 2
        assert await store.append("ROOM01", 2, b'{"n":3}', 13.0) == 3
        with pytest.raises(VersionConflict):  # version 3 is taken: nothing is written
            await store.append("ROOM01", 2, b'{"n":"late"}', 14.0)
        with pytest.raises(VersionConflict):  # a version from the future
            await store.append("ROOM01", 7, b'{"n":"ahead"}', 14.0)
        events = await store.load("ROOM01")
        assert [(e.version, e.payload, e.at) for e in events] == [
            (1, b'{"n":1}', 10.0),
            (2, b'{"n":2}', 12.0),
            (3, b'{"n":3}', 13.0),
        ]
        assert [e.version for e in await store.load("ROOM01", after=1)] == [2, 3]
        assert await store.load("ROOM01", after=3) == []
        assert await store.load("NOSUCH") == []
        with pytest.raises(VersionConflict):  # a room that was never created
            await store.append("NOSUCH", 0, b"{}", 1.0)

    run(store_url, body)


def test_active_rooms_are_those_written_since(store_url: str) -> None:
    async def body(store: EventStore) -> None:
        await store.create("OLD001", b"{}", 100.0)
        await store.create("NEW001", b"{}", 200.0)
        await store.append("OLD001", 1, b"{}", 300.0)  # touched again: active
        await store.create("GONE01", b"{}", 50.0)
        assert await store.active_rooms(150.0) == ["NEW001", "OLD001"]

    run(store_url, body)


def test_two_writers_never_both_write_a_version(store_url: str) -> None:
    """Two stores on one database race for each next version: exactly one wins every
    time and the log has no gap and no duplicate. (On PostgreSQL they stand for two
    server processes; an SQLite file belongs to one process, whose two connections race
    here.)"""

    async def main() -> None:
        a, b = open_store(store_url), open_store(store_url)
        await a.open()
        await b.open()
        try:
            await a.create("RACE01", b"{}", 1.0)
            for expected in range(1, 21):
                results = await asyncio.gather(
                    a.append("RACE01", expected, b'{"by":"a"}', 2.0),
                    b.append("RACE01", expected, b'{"by":"b"}', 2.0),
                    return_exceptions=True,
                )
                wins = [r for r in results if r == expected + 1]
                losses = [r for r in results if isinstance(r, VersionConflict)]
                assert len(wins) == 1 and len(losses) == 1, results
            versions = [e.version for e in await b.load("RACE01")]
            assert versions == list(range(1, 22))
        finally:
            await a.close()
            await b.close()

    run_async(main())


def test_the_log_outlives_the_store_and_records_its_schema(store_url: str) -> None:
    async def first(store: EventStore) -> None:
        await store.create("KEEP01", b'{"a":1}', 1.0)
        await store.append("KEEP01", 1, b'{"a":2}', 2.0)
        assert await store.schema_version() == _known_version(store_url)

    async def second(store: EventStore) -> None:
        assert [e.payload for e in await store.load("KEEP01")] == [b'{"a":1}', b'{"a":2}']
        assert await store.schema_version() == _known_version(store_url)

    run(store_url, first)
    run(store_url, second)  # reopening migrates nothing twice


def _known_version(url: str) -> int:
    return lite.SCHEMA_VERSION if url.startswith("sqlite") else pg.SCHEMA_VERSION


def test_a_schema_newer_than_the_server_is_refused(store_url: str) -> None:
    async def body(store: EventStore) -> None:
        await store.create("ROOM01", b"{}", 1.0)

    run(store_url, body)
    if store_url.startswith("sqlite"):
        import sqlite3

        path = store_url.removeprefix("sqlite:///")
        con = sqlite3.connect(path)
        con.execute(f"PRAGMA user_version = {lite.SCHEMA_VERSION + 1}")
        con.commit()
        con.close()
        with pytest.raises(RuntimeError, match="upgrade the server"):
            open_store(store_url)
    else:
        import psycopg

        with psycopg.connect(store_url, autocommit=True) as pg_con:
            pg_con.execute("INSERT INTO reverie_schema (version) VALUES (%s)", (99,))

        async def reopen() -> None:
            store = open_store(store_url)
            try:
                with pytest.raises(RuntimeError, match="upgrade the server"):
                    await store.open()
            finally:
                await store.close()

        run_async(reopen())


def test_an_old_sqlite_file_without_a_schema_version_is_adopted(tmp_path: object) -> None:
    """Files written before the schema had a version hold version 1's tables."""
    import sqlite3
    from pathlib import Path

    path = Path(str(tmp_path)) / "old.db"
    con = sqlite3.connect(path)
    con.executescript(lite.MIGRATIONS[0])
    con.execute("INSERT INTO rooms VALUES ('OLD001', 1, 1.0, 1.0)")
    con.execute("INSERT INTO events VALUES ('OLD001', 1, X'7B7D', 1.0)")
    con.commit()
    con.close()

    async def body(store: EventStore) -> None:
        assert await store.schema_version() == lite.SCHEMA_VERSION
        assert [e.payload for e in await store.load("OLD001")] == [b"{}"]

    run(f"sqlite:///{path}", body)


def test_a_room_keeps_its_latest_snapshot(store_url: str) -> None:
    async def body(store: EventStore) -> None:
        await store.create("SNAP01", b"{}", 1.0)
        assert await store.load_snapshot("SNAP01") is None
        await store.save_snapshot("SNAP01", 10, b'{"v":10}', 2.0)
        await store.save_snapshot("SNAP01", 20, b'{"v":20}', 3.0)
        await store.save_snapshot("SNAP01", 15, b'{"v":15}', 4.0)  # late: an older one
        snap = await store.load_snapshot("SNAP01")
        assert snap is not None and (snap.version, snap.payload) == (20, b'{"v":20}')

    run(store_url, body)
