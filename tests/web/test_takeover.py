"""A person arriving at a running public table, over real sockets: queued as a watcher
who is told so, seated in a bot's seat exactly when the turn ends (never mid-turn) with
its hand and score, and play now sending strangers to such a table."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import httpx

from .harness import Client, ServerThread, play

Frame = dict[str, Any]
COLORS = ("#2a9d8f", "#8338ec", "#457b9d", "#f4a261")


def _open(base: str) -> list[Frame]:
    tables: list[Frame] = httpx.get(f"{base}/api/open").json()["tables"]
    return tables


def _is_state(f: Frame) -> bool:
    return f["type"] == "state" and f.get("game") is not None


def test_a_newcomer_takes_a_bots_seat_at_the_turns_end_with_its_hand_and_score(
    tmp_path: Path,
) -> None:
    server = ServerThread(tmp_path).start()
    try:
        base = server.base
        body = {"name": "Ann", "color": "#e63946", "variant": "dixit", "seats": 4,
                "options": {"first_storyteller": 0}, "public": True}  # fmt: skip
        r = httpx.post(f"{base}/api/rooms", json=body)
        assert r.status_code == 201, r.text
        code = r.json()["code"]
        ann = Client(base, code, r.json()["token"])
        for _ in range(3):
            assert ann.request({"type": "add_bot"})["type"] == "ack"
        assert ann.request({"type": "start"})["type"] == "ack"
        # Turn 1 waits for Ann's clue (she tells first): a stranger arrives meanwhile.
        first = ann.until(lambda f: _is_state(f) and f["game"]["phase"] == "clue")
        assert first["room"]["places"] == 3
        bea = Client(base, code)
        reply = bea.request({"type": "join", "name": "Bea", "color": ""})
        assert reply["type"] == "ack", reply
        welcome = next(f for f in bea.frames if f["type"] == "welcome")
        assert welcome["seat"] is None and welcome["queued"] is True
        queued = bea.until(lambda f: f["type"] == "state" and f["room"]["queued"])
        assert queued["room"]["you"] is None and queued["room"]["players"][1]["bot"]
        assert queued["room"]["waiting"] == 1 and queued["room"]["places"] == 2
        # Her link, opened again (a reload), is still the queued person's.
        again = Client(base, code, bea.token)
        assert again.until(lambda f: f["type"] == "welcome")["queued"] is True
        assert again.until(lambda f: f["type"] == "state")["room"]["queued"] is True
        again.close()
        # Someone else queues and changes their mind: they watch, and are not seated.
        cy = Client(base, code)
        assert cy.request({"type": "join", "name": "Cy", "color": ""})["type"] == "ack"
        assert cy.request({"type": "leave"})["type"] == "ack"
        left = cy.until(lambda f: f["type"] == "state" and not f["room"]["queued"])
        assert left["room"]["waiting"] == 1 and left["room"]["you"] is None
        # Ann tells her clue; the bots play their cards and vote; the turn ends.
        play([ann], until=lambda s: s["game"]["turn"] != 1)
        seated = bea.until(lambda f: f["type"] == "state" and f["room"]["you"] is not None)
        assert seated["room"]["you"]["seat"] == 1 and seated["game"]["turn"] == 2
        assert [p["bot"] for p in seated["room"]["players"]] == [False, False, True, True]
        seat = seated["room"]["players"][1]
        assert seat["name"] == "Bea" and not seat["bot"]
        assert seat["color"] == first["room"]["players"][1]["color"]
        # Never mid-turn: every frame Ann saw of turn 1 had the bot in the seat, every
        # one of turn 2 has Bea.
        frames = [f for f in ann.frames if _is_state(f)]
        assert all(f["room"]["players"][1]["bot"] for f in frames if f["game"]["turn"] == 1)
        ann.state_at_least(seated["version"])
        frames = [f for f in ann.frames if _is_state(f)]
        assert not any(f["room"]["players"][1]["bot"] for f in frames if f["game"]["turn"] == 2)
        # The seat's score and hand: the one the bot had at the turn's end.
        last_of_turn = [f for f in frames if f["game"]["turn"] == 1][-1]
        scores = [p["score"] for p in seated["game"]["players"]]
        assert scores == [p["score"] for p in ann.state["game"]["players"]]  # type: ignore[index]
        assert seated["game"]["players"][1]["hand_size"] == len(seated["game"]["hand"])
        assert last_of_turn["game"]["players"][1]["hand_size"] <= 6
        # She plays the seat: the next storyteller is seat 1.
        assert seated["game"]["storyteller"] == 1
        bea.seat = 1  # (the harness learns a seat from welcome, which said none then)
        play([ann, bea], until=lambda s: s["game"]["turn"] != 2)
        ann.close()
        bea.close()
    finally:
        server.stop()


def test_play_now_queues_a_stranger_at_a_running_table_until_its_bots_seats_are_taken(
    tmp_path: Path,
) -> None:
    server = ServerThread(tmp_path, play_start_seconds=0.5).start()
    try:
        base = server.base
        body = {"game": "dixit", "lang": "en"}
        r = httpx.post(f"{base}/api/play", json={**body, "name": "Ann"})
        assert r.json()["how"] == "opened", r.text
        code = r.json()["code"]
        ann = Client(base, code, r.json()["token"])
        ann.until(lambda f: f["type"] == "state" and f["room"]["status"] == "playing")
        # Listed as running, with people at it and bots' seats to take.
        end = time.monotonic() + 15
        while not any(t["code"] == code and t["phase"] == "playing" for t in _open(base)):
            assert time.monotonic() < end, "the running table was never listed"
            time.sleep(0.1)
        answers = [
            httpx.post(f"{base}/api/play", json={**body, "name": name}).json()
            for name in ("Bea", "Cid", "Dee", "Eve")
        ]
        assert [a["how"] for a in answers[:3]] == ["queued"] * 3
        assert {a["code"] for a in answers[:3]} == {code} and answers[0]["seat"] is None
        # Three bots' seats, three people queued: the fourth gets a table of their own.
        assert answers[3]["how"] == "opened" and answers[3]["code"] != code
        metrics = httpx.get(f"{base}/metrics").text
        assert 'reverie_seatings_total{how="queued"} 3.0' in metrics
        ann.close()
    finally:
        server.stop()


def test_the_drawing_game_seats_a_newcomer_in_the_smaller_team_when_the_turn_ends(
    tmp_path: Path,
) -> None:
    """No bots in the drawing game: a stranger at a running public table joins the team
    with fewer players as a new seat, at the next team's turn, never during a turn."""
    server = ServerThread(tmp_path).start()
    try:
        base = server.base
        options = {"think_seconds": 0, "blank_share": 0.0, "draw_seconds": 1, "lose_seconds": 1}
        body = {"name": "Ann", "color": "#e63946", "variant": "visual", "seats": 5,
                "options": options, "public": True}  # fmt: skip
        r = httpx.post(f"{base}/api/rooms", json=body)
        assert r.status_code == 201, r.text
        code = r.json()["code"]
        ann = Client(base, code, r.json()["token"])
        clients = [ann]
        for name, color in zip(("Bob", "Cy", "Di", "Ed"), COLORS, strict=True):
            c = Client(base, code)
            assert c.request({"type": "join", "name": name, "color": color})["type"] == "ack"
            clients.append(c)
        for s, c in enumerate(clients):  # teams of 3 (seats 0, 2, 4) and 2 (1, 3)
            assert c.request({"type": "team", "team": s % 2})["type"] == "ack"
        assert ann.request({"type": "start"})["type"] == "ack"
        first = ann.until(lambda f: _is_state(f) and f["game"]["phase"] == "choose")
        turn = first["game"]["turn"]["number"]
        assert first["room"]["places"] == 12 - 5
        eve = Client(base, code)
        assert eve.request({"type": "join", "name": "Eve", "color": ""})["type"] == "ack"
        assert eve.until(lambda f: f["type"] == "state" and f["room"]["queued"])
        # The turn: its drawer picks, the drawing time runs out, the team loses a token.
        drawer = clients[first["game"]["turn"]["drawer"]]
        assert drawer.request({"type": "choose", "category": "luck"})["type"] == "ack"
        seated = eve.until(
            lambda f: f["type"] == "state" and f["room"]["you"] is not None, timeout=15
        )
        assert seated["room"]["you"]["seat"] == 5 and seated["room"]["seats"] == 6
        assert seated["room"]["players"][5]["team"] == 1
        assert seated["game"]["turn"]["number"] != turn
        teams = {t["team"]: t["seats"] for t in seated["game"]["teams"]}
        assert teams == {0: [0, 2, 4], 1: [1, 3, 5]}
        # Never during the turn: every frame of it had five players.
        ann.state_at_least(seated["version"])
        frames = [f for f in ann.frames if _is_state(f)]
        assert all(
            len(f["room"]["players"]) == 5 for f in frames if f["game"]["turn"]["number"] == turn
        )
        for c in (*clients, eve):
            c.close()
    finally:
        server.stop()
