"""A room whose log holds an event that cannot be replayed is closed, alone (issue #24,
item 5): met while loading the room, or while catching up with another writer."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from reverie.bus.base import MemoryBus
from reverie.content.decks import list_decks
from reverie.content.library import Library
from reverie.rooms.commands import AddBot
from reverie.rooms.errors import RoomDamaged
from reverie.rooms.service import RoomService
from reverie.store import open_store

from .test_service import run


def _service(db: Path) -> RoomService:
    decks = {d.name: d for d in list_decks()}
    return RoomService(open_store(f"sqlite:///{db}"), MemoryBus(), Library(decks))


async def _two_rooms(service: RoomService) -> list[str]:
    codes = []
    for name in ("Ann", "Bo"):
        live, _ = await service.create_room(
            name=name, color="#e63946", variant="dixit", seats=4, options={}
        )
        await service.command(live, 0, AddBot())
        codes.append(live.state.code)
    return codes


def test_an_event_that_does_not_fit_closes_the_room_on_load(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    async def main() -> None:
        first = _service(tmp_path / "r.db")
        damaged, sound = await _two_rooms(first)
        # Well-formed, but not an event this room can take: a bot in a seat nobody has.
        await first.store.append(damaged, 2, b'{"t":"bot_seat","seat":9,"on":true}', 2.0)
        await first.close()
        await first.store.close()

        second = _service(tmp_path / "r.db")
        caplog.set_level(logging.INFO)
        for _ in range(3):
            with pytest.raises(RoomDamaged) as info:
                await second.get(damaged)
            assert (info.value.code, info.value.room, info.value.version) == (
                "room_damaged",
                damaged,
                3,
            )
        errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
        assert len(errors) == 1 and f"room {damaged} is damaged: event 3" in errors[0].message
        assert errors[0].exc_info is None
        other = await second.get(sound)
        assert other is not None
        await second.command(other, 0, AddBot())
        assert await second.resume_active() == 1  # the sound room; the other said once
        assert len([r for r in caplog.records if r.levelno >= logging.ERROR]) == 1
        await second.close()
        await second.store.close()

    run(main)


def test_a_damaged_event_met_while_catching_up_closes_the_room(tmp_path: Path) -> None:
    async def main() -> None:
        service = _service(tmp_path / "r.db")
        damaged, sound = await _two_rooms(service)
        live = service.rooms[damaged]
        # Another writer's event, garbled on its way to the disk.
        await service.store.append(damaged, live.state.version, b'{"t":"acted","act', 3.0)
        async with live.lock:
            assert not await service.history.catch_up(live)
        assert live.damaged and damaged not in service.rooms
        with pytest.raises(RoomDamaged):
            await service.command(live, 0, AddBot())  # a socket still holding the room
        with pytest.raises(RoomDamaged):
            await service.get(damaged)
        await service.command(service.rooms[sound], 0, AddBot())
        await service.close()
        await service.store.close()

    run(main)
