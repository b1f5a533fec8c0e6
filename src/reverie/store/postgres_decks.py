"""Players' decks and word lists in PostgreSQL (see :mod:`reverie.store.decks`)."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Mapping, Sequence
from typing import Any, cast

from psycopg import AsyncConnection
from psycopg_pool import AsyncConnectionPool

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

#: Migration 3 of the PostgreSQL schema (``reverie.store.postgres.MIGRATIONS``).
DECKS_MIGRATION = """
CREATE TABLE decks (
    id TEXT PRIMARY KEY,
    owner_hash TEXT NOT NULL,
    title TEXT NOT NULL DEFAULT '',
    state TEXT NOT NULL,
    created_at DOUBLE PRECISION NOT NULL,
    changed_at DOUBLE PRECISION NOT NULL,
    upload_bytes BIGINT NOT NULL DEFAULT 0
);
CREATE TABLE deck_cards (
    deck_id TEXT NOT NULL REFERENCES decks (id),
    card_id TEXT NOT NULL UNIQUE,
    caption TEXT NOT NULL DEFAULT '',
    mime TEXT NOT NULL,
    image BYTEA NOT NULL,
    PRIMARY KEY (deck_id, card_id)
);
CREATE TABLE deck_uses (
    deck_id TEXT NOT NULL REFERENCES decks (id),
    room_code TEXT NOT NULL,
    at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (deck_id, room_code)
);
CREATE TABLE word_lists (
    id TEXT PRIMARY KEY,
    payload BYTEA NOT NULL,
    created_at DOUBLE PRECISION NOT NULL
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
    at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (list_id, room_code)
);
CREATE INDEX word_uses_room ON word_uses (room_code);
CREATE INDEX deck_uses_room ON deck_uses (room_code);
ALTER TABLE word_lists ADD COLUMN used_at DOUBLE PRECISION NOT NULL DEFAULT 0;
UPDATE word_lists SET used_at = created_at;
INSERT INTO word_uses (list_id, room_code, at)
SELECT w.id, n.code, max(n.at) FROM (
    SELECT e.code, e.at, substring(
        e.payload from position('"words":"w-'::bytea in e.payload) + 9 for 28) AS list_id
    FROM events e WHERE position('"words":"w-'::bytea in e.payload) > 0
) n JOIN word_lists w ON convert_to(w.id, 'UTF8') = n.list_id
GROUP BY w.id, n.code
ON CONFLICT DO NOTHING;
UPDATE word_lists w SET used_at = greatest(w.used_at, u.at)
FROM (SELECT list_id, max(at) AS at FROM word_uses GROUP BY list_id) u
WHERE u.list_id = w.id;
"""

_DECK_FACTS = """
SELECT d.id, d.title, d.state, d.created_at, d.changed_at,
    (SELECT count(*) FROM deck_cards c WHERE c.deck_id = d.id),
    (SELECT coalesce(sum(length(c.image)), 0) FROM deck_cards c WHERE c.deck_id = d.id),
    ARRAY(SELECT r.code FROM deck_uses u JOIN rooms r ON r.code = u.room_code
          WHERE u.deck_id = d.id ORDER BY r.code COLLATE "C"),
    (SELECT max(r.updated_at) FROM deck_uses u JOIN rooms r ON r.code = u.room_code
     WHERE u.deck_id = d.id)
FROM decks d WHERE %s OR d.state != 'purged' ORDER BY d.created_at, d.id COLLATE "C"
"""

_WORD_FACTS = """
SELECT w.id, w.created_at, w.used_at, length(w.payload),
    ARRAY(SELECT r.code FROM word_uses u JOIN rooms r ON r.code = u.room_code
          WHERE u.list_id = w.id ORDER BY r.code COLLATE "C"),
    (SELECT max(r.updated_at) FROM word_uses u JOIN rooms r ON r.code = u.room_code
     WHERE u.list_id = w.id)
FROM word_lists w WHERE %s::double precision IS NULL OR w.used_at < %s
ORDER BY w.created_at, w.id COLLATE "C"
"""

_PURGEABLE = """
SELECT id FROM decks d
WHERE (d.state = 'draft' AND d.created_at < %s)
   OR (d.state = 'deleted' AND NOT EXISTS (
        SELECT 1 FROM deck_uses u JOIN rooms r ON r.code = u.room_code
        WHERE u.deck_id = d.id AND r.updated_at >= %s))
FOR UPDATE
"""


class PostgresDecks:
    """The :class:`~reverie.store.decks.DeckStore` methods of ``PostgresStore``."""

    def _errors(self) -> contextlib.AbstractAsyncContextManager[None]:
        raise NotImplementedError  # PostgresStore's: driver failures as StoreUnavailable

    async def _ready(self) -> AsyncConnectionPool:
        raise NotImplementedError  # PostgresStore's: the open pool

    @contextlib.asynccontextmanager
    async def _tx(self) -> AsyncIterator[AsyncConnection[tuple[Any, ...]]]:
        async with self._errors():
            pool = await self._ready()
            async with pool.connection() as conn, conn.transaction():
                yield conn

    async def create_deck(self, deck_id: str, owner_hash: str, at: float) -> None:
        """Open an empty draft."""
        async with self._tx() as conn:
            await conn.execute(
                "INSERT INTO decks (id, owner_hash, state, created_at, changed_at)"
                " VALUES (%s, %s, 'draft', %s, %s)",
                (deck_id, owner_hash, at, at),
            )

    async def add_cards(
        self,
        deck_id: str,
        cards: Sequence[NewCard],
        upload_bytes: int,
        *,
        max_cards: int,
        max_bytes: int,
    ) -> None:
        """Add pictures to a draft, all or none, within its limits (the deck's row is
        locked, so two uploads at once cannot both squeeze past a limit)."""
        async with self._tx() as conn:
            cur = await conn.execute(
                "SELECT state, upload_bytes FROM decks WHERE id = %s FOR UPDATE", (deck_id,)
            )
            row = await cur.fetchone()
            if row is None or row[0] != "draft":
                raise DeckNotDraft(deck_id)
            cur = await conn.execute(
                "SELECT count(*) FROM deck_cards WHERE deck_id = %s", (deck_id,)
            )
            counted = await cur.fetchone()
            count = int(counted[0]) if counted else 0
            check_room(count, int(row[1]), len(cards), upload_bytes, max_cards, max_bytes)
            async with conn.cursor() as many:
                await many.executemany(
                    "INSERT INTO deck_cards (deck_id, card_id, mime, image)"
                    " VALUES (%s, %s, %s, %s)",
                    [(deck_id, c.card_id, c.mime, c.image) for c in cards],
                )
            await conn.execute(
                "UPDATE decks SET upload_bytes = upload_bytes + %s WHERE id = %s",
                (upload_bytes, deck_id),
            )

    async def remove_card(self, deck_id: str, card_id: str) -> bool:
        """Take a card out of a draft."""
        async with self._tx() as conn:
            cur = await conn.execute(
                "DELETE FROM deck_cards WHERE deck_id = %s AND card_id = %s"
                " AND EXISTS (SELECT 1 FROM decks WHERE id = %s AND state = 'draft')",
                (deck_id, card_id, deck_id),
            )
            return cur.rowcount == 1

    async def publish_deck(
        self, deck_id: str, title: str, captions: Mapping[str, str], at: float
    ) -> None:
        """Make a draft ready, with its title and captions, in one transaction."""
        async with self._tx() as conn:
            cur = await conn.execute(
                "UPDATE decks SET state = 'ready', title = %s, changed_at = %s"
                " WHERE id = %s AND state = 'draft'"
                " AND EXISTS (SELECT 1 FROM deck_cards WHERE deck_id = %s)",
                (title, at, deck_id, deck_id),
            )
            if cur.rowcount != 1:
                raise DeckNotDraft(deck_id)
            if captions:
                async with conn.cursor() as many:
                    await many.executemany(
                        "UPDATE deck_cards SET caption = %s WHERE deck_id = %s AND card_id = %s",
                        [(text, deck_id, cid) for cid, text in captions.items()],
                    )

    async def load_deck(self, deck_id: str) -> StoredDeck | None:
        """The deck and its cards' facts."""
        async with self._tx() as conn:
            cur = await conn.execute(
                "SELECT id, owner_hash, title, state, created_at, changed_at, upload_bytes"
                " FROM decks WHERE id = %s",
                (deck_id,),
            )
            row = await cur.fetchone()
            if row is None:
                return None
            cur = await conn.execute(
                "SELECT card_id, caption, mime, length(image) FROM deck_cards"
                ' WHERE deck_id = %s ORDER BY card_id COLLATE "C"',
                (deck_id,),
            )
            cards = await cur.fetchall()
        return StoredDeck(
            id=row[0],
            owner_hash=row[1],
            title=row[2],
            state=cast(DeckState, row[3]),
            created_at=row[4],
            changed_at=row[5],
            upload_bytes=int(row[6]),
            cards=tuple(StoredCard(c[0], c[1], c[2], int(c[3])) for c in cards),
        )

    async def card_image(self, deck_id: str, card_id: str) -> tuple[str, bytes] | None:
        """A card's media type and picture."""
        async with self._tx() as conn:
            cur = await conn.execute(
                "SELECT mime, image FROM deck_cards WHERE deck_id = %s AND card_id = %s",
                (deck_id, card_id),
            )
            row = await cur.fetchone()
        return None if row is None else (row[0], bytes(row[1]))

    async def delete_deck(self, deck_id: str, at: float) -> bool:
        """Mark a draft or ready deck deleted."""
        async with self._tx() as conn:
            cur = await conn.execute(
                "UPDATE decks SET state = 'deleted', changed_at = %s"
                " WHERE id = %s AND state IN ('draft', 'ready')",
                (at, deck_id),
            )
            return cur.rowcount == 1

    async def record_deck_use(self, deck_id: str, room_code: str, at: float) -> None:
        """Remember that a room plays this deck."""
        async with self._tx() as conn:
            await conn.execute(
                "INSERT INTO deck_uses (deck_id, room_code, at) VALUES (%s, %s, %s)"
                " ON CONFLICT DO NOTHING",
                (deck_id, room_code, at),
            )

    async def purge_decks(self, drafts_before: float, idle_before: float, at: float) -> int:
        """Drop the pictures of stale drafts and of deleted decks no active room plays."""
        async with self._tx() as conn:
            cur = await conn.execute(_PURGEABLE, (drafts_before, idle_before))
            ids = [r[0] for r in await cur.fetchall()]
            if ids:
                await conn.execute("DELETE FROM deck_cards WHERE deck_id = ANY(%s)", (ids,))
                await conn.execute("DELETE FROM deck_uses WHERE deck_id = ANY(%s)", (ids,))
                await conn.execute(
                    "UPDATE decks SET state = 'purged', changed_at = %s WHERE id = ANY(%s)",
                    (at, ids),
                )
            return len(ids)

    async def save_words(self, list_id: str, payload: bytes, at: float) -> None:
        """Keep a custom word list."""
        async with self._tx() as conn:
            await conn.execute(
                "INSERT INTO word_lists (id, payload, created_at, used_at) VALUES (%s, %s, %s, %s)",
                (list_id, payload, at, at),
            )

    async def load_words(self, list_id: str) -> bytes | None:
        """A custom word list, if it exists."""
        async with self._tx() as conn:
            cur = await conn.execute("SELECT payload FROM word_lists WHERE id = %s", (list_id,))
            row = await cur.fetchone()
        return None if row is None else bytes(row[0])

    async def record_words_use(self, list_id: str, room_code: str, at: float) -> None:
        """Remember that a room names this word list, and when (one transaction: the
        list's row is locked, so a retention pass deletes it before, or not at all)."""
        async with self._tx() as conn:
            await conn.execute(
                "UPDATE word_lists SET used_at = greatest(used_at, %s) WHERE id = %s",
                (at, list_id),
            )
            await conn.execute(
                "INSERT INTO word_uses (list_id, room_code, at) VALUES (%s, %s, %s)"
                " ON CONFLICT (list_id, room_code) DO UPDATE SET at = excluded.at",
                (list_id, room_code, at),
            )

    async def stored_decks(self, *, purged: bool = False) -> list[DeckFacts]:
        """Every deck, oldest first."""
        async with self._tx() as conn:
            cur = await conn.execute(_DECK_FACTS, (purged,))
            rows = await cur.fetchall()
        return [
            DeckFacts(
                r[0],
                r[1],
                cast(DeckState, r[2]),
                r[3],
                r[4],
                int(r[5]),
                int(r[6]),
                tuple(r[7]),
                r[8],
            )
            for r in rows
        ]

    async def erase_deck(self, deck_id: str, at: float) -> bool:
        """Delete a deck's pictures and record of rooms now, leaving the tombstone."""
        async with self._tx() as conn:
            cur = await conn.execute(
                "UPDATE decks SET state = 'purged', changed_at = %s"
                " WHERE id = %s AND state != 'purged'",
                (at, deck_id),
            )
            if cur.rowcount != 1:
                return False
            await conn.execute("DELETE FROM deck_cards WHERE deck_id = %s", (deck_id,))
            await conn.execute("DELETE FROM deck_uses WHERE deck_id = %s", (deck_id,))
            return True

    async def stored_word_lists(self, *, used_before: float | None = None) -> list[WordListFacts]:
        """Every word list, oldest first (those last named before ``used_before``)."""
        async with self._tx() as conn:
            cur = await conn.execute(_WORD_FACTS, (used_before, used_before))
            rows = await cur.fetchall()
        return [WordListFacts(r[0], r[1], r[2], int(r[3]), tuple(r[4]), r[5]) for r in rows]

    async def delete_word_lists(
        self, ids: Sequence[str], *, unused_before: float | None = None
    ) -> list[str]:
        """Delete these word lists (with ``unused_before``: only those still unused)."""
        if not ids:
            return []
        async with self._tx() as conn:
            # Locked first: a room naming a list meanwhile (record_words_use updates its
            # row) either committed before, and the list is used, or waits and finds none.
            cur = await conn.execute(
                "SELECT w.id FROM word_lists w WHERE w.id = ANY(%s)"
                " AND (%s::double precision IS NULL OR (w.used_at < %s AND NOT EXISTS ("
                " SELECT 1 FROM word_uses u JOIN rooms r ON r.code = u.room_code"
                " WHERE u.list_id = w.id))) FOR UPDATE OF w",
                (list(ids), unused_before, unused_before),
            )
            gone = [r[0] for r in await cur.fetchall()]
            if gone:
                await conn.execute("DELETE FROM word_uses WHERE list_id = ANY(%s)", (gone,))
                await conn.execute("DELETE FROM word_lists WHERE id = ANY(%s)", (gone,))
        return sorted(gone, key=list(ids).index)
