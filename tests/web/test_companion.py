"""Companion rooms over real sockets: a round entered from four seats while a spectator
(the table screen) watches, and the QR code that lets phones join."""

from __future__ import annotations

import httpx

from reverie.web.qr import is_loopback
from tests.web.harness import Client, ServerThread, create_room, game_is, join

COLORS = ["#f4a261", "#e9c46a", "#2a9d8f"]


def test_a_round_over_sockets_keeps_every_entry_from_the_spectator(
    server: ServerThread,
) -> None:
    code, token = create_room(
        server.base, "dixit-companion", 4, first_storyteller=0, restrictions="board"
    )
    host = Client(server.base, code, token)
    seats = [host] + [
        join(server.base, code, name, color)
        for name, color in zip(["Bob", "Cy", "Dee"], COLORS, strict=True)
    ]
    table = Client(server.base, code)  # no token: the table screen
    assert host.request({"type": "start"})["type"] == "ack"
    host.until(game_is(phase="clue"))
    assert host.request({"type": "tell", "text": "sea"})["type"] == "ack"
    assert host.request({"type": "count", "cards": 3})["code"] == "bad_count"
    assert host.request({"type": "count", "cards": 4})["type"] == "ack"
    for seat, pos in enumerate([3, 1, 4, 2]):
        assert seats[seat].request({"type": "place", "position": pos})["type"] == "ack"
    refused = seats[1].request({"type": "vote", "position": 1})
    assert refused["code"] == "own_card"
    for seat, pos in ((1, 3), (2, 3), (3, 1)):
        assert seats[seat].request({"type": "vote", "position": pos})["type"] == "ack"
    done = table.until(game_is(turn=2, phase="clue"))
    assert [p["score"] for p in done["game"]["players"]] == [3, 4, 3, 0]
    secret = [f["game"] for f in table.frames if f["type"] == "state" and f["game"]]
    assert secret and all(g["my_position"] is None and g["my_vote"] is None for g in secret)
    mine = seats[2].until(game_is(turn=2, phase="clue"))
    assert mine["game"]["you"] == 2
    for c in [*seats, table]:
        c.close()


def test_the_join_qr_code_and_address(server: ServerThread) -> None:
    code, _ = create_room(server.base, "imaginarium-companion", 4)
    info = httpx.get(f"{server.base}/api/rooms/{code}/join").json()
    assert info["url"] == f"{server.base}/r/{code}"
    svg = httpx.get(f"{server.base}/api/rooms/{code}/qr.svg")
    assert svg.status_code == 200 and svg.headers["content-type"].startswith("image/svg+xml")
    assert svg.text.startswith("<svg") and "<path" in svg.text
    missing = httpx.get(f"{server.base}/api/rooms/NOPE22/qr.svg")
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "unknown_room"
    # The server was reached at 127.0.0.1: a network address is offered when there is one.
    lan = info["lan_url"]
    assert lan is None or (lan.endswith(f"/r/{code}") and not is_loopback(httpx.URL(lan).host))


def test_companion_variants_are_listed_without_bots(server: ServerThread) -> None:
    variants = httpx.get(f"{server.base}/api/variants").json()["variants"]
    companions = {v["name"]: v for v in variants if v["capabilities"]["client"] == "companion"}
    assert sorted(companions) == sorted(
        f"{n}-companion"
        for n in ["dixit", "imaginarium", "imaginarium-harmony", "pictoric", "pictoric-gallery"]
    )
    assert all(not v["capabilities"]["bots"] for v in companions.values())
    assert companions["pictoric-companion"]["capabilities"]["companion_of"] == "pictoric"


def test_the_reveal_that_ended_the_game_is_taken_back_and_the_room_plays_on(
    server: ServerThread,
) -> None:
    code, token = create_room(
        server.base, "pictoric-companion", 3, first_storyteller=0, track_length=5
    )
    host = Client(server.base, code, token)
    seats = [host] + [
        join(server.base, code, name, color)
        for name, color in zip(["Bob", "Cy"], COLORS[:2], strict=True)
    ]
    assert host.request({"type": "start"})["type"] == "ack"
    host.until(game_is(phase="clue"))
    assert host.request({"type": "tell"})["type"] == "ack"
    assert host.request({"type": "count", "cards": 3})["type"] == "ack"
    for seat in range(3):
        assert seats[seat].request({"type": "place", "position": seat + 1})["type"] == "ack"
    for seat, pos in ((1, 1), (2, 2)):
        assert seats[seat].request({"type": "vote", "position": pos})["type"] == "ack"
    # Ann moved 6 − 1 = 5 steps: into PICTORICBOX, and the game is over.
    over = host.until(game_is(phase="over"))
    assert over["room"]["status"] == "over" and over["game"]["can_undo"]
    # Only the undo is taken now; anything else is refused as before.
    refused = seats[1].request({"type": "tell"})
    assert refused["code"] == "wrong_phase"
    assert seats[2].request({"type": "undo"})["type"] == "ack"
    back = host.until(game_is(phase="count", turn=1))
    assert back["room"]["status"] == "playing"
    assert [p["score"] for p in back["game"]["players"]] == [0, 0, 0]
    assert back["game"]["undone"] == [{"seat": 2, "turn": 1}]
    # The round is entered again and the game goes on.
    assert host.request({"type": "count", "cards": 3})["type"] == "ack"
    host.until(game_is(phase="secret"))
    for c in seats:
        c.close()
