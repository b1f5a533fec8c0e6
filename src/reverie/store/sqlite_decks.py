"""Players' decks and word lists in the SQLite file (see :mod:`reverie.store.decks`)."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Mapping, Sequence
from typing import TypeVar, cast

from reverie.store.decks import (
    DeckFacts,
    DeckNotDraft,
    DeckState,
    NewCard,
    StoredCard,
    StoredDeck,
    WordListFacts,
    check_room,
)

T = TypeVar("T")

#: Migration 3 of the SQLite schema (``reverie.store.sqlite.MIGRATIONS``).
DECKS_MIGRATION = """
CREATE TABLE decks (
    id TEXT PRIMARY KEY,
    owner_hash TEXT NOT NULL,
    title TEXT NOT NULL DEFAULT '',
    state TEXT NOT NULL,
    created_at REAL NOT NULL,
    changed_at REAL NOT NULL,
    upload_bytes INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE deck_cards (
    deck_id TEXT NOT NULL REFERENCES decks (id),
    card_id TEXT NOT NULL UNIQUE,
    caption TEXT NOT NULL DEFAULT '',
    mime TEXT NOT NULL,
    image BLOB NOT NULL,
    PRIMARY KEY (deck_id, card_id)
);
CREATE TABLE deck_uses (
    deck_id TEXT NOT NULL,
    room_code TEXT NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (deck_id, room_code)
);
CREATE TABLE word_lists (
    id TEXT PRIMARY KEY,
    payload BLOB NOT NULL,
    created_at REAL NOT NULL
);
"""

#: Migration 4: which rooms name a word list (``word_uses``) and when one last did
#: (``used_at``), so retention can delete the lists nobody plays; filled from the logs:
#: a room names a list in its options (``"words":"w-…"`` in a ``created`` or
#: ``options_set`` event's JSON; inside a chat line the quotes would be escaped).
WORDS_MIGRATION = """
CREATE TABLE word_uses (
    list_id TEXT NOT NULL,
    room_code TEXT NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (list_id, room_code)
);
CREATE INDEX word_uses_room ON word_uses (room_code);
CREATE INDEX deck_uses_room ON deck_uses (room_code);
ALTER TABLE word_lists ADD COLUMN used_at REAL NOT NULL DEFAULT 0;
UPDATE word_lists SET used_at = created_at;
INSERT OR IGNORE INTO word_uses (list_id, room_code, at)
SELECT n.list_id, n.code, max(n.at) FROM (
    SELECT e.code AS code, e.at AS at, CAST(substr(e.payload,
        instr(e.payload, CAST('"words":"w-' AS BLOB)) + 9, 28) AS TEXT) AS list_id
    FROM events e WHERE instr(e.payload, CAST('"words":"w-' AS BLOB)) > 0
) n
WHERE n.list_id IN (SELECT id FROM word_lists)
GROUP BY n.list_id, n.code;
UPDATE word_lists SET used_at = max(used_at, coalesce(
    (SELECT max(u.at) FROM word_uses u WHERE u.list_id = word_lists.id), 0));
"""

_DECK_FACTS = """
SELECT d.id, d.title, d.state, d.created_at, d.changed_at,
    (SELECT count(*) FROM deck_cards c WHERE c.deck_id = d.id),
    (SELECT coalesce(sum(length(c.image)), 0) FROM deck_cards c WHERE c.deck_id = d.id),
    (SELECT group_concat(r.code, ' ') FROM deck_uses u JOIN rooms r ON r.code = u.room_code
     WHERE u.deck_id = d.id),
    (SELECT max(r.updated_at) FROM deck_uses u JOIN rooms r ON r.code = u.room_code
     WHERE u.deck_id = d.id)
FROM decks d WHERE ? OR d.state != 'purged' ORDER BY d.created_at, d.id
"""

_WORD_FACTS = """
SELECT w.id, w.created_at, w.used_at, length(w.payload),
    (SELECT group_concat(r.code, ' ') FROM word_uses u JOIN rooms r ON r.code = u.room_code
     WHERE u.list_id = w.id),
    (SELECT max(r.updated_at) FROM word_uses u JOIN rooms r ON r.code = u.room_code
     WHERE u.list_id = w.id)
FROM word_lists w WHERE ? IS NULL OR w.used_at < ? ORDER BY w.created_at, w.id
"""

_PURGEABLE = """
SELECT id FROM decks d
WHERE (d.state = 'draft' AND d.created_at < ?)
   OR (d.state = 'deleted' AND NOT EXISTS (
        SELECT 1 FROM deck_uses u JOIN rooms r ON r.code = u.room_code
        WHERE u.deck_id = d.id AND r.updated_at >= ?))
"""


def rollback(db: sqlite3.Connection) -> None:
    """Roll back the open transaction, if SQLite has not already (it does by itself on
    a full disk, and a second ROLLBACK would hide that error behind its own)."""
    if db.in_transaction:
        db.execute("ROLLBACK")


def transaction(db: sqlite3.Connection, body: Callable[[sqlite3.Connection], T]) -> T:
    """Run ``body`` in one write transaction: committed whole, or rolled back whole
    (also when the COMMIT itself fails) with the first error raised."""
    db.execute("BEGIN IMMEDIATE")
    try:
        result = body(db)
        db.execute("COMMIT")
    except BaseException:
        rollback(db)
        raise
    return result


class SQLiteDecks:
    """The :class:`~reverie.store.decks.DeckStore` methods of ``SQLiteStore``."""

    _db: sqlite3.Connection

    async def _run(self, fn: Callable[[], T]) -> T:
        raise NotImplementedError  # SQLiteStore's: one worker thread for every call

    def _transaction(self, body: Callable[[sqlite3.Connection], T]) -> T:
        return transaction(self._db, body)

    async def create_deck(self, deck_id: str, owner_hash: str, at: float) -> None:
        """Open an empty draft."""
        sql = (
            "INSERT INTO decks (id, owner_hash, state, created_at, changed_at)"
            " VALUES (?, ?, 'draft', ?, ?)"
        )
        await self._run(lambda: self._db.execute(sql, (deck_id, owner_hash, at, at)))

    async def add_cards(
        self,
        deck_id: str,
        cards: Sequence[NewCard],
        upload_bytes: int,
        *,
        max_cards: int,
        max_bytes: int,
    ) -> None:
        """Add pictures to a draft, all or none, within its limits."""

        def body(db: sqlite3.Connection) -> None:
            row = db.execute(
                "SELECT state, upload_bytes, (SELECT count(*) FROM deck_cards WHERE deck_id = ?)"
                " FROM decks WHERE id = ?",
                (deck_id, deck_id),
            ).fetchone()
            if row is None or row[0] != "draft":
                raise DeckNotDraft(deck_id)
            check_room(row[2], row[1], len(cards), upload_bytes, max_cards, max_bytes)
            db.executemany(
                "INSERT INTO deck_cards (deck_id, card_id, mime, image) VALUES (?, ?, ?, ?)",
                [(deck_id, c.card_id, c.mime, c.image) for c in cards],
            )
            db.execute(
                "UPDATE decks SET upload_bytes = upload_bytes + ? WHERE id = ?",
                (upload_bytes, deck_id),
            )

        await self._run(lambda: self._transaction(body))

    async def remove_card(self, deck_id: str, card_id: str) -> bool:
        """Take a card out of a draft."""
        sql = (
            "DELETE FROM deck_cards WHERE deck_id = ? AND card_id = ?"
            " AND EXISTS (SELECT 1 FROM decks WHERE id = ? AND state = 'draft')"
        )
        cur = await self._run(lambda: self._db.execute(sql, (deck_id, card_id, deck_id)))
        return cur.rowcount == 1

    async def publish_deck(
        self, deck_id: str, title: str, captions: Mapping[str, str], at: float
    ) -> None:
        """Make a draft ready, with its title and captions, in one transaction."""

        def body(db: sqlite3.Connection) -> None:
            cur = db.execute(
                "UPDATE decks SET state = 'ready', title = ?, changed_at = ?"
                " WHERE id = ? AND state = 'draft'"
                " AND EXISTS (SELECT 1 FROM deck_cards WHERE deck_id = ?)",
                (title, at, deck_id, deck_id),
            )
            if cur.rowcount != 1:
                raise DeckNotDraft(deck_id)
            db.executemany(
                "UPDATE deck_cards SET caption = ? WHERE deck_id = ? AND card_id = ?",
                [(text, deck_id, cid) for cid, text in captions.items()],
            )

        await self._run(lambda: self._transaction(body))

    async def load_deck(self, deck_id: str) -> StoredDeck | None:
        """The deck and its cards' facts."""

        def read() -> StoredDeck | None:
            row = self._db.execute(
                "SELECT id, owner_hash, title, state, created_at, changed_at, upload_bytes"
                " FROM decks WHERE id = ?",
                (deck_id,),
            ).fetchone()
            if row is None:
                return None
            cards = self._db.execute(
                "SELECT card_id, caption, mime, length(image) FROM deck_cards"
                " WHERE deck_id = ? ORDER BY card_id",
                (deck_id,),
            ).fetchall()
            return StoredDeck(
                id=row[0],
                owner_hash=row[1],
                title=row[2],
                state=cast(DeckState, row[3]),
                created_at=row[4],
                changed_at=row[5],
                upload_bytes=row[6],
                cards=tuple(StoredCard(*c) for c in cards),
            )

        return await self._run(read)

    async def card_image(self, deck_id: str, card_id: str) -> tuple[str, bytes] | None:
        """A card's media type and picture."""
        sql = "SELECT mime, image FROM deck_cards WHERE deck_id = ? AND card_id = ?"
        row = await self._run(lambda: self._db.execute(sql, (deck_id, card_id)).fetchone())
        return None if row is None else (row[0], bytes(row[1]))

    async def delete_deck(self, deck_id: str, at: float) -> bool:
        """Mark a draft or ready deck deleted."""
        sql = (
            "UPDATE decks SET state = 'deleted', changed_at = ?"
            " WHERE id = ? AND state IN ('draft', 'ready')"
        )
        cur = await self._run(lambda: self._db.execute(sql, (at, deck_id)))
        return cur.rowcount == 1

    async def record_deck_use(self, deck_id: str, room_code: str, at: float) -> None:
        """Remember that a room plays this deck."""
        sql = "INSERT OR IGNORE INTO deck_uses (deck_id, room_code, at) VALUES (?, ?, ?)"
        await self._run(lambda: self._db.execute(sql, (deck_id, room_code, at)))

    async def purge_decks(self, drafts_before: float, idle_before: float, at: float) -> int:
        """Drop the pictures of stale drafts and of deleted decks no active room plays."""

        def body(db: sqlite3.Connection) -> int:
            ids = [r[0] for r in db.execute(_PURGEABLE, (drafts_before, idle_before))]
            for deck_id in ids:
                db.execute("DELETE FROM deck_cards WHERE deck_id = ?", (deck_id,))
                db.execute("DELETE FROM deck_uses WHERE deck_id = ?", (deck_id,))
                db.execute(
                    "UPDATE decks SET state = 'purged', changed_at = ? WHERE id = ?",
                    (at, deck_id),
                )
            return len(ids)

        return await self._run(lambda: self._transaction(body))

    async def save_words(self, list_id: str, payload: bytes, at: float) -> None:
        """Keep a custom word list."""
        sql = "INSERT INTO word_lists (id, payload, created_at, used_at) VALUES (?, ?, ?, ?)"
        await self._run(lambda: self._db.execute(sql, (list_id, payload, at, at)))

    async def load_words(self, list_id: str) -> bytes | None:
        """A custom word list, if it exists."""
        sql = "SELECT payload FROM word_lists WHERE id = ?"
        row = await self._run(lambda: self._db.execute(sql, (list_id,)).fetchone())
        return None if row is None else bytes(row[0])

    async def record_words_use(self, list_id: str, room_code: str, at: float) -> None:
        """Remember that a room names this word list, and when (one transaction: a
        retention pass that finds the list unused and idle deletes it before, or not)."""

        def body(db: sqlite3.Connection) -> None:
            db.execute(
                "INSERT INTO word_uses (list_id, room_code, at) VALUES (?, ?, ?)"
                " ON CONFLICT (list_id, room_code) DO UPDATE SET at = excluded.at",
                (list_id, room_code, at),
            )
            db.execute(
                "UPDATE word_lists SET used_at = max(used_at, ?) WHERE id = ?", (at, list_id)
            )

        await self._run(lambda: self._transaction(body))

    async def stored_decks(self, *, purged: bool = False) -> list[DeckFacts]:
        """Every deck, oldest first."""
        rows = await self._run(lambda: self._db.execute(_DECK_FACTS, (purged,)).fetchall())
        return [
            DeckFacts(
                r[0],
                r[1],
                cast(DeckState, r[2]),
                r[3],
                r[4],
                r[5],
                r[6],
                tuple(sorted(r[7].split())) if r[7] else (),
                r[8],
            )
            for r in rows
        ]

    async def erase_deck(self, deck_id: str, at: float) -> bool:
        """Delete a deck's pictures and record of rooms now, leaving the tombstone."""

        def body(db: sqlite3.Connection) -> bool:
            cur = db.execute(
                "UPDATE decks SET state = 'purged', changed_at = ?"
                " WHERE id = ? AND state != 'purged'",
                (at, deck_id),
            )
            if cur.rowcount != 1:
                return False
            db.execute("DELETE FROM deck_cards WHERE deck_id = ?", (deck_id,))
            db.execute("DELETE FROM deck_uses WHERE deck_id = ?", (deck_id,))
            return True

        return await self._run(lambda: self._transaction(body))

    async def stored_word_lists(self, *, used_before: float | None = None) -> list[WordListFacts]:
        """Every word list, oldest first (those last named before ``used_before``)."""
        args = (used_before, used_before)
        rows = await self._run(lambda: self._db.execute(_WORD_FACTS, args).fetchall())
        return [
            WordListFacts(r[0], r[1], r[2], r[3], tuple(sorted(r[4].split())) if r[4] else (), r[5])
            for r in rows
        ]

    async def delete_word_lists(
        self, ids: Sequence[str], *, unused_before: float | None = None
    ) -> list[str]:
        """Delete these word lists (with ``unused_before``: only those still unused)."""

        def body(db: sqlite3.Connection) -> list[str]:
            gone = []
            for list_id in ids:
                if unused_before is not None:
                    row = db.execute(
                        "SELECT 1 FROM word_lists w WHERE w.id = ? AND w.used_at < ?"
                        " AND NOT EXISTS (SELECT 1 FROM word_uses u JOIN rooms r"
                        " ON r.code = u.room_code WHERE u.list_id = w.id)",
                        (list_id, unused_before),
                    ).fetchone()
                    if row is None:
                        continue
                db.execute("DELETE FROM word_uses WHERE list_id = ?", (list_id,))
                if db.execute("DELETE FROM word_lists WHERE id = ?", (list_id,)).rowcount:
                    gone.append(list_id)
            return gone

        return await self._run(lambda: self._transaction(body))
