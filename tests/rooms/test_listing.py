"""What a listed table shows and when it leaves the list: a room service with the
in-memory board, stepped by hand on its own clock (no waiting)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from dataclasses import replace
from pathlib import Path
from typing import Any

import msgspec

from reverie.bus.base import MemoryBus
from reverie.bus.board import MemoryBoard
from reverie.content.decks import list_decks
from reverie.content.library import Library
from reverie.rooms.commands import AddBot, SetPublic, Start
from reverie.rooms.listing import Lister, decided, may_seat, takeable_bots
from reverie.rooms.service import RoomService
from reverie.rooms.state import hash_token
from reverie.store import open_store
from tests.aio import run_async


def run(main: Callable[[], Coroutine[Any, Any, None]]) -> None:
    run_async(main())


def _service(db: Path, clock: list[float]) -> RoomService:
    decks = {d.name: d for d in list_decks()}
    return RoomService(
        open_store(f"sqlite:///{db}"), MemoryBus(), Library(decks), bot_delay=3600,
        clock=lambda: clock[0],
    )  # fmt: skip


async def _room(service: RoomService, *, public: bool) -> tuple[Any, str]:
    return await service.create_room(
        name="Ann", color="#e63946", variant="dixit", seats=4, options={}, public=public,
        lang="it",
    )  # fmt: skip


def test_a_public_table_is_listed_with_what_a_stranger_needs(tmp_path: Path) -> None:
    async def main() -> None:
        clock = [1_000.0]
        service = _service(tmp_path / "r.db", clock)
        board = MemoryBoard(clock=lambda: clock[0])
        lister = Lister(service, board, empty_seconds=30)
        live, token = await _room(service, public=True)
        private, _ = await _room(service, public=False)
        await service.connect(live, hash_token(token))
        await service.command(live, 0, AddBot())
        await lister.refresh()
        (entry,) = await board.entries()
        assert entry["code"] == live.state.code
        assert {k: entry[k] for k in ("game", "lang", "people", "present", "bots", "seats")} == {
            "game": "dixit", "lang": "it", "people": 1, "present": 1, "bots": 1, "seats": 4
        }  # fmt: skip
        assert entry["phase"] == "lobby" and entry["free"] == 2 and entry["may_seat"] is True
        assert entry["started"] is None and entry["created"] == 1_000.0
        assert "Ann" not in str(entry)  # nobody's name is listed
        # The private room never shows; made public, it does; private again, it leaves.
        assert private.state.code not in {e["code"] for e in await board.entries()}
        await service.command(private, 0, SetPublic(public=True))
        await lister.refresh()
        assert len(await board.entries()) == 2
        await service.command(private, 0, SetPublic(public=False))
        await lister.refresh()
        assert [e["code"] for e in await board.entries()] == [live.state.code]

        # The game starts: a bot's seat is one a person may take, and it says since when.
        await service.command(live, 0, AddBot())
        clock[0] += 5
        await service.command(live, 0, Start())
        await lister.refresh()
        (entry,) = await board.entries()
        assert entry["phase"] == "playing" and entry["started"] == 1_005.0
        assert entry["free"] == 2 and entry["may_seat"] is True
        # The game decided (far along): still listed, but nobody may sit down.
        game = live.state.game
        live.state = replace(live.state, game=msgspec.structs.replace(game, scores=(0, 0, 40)))
        assert decided(live.state) and takeable_bots(live.state) == []
        await lister.refresh()
        (entry,) = await board.entries()
        assert entry["may_seat"] is False and entry["progress"] == 1.0
        # Over: off the list.
        live.state = replace(live.state, status="over")
        await lister.refresh()
        assert await board.entries() == []
        await service.close()

    run(main)


def test_a_table_leaves_the_list_once_its_last_person_is_gone_a_while(tmp_path: Path) -> None:
    async def main() -> None:
        clock = [1_000.0]
        service = _service(tmp_path / "r.db", clock)
        board = MemoryBoard(clock=lambda: clock[0])
        lister = Lister(service, board, empty_seconds=30)
        live, token = await _room(service, public=True)
        await service.connect(live, hash_token(token))
        await lister.refresh()
        assert len(await board.entries()) == 1
        await service.disconnect(live, hash_token(token))
        clock[0] += 29
        await lister.refresh()
        assert len(await board.entries()) == 1  # a dropped phone coming back keeps it
        await service.connect(live, hash_token(token))
        clock[0] += 60
        await lister.refresh()
        assert len(await board.entries()) == 1  # back: the count starts again
        await service.disconnect(live, hash_token(token))
        await lister.refresh()
        clock[0] += 30
        await lister.refresh()
        assert await board.entries() == []
        await service.close()

    run(main)


def test_a_table_is_listed_only_by_its_lease_holder_and_for_one_lease(tmp_path: Path) -> None:
    async def main() -> None:
        clock = [1_000.0]
        service = _service(tmp_path / "r.db", clock)
        board = MemoryBoard(clock=lambda: clock[0])
        lister = Lister(service, board, empty_seconds=30)
        live, token = await _room(service, public=True)
        await service.connect(live, hash_token(token))
        live.leased = False  # another process runs it (and lists it)
        await lister.refresh()
        assert await board.entries() == []
        live.leased = True
        await lister.refresh()
        assert len(await board.entries()) == 1
        # This process stops renewing (killed): the entry runs out with the lease.
        clock[0] += service.leases.seconds + 0.1
        assert await board.entries() == []
        await service.close()

    run(main)


def test_who_may_sit_down() -> None:
    """A stranger sits only at a public table with a free seat or a bot's seat in a
    game not yet decided."""
    from reverie.rooms.events import BotAdded, Created, Listed, Started
    from reverie.rooms.state import evolve

    created = Created(
        code="ABCDEF", variant="dixit", seats=3, options={},
        setup={"deck": "reverie", "card_count": 84}, seed=1, name="Ann", color="#e63946",
        token_hash="t", at=0.0,
    )  # fmt: skip
    room = evolve(None, created)
    assert not may_seat(room)  # private
    room = evolve(room, Listed(True))
    assert may_seat(room)
    room = evolve(room, BotAdded("Bot", "#2a9d8f"))
    room = evolve(room, BotAdded("Bob", "#457b9d"))
    assert not may_seat(room)  # every seat taken in the lobby
    room = evolve(room, Started())
    assert takeable_bots(room) == [1, 2] and may_seat(room)


def _status(live: Any) -> str:
    status: str = live.state.status  # read anew: another task changes it
    return status


def test_a_play_now_table_is_started_when_due_by_the_process_holding_it(tmp_path: Path) -> None:
    """The log keeps when a play-now table starts by itself: the process holding the
    table starts it then, even if another opened it (and set no timer here)."""

    async def main() -> None:
        clock = [1_000.0]
        service = _service(tmp_path / "r.db", clock)
        board = MemoryBoard(clock=lambda: clock[0])
        lister = Lister(service, board, empty_seconds=30)
        live, token = await service.create_room(
            name="Ann", color="#e63946", variant="dixit", seats=4, options={}, public=True,
            lang="it", starts_at=1_005.0,
        )  # fmt: skip
        await service.connect(live, hash_token(token))
        await lister.refresh()
        (entry,) = await board.entries()
        assert entry["starts_at"] == 1_005.0 and live.state.status == "lobby"
        clock[0] = 1_005.0
        await lister.refresh()
        status = "lobby"
        for _ in range(100):  # the start runs as a task of its own
            status = _status(live)
            if status == "playing":
                break
            await asyncio.sleep(0.01)
        assert status == "playing"
        assert [p.bot for p in live.state.players] == [False, True, True, True]
        await lister.refresh()
        (entry,) = await board.entries()
        assert entry["starts_at"] is None and entry["phase"] == "playing"
        await service.close()

    run(main)
