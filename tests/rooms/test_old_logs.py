"""Logs written before a change to the events still fold to the same room and replay the
same game: the logs in ``tests/data/old_logs`` were written by the code of their time
(their ``Created`` names the picture deck and its size in fields of its own, before the
family's ``setup`` held them), each with the ``state`` frames its fold gave then."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from reverie.bus.base import MemoryBus
from reverie.content.decks import list_decks
from reverie.content.library import Library
from reverie.games import family_of
from reverie.rooms.events import decode_log
from reverie.rooms.service import RoomService
from reverie.rooms.snapshot import state_frames
from reverie.rooms.snapshots import decode_snapshot, encode_snapshot
from reverie.rooms.state import RoomState, evolve
from reverie.store import open_store
from tests.aio import run_async

OLD_LOGS = Path(__file__).parent.parent / "data" / "old_logs"
NAMES = sorted(p.name.removesuffix(".jsonl") for p in OLD_LOGS.glob("*.jsonl"))
SEATS: set[int | None] = {None, 0, 1}


def _lines(name: str) -> list[bytes]:
    return (OLD_LOGS / f"{name}.jsonl").read_bytes().splitlines()


#: Room facts the state frame gained after the fixtures were written, with the value
#: every old log folds to.
ADDED_SINCE: dict[str, Any] = {
    **{"public": False, "vote": None, "closed": False},
    # People queued for a bot's seat (rooms/takeover.py): none at a private table.
    **{"waiting": 0, "places": 0, "queued": False},
}
#: A player's facts gained since, with the value old logs fold to (team seats' members).
PLAYER_ADDED_SINCE: dict[str, Any] = {"members": []}
#: Table options gained since, in the room's and the game view's options (team seats).
OPTIONS_ADDED_SINCE: dict[str, Any] = {"team_seats": "off"}


def _frames(room: RoomState) -> dict[str, Any]:
    """The frames the fixtures hold, as JSON would read them back; a variant's
    ``capabilities`` (what the client may ask of the game, not of the log) are left out,
    so that a capability added since does not read as a different fold; so is a room
    fact added since with its old logs' value (a room before listing was private)."""
    frames = state_frames(room, SEATS, connected={0}, spectators=1, deadline=None, now=2000.0)
    out: dict[str, Any] = json.loads(json.dumps({str(k): v for k, v in frames.items()}))
    for frame in out.values():
        frame["room"].pop("capabilities")
        for key, old in ADDED_SINCE.items():
            assert frame["room"].pop(key) == old
        for player in frame["room"]["players"]:
            for key, old in PLAYER_ADDED_SINCE.items():
                assert player.pop(key) == old
        game = frame.get("game") or {}
        for options in (frame["room"]["options"], game.get("options") or {}):
            for key, old in OPTIONS_ADDED_SINCE.items():
                if key in options:  # the games that have the option
                    assert options.pop(key) == old
    return out


def _expected(name: str) -> dict[str, Any]:
    """The frames the fixture holds. Before setups every room's frame named a deck, the
    server's default where the game plays none; now a family that plays none names
    none, and the client of such a game never read it."""
    expected: dict[str, Any] = json.loads((OLD_LOGS / f"{name}.state.json").read_text())
    for frame in expected.values():
        frame["room"].pop("capabilities")
        if not family_of(frame["room"]["variant"]).uses_deck:
            assert frame["room"].pop("deck") == "default"
    return expected


def _fold(lines: list[bytes]) -> RoomState:
    room: RoomState | None = None
    for event in decode_log(lines):
        room = evolve(room, event)
    assert room is not None
    return room


def test_there_are_old_logs_of_every_kind_of_room() -> None:
    assert NAMES == ["dixit", "dixit-companion", "imaginarium", "visual"]


@pytest.mark.parametrize("name", NAMES)
def test_an_old_log_folds_to_the_room_and_game_it_folded_to(name: str) -> None:
    room = _fold(_lines(name))
    assert room.status == "over"  # each fixture is a whole game, played to its end
    assert _frames(room) == _expected(name)


@pytest.mark.parametrize("name", NAMES)
def test_an_old_log_folds_the_same_through_a_snapshot_taken_midway(name: str) -> None:
    lines = _lines(name)
    half = _fold(lines[: len(lines) // 2])
    room, _ = decode_snapshot(encode_snapshot(half, 0.0))
    for event in decode_log(lines)[len(lines) // 2 :]:
        room = evolve(room, event)
    assert _frames(room) == _expected(name)


def test_the_service_loads_an_old_room_from_its_store(tmp_path: Path) -> None:
    async def main() -> None:
        store = open_store(f"sqlite:///{tmp_path / 'old.db'}")
        await store.open()
        lines = _lines("dixit")
        await store.create("OLDLOG", lines[0], 1000.0)
        for version, line in enumerate(lines[1:], start=1):
            await store.append("OLDLOG", version, line, 1000.0 + version)
        decks = {d.name: d for d in list_decks()}
        service = RoomService(store, MemoryBus(), Library(decks), bot_delay=3600)
        live = await service.get("OLDLOG")
        assert live is not None
        assert _frames(live.state) == _expected("dixit")
        await service.close()
        await store.close()

    run_async(main())
