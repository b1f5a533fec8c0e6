"""Kill the server mid-game (SIGKILL), start it again on the same database, finish.

Nothing a client saw acknowledged is lost, every room goes on where it was, and the
finished game equals an uninterrupted replay of its action log from the seed.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from reverie.rooms.events import Acted
from reverie.rules.association import replay
from reverie.rules.visual.actions import Action as VisualAction

from .harness import Client, create_room, free_port, join, logged_events, play, room_history


def start_server(
    data_dir: Path, port: int, database_url: str | None = None
) -> subprocess.Popen[bytes]:
    env = {**os.environ, "REVERIE_BOT_DELAY": "0"}
    store = ["--database-url", database_url] if database_url else []
    proc = subprocess.Popen(
        [sys.executable, "-m", "reverie", "serve", "--port", str(port),
         "--data-dir", str(data_dir), *store],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )  # fmt: skip
    deadline = time.monotonic() + 60  # a bound on a start (parallel workers), not a speed test
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=0.5).status_code == 200:
                return proc
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError("server did not start")


@pytest.mark.parametrize(
    ("variant", "store"),
    [
        ("dixit", "sqlite"),
        ("pictoric-gallery", "sqlite"),
        pytest.param("imaginarium", "postgres", marks=pytest.mark.postgres),
    ],
)
def test_kill_and_restart_mid_game(
    tmp_path: Path, variant: str, store: str, request: pytest.FixtureRequest
) -> None:
    url: str | None = request.getfixturevalue("postgres_url") if store == "postgres" else None
    log: Path | str = url or tmp_path / "reverie.db"
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = start_server(tmp_path, port, url)
    try:
        code, token = create_room(base, variant, 4, track_length=14)
        host = Client(base, code, token)
        others = [join(base, code, f"P{i}", c) for i, c in enumerate(["#2a9d8f", "#8338ec"])]
        assert host.request({"type": "add_bot"})["type"] == "ack"
        assert host.request({"type": "start"})["type"] == "ack"
        clients = [host, *others]
        play(clients, seed=3, until=lambda s: s["game"]["rounds_played"] >= 3)
        acked = max(c.acked for c in clients)
        tokens = [c.token for c in clients]
        server.send_signal(signal.SIGKILL)
        server.wait(timeout=10)
        events_at_kill = len(room_history(log, code)) - 1
        assert events_at_kill >= acked  # every acknowledged action is in the log

        server = start_server(tmp_path, port, url)
        back = [Client(base, code, t) for t in tokens]
        for c in back:
            c.until(lambda f: f["type"] == "state")
            assert c.state is not None and c.state["room"]["status"] == "playing"
        assert [c.seat for c in back] == [c.seat for c in clients]
        final = play(back, seed=4)
        assert final["game"]["phase"] == "over"
    finally:
        server.kill()
        server.wait(timeout=10)

    states = room_history(log, code)
    room = states[-1]
    assert room.game is not None
    events = logged_events(log, code)
    actions = [
        e.action
        for _, e in events
        if isinstance(e, Acted) and not isinstance(e.action, VisualAction)
    ]
    from reverie.rooms.state import game_seed

    again = replay(
        room.variant,
        [p.name for p in room.players],
        game_seed(room.seed, 0),
        actions,
        card_count=room.setup.card_count,
        options=room.options,
    )
    assert again == room.game
    assert [p["score"] for p in final["game"]["players"]] == list(again.scores)
