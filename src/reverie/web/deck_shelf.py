"""Every deck a room may play, by name: the content decks and players' own.

The room service reads decks synchronously (a deck's size when a room opens, a card's
caption when a bot thinks), so players' decks, kept in the database, are held here once
loaded. A deck never changes once published, so a copy never goes stale; a deleted
deck stays readable for the rooms already playing it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterator, Mapping
from pathlib import Path

from reverie.content.decks import LANGS, Card, CardMeta, Deck
from reverie.content.uploads import CARD_SUFFIX
from reverie.store.decks import DeckStore, StoredDeck

log = logging.getLogger("reverie.decks")
#: Players' deck ids start with this (content decks never do).
CUSTOM_PREFIX = "u-"


def is_custom(name: str | None) -> bool:
    """Whether ``name`` names a player's deck."""
    return bool(name) and str(name).startswith(CUSTOM_PREFIX)


def as_deck(stored: StoredDeck) -> Deck:
    """A published deck in the shape rooms and bots read: its captions are what its
    cards show (the bots' words), in every language."""
    cards = tuple(Card(id=c.card_id, image=c.card_id + CARD_SUFFIX) for c in stored.cards)
    meta = {
        c.card_id: CardMeta(
            id=c.card_id,
            caption={lang: c.caption for lang in LANGS},
            elements=({"label": {lang: c.caption for lang in LANGS}},) if c.caption else (),
        )
        for c in stored.cards
    }
    return Deck(
        path=Path(),
        name=stored.id,
        title={lang: stored.title for lang in LANGS},
        count=len(cards),
        aspect="2:3",
        license="",
        cards=cards,
        _meta=meta,
    )


class DeckShelf(Mapping[str, Deck]):
    """The content decks and the players' decks loaded so far (published or deleted:
    rooms dealt from a deleted deck go on with it)."""

    def __init__(self, content: Mapping[str, Deck], store: DeckStore) -> None:
        self.content = dict(content)
        self.store = store
        self._custom: dict[str, Deck] = {}
        self._loading: set[str] = set()
        self._tasks: set[asyncio.Task[None]] = set()

    def __getitem__(self, name: str) -> Deck:
        deck = self.content.get(name) or self._custom.get(name)
        if deck is None:
            if is_custom(name):
                self._load_later(name)  # a room resumed here: its bots see it soon
            raise KeyError(name)
        return deck

    def __iter__(self) -> Iterator[str]:
        yield from self.content
        yield from self._custom

    def __len__(self) -> int:
        return len(self.content) + len(self._custom)

    def keep(self, stored: StoredDeck) -> Deck:
        """Hold a published (or deleted) deck; returns it as rooms read it."""
        deck = as_deck(stored)
        self._custom[stored.id] = deck
        return deck

    def forget(self, name: str) -> None:
        """Drop a purged deck."""
        self._custom.pop(name, None)

    async def load(self, name: str) -> StoredDeck | None:
        """Read a player's deck from the database, holding it if it can be played."""
        stored = await self.store.load_deck(name)
        if stored is not None and stored.state in ("ready", "deleted"):
            self.keep(stored)
        elif stored is not None and stored.state == "purged":
            self.forget(name)
        return stored

    def _load_later(self, name: str) -> None:
        if name in self._loading:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        self._loading.add(name)

        async def load() -> None:
            try:
                await self.load(name)
            except Exception:
                log.warning("deck %s could not be loaded", name, exc_info=True)
            finally:
                self._loading.discard(name)

        task = loop.create_task(load())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
