"""A snapshot plus the log after it folds to exactly what the whole log folds to."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from reverie.bus.base import MemoryBus
from reverie.content.decks import list_decks
from reverie.content.library import Library
from reverie.errors import RoomError
from reverie.games import family_of
from reverie.rooms.commands import Chat, Start, TeamCmd
from reverie.rooms.deciding import decide
from reverie.rooms.events import Acted, Chatted, Created, Joined, RoomEvent
from reverie.rooms.service import RoomService
from reverie.rooms.snapshots import FORMAT, UnusableSnapshot, decode_snapshot, encode_snapshot
from reverie.rooms.state import RoomState, evolve
from reverie.rules.association.playouts import random_action as association_move
from reverie.rules.errors import IllegalAction
from reverie.rules.visual.playouts import random_action as visual_move
from reverie.store import open_store

from .test_service import run

COLORS = ["#e63946", "#2a9d8f", "#8338ec", "#457b9d"]


def played(variant: str, seed: int, limit: int = 400) -> list[RoomEvent]:
    """A room's log: a lobby of four, a game played with random legal moves and some
    chat between them."""
    rng = random.Random(seed)
    created = Created(
        code="SNAP01", variant=variant, seats=4, options={},
        setup={"deck": "default", "card_count": 120},
        seed=seed, name="P0", color=COLORS[0], token_hash="t0", at=0.0,
    )  # fmt: skip
    events: list[RoomEvent] = [created]
    events += [Joined(f"P{i}", COLORS[i], f"t{i}") for i in range(1, 4)]
    room = fold(events)
    lobby: list[RoomEvent] = []
    if family_of(variant).teams is not None:
        lobby = [decide(room, s, TeamCmd(team=s % 2), 0.0) for s in range(4)]
    events += lobby
    room = fold(events)
    events.append(decide(room, 0, Start(), 0.0))
    room = evolve(room, events[-1])
    move = visual_move if variant == "visual" else association_move
    while room.status == "playing" and len(events) < limit:
        try:
            if rng.random() < 0.1:
                seat = rng.randrange(4)
                event: RoomEvent = decide(room, seat, Chat(text="hm"), float(len(events)))
            else:
                event = Acted(move(room.game, rng))
            room = evolve(room, event)
        except (IllegalAction, RoomError):  # a drawer may not chat; a move may be stale
            continue
        events.append(event)
    assert isinstance(events[-1], Chatted | Acted)
    return events


def fold(events: list[RoomEvent], room: RoomState | None = None) -> RoomState:
    for e in events:
        room = evolve(room, e)
    assert room is not None
    return room


@pytest.mark.parametrize(
    ("variant", "seed"), [("dixit", 1), ("pictoric-gallery", 2), ("visual", 3)]
)
def test_snapshot_and_tail_equal_the_whole_log_at_every_version(variant: str, seed: int) -> None:
    events = played(variant, seed)
    whole = fold(events)
    room: RoomState | None = None
    for k, event in enumerate(events, 1):
        room = evolve(room, event)
        back, started = decode_snapshot(encode_snapshot(room, float(k)))
        assert back == room and started == float(k)
        assert fold(events[k:], back) == whole


def test_an_unreadable_snapshot_is_refused_not_misread() -> None:
    room = fold(played("dixit", 4, limit=30))
    good = encode_snapshot(room, 0.0)
    this = f'"format":{FORMAT}'.encode()
    assert this in good
    # A later format, or the one before setups (its room held deck and card_count).
    for other in (b'"format":99', b'"format":1'):
        with pytest.raises(UnusableSnapshot):
            decode_snapshot(good.replace(this, other))
    with pytest.raises(UnusableSnapshot):
        decode_snapshot(good.replace(b'"phase":"', b'"phase":"x', 1))


def test_the_service_snapshots_and_replays_from_the_latest(tmp_path: Path) -> None:
    async def main() -> None:
        decks = {d.name: d for d in list_decks()}
        store = open_store(f"sqlite:///{tmp_path / 'r.db'}")
        service = RoomService(store, MemoryBus(), Library(decks), bot_delay=3600, snapshot_every=10)
        live, _ = await service.create_room(
            name="Ann", color="#e63946", variant="dixit", seats=3, options={}
        )
        for i in range(34):
            await service.command(live, 0, Chat(text=f"line {i}"))
        snap = await store.load_snapshot(live.state.code)
        assert snap is not None and snap.version == 30  # at versions 10, 20, 30
        service.rooms.clear()  # as if evicted: the next visit replays
        loaded = await service.get(live.state.code)
        assert loaded is not None and loaded.state == live.state
        assert loaded.snapshot_version == 30
        # A damaged snapshot is ignored: the whole log gives the same room.
        await store.save_snapshot(live.state.code, 99, b'{"format":1,"room":{}}', 0.0)
        service.rooms.clear()
        again = await service.get(live.state.code)
        assert again is not None and again.state == live.state
        await service.close()
        await store.close()

    run(main)
