"""A seventh game plugs in through the registry alone and is played over real sockets.

The toy game (``tests/games/toy.py``) has its own move, its own side channel and its own
visibility rule (a signal reaches the sender's two neighbours only); nothing in the
server names it.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from reverie import games
from tests.games.toy import PEBBLES, VARIANT

from .harness import Client, ServerThread, create_room, join, room_history, sync

COLORS = ["#2a9d8f", "#8338ec", "#457b9d"]


@pytest.fixture
def toy_server(tmp_path: Path) -> Iterator[ServerThread]:
    games.register(PEBBLES)
    srv = ServerThread(tmp_path).start()
    try:
        yield srv
    finally:
        srv.stop()
        games.unregister(PEBBLES)


def table(server: ServerThread, seats: int = 4) -> tuple[str, list[Client], Client]:
    """A started Pebbles room: the seated clients in seat order, and a spectator."""
    code, token = create_room(server.base, VARIANT, seats, pile=7)
    host = Client(server.base, code, token)
    host.until(lambda f: f["type"] == "welcome")
    clients = [host, *(join(server.base, code, f"P{i}", COLORS[i]) for i in range(seats - 1))]
    watcher = Client(server.base, code)
    assert host.request({"type": "start"})["type"] == "ack"
    sync([*clients, watcher])
    return code, clients, watcher


def frames_of(client: Client, kind: str) -> list[dict[str, object]]:
    return [f for f in client.frames if f["type"] == kind]


def test_an_unregistered_game_cannot_be_opened(server: ServerThread) -> None:
    r = httpx.post(
        f"{server.base}/api/rooms",
        json={"name": "Ann", "color": "#e63946", "variant": VARIANT, "seats": 3, "options": {}},
    )
    assert r.status_code == 400 and "Unknown variant" in r.text


def test_the_toy_game_is_listed_with_its_capabilities(toy_server: ServerThread) -> None:
    listed = httpx.get(f"{toy_server.base}/api/variants").json()["variants"]
    toy = next(v for v in listed if v["name"] == VARIANT)
    assert toy["family"] == "pebbles" and toy["capabilities"]["client"] == "pebbles"


def test_the_toy_game_plays_over_sockets_with_its_own_channel(toy_server: ServerThread) -> None:
    code, seats, watcher = table(toy_server)
    db = toy_server.data_dir / "reverie.db"
    secrets = room_history(db, code)[-1].game.secrets

    # The state part: each seat sees its own secret, the spectator none.
    for s, c in enumerate(seats):
        assert c.state is not None and c.state["game"]["secret"] == secrets[s]
    assert watcher.state is not None and watcher.state["game"]["secret"] is None

    # The side channel: seat 0's signal reaches seats 1 and 3 (its neighbours) only.
    assert seats[0].request({"type": "signal", "symbol": 5})["type"] == "ack"
    for neighbour in (seats[1], seats[3]):
        got = neighbour.until(lambda f: f["type"] == "signal")
        assert got == {"type": "signal", "seat": 0, "symbol": 5}
    # A move after the signal: once everyone has its state, nobody else got the signal.
    assert seats[0].request({"type": "take", "count": 1, "version": seats[0].acked})
    sync([*seats, watcher])
    for outsider in (seats[0], seats[2], watcher):
        assert frames_of(outsider, "signal") == []

    # A malformed signal is refused, and the sender gets the channel as the others see it.
    error = seats[1].request({"type": "signal", "symbol": 42})
    assert error["type"] == "error" and error["code"] == "bad_signal"
    resync = seats[1].until(lambda f: f["type"] == "signals")
    assert resync["signals"] == {"0": 5}

    # Moves of other games are not understood here; the rules judge this game's moves.
    # (a frame the room's decoder does not know cannot be matched to its id: ref is None)
    for foreign in ({"type": "vote", "position": 1}, {"type": "draw", "ops": [[3]]}):
        seats[1].send(foreign)
        error = seats[1].until(lambda f: f["type"] == "error")
        assert error["code"] == "bad_message" and error["ref"] is None
    assert seats[2].request({"type": "take", "count": 1})["code"] == "not_your_turn"
    assert seats[1].request({"type": "take", "count": 4})["code"] == "bad_count"
    assert watcher.request({"type": "take", "count": 1})["code"] == "not_seated"

    # A reconnect replays the channel through the same rule: seat 3 sees the signal,
    # seat 2 does not.
    for s, expected in ((3, {"0": 5}), (2, {})):
        again = Client(toy_server.base, code, seats[s].token)
        assert again.until(lambda f: f["type"] == "signals")["signals"] == expected
        again.close()

    # Play it out: seats take in turn until someone takes the last pebble.
    while True:
        state = sync(seats)
        game = state["game"]
        if game["phase"] == "over":
            break
        mover = seats[game["turn"]]
        reply = mover.request({"type": "take", "count": 1, "version": state["version"]})
        assert reply["type"] == "ack", reply
    assert state["room"]["status"] == "over"
    assert game["pile"] == 0 and game["loser"] == (7 - 1) % 4  # seven single takes

    # The log replays through the registry: a restarted server shows the same game.
    toy_server.stop()
    again_server = ServerThread(toy_server.data_dir).start()
    try:
        back = Client(again_server.base, code, seats[1].token)
        deadline = time.monotonic() + 10
        frame = back.until(lambda f: f["type"] == "state")
        assert time.monotonic() < deadline
        assert frame["game"]["loser"] == game["loser"] and frame["game"]["secret"] == secrets[1]
        back.close()
    finally:
        again_server.stop()
    for c in [*seats, watcher]:
        c.close()
