"""Which rooms name a table's own word list, and what an operator sees of decks and
lists: recorded uses, the facts listed, deleting a list only while nobody names it, a
deck erased at once; the schema's migration that fills the uses from the rooms' logs.
On SQLite and PostgreSQL."""

from __future__ import annotations

import sqlite3
from collections.abc import Awaitable, Callable
from pathlib import Path

import psycopg

from reverie.store import EventStore, open_store
from reverie.store import postgres as pg
from reverie.store import sqlite as lite
from reverie.store.decks import DeckStore, NewCard
from tests.aio import run_async

MB = 1_000_000
ONE, TWO, THREE = (f"w-{c * 26}" for c in "abc")


def run(url: str, body: Callable[[DeckStore, EventStore], Awaitable[None]]) -> None:
    async def main() -> None:
        store = open_store(url)
        await store.open()
        try:
            assert isinstance(store, DeckStore)
            await body(store, store)
        finally:
            await store.close()

    run_async(main())


def test_a_list_is_kept_while_a_room_names_it(store_url: str) -> None:
    async def body(decks: DeckStore, log: EventStore) -> None:
        for list_id, at in ((ONE, 10.0), (TWO, 20.0), (THREE, 30.0)):
            await decks.save_words(list_id, b'{"language":"en","lists":{}}', at)
        await log.create("ROOM01", b"{}", 50.0)
        await log.create("ROOM02", b"{}", 60.0)
        await decks.record_words_use(ONE, "ROOM01", 50.0)
        await decks.record_words_use(ONE, "ROOM02", 60.0)
        await decks.record_words_use(TWO, "ROOM01", 55.0)
        await decks.record_words_use(TWO, "ROOM01", 56.0)  # named again: one use, later
        await log.append("ROOM01", 1, b"{}", 70.0)

        facts = {w.id: w for w in await decks.stored_word_lists()}
        assert list(facts) == [ONE, TWO, THREE]  # oldest first
        one, two, three = facts[ONE], facts[TWO], facts[THREE]
        assert (one.created_at, one.used_at, one.rooms, one.last_write) == (
            10.0, 60.0, ("ROOM01", "ROOM02"), 70.0)  # fmt: skip
        assert (two.used_at, two.rooms) == (56.0, ("ROOM01",))
        assert (three.used_at, three.rooms, three.last_write) == (30.0, (), None)
        assert three.size == len(b'{"language":"en","lists":{}}')
        assert [w.id for w in await decks.stored_word_lists(used_before=57.0)] == [TWO, THREE]

        # Retention's delete: only lists no room names and none named since the cut.
        assert await decks.delete_word_lists([ONE, TWO, THREE], unused_before=25.0) == []
        assert await decks.delete_word_lists([ONE, TWO, THREE], unused_before=100.0) == [THREE]
        assert await decks.load_words(THREE) is None
        # Deleting a room forgets what it named: TWO is free now, ONE still named.
        assert await log.delete_rooms(["ROOM01"]) == ["ROOM01"]  # type: ignore[attr-defined]
        assert await decks.delete_word_lists([ONE, TWO], unused_before=100.0) == [TWO]
        # Named by a room after the cut: kept even once that room is gone.
        await decks.record_words_use(ONE, "ROOM03", 200.0)
        assert await log.delete_rooms(["ROOM02"]) == ["ROOM02"]  # type: ignore[attr-defined]
        assert await decks.delete_word_lists([ONE], unused_before=150.0) == []
        # The operator's delete takes it whatever names it; an unknown id is no error.
        assert await decks.delete_word_lists([ONE, "w-none"]) == [ONE]
        assert await decks.stored_word_lists() == []

    run(store_url, body)


def test_the_operator_sees_decks_and_erases_one(store_url: str) -> None:
    async def body(decks: DeckStore, log: EventStore) -> None:
        await decks.create_deck("u-one", "o", 10.0)
        await decks.add_cards("u-one", [NewCard("c1", "image/webp", b"x" * 300),
                                        NewCard("c2", "image/webp", b"y" * 200)],
                              900, max_cards=5, max_bytes=MB)  # fmt: skip
        await decks.publish_deck("u-one", "Cats", {}, 20.0)
        await decks.create_deck("u-two", "o", 30.0)
        await log.create("ROOM01", b"{}", 40.0)
        await decks.record_deck_use("u-one", "ROOM01", 40.0)
        await decks.record_deck_use("u-one", "GONE01", 41.0)  # a room no longer stored

        listed = await decks.stored_decks()
        assert [d.id for d in listed] == ["u-one", "u-two"]
        one = listed[0]
        assert (one.title, one.state, one.cards, one.size, one.rooms, one.last_write) == (
            "Cats", "ready", 2, 500, ("ROOM01",), 40.0)  # fmt: skip
        assert (listed[1].state, listed[1].cards, listed[1].last_write) == ("draft", 0, None)

        assert await decks.erase_deck("u-one", 50.0)
        assert not await decks.erase_deck("u-one", 51.0)  # erased already
        assert not await decks.erase_deck("u-none", 51.0)
        erased = await decks.load_deck("u-one")
        assert erased is not None and erased.state == "purged" and erased.cards == ()
        assert await decks.card_image("u-one", "c1") is None
        assert [d.id for d in await decks.stored_decks()] == ["u-two"]
        tomb = [d for d in await decks.stored_decks(purged=True) if d.id == "u-one"]
        assert tomb and (tomb[0].cards, tomb[0].rooms) == (0, ())

    run(store_url, body)


def _payload(options: str) -> bytes:
    return f'{{"type":"created","code":"X","options":{options},"name":"Ann"}}'.encode()


# The logs of an older server: rooms naming lists in their options (at creation, or
# later), a chat line that quotes the same text (escaped: not a use), a list no room names.
OLD_EVENTS = [
    ("ROOM01", 1, _payload(f'{{"words":"{ONE}","word_mode":"beside"}}'), 100.0),
    ("ROOM01", 2, b'{"type":"chat","text":"\\"words\\":\\"' + TWO.encode() + b'\\""}', 110.0),
    ("ROOM02", 1, _payload("{}"), 120.0),
    ("ROOM02", 2, f'{{"type":"options_set","options":{{"words":"{ONE}"}}}}'.encode(), 130.0),
    ("ROOM02", 3, f'{{"type":"options_set","options":{{"words":"{THREE}"}}}}'.encode(), 140.0),
    ("ROOM03", 1, _payload('{"words":"w-zzzzzzzzzzzzzzzzzzzzzzzzzz"}'), 150.0),  # no such list
]
OLD_LISTS = [(ONE, b"{}", 10.0), (TWO, b"{}", 20.0), (THREE, b"{}", 30.0)]


def _old_sqlite(path: Path) -> None:
    con = sqlite3.connect(path, isolation_level=None)
    for version, migration in enumerate(lite.MIGRATIONS[:3], start=1):
        con.executescript(f"{migration}; PRAGMA user_version = {version};")
    _fill(con.execute, "?")
    con.close()


def _old_postgres(url: str) -> None:
    with psycopg.connect(url, autocommit=True) as con:
        con.execute(
            "CREATE TABLE reverie_schema (version INTEGER PRIMARY KEY,"
            " applied_at TIMESTAMPTZ NOT NULL DEFAULT now())"
        )
        for version, migration in enumerate(pg.MIGRATIONS[:3], start=1):
            con.execute(migration.encode())
            con.execute("INSERT INTO reverie_schema (version) VALUES (%s)", (version,))
        _fill(con.execute, "%s")


def _fill(execute: Callable[..., object], mark: str) -> None:
    rooms = sorted({(code, max(at for c, _, _, at in OLD_EVENTS if c == code))
                    for code, _, _, _ in OLD_EVENTS})  # fmt: skip
    for code, at in rooms:
        execute(f"INSERT INTO rooms VALUES ({mark}, 1, {mark}, {mark})", (code, at, at))
    for event in OLD_EVENTS:
        execute(f"INSERT INTO events VALUES ({mark}, {mark}, {mark}, {mark})", event)
    for row in OLD_LISTS:
        execute(f"INSERT INTO word_lists VALUES ({mark}, {mark}, {mark})", row)


def test_the_migration_finds_the_lists_rooms_named_in_their_logs(store_url: str) -> None:
    if store_url.startswith("sqlite"):
        _old_sqlite(Path(store_url.removeprefix("sqlite:///")))
    else:
        _old_postgres(store_url)

    async def body(decks: DeckStore, log: EventStore) -> None:
        known = lite.SCHEMA_VERSION if store_url.startswith("sqlite") else pg.SCHEMA_VERSION
        assert await log.schema_version() == known
        facts = {w.id: (w.rooms, w.used_at) for w in await decks.stored_word_lists()}
        assert facts == {
            ONE: (("ROOM01", "ROOM02"), 130.0),
            TWO: ((), 20.0),  # only quoted in a chat line
            THREE: (("ROOM02",), 140.0),
        }

    run(store_url, body)
