"""Stand-ins for people gone: done once, then the room stops looking until it matters."""

from __future__ import annotations

import asyncio
from pathlib import Path

from reverie.rooms.commands import AddBot, Join, Start
from reverie.rooms.state import hash_token

from .test_deadlines import _service
from .test_service import run


def test_a_handled_absence_is_not_looked_at_again(tmp_path: Path) -> None:
    async def main() -> None:
        from reverie.store import open_store

        clock = [1_000.0]
        service = _service(open_store(f"sqlite:///{tmp_path / 'r.db'}"), clock)
        live, token = await service.create_room(
            name="Ann", color="#e63946", variant="dixit", seats=3, options={}
        )
        await service.connect(live, hash_token(token))
        _, bob_token = await service.join(live, Join(name="Bob", color="#2a9d8f"))
        await service.connect(live, hash_token(bob_token))
        await service.command(live, 0, AddBot())
        await service.command(live, 0, Start())
        await service.disconnect(live, hash_token(bob_token))
        timer = live.absence_timer
        assert timer is not None and timer.when() - asyncio.get_running_loop().time() > 30
        clock[0] += 61  # Bob has been gone past the table's minute
        await service.connect(live, None)  # anyone looking in makes the room look again
        for _ in range(100):
            await asyncio.sleep(0.01)
            if live.state.players[1].bot_playing:
                break
        assert live.state.players[1].bot_playing
        await asyncio.sleep(0.2)
        # Nothing more to do for Bob: no check keeps coming back for him.
        assert live.absence_timer is None
        await service.close()
        await service.store.close()

    run(main)
