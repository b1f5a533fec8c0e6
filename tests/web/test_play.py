"""Whole games of every association variant over real WebSockets."""

from __future__ import annotations

from pathlib import Path

import pytest

from .harness import Client, ServerThread, SkewClock, create_room, join, play

COLORS = ["#f4a261", "#2a9d8f", "#8338ec", "#457b9d", "#ff66c4"]

SETUPS = {
    "dixit": {},
    "imaginarium": {},
    "imaginarium-harmony": {"target_score": 15},
    "pictoric": {"track_length": 15},
    "pictoric-gallery": {"track_length": 12},
}


@pytest.mark.parametrize("variant", sorted(SETUPS))
def test_whole_game_with_four_sockets_and_a_bot(server: ServerThread, variant: str) -> None:
    code, token = create_room(server.base, variant, 5, **SETUPS[variant])
    host = Client(server.base, code, token)
    others = [join(server.base, code, f"P{i}", COLORS[i]) for i in range(3)]
    clients = [host, *others]
    assert host.request({"type": "add_bot"})["type"] == "ack"
    assert host.request({"type": "start"})["type"] == "ack"
    final = play(clients, seed=len(variant))
    game = final["game"]
    assert game["phase"] == "over" and game["winners"]
    assert final["room"]["status"] == "over"
    scores = [p["score"] for p in game["players"]]
    assert max(scores) > 0
    assert [scores[s] for s in game["winners"]] == [max(scores)] * len(game["winners"])
    # Every seat saw the same public ending.
    for c in clients:
        assert c.state is not None
        assert [p["score"] for p in c.state["game"]["players"]] == scores
        assert c.state["game"]["you"] == c.seat
    for c in clients:
        c.close()


def test_lobby_host_controls(server: ServerThread) -> None:
    code, token = create_room(server.base, "dixit", 4)
    host = Client(server.base, code, token)
    ann = join(server.base, code, "Ann", "#2a9d8f")
    bob = join(server.base, code, "Bob", "#8338ec")
    assert host.request({"type": "order", "order": [2, 0, 1]})["type"] == "ack"
    room = host.state_at_least(host.state["version"] + 0)["room"]  # type: ignore[index]
    room = host.until(lambda f: f["type"] == "state" and f["room"]["players"][0]["name"] == "Bob")[
        "room"
    ]
    assert [p["name"] for p in room["players"]] == ["Bob", "Host", "Ann"]
    assert room["you"] == {"seat": 1, "host": True}
    # Seats moved; the tokens still say who is who.
    bob_view = bob.until(lambda f: f["type"] == "state" and f["room"]["you"]["seat"] == 0)
    assert bob_view["room"]["you"]["host"] is False
    assert host.request({"type": "kick", "seat": 2})["type"] == "ack"
    ann_state = ann.until(lambda f: f["type"] == "state" and f["room"]["you"] is None)
    assert len(ann_state["room"]["players"]) == 2
    assert ann.request({"type": "chat", "text": "let me back"})["code"] == "not_seated"
    assert host.request({"type": "make_host", "seat": 0})["type"] == "ack"
    assert host.request({"type": "start"})["code"] == "not_host"
    assert bob.request({"type": "start"})["code"] == "not_enough_players"
    assert bob.request({"type": "add_bot"})["type"] == "ack"
    assert (
        bob.request({"type": "options", "options": {"target_score": 10}, "seats": 5})["type"]
        == "ack"
    )
    assert bob.request({"type": "start"})["type"] == "ack"
    started = host.until(lambda f: f["type"] == "state" and f["room"]["status"] == "playing")
    assert started["game"]["options"]["target_score"] == 10
    assert bob.request({"type": "join", "name": "X", "color": "#ffffff"})["type"] == "error"


def test_chat_is_shared_and_kept_for_late_comers(server: ServerThread) -> None:
    code, token = create_room(server.base, "dixit", 4)
    host = Client(server.base, code, token)
    assert host.request({"type": "chat", "text": "  hello   table "})["type"] == "ack"
    late = Client(server.base, code)
    late.until(lambda f: f["type"] == "chat")
    assert [m["text"] for m in late.chat] == ["hello table"]
    assert late.chat[0]["name"] == "Host"


def test_reconnect_returns_to_the_same_seat_and_bots_can_stand_in(server: ServerThread) -> None:
    code, token = create_room(server.base, "imaginarium", 3)
    host = Client(server.base, code, token)
    ann = join(server.base, code, "Ann", "#2a9d8f")
    bob = join(server.base, code, "Bob", "#8338ec")
    assert host.request({"type": "start"})["type"] == "ack"
    hand = ann.until(lambda f: f["type"] == "state" and f["game"] is not None)["game"]["hand"]
    ann_token = ann.token
    ann.close()
    host.until(lambda f: f["type"] == "state" and not f["room"]["players"][1]["connected"])
    # Ann comes back on "another device" with her token: same seat, same hand.
    again = Client(server.base, code, ann_token)
    welcome = again.until(lambda f: f["type"] == "welcome")
    assert welcome["seat"] == 1
    state = again.until(lambda f: f["type"] == "state")
    assert state["game"]["hand"] == hand and state["room"]["you"]["seat"] == 1
    # Bob is at the table: his seat is not the host's to give away.
    refused = host.request({"type": "bot_seat", "seat": 2, "on": True})
    assert refused["type"] == "error" and refused["code"] == "player_present"
    # Bob's phone dies; the host hands his seat to a bot until he reclaims it.
    bob_token = bob.token
    bob.close()
    host.until(lambda f: f["type"] == "state" and not f["room"]["players"][2]["connected"])
    assert host.request({"type": "bot_seat", "seat": 2, "on": True})["type"] == "ack"
    bob = Client(server.base, code, bob_token)
    seen = bob.until(lambda f: f["type"] == "state" and f["room"]["players"][2]["bot_playing"])
    assert seen["room"]["players"][2]["bot_playing"]
    assert bob.request({"type": "reclaim"})["type"] == "ack"
    back = bob.until(lambda f: f["type"] == "state" and not f["room"]["players"][2]["bot_playing"])
    assert back["room"]["you"]["seat"] == 2


def test_a_table_can_take_over_from_a_host_who_left(server: ServerThread) -> None:
    code, token = create_room(server.base, "dixit", 4)
    host = Client(server.base, code, token)
    ann = join(server.base, code, "Ann", "#2a9d8f")
    assert ann.request({"type": "make_host", "seat": 1})["code"] == "not_host"
    host.close()
    ann.until(lambda f: f["type"] == "state" and not f["room"]["players"][0]["connected"])
    assert ann.request({"type": "make_host", "seat": 0})["code"] == "not_host"
    assert ann.request({"type": "make_host", "seat": 1})["type"] == "ack"
    assert ann.until(lambda f: f["type"] == "state" and f["room"]["you"]["host"])
    assert ann.request({"type": "add_bot"})["type"] == "ack"


def test_seats_and_the_host_role_wait_for_a_grace_period(tmp_path: Path) -> None:
    """A player who drops for a moment keeps their seat and role; after the grace
    period a bot may take the seat, someone else the host role, and a returning host
    gets the role back."""
    clock = SkewClock()
    server = ServerThread(tmp_path, clock=clock, away_grace=60).start()
    try:
        code, token = create_room(server.base, "dixit", 4)
        host = Client(server.base, code, token)
        ann = join(server.base, code, "Ann", "#2a9d8f")
        bob = join(server.base, code, "Bob", "#8338ec")
        assert host.request({"type": "start"})["type"] == "ack"
        bob_token = bob.token
        bob.close()
        host.until(lambda f: f["type"] == "state" and not f["room"]["players"][2]["connected"])
        early = host.request({"type": "bot_seat", "seat": 2, "on": True})
        assert early["type"] == "error" and early["code"] == "player_present"
        host.close()
        ann.until(lambda f: f["type"] == "state" and not f["room"]["players"][0]["connected"])
        assert ann.request({"type": "make_host", "seat": 1})["code"] == "not_host"
        clock.advance(61)
        assert ann.request({"type": "make_host", "seat": 1})["type"] == "ack"
        assert ann.request({"type": "bot_seat", "seat": 2, "on": True})["type"] == "ack"
        # The old host comes back and is the host again; Bob comes back to his seat,
        # which a bot plays until he reclaims it.
        back = Client(server.base, code, token)
        state = back.until(lambda f: f["type"] == "state" and f["room"]["you"]["host"])
        assert state["room"]["you"]["seat"] == 0
        ann.until(lambda f: f["type"] == "state" and not f["room"]["you"]["host"])
        bob = Client(server.base, code, bob_token)
        state = bob.until(lambda f: f["type"] == "state")
        assert state["room"]["players"][2]["bot_playing"]
        for c in (ann, back, bob):
            c.close()
    finally:
        server.stop()
