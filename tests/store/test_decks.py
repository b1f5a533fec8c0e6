"""One contract for players' decks and word lists, on every store."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest

from reverie.store import EventStore, open_store
from reverie.store.decks import DeckFull, DeckNotDraft, DeckStore, NewCard
from tests.aio import run_async

MB = 1_000_000


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


def card(cid: str, size: int = 10) -> NewCard:
    return NewCard(cid, "image/webp", bytes([len(cid)]) * size)


def test_a_draft_is_published_whole_with_its_captions(store_url: str) -> None:
    async def body(decks: DeckStore, _: EventStore) -> None:
        await decks.create_deck("u-d1", "owner#", 1.0)
        draft = await decks.load_deck("u-d1")
        assert draft is not None and draft.state == "draft" and draft.cards == ()
        with pytest.raises(DeckNotDraft):  # nothing to publish yet
            await decks.publish_deck("u-d1", "Empty", {}, 2.0)
        await decks.add_cards("u-d1", [card("zz1"), card("aa2", 20)], 300,
                              max_cards=10, max_bytes=MB)  # fmt: skip
        await decks.add_cards("u-d1", [card("mm3")], 100, max_cards=10, max_bytes=MB)
        assert await decks.remove_card("u-d1", "mm3")
        assert not await decks.remove_card("u-d1", "mm3")  # gone already
        await decks.publish_deck("u-d1", "Holiday", {"zz1": "the sea"}, 3.0)
        deck = await decks.load_deck("u-d1")
        assert deck is not None
        assert (deck.title, deck.state, deck.owner_hash, deck.upload_bytes) == (
            "Holiday", "ready", "owner#", 400)  # fmt: skip
        # Cards come in id order, not upload order.
        assert [(c.card_id, c.caption, c.size) for c in deck.cards] == [
            ("aa2", "", 20), ("zz1", "the sea", 10)]  # fmt: skip
        assert await decks.card_image("u-d1", "zz1") == ("image/webp", bytes([3]) * 10)
        assert await decks.card_image("u-d1", "nope") is None
        assert await decks.card_image("u-other", "zz1") is None
        # A published deck never changes again.
        with pytest.raises(DeckNotDraft):
            await decks.add_cards("u-d1", [card("bb4")], 1, max_cards=10, max_bytes=MB)
        assert not await decks.remove_card("u-d1", "zz1")
        with pytest.raises(DeckNotDraft):
            await decks.publish_deck("u-d1", "Again", {}, 4.0)
        assert await decks.load_deck("u-none") is None

    run(store_url, body)


def test_limits_refuse_a_whole_batch(store_url: str) -> None:
    async def body(decks: DeckStore, _: EventStore) -> None:
        await decks.create_deck("u-d2", "o", 1.0)
        await decks.add_cards("u-d2", [card("a1"), card("a2")], 10, max_cards=3, max_bytes=100)
        with pytest.raises(DeckFull):  # 4 cards > 3: none of the batch is kept
            await decks.add_cards("u-d2", [card("b1"), card("b2")], 10,
                                  max_cards=3, max_bytes=100)  # fmt: skip
        with pytest.raises(DeckFull):  # 10 + 95 bytes of uploads > 100
            await decks.add_cards("u-d2", [card("c1")], 95, max_cards=3, max_bytes=100)
        deck = await decks.load_deck("u-d2")
        assert deck is not None
        assert [c.card_id for c in deck.cards] == ["a1", "a2"] and deck.upload_bytes == 10
        with pytest.raises(DeckNotDraft):
            await decks.add_cards("u-none", [card("d1")], 1, max_cards=3, max_bytes=100)

    run(store_url, body)


def test_deleted_decks_keep_their_pictures_while_a_room_plays_them(store_url: str) -> None:
    async def body(decks: DeckStore, log: EventStore) -> None:
        for deck_id in ("u-kept", "u-unused", "u-draft", "u-live"):
            await decks.create_deck(deck_id, "o", 100.0)
            await decks.add_cards(deck_id, [card(f"{deck_id}-c")], 1,
                                  max_cards=5, max_bytes=MB)  # fmt: skip
        for deck_id in ("u-kept", "u-unused", "u-live"):
            await decks.publish_deck(deck_id, deck_id, {}, 100.0)
        await log.create("ROOM01", b"{}", 100.0)
        await decks.record_deck_use("u-kept", "ROOM01", 100.0)
        await decks.record_deck_use("u-kept", "ROOM01", 101.0)  # twice: one use
        await log.append("ROOM01", 1, b"{}", 500.0)  # the room plays on at 500
        assert await decks.delete_deck("u-kept", 200.0)
        assert await decks.delete_deck("u-unused", 200.0)
        assert not await decks.delete_deck("u-unused", 201.0)  # already deleted
        assert not await decks.delete_deck("u-none", 201.0)
        # Drafts opened before 50 go (none); deleted decks whose rooms are quiet since 400.
        assert await decks.purge_decks(50.0, 400.0, 600.0) == 1
        unused = await decks.load_deck("u-unused")
        assert unused is not None and unused.state == "purged" and unused.cards == ()
        assert await decks.card_image("u-unused", "u-unused-c") is None
        kept = await decks.load_deck("u-kept")
        assert kept is not None and kept.state == "deleted"
        assert await decks.card_image("u-kept", "u-kept-c") is not None
        # The room has been quiet since 500; the stale draft (opened at 100) goes too.
        assert await decks.purge_decks(150.0, 550.0, 700.0) == 2
        for deck_id in ("u-kept", "u-draft"):
            gone = await decks.load_deck(deck_id)
            assert gone is not None and gone.state == "purged"
        live = await decks.load_deck("u-live")
        assert live is not None and live.state == "ready" and len(live.cards) == 1
        assert not await decks.delete_deck("u-kept", 800.0)  # purged stays purged

    run(store_url, body)


def test_word_lists_are_kept(store_url: str) -> None:
    async def body(decks: DeckStore, _: EventStore) -> None:
        await decks.save_words("w-1", '{"objects":["кот"]}'.encode(), 1.0)
        assert await decks.load_words("w-1") == '{"objects":["кот"]}'.encode()
        assert await decks.load_words("w-2") is None

    run(store_url, body)


def test_decks_outlive_the_store(store_url: str) -> None:
    async def first(decks: DeckStore, _: EventStore) -> None:
        await decks.create_deck("u-keep", "o", 1.0)
        await decks.add_cards("u-keep", [card("k1", 1000)], 5, max_cards=5, max_bytes=MB)
        await decks.publish_deck("u-keep", "Kept", {"k1": "a cat"}, 2.0)

    async def second(decks: DeckStore, _: EventStore) -> None:
        deck = await decks.load_deck("u-keep")
        assert deck is not None and deck.title == "Kept" and deck.cards[0].caption == "a cat"
        assert await decks.card_image("u-keep", "k1") == ("image/webp", bytes([2]) * 1000)

    run(store_url, first)
    run(store_url, second)
