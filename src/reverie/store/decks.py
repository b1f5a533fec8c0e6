"""Players' own decks and word lists, kept in the event store's database.

Both stores (SQLite, PostgreSQL) implement :class:`DeckStore` beside the event log, so
every server process on one database serves the same decks.

A deck's life: ``draft`` (its owner adds pictures; nobody can play it) → ``ready``
(published in one transaction with its title and captions: only now can a room use it)
→ ``deleted`` (its owner deleted it: no new room may use it, its pictures are still
served to the rooms that were dealt from it) → ``purged`` (its pictures are gone; the
row stays as a tombstone so the id is never handed out again). A deck never changes
once ready, so a room's (deck id, card count) pins the exact cards it was dealt.

A table's own word list (``word_lists``) is named by the rooms that play it
(``word_uses``, with ``used_at`` on the list: when a room last named it); retention
(``reverie.rooms.retention``) deletes a list once no room in the store names it and
none has for a while. An operator lists and deletes both (``reverie decks``,
``reverie words``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal, Protocol, runtime_checkable

DeckState = Literal["draft", "ready", "deleted", "purged"]

#: The deck tables, for the stores' health checks.
DECK_TABLES = ("decks", "deck_cards", "deck_uses", "word_lists", "word_uses")


class DeckFull(ValueError):
    """Adding these pictures would pass the deck's card or size limit."""


class DeckNotDraft(ValueError):
    """The deck is not a draft (published, deleted or unknown): it cannot change."""


@dataclass(frozen=True, slots=True)
class NewCard:
    """A normalised picture to add to a draft."""

    card_id: str
    mime: str
    image: bytes


@dataclass(frozen=True, slots=True)
class StoredCard:
    """A card of a stored deck (its picture is read apart: :meth:`DeckStore.card_image`)."""

    card_id: str
    caption: str
    mime: str
    size: int


@dataclass(frozen=True, slots=True)
class StoredDeck:
    """A deck as the database keeps it; ``cards`` in card-id order (random ids: the order
    says nothing of the order they were uploaded in)."""

    id: str
    owner_hash: str
    title: str
    state: DeckState
    created_at: float
    changed_at: float
    upload_bytes: int
    cards: tuple[StoredCard, ...]


@dataclass(frozen=True, slots=True)
class DeckFacts:
    """What an operator's list shows of a deck: ``size`` in bytes of its pictures,
    ``rooms`` the rooms in the store that played it, ``last_write`` the latest write of
    those rooms (None: none left)."""

    id: str
    title: str
    state: DeckState
    created_at: float
    changed_at: float
    cards: int
    size: int
    rooms: tuple[str, ...]
    last_write: float | None


@dataclass(frozen=True, slots=True)
class WordListFacts:
    """What an operator's list and retention know of a word list: ``size`` in bytes,
    ``used_at`` when a room last named it (its creation if none has), ``rooms`` the
    rooms in the store that name it, ``last_write`` their latest write."""

    id: str
    created_at: float
    used_at: float
    size: int
    rooms: tuple[str, ...]
    last_write: float | None


@runtime_checkable
class DeckStore(Protocol):
    """What the decks API needs from the database."""

    async def create_deck(self, deck_id: str, owner_hash: str, at: float) -> None:
        """Open an empty draft."""

    async def add_cards(
        self,
        deck_id: str,
        cards: Sequence[NewCard],
        upload_bytes: int,
        *,
        max_cards: int,
        max_bytes: int,
    ) -> None:
        """Add ``cards`` (made from ``upload_bytes`` of uploads) to a draft, all or none:
        :class:`DeckFull` past ``max_cards`` cards or ``max_bytes`` uploaded in all,
        :class:`DeckNotDraft` unless the deck is a draft."""

    async def remove_card(self, deck_id: str, card_id: str) -> bool:
        """Take a card out of a draft; False if there was no such card in a draft."""

    async def publish_deck(
        self, deck_id: str, title: str, captions: Mapping[str, str], at: float
    ) -> None:
        """Make a draft with at least one card ready, with its title and captions (by
        card id), in one transaction; :class:`DeckNotDraft` otherwise."""

    async def load_deck(self, deck_id: str) -> StoredDeck | None:
        """The deck and its cards' facts, whatever its state (None if unknown)."""

    async def card_image(self, deck_id: str, card_id: str) -> tuple[str, bytes] | None:
        """A card's picture and its media type (None if unknown or purged)."""

    async def delete_deck(self, deck_id: str, at: float) -> bool:
        """Mark a draft or ready deck deleted; False if it was not one."""

    async def record_deck_use(self, deck_id: str, room_code: str, at: float) -> None:
        """Remember that a room plays this deck (its pictures outlive a deletion while
        the room is active)."""

    async def purge_decks(self, drafts_before: float, idle_before: float, at: float) -> int:
        """Drop the pictures of drafts opened before ``drafts_before`` and of deleted
        decks none of whose rooms was written to since ``idle_before``; returns how many
        decks were purged."""

    async def save_words(self, list_id: str, payload: bytes, at: float) -> None:
        """Keep a custom word list (encoded JSON)."""

    async def load_words(self, list_id: str) -> bytes | None:
        """A custom word list, if it exists."""

    async def record_words_use(self, list_id: str, room_code: str, at: float) -> None:
        """Remember that a room names this word list (it is kept while the room is)."""

    async def stored_decks(self, *, purged: bool = False) -> list[DeckFacts]:
        """Every deck, oldest first (purged tombstones only if ``purged``)."""

    async def erase_deck(self, deck_id: str, at: float) -> bool:
        """Delete a deck's pictures and its record of rooms now, whatever its state,
        leaving the tombstone; False if it was unknown or purged already."""

    async def stored_word_lists(self, *, used_before: float | None = None) -> list[WordListFacts]:
        """Every word list, oldest first (only those last named before ``used_before``,
        if given)."""

    async def delete_word_lists(
        self, ids: Sequence[str], *, unused_before: float | None = None
    ) -> list[str]:
        """Delete these word lists and their record of rooms, in one transaction. With
        ``unused_before``, only those no room in the store names and none named since
        then (a room that named one meanwhile keeps it). Returns the ids deleted."""


def check_room(
    count: int, uploaded: int, adding: int, adding_bytes: int, max_cards: int, max_bytes: int
) -> None:
    """Raise :class:`DeckFull` if ``adding`` cards made from ``adding_bytes`` of uploads
    would pass a limit of a deck with ``count`` cards from ``uploaded`` bytes."""
    if count + adding > max_cards:
        raise DeckFull(f"A deck holds at most {max_cards} pictures; this one has {count}.")
    if uploaded + adding_bytes > max_bytes:
        raise DeckFull(f"A deck takes at most {max_bytes // 1_000_000} MB of uploads.")
