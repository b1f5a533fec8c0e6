"""Phase deadlines come from the log, and a timeout that cannot be written is retried."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from reverie.bus.base import MemoryBus
from reverie.content.decks import list_decks
from reverie.content.library import Library
from reverie.errors import RoomError
from reverie.rooms import retry, runners
from reverie.rooms.commands import AddBot, BalanceCmd, Join, SetOptions, Start
from reverie.rooms.events import TIME_FACTORS
from reverie.rooms.service import RoomService
from reverie.rooms.snapshot import room_info
from reverie.rooms.state import PALETTE, hash_token
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
    return RoomService(store, MemoryBus(), Library(decks), bot_delay=3600, clock=lambda: clock[0])


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
    monkeypatch.setattr(runners, "MIN_TIMER", 0.05)
    monkeypatch.setattr(retry, "RETRY_DELAYS", (0.05, 0.1))

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


@pytest.mark.parametrize(
    ("variant", "options"),
    [
        ("imaginarium", {"clue_seconds": 20}),
        ("dixit", {"clue_seconds": 20, "first_storyteller": 0}),
        ("visual", {"choose_seconds": 20}),
    ],
)
def test_the_table_time_factor_lengthens_every_timer(
    tmp_path: Path, variant: str, options: dict[str, object]
) -> None:
    """A table that chose x2 or x4 gets that many times the game's own deadline, set in
    the lobby (``options``) or at creation, and the state frame says the factor."""

    async def main() -> None:
        lengths: dict[int, float] = {}
        for factor in TIME_FACTORS:
            clock = [1_000.0]
            service = _service(open_store(f"sqlite:///{tmp_path / f'{variant}{factor}.db'}"), clock)
            live, _ = await service.create_room(
                name="Ann", color="#e63946", variant=variant, seats=4, options=options,
            )  # fmt: skip
            for n in range(3):
                if variant == "visual":  # a game for people: they sit down
                    await service.join(live, Join(name=f"P{n}", color=PALETTE[n + 1]))
                else:
                    await service.command(live, 0, AddBot())
            if variant == "visual":
                await service.command(live, 0, BalanceCmd())
            await service.command(live, 0, SetOptions(options=options, seats=4, time_factor=factor))
            assert live.state.time_factor == factor
            assert (
                room_info(
                    live.state, None, connected=set(), spectators=0, deadline=None, now=clock[0]
                )["time_factor"]
                == factor
            )
            await service.command(live, 0, Start())
            assert live.deadline is not None
            lengths[factor] = live.deadline - 1_000.0
            await service.close()
            await service.store.close()
        assert lengths[1] > 0
        assert lengths == {f: lengths[1] * f for f in TIME_FACTORS}

    run(main)


def test_a_time_factor_chosen_at_creation_is_kept_and_a_strange_one_refused(
    tmp_path: Path,
) -> None:
    async def main() -> None:
        service = _service(open_store(f"sqlite:///{tmp_path / 'r.db'}"), [1_000.0])
        live, _ = await service.create_room(
            name="Ann", color="#e63946", variant="imaginarium", seats=3,
            options={"clue_seconds": 30}, time_factor=4,
        )  # fmt: skip
        await service.command(live, 0, AddBot())
        await service.command(live, 0, AddBot())
        # Other options changed without the factor leave it as it was.
        await service.command(live, 0, SetOptions(options={"clue_seconds": 30}, seats=3))
        assert live.state.time_factor == 4
        await service.command(live, 0, Start())
        assert live.deadline == 1_000.0 + 120
        with pytest.raises(RoomError) as refused:
            await service.create_room(
                name="Bo", color="#e63946", variant="imaginarium", seats=3, options={},
                time_factor=3,
            )  # fmt: skip
        assert refused.value.code == "bad_options"
        await service.close()
        await service.store.close()

    run(main)


def test_a_storyteller_chosen_when_nobody_claimed_the_turn_gets_the_whole_clock(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Dixit's first turn is the table's to claim; when its clock runs out, a seat is drawn
    and that storyteller gets the clue's whole time, not a clock already run out (which
    skipped the turn at once) or none at all."""
    monkeypatch.setattr(runners, "MIN_TIMER", 0.05)

    async def main() -> None:
        clock = [1_000.0]
        service = _service(open_store(f"sqlite:///{tmp_path / 'r.db'}"), clock)
        live, token = await service.create_room(
            name="Ann", color="#e63946", variant="dixit", seats=3,
            options={"clue_seconds": 1},
        )  # fmt: skip
        await service.join(live, Join(name="Bob", color=PALETTE[1]))
        await service.command(live, 0, AddBot())
        await service.connect(live, hash_token(token))  # the clock runs while she is there
        await service.command(live, 0, Start())
        game = live.state.game
        assert game is not None and game.round.storyteller is None  # open to claim
        assert live.deadline == 1_001.0
        clock[0] = 1_002.0  # nobody claimed it in time (the timer itself waits 1 s)
        for _ in range(200):
            await asyncio.sleep(0.02)
            game = live.state.game
            if game is not None and game.round.storyteller is not None:
                break
        assert game is not None and game.round.storyteller is not None
        assert game.phase.value == "clue" and game.round.number == 1  # the same turn
        assert live.deadline == 1_003.0  # a fresh second from the draw, not none
        await asyncio.sleep(0.2)  # and the turn is not skipped meanwhile
        game = live.state.game
        assert game is not None and game.round.number == 1 and game.phase.value == "clue"
        await service.close()
        await service.store.close()

    run(main)
