"""A room's timers and bots go on while Redis is away, for as long as the lease would
have lasted, and stop before anyone else could take it (issue #24, item 6): one server
process's room service on a redis-server of the test's own, stopped under a game."""

from __future__ import annotations

import asyncio
from pathlib import Path

from reverie.bus.leases import RedisLeases
from reverie.bus.redis import RedisBus
from reverie.content.decks import list_decks
from reverie.content.library import Library
from reverie.rooms.commands import AddBot, Start
from reverie.rooms.events import Acted
from reverie.rooms.service import RoomService
from reverie.rooms.state import hash_token
from reverie.rules.association.actions import Timeout
from reverie.store import open_store
from tests.aio import run_async
from tests.scale.cluster import RedisServer
from tests.web.harness import logged_events

LEASE = 6.0


async def _until(check: object, what: str, timeout: float = 30.0) -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not check():  # type: ignore[operator]
        assert loop.time() < end, f"{what}: not in {timeout} s"
        await asyncio.sleep(0.02)


def test_timers_and_bots_run_on_through_a_redis_outage_shorter_than_the_lease(
    tmp_path: Path,
) -> None:
    redis_server = RedisServer(tmp_path).start()
    db = tmp_path / "rooms.db"

    async def main() -> None:
        bus = RedisBus(redis_server.url, process_id="A")
        await bus.start()
        leases = RedisLeases(bus.client, "A", seconds=LEASE, pipeliner=bus.pipeliner)
        store = open_store(f"sqlite:///{db}")
        await store.open()
        decks = {d.name: d for d in list_decks()}
        service = RoomService(store, bus, Library(decks), bot_delay=0.02, leases=leases)
        renewals = asyncio.create_task(service.run_leases())
        try:
            # Ann never moves: the clock plays for her (1 s phases); two bots play, and a
            # bot tells the first clue (a storyteller drawn by the clock in the claim
            # phase gets no clock of their own: the phase stays the same).
            options = {
                "clue_seconds": 1,
                "card_seconds": 1,
                "vote_seconds": 1,
                "first_storyteller": 1,
            }
            live, token = await service.create_room(
                name="Ann", color="#e63946", variant="dixit", seats=3, options=options
            )
            await service.connect(live, hash_token(token))  # she is there: no pause
            for _ in range(2):  # easy bots: no sentence encoder to read first
                await service.command(live, 0, AddBot(level="easy"))
            await service.command(live, 0, Start())
            code = live.state.code
            # A Redis just started empty: the lease counts once a lease's time is over.
            await _until(lambda: live.leased, "the lease is taken")
            started = live.state.version
            await _until(lambda: live.state.version >= started + 3, "the game moves")

            redis_server.kill()
            # The next renewal fails; the room keeps its lease on this process's clock.
            await _until(lambda: leases._failing, "a renewal fails")
            cut_off = live.state.version
            await _until(lambda: not live.leased, "the lease runs out")
            ran_out = live.state.version
            await asyncio.sleep(1.5)  # 1 s phases: a timer would have fired by now
            assert live.state.version == ran_out  # nothing once the lease may be another's

            events = logged_events(db, code)
            during = [e for v, e in events if cut_off < v <= ran_out]
            timeouts = [e for e in during if isinstance(e, Acted) and isinstance(e.action, Timeout)]
            bots = [e for e in during if isinstance(e, Acted) and not isinstance(e.action, Timeout)]
            # Redis away after its last renewal: the clock and the bots still played.
            assert timeouts and bots, during

            redis_server.start()  # same port: the lease is taken again, the game goes on
            await _until(lambda: live.leased, "the lease is taken again")
            await _until(lambda: live.state.version > ran_out, "the game goes on")
        finally:
            service.closing()
            renewals.cancel()
            await service.close()
            await bus.close()
            await store.close()

    try:
        run_async(main())
    finally:
        redis_server.kill()
