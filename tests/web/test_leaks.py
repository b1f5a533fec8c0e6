"""Every frame every client receives shows only what its seat may know at that moment.

Seeded games of every variant are played over real sockets by players and a spectator.
Afterwards the room is rebuilt from its event log at each version, and each recorded
``state`` frame must equal the rules' view for that seat at that version (the one
redaction point, proven non-interfering in tests/rules/test_views.py), show no card the
seat may not see, and carry no token, seed or unrevealed salt.
"""

from __future__ import annotations

import json

import pytest

from reverie.rules.association import view
from reverie.rules.association.playouts import view_cards as card_fields
from reverie.rules.association.playouts import visible_cards

from .harness import Client, ServerThread, create_room, join, play, room_history

SETUPS = {
    "dixit": {},
    "imaginarium": {"target_score": 12},
    "imaginarium-harmony": {"target_score": 12},
    "pictoric": {"track_length": 12},
    "pictoric-gallery": {"track_length": 10},
}


@pytest.mark.parametrize("variant", sorted(SETUPS))
def test_frames_leak_nothing(server: ServerThread, variant: str) -> None:
    code, token = create_room(server.base, variant, 4, **SETUPS[variant])
    host = Client(server.base, code, token)
    players = [host, *(join(server.base, code, f"P{i}", c) for i, c in
                       enumerate(["#2a9d8f", "#8338ec", "#457b9d"]))]  # fmt: skip
    watcher = Client(server.base, code)
    assert host.request({"type": "start"})["type"] == "ack"
    final = play(players, seed=7)
    watcher.state_at_least(final["version"])
    states = room_history(server.data_dir / "reverie.db", code)
    tokens = [c.token for c in players]
    checked = 0
    for client in [*players, watcher]:
        for frame in client.frames:
            text = json.dumps(frame)
            for t in tokens:  # a seat token reaches its own client only
                assert t is None or t == client.token or t not in text
            if frame["type"] != "state":
                continue
            room = states[frame["version"]]
            assert str(room.seed) not in text
            seat = frame["room"]["you"]["seat"] if frame["room"]["you"] else None
            if room.game is None:
                assert frame["game"] is None
                continue
            assert str(room.game.seed) not in text
            expected = json.loads(json.dumps(view(room.game, seat)))
            assert frame["game"] == expected
            assert card_fields(frame["game"]) <= visible_cards(room.game, seat)
            if room.game.round.salt and room.game.phase.value != "over":
                assert room.game.round.salt not in text
            checked += 1
    assert checked > 100
