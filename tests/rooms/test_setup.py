"""The room core names no picture game: what a room opens with (the association games'
picture deck) is the family's ``setup``, recorded in ``Created``; the bots' pace and
what a bot reads are the family's; the capability ``deck`` says which games play with a
picture deck (issue #25, item 2)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from reverie import games
from reverie.bus.base import MemoryBus
from reverie.content.decks import DEFAULT_DECK, list_decks
from reverie.content.library import Library
from reverie.errors import RoomError
from reverie.games.association import ASSOCIATION, PictureDeck
from reverie.games.base import DEFAULT_PACE
from reverie.rooms.commands import Start
from reverie.rooms.deciding import decide
from reverie.rooms.events import Acted, BotAdded, Created, decode_created
from reverie.rooms.runners import TIMER_SHARE, think_seconds
from reverie.rooms.service import RoomService
from reverie.rooms.snapshot import state_frames
from reverie.rooms.state import RoomState, evolve
from reverie.rules.association import Phase
from reverie.store import open_store
from tests.aio import run_async
from tests.games import toy
from tests.games.toy import PEBBLES, VARIANT

DECKS = {d.name: d for d in list_decks()}


def _service(db: Path, library: Library) -> RoomService:
    return RoomService(open_store(f"sqlite:///{db}"), MemoryBus(), library, bot_delay=3600)


def _created(variant: str, setup: dict[str, object] | None) -> Created:
    return Created(
        code="SETUP1", variant=variant, seats=4, options={}, seed=7, name="Ann",
        color="#e63946", token_hash="h0", at=0.0, setup=setup,
    )  # fmt: skip


def test_a_new_room_logs_its_deck_as_the_familys_setup(tmp_path: Path) -> None:
    opened: list[str] = []
    played: list[tuple[str, str]] = []

    async def open_deck(name: str) -> None:
        opened.append(name)

    async def deck_played(name: str, code: str) -> None:
        played.append((name, code))

    library = Library(DECKS, DEFAULT_DECK, open_deck, deck_played)

    async def main() -> None:
        service = _service(tmp_path / "r.db", library)
        await service.store.open()
        live, _ = await service.create_room(
            name="Ann", color="#e63946", variant="dixit", seats=4, options={}
        )
        code = live.state.code
        assert live.state.setup == PictureDeck(DEFAULT_DECK, DECKS[DEFAULT_DECK].count)
        first = json.loads((await service.store.load(code))[0].payload)
        assert first["setup"] == {"deck": DEFAULT_DECK, "card_count": DECKS[DEFAULT_DECK].count}
        assert "deck" not in first and "card_count" not in first
        assert opened == [DEFAULT_DECK] and played == [(DEFAULT_DECK, code)]
        await service.close()
        await service.store.close()

    run_async(main())


def test_a_deck_the_server_does_not_hold_is_refused(tmp_path: Path) -> None:
    async def main() -> None:
        service = _service(tmp_path / "r.db", Library(DECKS))
        await service.store.open()
        for choice in ("no-such-deck", 7):
            with pytest.raises(RoomError) as info:
                await service.create_room(
                    name="Ann", color="#e63946", variant="dixit", seats=4, options={},
                    choices={"deck": choice},
                )  # fmt: skip
            assert info.value.code == "bad_options"
        await service.close()
        await service.store.close()

    run_async(main())


def test_a_game_without_a_deck_takes_no_setup_and_ignores_a_chosen_deck(
    tmp_path: Path,
) -> None:
    games.register(PEBBLES)
    try:

        async def main() -> None:
            service = _service(tmp_path / "r.db", Library({}))
            await service.store.open()
            live, _ = await service.create_room(
                name="Ann", color="#e63946", variant=VARIANT, seats=3, options={},
                choices={"deck": "no-such-deck"},
            )  # fmt: skip
            assert live.state.setup is None
            frames = state_frames(
                live.state, {None}, connected=set(), spectators=1, deadline=None, now=0.0
            )
            room = frames[None]["room"]
            assert "deck" not in room and room["deck_fit"] is None
            await service.close()
            await service.store.close()

        run_async(main())
    finally:
        games.unregister(PEBBLES)


def test_an_old_created_hands_its_own_keys_to_the_family() -> None:
    old = (
        b'{"type":"created","code":"OLD","variant":"dixit","seats":4,"options":{},'
        b'"deck":"first","card_count":326,"seed":1,"name":"Ann","color":"#e63946",'
        b'"token_hash":"h0","at":0.0}'
    )
    created = decode_created(old)
    assert created.setup == {"deck": "first", "card_count": 326}
    assert evolve(None, created).setup == PictureDeck("first", 326)
    # A family that plays no deck ignores what an older Created held.
    visual = decode_created(old.replace(b'"dixit"', b'"dixit-companion"'))
    assert evolve(None, visual).setup is None
    # A new Created keeps its setup as written.
    new = decode_created(json.dumps({**json.loads(old), "setup": {}}).encode())
    assert new.setup == {}


def test_a_room_of_a_deck_game_without_its_deck_is_refused() -> None:
    with pytest.raises(RoomError, match="setup"):
        evolve(None, _created("dixit", {}))


def _playing(variant: str = "imaginarium", seats: int = 4) -> RoomState:
    """A started table of the host and bots, its deck in its setup."""
    room = evolve(None, _created(variant, {"deck": DEFAULT_DECK, "card_count": 300}))
    colors = ["#f4a261", "#e9c46a", "#2a9d8f"]
    for i in range(seats - 1):
        room = evolve(room, BotAdded(f"Bot{i} (bot)", colors[i], "normal"))
    return evolve(room, decide(room, 0, Start(), 0.0))


def test_a_bot_reads_the_deck_its_room_names_in_the_library() -> None:
    room = _playing()
    family = room.family
    movers = family.bot_seats(room.game, [p.controlled_by_bot for p in room.players])
    assert movers  # imaginarium draws its storyteller at once: with this seed, a bot
    for library in (Library(DECKS), Library({})):  # a deck not read yet: the simple bot
        action = family.bot_action(room.game, movers[0], random.Random(1), room, library)
        assert action is not None and family.accepts(action)
        evolve(room, Acted(action))  # the rules take it


def test_the_bots_pace_is_the_familys(tmp_path: Path) -> None:
    room = _playing("dixit")
    assert room.game.phase is Phase.CLUE
    assert ASSOCIATION.bot_pace(room.game) == (2.5, 6.0)
    # A game that says nothing of its pace: a person's usual time over a move.
    assert PEBBLES.bot_pace(toy.new_game(3, 7, 1)) == DEFAULT_PACE
    # The rooms ask the family: a storyteller bot thinks as long as a person over a clue.
    store = open_store(f"sqlite:///{tmp_path / 'r.db'}")
    runners = RoomService(store, MemoryBus(), Library(), bot_delay=1).runners
    assert all(2.5 <= runners._think_seconds(room) <= 6.0 for _ in range(50))
    rng = random.Random(3)
    for _ in range(50):
        assert 2.5 <= think_seconds(1.0, (2.5, 6.0), None, rng) <= 6.0
        assert think_seconds(1.0, (2.5, 6.0), 4.0, rng) <= TIMER_SHARE * 4.0
        assert think_seconds(0.0, (2.5, 6.0), None, rng) == 0.0


def test_the_deck_capability_says_which_games_play_with_a_deck() -> None:
    for family in games.families():
        for info in family.variants():
            assert info.capabilities.get("deck", False) is family.uses_deck, info.name
    by_name = {v.name: v.capabilities.get("deck") for v in games.all_variants()}
    assert by_name["dixit"] is True and by_name["pictoric-gallery"] is True
    assert by_name["dixit-companion"] is False and by_name["visual"] is False
    assert by_name["visual-companion"] is False
    assert "deck" not in PEBBLES.variant(VARIANT).capabilities  # a client reads: false
