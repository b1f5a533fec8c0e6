"""The room service on its own: memory housekeeping and resuming rooms from the log."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

from reverie.bus.base import MemoryBus
from reverie.content.decks import list_decks
from reverie.content.lexicon import load_lexicon
from reverie.content.library import Library
from reverie.rooms.commands import AddBot, HandToBot, Start
from reverie.rooms.service import RoomService
from reverie.rooms.state import hash_token
from reverie.store import open_store
from tests.aio import run_async


def run(main: Callable[[], Coroutine[Any, Any, None]]) -> None:
    """Run a test's coroutine away from Playwright's loop (tests/aio.py)."""
    run_async(main())


def _service(db: Path, clock: list[float], bot_delay: float = 0.0) -> RoomService:
    decks = {d.name: d for d in list_decks()}
    return RoomService(
        open_store(f"sqlite:///{db}"),
        MemoryBus(),
        Library(decks),
        bot_delay=bot_delay,
        clock=lambda: clock[0],
    )


def test_idle_rooms_leave_memory_and_come_back_unchanged(tmp_path: Path) -> None:
    async def main() -> None:
        clock = [1_000.0]
        service = _service(tmp_path / "r.db", clock)
        live, _ = await service.create_room(
            name="Ann", color="#e63946", variant="dixit", seats=3, options={}
        )
        await service.command(live, 0, AddBot())
        await service.command(live, 0, AddBot())
        await service.command(live, 0, Start())
        code = live.state.code
        clock[0] += 60
        assert await service.evict_idle(idle=600) == 0  # touched a minute ago
        await service.connect(live, None)
        clock[0] += 10_000
        assert await service.evict_idle(idle=600) == 0  # somebody is watching
        await service.disconnect(live, None)
        # Ann has been away for hours: a bot stands in for her, written in the
        # background (the room is busy meanwhile).
        for _ in range(5000):
            if live.state.players[0].controlled_by_bot and not live.lock.locked():
                break
            await asyncio.sleep(0.001)
        clock[0] += 10_000
        assert await service.evict_idle(idle=600) == 1
        assert code not in service.rooms
        again = await service.get(code.lower())
        assert again is not None and again is not live
        assert again.state == live.state
        # Probing codes that do not exist leaves nothing behind.
        assert await service.get("NOPE42") is None
        assert not service._loading
        await service.close()

    run(main)


def test_a_room_loaded_from_the_log_resumes_its_bots(tmp_path: Path) -> None:
    async def main() -> None:
        clock = [1_000.0]
        first = _service(tmp_path / "r.db", clock, bot_delay=3600)  # bots never get to move
        live, token = await first.create_room(
            name="Ann", color="#e63946", variant="imaginarium", seats=3, options={}
        )
        await first.command(live, 0, AddBot())
        await first.command(live, 0, AddBot())
        await first.command(live, 0, Start())
        await first.command(live, 0, HandToBot(seat=0, on=True))
        version = live.state.version
        await first.close()

        second = _service(tmp_path / "r.db", clock, bot_delay=0)
        resumed = await second.get(live.state.code)  # lazily, not at start-up
        assert resumed is not None and resumed.state.version == version
        await asyncio.sleep(0.05)
        assert resumed.state.version == version  # nobody is there: the bots wait
        await second.connect(resumed, hash_token(token))  # Ann looks in
        # A bot's first move may load the sentence encoder (seconds, once), in a thread.
        for _ in range(60_000):
            if resumed.state.status == "over":
                break
            await asyncio.sleep(0.001)
        assert resumed.state.status == "over"  # the bots played the game to its end
        await second.close()

    run(main)


def test_bots_tell_their_clues_in_the_tables_language(tmp_path: Path) -> None:
    async def main() -> None:
        clock = [1_000.0]
        service = _service(tmp_path / "r.db", clock)
        live, token = await service.create_room(
            name="Аня",
            color="#e63946",
            variant="imaginarium",
            seats=3,
            options={"first_storyteller": 1},
            lang="ru",
        )
        await service.command(live, 0, AddBot())
        await service.command(live, 0, AddBot())
        await service.command(live, 0, Start())
        await service.connect(live, hash_token(token))  # bots play while someone is there
        # A bot's first clue may load the sentence encoder (a few seconds, once).
        for _ in range(60_000):
            game = live.state.game
            if game is not None and game.round.clue:
                break
            await asyncio.sleep(0.001)
        game = live.state.game
        assert game is not None and game.round.storyteller == 1
        clue = game.round.clue or ""
        # Russian, or one of the few names Russian players say in Latin letters too
        # ("Linux" for a penguin), as the Russian lexicon has them.
        russian = {a for line in load_lexicon().entries["ru"].values() for a in line}
        latin = {a for a in russian if not re.search("[а-яё]", a, re.I)}
        assert re.search("[а-яё]", clue, re.I) or clue in latin, clue
        await service.close()

    run(main)
