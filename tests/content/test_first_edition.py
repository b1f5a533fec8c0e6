"""The first edition stays as it was, and rooms played with it replay with its pictures.

A room's log names its deck in the ``Created`` event and the game refers to cards by
their index in that deck, so the first edition keeps its name ("default"), its card
order and its files; new rooms get the second edition.
"""

from __future__ import annotations

import hashlib
import random
from pathlib import Path

from reverie.bus.base import MemoryBus
from reverie.content.decks import (
    DEFAULT_DECK,
    FIRST_EDITION,
    Deck,
    deck_path,
    list_decks,
    load_deck,
)
from reverie.content.library import Library
from reverie.rooms.commands import Start
from reverie.rooms.deciding import decide
from reverie.rooms.events import Acted, Created, Joined, RoomEvent, encode_event
from reverie.rooms.service import RoomService
from reverie.rooms.state import evolve
from reverie.rules.association.playouts import random_action
from reverie.rules.errors import IllegalAction
from reverie.store import open_store
from tests.rooms.test_service import run
from tests.rooms.test_snapshots import COLORS, fold

# sha256 over (id, image name, image bytes) of every first-edition card, in order,
# taken when the second edition became the default: any change to a picture, a name
# or the order would show old rooms other cards than they were played with.
FIRST_EDITION_DIGEST = "873aaaf795a2ea366af174b018752754dab7d8e610abc03541dc603174801239"


def _digest(deck: Deck) -> str:
    h = hashlib.sha256()
    for i, c in enumerate(deck.cards):
        h.update(c.id.encode() + b"\0" + c.image.encode() + b"\0" + deck.image_path(i).read_bytes())
    return h.hexdigest()


def test_the_first_edition_is_unchanged_and_still_listed() -> None:
    first = load_deck(deck_path(FIRST_EDITION))
    assert first.name == FIRST_EDITION and first.count == 326
    assert _digest(first) == FIRST_EDITION_DIGEST
    names = [d.name for d in list_decks()]
    assert names[0] == DEFAULT_DECK and FIRST_EDITION in names


def old_log(seed: int) -> list[RoomEvent]:
    """A Dixit room's log as written before the second edition: deck "default" with
    its 326 cards, four players, a game played with random legal moves."""
    rng = random.Random(seed)
    events: list[RoomEvent] = [
        Created(
            code="OLD001",
            variant="dixit",
            seats=4,
            options={},
            setup={"deck": FIRST_EDITION, "card_count": 326},
            seed=seed,
            name="P0",
            color=COLORS[0],
            token_hash="t0",
            at=0.0,
        )
    ]
    events += [Joined(f"P{i}", COLORS[i], f"t{i}") for i in range(1, 4)]
    room = fold(events)
    events.append(decide(room, 0, Start(), 0.0))
    room = evolve(room, events[-1])
    while room.status == "playing" and len(events) < 200:
        try:
            event = Acted(random_action(room.game, rng))
            room = evolve(room, event)
        except IllegalAction:
            continue
        events.append(event)
    return events


def test_an_old_room_replays_with_the_first_editions_cards(tmp_path: Path) -> None:
    events = old_log(5)
    created = events[0]
    assert isinstance(created, Created)
    expected = fold(events)
    dealt = {c for hand in expected.game.hands for c in hand}
    assert dealt and max(dealt) < 326

    async def main() -> None:
        decks = {d.name: d for d in list_decks()}
        store = open_store(f"sqlite:///{tmp_path / 'old.db'}")
        await store.open()
        code = created.code
        await store.create(code, encode_event(events[0]), 0.0)
        for version, e in enumerate(events[1:], 1):
            await store.append(code, version, encode_event(e), float(version))
        service = RoomService(store, MemoryBus(), Library(decks), bot_delay=3600)
        live = await service.get(code)
        assert live is not None and live.state == expected
        deck = decks[live.state.setup.deck]
        assert deck.name == FIRST_EDITION and deck.count == 326
        assert _digest(deck) == FIRST_EDITION_DIGEST
        # New rooms get the second edition.
        new, _ = await service.create_room(
            name="Ann", color="#e63946", variant="dixit", seats=3, options={}
        )
        assert new.state.setup.deck == DEFAULT_DECK != FIRST_EDITION
        await service.close()
        await store.close()

    run(main)
