"""The open tables over real HTTP and sockets: ``GET /api/open`` lists the public tables
a person may sit at (filters, ETag), and a private room never shows anywhere."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx

from .harness import Client, ServerThread, create_room

BODY = {"name": "Host", "color": "#e63946", "variant": "dixit", "seats": 4, "options": {}}


def _until(check: Callable[[], Any], timeout: float = 15.0) -> Any:
    """Poll ``check`` until it answers something true (the list is renewed each second)."""
    end = time.monotonic() + timeout
    while True:
        found = check()
        if found:
            return found
        if time.monotonic() > end:
            raise AssertionError("the open tables did not change in time")
        time.sleep(0.1)


def _codes(base: str, **params: str) -> list[str]:
    r = httpx.get(f"{base}/api/open", params=params)
    assert r.status_code == 200, r.text
    return [t["code"] for t in r.json()["tables"]]


def test_the_list_shows_public_tables_filters_them_and_answers_304(server: ServerThread) -> None:
    base = server.base
    private, private_token = create_room(base, "dixit", 4)
    r = httpx.post(f"{base}/api/rooms", json={**BODY, "public": True, "lang": "it"})
    code, token = r.json()["code"], r.json()["token"]
    host = Client(base, code, token)
    host.until(lambda f: f["type"] == "state")
    watcher = Client(base, private, private_token)
    watcher.until(lambda f: f["type"] == "state")
    _until(lambda: code in _codes(base))
    metrics = httpx.get(f"{base}/metrics").text
    assert "reverie_open_tables 1.0" in metrics and "reverie_people_waiting 1.0" in metrics
    r = httpx.get(f"{base}/api/open")
    (table,) = [t for t in r.json()["tables"] if t["code"] == code]
    assert table["game"] == "dixit" and table["lang"] == "it" and table["phase"] == "lobby"
    assert table["people"] == 1 and table["seats"] == 4 and table["free"] == 3
    assert "Host" not in r.text and private not in r.text
    # Filters: by game and by the table's language.
    assert code in _codes(base, game="dixit", lang="it")
    assert code not in _codes(base, lang="en")
    assert code not in _codes(base, game="visual")
    # The same list again: 304 without a body.
    etag = r.headers["etag"]
    again = httpx.get(f"{base}/api/open", headers={"if-none-match": etag})
    assert again.status_code == 304 and again.content == b""
    # A change (a bot sits down) changes the answer and its ETag.
    assert host.request({"type": "add_bot"})["type"] == "ack"
    _until(lambda: httpx.get(f"{base}/api/open", headers={"if-none-match": etag}).status_code
           == 200)  # fmt: skip
    # Made private: gone from the list; the private room was never on it.
    assert host.request({"type": "public", "public": False})["type"] == "ack"
    _until(lambda: code not in _codes(base))
    assert private not in _codes(base)
    metrics = httpx.get(f"{base}/metrics").text
    assert private not in metrics and code not in metrics
    assert "reverie_open_tables 0.0" in metrics
    host.close()
    watcher.close()


def test_play_now_seats_strangers_together_and_the_table_starts_with_bots(
    tmp_path: Path,
) -> None:
    """Two people tap play now for Dixit in Italian: the first opens a public table, the
    second sits at it, and it starts by itself with bots in the empty seats. A private
    table of the same game and language is never chosen."""
    server = ServerThread(tmp_path, play_start_seconds=1.5).start()
    try:
        base = server.base
        r = httpx.post(f"{base}/api/rooms", json={**BODY, "lang": "it"})
        private = r.json()["code"]
        r = httpx.post(f"{base}/api/play", json={"game": "dixit", "lang": "it", "name": "Ann"})
        assert r.status_code == 201 and r.json()["how"] == "opened", r.text
        code = r.json()["code"]
        assert code != private
        ann = Client(base, code, r.json()["token"])
        room = ann.until(lambda f: f["type"] == "state")["room"]
        assert room["public"] is True and room["lang"] == "it"
        _until(lambda: code in _codes(base, game="dixit", lang="it"))
        r = httpx.post(f"{base}/api/play", json={"game": "dixit", "lang": "it", "name": "Bea"})
        assert r.status_code == 200 and r.json()["how"] == "joined", r.text
        assert r.json()["code"] == code and r.json()["seat"] == 1
        bea = Client(base, code, r.json()["token"])
        started = bea.until(
            lambda f: f["type"] == "state" and f["room"]["status"] == "playing", timeout=20
        )
        players = started["room"]["players"]
        assert [p["bot"] for p in players] == [False, False, True, True]
        metrics = httpx.get(f"{base}/metrics").text
        assert 'reverie_seatings_total{how="joined"} 1.0' in metrics
        assert 'reverie_seatings_total{how="opened"} 1.0' in metrics
        # A bad request and the limit.
        bad = httpx.post(f"{base}/api/play", json={"game": "chess", "lang": "it", "name": "X"})
        assert bad.status_code == 400
        ann.close()
        bea.close()
    finally:
        server.stop()


def test_a_private_room_shows_through_no_api(tmp_path: Path) -> None:
    """Private rooms of every game in every language, people in some, one started: no
    answer that needs no room code names them (the list under every filter, play now for
    every game and language, the metrics, the pages), and the public count leaves them
    out. A public table listed after they opened shows the list was renewed meanwhile."""
    server = ServerThread(tmp_path, rooms_per_minute=0, plays_per_minute=0,
                          public_tables_per_hour=0, play_start_seconds=600).start()  # fmt: skip
    try:
        base = server.base
        games = [(v["name"], v["min_players"], v["max_players"])
                 for v in httpx.get(f"{base}/api/variants").json()["variants"]]  # fmt: skip
        private: list[tuple[str, str]] = []
        for game, least, most in games:
            for lang in ("en", "ru", "it"):
                body = {**BODY, "variant": game, "seats": max(least, min(4, most)), "lang": lang}
                r = httpx.post(f"{base}/api/rooms", json=body)
                assert r.status_code == 201, r.text
                private.append((r.json()["code"], r.json()["token"]))
        # People in the first game's rooms (the sockets of one address are capped).
        hosts = [Client(base, code, token) for code, token in private[:3]]
        started = hosts[0]
        for _ in range(games[0][1] - 1):
            assert started.request({"type": "add_bot"})["type"] == "ack"
        assert started.request({"type": "start"})["type"] == "ack"
        r = httpx.post(f"{base}/api/play", json={"game": games[0][0], "lang": "en", "name": "P"})
        assert r.status_code == 201, r.text
        control = r.json()["code"]
        _until(lambda: control in _codes(base))

        answers = [httpx.get(f"{base}/api/open").text]
        for game, _, _ in [*games, ("", 0, 0)]:
            for lang in ("en", "ru", "it", ""):
                answers.append(
                    httpx.get(f"{base}/api/open", params={"game": game, "lang": lang}).text
                )
                if game and lang:  # play now joins the control table or opens a new one
                    tap = httpx.post(f"{base}/api/play",
                                     json={"game": game, "lang": lang, "name": "Q"})  # fmt: skip
                    assert tap.status_code in (200, 201), tap.text
                    answers.append(tap.text)
        for path in ("/metrics", "/healthz", "/api/variants", "/api/decks", "/api/credits",
                     "/", "/play", "/api/rooms"):  # fmt: skip
            answers.append(httpx.get(f"{base}{path}").text)
        for code, _ in private:
            assert not any(code in text for text in answers), code
        # This process's public tables: the control one and those play now opened.
        opened = 1 + sum('"how":"opened"' in a for a in answers)
        assert f"reverie_public_tables {opened}.0" in httpx.get(f"{base}/metrics").text
        for host in hosts:
            host.close()
    finally:
        server.stop()
