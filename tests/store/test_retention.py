"""Retention: finished rooms go 30 days after their last move, abandoned ones after 7,
with everything only they used; a room in use stays; one process prunes at a time.
On SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, cast

import pytest
import redis.asyncio as aioredis

from reverie.bus.base import MemoryBus
from reverie.bus.leases import MARKER, RedisLeases
from reverie.content.decks import list_decks
from reverie.content.library import Library
from reverie.rooms.commands import AddBot, HandToBot, Start
from reverie.rooms.retention import (
    DAY,
    LEASE,
    Pruner,
    Retention,
    RetentionStore,
    room_finished,
    run_retention,
)
from reverie.rooms.service import RoomService
from reverie.rooms.state import hash_token
from reverie.store import open_store
from reverie.store.decks import DeckStore
from tests.aio import run_async

ROOT = Path(__file__).resolve().parents[2]
T0 = 1_000_000.0


def run(url: str, body: Callable[[RetentionStore], Awaitable[None]]) -> None:
    async def main() -> None:
        store = open_store(url)
        await store.open()
        try:
            await body(cast(RetentionStore, store))
        finally:
            await store.close()

    run_async(main())


# ------------------------------------------------------------------ the stores' part


def test_idle_rooms_and_deleting_them_with_what_only_they_used(store_url: str) -> None:
    async def body(store: RetentionStore) -> None:
        assert isinstance(store, DeckStore)
        await store.create("OLD001", b"{}", 100.0)
        await store.append("OLD001", 1, b"{}", 150.0)
        await store.save_snapshot("OLD001", 2, b"snap", 150.0)
        await store.create("MID001", b"{}", 200.0)
        await store.create("NEW001", b"{}", 500.0)
        # A player's deck, deleted by its owner, still played by OLD001 alone.
        await store.create_deck("u-deck", "owner", 90.0)
        await store.record_deck_use("u-deck", "OLD001", 100.0)
        assert await store.delete_deck("u-deck", 120.0)
        assert await store.purge_decks(0.0, 100.0, 130.0) == 0  # OLD001 plays it still

        assert await store.idle_rooms(300.0) == [("OLD001", 150.0), ("MID001", 200.0)]
        assert await store.idle_rooms(100.0) == []
        # Fenced on the last write: MID001 was written after 180, so it stays.
        deleted = await store.delete_rooms(["OLD001", "MID001", "NOSUCH"], idle_before=180.0)
        assert deleted == ["OLD001"]
        assert await store.load("OLD001") == []
        assert await store.load_snapshot("OLD001") is None
        assert [c for c, _ in await store.idle_rooms(1000.0)] == ["MID001", "NEW001"]
        # The deck's pictures go at the next purge: no room plays them any more.
        assert await store.purge_decks(0.0, 100.0, 130.0) == 1
        # Without a fence, a room goes whatever its last write.
        assert await store.delete_rooms(["NEW001"]) == ["NEW001"]
        assert await store.delete_rooms([]) == []
        # A deleted room's code is free again.
        await store.create("OLD001", b"{}", 600.0)
        assert [e.version for e in await store.load("OLD001")] == [1]

    run(store_url, body)


# ------------------------------------------------------------------ the policy


async def _rooms(url: str, clock: list[float]) -> dict[str, str]:
    """A finished Dixit game, a lobby left behind and a game given up, all at T0."""
    decks = {d.name: d for d in list_decks()}
    store = open_store(url)
    playing = RoomService(store, MemoryBus(), Library(decks), bot_delay=0, clock=lambda: clock[0])
    live, token = await playing.create_room(
        name="Ann", color="#e63946", variant="dixit", seats=3, options={"target_score": 1}
    )
    await playing.command(live, 0, AddBot())
    await playing.command(live, 0, AddBot())
    await playing.command(live, 0, Start())
    await playing.command(live, 0, HandToBot(seat=0))
    await playing.connect(live, hash_token(token))  # bots play on while someone watches
    for _ in range(2000):
        if live.state.status == "over":
            break
        await asyncio.sleep(0.01)
    assert live.state.status == "over"
    finished = live.state.code
    await playing.close()
    idle = RoomService(store, MemoryBus(), Library(decks), bot_delay=3600, clock=lambda: clock[0])
    lobby, _ = await idle.create_room(
        name="Bo", color="#e63946", variant="dixit", seats=3, options={}
    )
    given_up, _ = await idle.create_room(
        name="Cy", color="#e63946", variant="dixit", seats=3, options={}
    )
    await idle.command(given_up, 0, AddBot())
    await idle.command(given_up, 0, AddBot())
    await idle.command(given_up, 0, Start())
    await idle.close()
    await store.close()
    return {"finished": finished, "lobby": lobby.state.code, "given_up": given_up.state.code}


def test_finished_rooms_are_kept_longer_than_abandoned_ones(
    store_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("REVERIE_BOT_ENCODER", "0")
    clock = [T0]
    rooms = run_async(_rooms(store_url, clock))
    finished, lobby, given_up = rooms["finished"], rooms["lobby"], rooms["given_up"]

    async def body(store: RetentionStore) -> None:
        assert await room_finished(store, finished) is True
        assert await room_finished(store, given_up) is False
        assert await room_finished(store, "NOSUCH") is None
        await store.create("RECENT", b"not even a room's event", T0 + 29 * DAY)
        pruner = Pruner(store, Retention.days(30, 7))

        # Six days on, nothing is due.
        assert (await pruner.prune(T0 + 6 * DAY)).deleted == 0
        # Eight days on, the abandoned rooms are due; a dry run only says so.
        dry = await pruner.prune(T0 + 8 * DAY, dry_run=True)
        assert (dry.finished, sorted(dry.abandoned)) == ([], sorted([lobby, given_up]))
        assert await store.load(lobby)
        # A room in use (in a server's memory) is never deleted.
        busy = await pruner.prune(T0 + 8 * DAY, in_use=lambda code: code == lobby)
        assert busy.abandoned == [given_up] and busy.in_use == [lobby]
        assert await store.load(lobby) and not await store.load(given_up)
        pruned = await pruner.prune(T0 + 8 * DAY)
        assert pruned.abandoned == [lobby] and not await store.load(lobby)
        # The finished game stays its 30 days, then goes; the recent room stays.
        assert (await pruner.prune(T0 + 29 * DAY)).deleted == 0
        assert await store.load(finished)
        last = await pruner.prune(T0 + 31 * DAY)
        assert (last.finished, last.abandoned) == ([finished], [])
        assert not await store.load(finished)
        assert [c for c, _ in await store.idle_rooms(T0 + 100 * DAY)] == ["RECENT"]
        # 0 keeps rooms for ever.
        assert (await Pruner(store, Retention(0, 0)).prune(T0 + 1000 * DAY)).deleted == 0

    run(store_url, body)


def test_word_lists_nobody_names_go_in_the_same_pass(store_url: str) -> None:
    async def body(store: RetentionStore) -> None:
        assert isinstance(store, DeckStore)
        await store.create("OLD001", b"{}", T0)  # an unreadable log: kept as if finished
        await store.create("NEW001", b"{}", T0 + 40 * DAY)
        for list_id in (UNNAMED, NAMED_BY_OLD, NAMED_BY_NEW):
            await store.save_words(list_id, b"{}", T0)
        await store.save_words(RECENT, b"{}", T0 + 38 * DAY)
        await store.record_words_use(NAMED_BY_OLD, "OLD001", T0)
        await store.record_words_use(NAMED_BY_NEW, "NEW001", T0 + 1)
        pruner = Pruner(store, Retention.days(30, 7, 7))
        later = T0 + 41 * DAY

        dry = await pruner.prune(later, dry_run=True)
        assert (dry.finished, dry.word_lists) == (["OLD001"], [UNNAMED, NAMED_BY_OLD])
        assert len(await store.stored_word_lists()) == 4
        # A room in use keeps the lists it names.
        busy = await pruner.prune(later, in_use=lambda code: code == "OLD001")
        assert (busy.finished, busy.word_lists) == ([], [UNNAMED])
        done = await pruner.prune(later)
        assert (done.finished, done.word_lists) == (["OLD001"], [NAMED_BY_OLD])
        assert [w.id for w in await store.stored_word_lists()] == [NAMED_BY_NEW, RECENT]
        assert await store.load_words(NAMED_BY_OLD) is None
        # 0 keeps word lists for ever (rooms still go).
        assert await store.delete_rooms(["NEW001"]) == ["NEW001"]
        kept = await Pruner(store, Retention.days(30, 7, 0)).prune(later + 100 * DAY)
        assert kept.word_lists == []
        assert (await pruner.prune(later + 100 * DAY)).word_lists == [NAMED_BY_NEW, RECENT]

    run(store_url, body)


UNNAMED, NAMED_BY_OLD, NAMED_BY_NEW, RECENT = (f"w-{c * 26}" for c in "abcd")


def test_the_command_line_prunes_and_deletes(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'reverie.db'}"

    async def make(store: RetentionStore) -> None:
        assert isinstance(store, DeckStore)
        # Long ago (logs that cannot be read: kept as long as finished rooms, no longer).
        await store.create("OLD001", b"{}", 1.0)
        await store.create("OLD002", b"{}", 2.0)
        await store.create("KEEP01", b"{}", 4_000_000_000.0)  # written "in the future"
        # Word lists: one nobody named, one only OLD001 names, one KEEP01 names.
        for list_id in (UNNAMED, NAMED_BY_OLD, NAMED_BY_NEW):
            await store.save_words(list_id, b"{}", 1.0)
        await store.record_words_use(NAMED_BY_OLD, "OLD001", 1.0)
        await store.record_words_use(NAMED_BY_NEW, "KEEP01", 1.0)

    run(url, make)

    def reverie(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "reverie", "rooms", *args, "--data-dir", str(tmp_path)],
            capture_output=True, text=True, cwd=ROOT,
        )  # fmt: skip

    dry = reverie("prune", "--dry-run")
    assert dry.returncode == 0, dry.stderr
    assert "2 finished room(s) would be deleted" in dry.stdout
    assert f"2 unused word list(s) would be deleted: {UNNAMED} {NAMED_BY_OLD}" in dry.stdout
    done = reverie("prune")
    assert "2 finished room(s) deleted: OLD001 OLD002" in done.stdout, done.stdout
    assert f"2 unused word list(s) deleted: {UNNAMED} {NAMED_BY_OLD}" in done.stdout
    gone = reverie("delete", "keep01", "NOSUCH")
    assert gone.returncode == 1
    assert gone.stdout.splitlines() == ["KEEP01: deleted", "NOSUCH: no such room"]

    async def empty(store: RetentionStore) -> None:
        assert await store.idle_rooms(5_000_000_000.0) == []
        assert isinstance(store, DeckStore)
        assert [w.id for w in await store.stored_word_lists()] == [NAMED_BY_NEW]

    run(url, empty)


# ------------------------------------------------------------------ one process prunes


class CountingStore:
    """A store that counts the passes made over it (each begins with ``idle_rooms``)."""

    def __init__(self, inner: RetentionStore) -> None:
        self.inner = inner
        self.passes = 0

    async def idle_rooms(self, before: float) -> list[tuple[str, float]]:
        self.passes += 1
        return await self.inner.idle_rooms(before)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


@pytest.mark.redis
def test_one_process_prunes_and_another_takes_over_when_it_dies(
    redis_url: str, tmp_path: Path
) -> None:
    async def main() -> None:
        client = aioredis.Redis.from_url(redis_url)
        await client.set(MARKER, 0)  # Redis has kept its keys for long (no wait-out)
        store = open_store(f"sqlite:///{tmp_path / 'reverie.db'}")
        await store.open()
        inner = cast(RetentionStore, store)
        await inner.create("OLD001", b"{}", 1.0)
        stores = {p: CountingStore(inner) for p in "AB"}
        leases = {p: RedisLeases(client, p, seconds=1.0) for p in "AB"}
        tasks = {
            p: asyncio.create_task(
                run_retention(
                    cast(RetentionStore, stores[p]),
                    Retention.days(30, 7),
                    leases[p],
                    clock=time.time,
                    in_use=lambda code: False,
                    shared=True,
                    every=0.01,
                    first=0.0,
                )
            )
            for p in "AB"
        }
        try:
            for _ in range(500):
                if stores["A"].passes + stores["B"].passes >= 3:
                    break
                await asyncio.sleep(0.01)
            first = "A" if stores["A"].passes else "B"
            other = "B" if first == "A" else "A"
            assert stores[first].passes >= 3 and stores[other].passes == 0
            assert await inner.load("OLD001") == []  # the pass deleted the room
            tasks[first].cancel()  # the holder dies: its lease runs out, the other prunes
            for _ in range(500):
                if stores[other].passes:
                    break
                await asyncio.sleep(0.01)
            assert stores[other].passes > 0
        finally:
            for task in tasks.values():
                task.cancel()
            await asyncio.gather(*tasks.values(), return_exceptions=True)
            await store.close()
            await client.aclose()

    run_async(main())
    assert LEASE.startswith("~")  # never a room's code (codes are letters and digits)


def test_a_server_prunes_by_itself(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from reverie.rooms import retention
    from tests.web.harness import ServerThread, create_room

    monkeypatch.setattr(retention, "FIRST", 0.0)  # the pass runs as the server starts
    url = f"sqlite:///{tmp_path / 'reverie.db'}"
    week_ago = [time.time() - 8 * DAY]

    async def left_behind() -> str:
        decks = {d.name: d for d in list_decks()}
        service = RoomService(
            open_store(url), MemoryBus(), Library(decks), clock=lambda: week_ago[0]
        )
        live, _ = await service.create_room(
            name="Bo", color="#e63946", variant="dixit", seats=3, options={}
        )
        await service.close()
        await service.store.close()
        return live.state.code

    old = run_async(left_behind())
    server = ServerThread(tmp_path).start()
    try:
        new, _ = create_room(server.base, "dixit", 3)  # in use: stays
        found: list[str] = []

        async def codes(store: RetentionStore) -> None:
            found[:] = [c for c, _ in await store.idle_rooms(time.time() + 1)]

        for _ in range(1000):
            run(url, codes)
            if old not in found:
                break
            time.sleep(0.02)
        assert found == [new]
    finally:
        server.stop()
