"""Every frame every client receives shows only what its seat may know at that moment.

Seeded games of every variant are played over real sockets by players and a spectator.
Afterwards the room is rebuilt from its event log at each version, and each recorded
``state`` frame must equal the rules' view for that seat at that version (the one
redaction point, proven non-interfering in tests/rules/test_views.py), show no card the
seat may not see, and carry no token, seed or unrevealed salt.
"""

from __future__ import annotations

import json
import re

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


def test_a_players_deck_leaks_no_owner_and_no_order(server: ServerThread) -> None:
    """Cards of a player's deck: random names, in an order that is not the upload's;
    neither the owner's token nor the files' names reach anyone at the table."""
    import httpx

    from tests.pictures import numbered, zip_of

    base = server.base
    made = httpx.post(f"{base}/api/decks").json()
    deck, owner = made["deck"], made["owner"]
    names = {f"holiday-{i:03d}.png": numbered(i) for i in range(30)}
    r = httpx.post(f"{base}/api/decks/{deck}/pictures", params={"name": "holiday.zip"},
                   content=zip_of(names), headers={"x-deck-owner": owner}, timeout=120)  # fmt: skip
    uploaded = [x["card"] for x in r.json()["results"]]
    assert len(uploaded) == 30
    httpx.post(f"{base}/api/decks/{deck}/publish", json={"title": "Holiday"},
               headers={"x-deck-owner": owner})  # fmt: skip
    images = httpx.get(f"{base}/api/decks/{deck}/images").json()["images"]
    assert all(re.fullmatch(r"[a-z2-7]{26}\.webp", i) for i in images)
    assert images == sorted(images) and [i.removesuffix(".webp") for i in images] != uploaded
    room = {"name": "Host", "color": "#e63946", "variant": "dixit", "seats": 3, "deck": deck}
    r = httpx.post(f"{base}/api/rooms", json=room)
    code, token = r.json()["code"], r.json()["token"]
    host = Client(base, code, token)
    players = [host, join(base, code, "P1", "#2a9d8f"), join(base, code, "P2", "#8338ec")]
    assert host.request({"type": "start"})["type"] == "ack"
    play(players, seed=3)
    served = [httpx.get(f"{base}/decks/{deck}/{i}") for i in images[:3]]
    for res in served:
        assert res.status_code == 200 and "holiday" not in str(res.headers).lower()
        # No date or version that would tell when (so in which order) it was uploaded.
        assert not {"last-modified", "etag", "content-disposition", "date-uploaded"} & set(
            res.headers
        ), res.headers
    # A second deck of the same person from the same address: nothing in common with
    # the first in its name or its cards' names (ids made of a time or a counter would
    # share their first letters).
    again = httpx.post(f"{base}/api/decks").json()
    assert again["owner"] != owner and again["deck"][:6] != deck[:6]
    r = httpx.post(
        f"{base}/api/decks/{again['deck']}/pictures",
        params={"name": "holiday-000.png"},
        content=names["holiday-000.png"],
        headers={"x-deck-owner": again["owner"]},
        timeout=60,
    )
    twin = r.json()["results"][0]["card"]
    assert all(twin[:6] != i[:6] for i in images)
    for client in players:
        for frame in client.frames:
            text = json.dumps(frame)
            assert owner not in text and "holiday" not in text
    for c in players:
        c.close()
