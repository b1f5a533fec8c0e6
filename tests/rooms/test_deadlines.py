"""Phase deadlines come from the log, and a timeout that cannot be written is retried."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from reverie.bus.base import MemoryBus
from reverie.content.decks import list_decks
from reverie.rooms import service as service_module
from reverie.rooms.commands import AddBot, Start
from reverie.rooms.service import RoomService
from reverie.rooms.state import hash_token
from reverie.store import EventStore, open_store
from reverie.store.base import StoredEvent

from .test_service import run


class FlakyStore:
    """A store whose next ``failures`` appends fail as a full disk would."""

    def __init__(self, inner: EventStore) -> None:
        self.inner = inner
        self.failures = 0
        self.refused = 0

    async def open(self) -> None:
        await self.inner.open()

    async def create(self, code: str, payload: bytes, at: float) -> None:
        await self.inner.create(code, payload, at)

    async def append(self, code: str, expected: int, payload: bytes, at: float) -> int:
        if self.failures > 0:
            self.failures -= 1
            self.refused += 1
            raise OSError(28, "No space left on device")
        return await self.inner.append(code, expected, payload, at)

    async def load(self, code: str, after: int = 0) -> list[StoredEvent]:
        return await self.inner.load(code, after)

    async def active_rooms(self, since: float) -> list[str]:
        return await self.inner.active_rooms(since)

    async def save_snapshot(self, code: str, version: int, payload: bytes, at: float) -> None:
        await self.inner.save_snapshot(code, version, payload, at)

    async def load_snapshot(self, code: str) -> StoredEvent | None:
        return await self.inner.load_snapshot(code)

    async def check(self) -> None:
        await self.inner.check()

    async def schema_version(self) -> int:
        return await self.inner.schema_version()

    async def close(self) -> None:
        await self.inner.close()


def _service(store: EventStore, clock: list[float]) -> RoomService:
    decks = {d.name: d for d in list_decks()}
    return RoomService(store, MemoryBus(), decks, bot_delay=3600, clock=lambda: clock[0])


def test_a_restart_keeps_the_phase_deadline(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'r.db'}"

    async def main() -> None:
        clock = [1_000.0]
        first = _service(open_store(db), clock)
        live, _ = await first.create_room(
            name="Ann", color="#e63946", variant="imaginarium", seats=3,
            options={"clue_seconds": 20},
        )  # fmt: skip
        await first.command(live, 0, AddBot())
        await first.command(live, 0, AddBot())
        clock[0] = 1_005.0
        await first.command(live, 0, Start())
        assert live.deadline == 1_025.0
        await first.close()
        await first.store.close()

        clock[0] = 1_017.0  # 12 of the 20 seconds are gone when the server is back
        second = _service(open_store(db), clock)
        again = await second.get(live.state.code)
        assert again is not None and again.state == live.state
        assert again.deadline == 1_025.0  # 8 seconds left, not a fresh 20
        await second.close()
        await second.store.close()

    run(main)


def test_a_timeout_that_cannot_be_written_is_retried(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(service_module, "MIN_TIMER", 0.05)
    monkeypatch.setattr(service_module, "RETRY_DELAYS", (0.05, 0.1))

    async def main() -> None:
        clock = [1_000.0]
        store = FlakyStore(open_store(f"sqlite:///{tmp_path / 'r.db'}"))
        service = _service(store, clock)
        live, token = await service.create_room(
            name="Ann", color="#e63946", variant="imaginarium", seats=3,
            options={"clue_seconds": 1, "first_storyteller": 0},
        )  # fmt: skip
        await service.command(live, 0, AddBot())
        await service.command(live, 0, AddBot())
        await service.connect(live, hash_token(token))  # the clock runs while she is there
        await service.command(live, 0, Start())
        started = live.state.phase_key()
        store.failures = 3  # the timeout's first three writes fail
        clock[0] += 5  # the clue time is over
        for _ in range(200):
            await asyncio.sleep(0.02)
            if live.state.phase_key() != started:
                break
        assert store.refused == 3
        assert live.state.phase_key() != started  # the phase ended after all
        assert live.failures == 0
        await service.close()
        await store.close()

    run(main)
