"""Bad input gets a clear error for that client alone and changes nothing."""

from __future__ import annotations

import contextlib
import json

import httpx
import pytest
from websockets.exceptions import ConnectionClosed

from .harness import Client, ServerThread, create_room, join

XSS = "<img src=x onerror=alert(1)>"


@pytest.fixture
def table(server: ServerThread) -> tuple[str, Client, Client, Client]:
    code, token = create_room(server.base, "dixit", 3, first_storyteller=0)
    host = Client(server.base, code, token)
    ann = join(server.base, code, "Ann", "#2a9d8f")
    bob = join(server.base, code, "Bob", "#8338ec")
    assert host.request({"type": "start"})["type"] == "ack"
    for c in (host, ann, bob):
        c.until(lambda f: f["type"] == "state" and f["game"] is not None)
    return code, host, ann, bob


def _version(c: Client) -> int:
    assert c.state is not None
    return int(c.state["version"])


def test_malformed_and_unknown_frames(table: tuple[str, Client, Client, Client]) -> None:
    _, host, ann, _ = table
    before = _version(ann)
    ann.send_raw("{not json")
    err = ann.until(lambda f: f["type"] == "error")
    assert err["code"] == "bad_message" and "Malformed" in err["message"]
    ann.send_raw(json.dumps({"type": "teleport", "id": 5}))
    assert ann.until(lambda f: f["type"] == "error")["code"] == "bad_message"
    ann.send_raw(json.dumps({"type": "vote", "position": "two"}))
    assert ann.until(lambda f: f["type"] == "error")["code"] == "bad_message"
    ann.send_raw(json.dumps({"type": "vote", "position": 1, "extra": True}))
    assert ann.until(lambda f: f["type"] == "error")["code"] == "bad_message"
    ann.send_raw(b"\xff\xfe binary")
    assert ann.until(lambda f: f["type"] == "error")["code"] == "bad_message"
    # Nothing changed, and the host heard nothing about it.
    assert host.request({"type": "chat", "text": "still here"})["type"] == "ack"
    assert not [f for f in host.frames if f["type"] == "error"]
    assert ann.state is not None and _version(ann) == before


def test_wrong_turn_and_illegal_moves(table: tuple[str, Client, Client, Client]) -> None:
    _, host, ann, _ = table
    hand = ann.state["game"]["hand"]  # type: ignore[index]
    err = ann.request({"type": "clue", "text": "mine", "card": hand[0]})
    assert err["code"] == "not_your_turn" and "storyteller" in err["message"]
    assert ann.request({"type": "submit", "card": hand[0]})["code"] == "wrong_phase"
    assert ann.request({"type": "vote", "position": 1})["code"] == "wrong_phase"
    host_hand = host.state["game"]["hand"]  # type: ignore[index]
    assert host.request({"type": "clue", "text": "x", "card": hand[0]})["code"] == (
        "card_not_in_hand"
    )
    assert host.request({"type": "clue", "text": "  ", "card": host_hand[0]})["code"] == (
        "empty_clue"
    )


def test_stale_version_is_refused(table: tuple[str, Client, Client, Client]) -> None:
    _, host, ann, bob = table
    old = _version(host)
    hand = host.state["game"]["hand"]  # type: ignore[index]
    assert (
        host.request({"type": "clue", "text": "dawn", "card": hand[0], "version": old})["type"]
        == "ack"
    )
    ann.until(lambda f: f["type"] == "state" and f["game"]["phase"] == "submit")
    card = ann.state["game"]["hand"][0]  # type: ignore[index]
    # A card aimed at the clue phase (an older version) is refused...
    assert ann.request({"type": "submit", "card": card, "version": old})["code"] == (
        "stale_version"
    )
    # ...one aimed at this phase is fine, even after someone else moved within it.
    now = _version(ann)
    bob_card = bob.until(lambda f: f["type"] == "state" and f["game"]["phase"] == "submit")["game"][
        "hand"
    ][0]
    assert bob.request({"type": "submit", "card": bob_card, "version": now})["type"] == "ack"
    assert ann.request({"type": "submit", "card": card, "version": now})["type"] == "ack"


def test_foreign_or_forged_tokens_only_watch(server: ServerThread) -> None:
    code_a, token_a = create_room(server.base, "dixit", 3)
    code_b, _ = create_room(server.base, "dixit", 3)
    intruder = Client(server.base, code_b, token_a)
    state = intruder.until(lambda f: f["type"] == "state")
    assert state["room"]["you"] is None
    assert not [f for f in intruder.frames if f["type"] == "welcome"]
    assert intruder.request({"type": "start"})["code"] == "not_seated"
    forged = Client(server.base, code_a, "forged-token")
    assert forged.until(lambda f: f["type"] == "state")["room"]["you"] is None
    assert forged.request({"type": "kick", "seat": 0})["code"] == "not_seated"


def test_oversized_frames_and_floods_are_cut_off(table: tuple[str, Client, Client, Client]) -> None:
    _, host, ann, _ = table
    ann.send_raw(json.dumps({"type": "chat", "text": "x" * 5000}))
    assert ann.until(lambda f: f["type"] == "error")["code"] == "too_large"
    # A burst passes the limit, then the flood is refused and finally disconnected.
    codes = []
    with contextlib.suppress(ConnectionClosed):
        for _ in range(200):
            ann.send({"type": "chat", "text": "spam"})
    with pytest.raises(ConnectionClosed):
        while True:
            frame = ann.recv(timeout=5)
            if frame["type"] == "error":
                codes.append(frame["code"])
    assert "rate_limited" in codes
    assert ann.ws.close_code == 1008
    # The flood cost others nothing: the host still plays normally.
    assert host.request({"type": "chat", "text": "calm"})["type"] == "ack"
    spam = [m for m in host.chat if m["text"] == "spam"]
    assert 1 <= len(spam) <= 10


def test_script_in_names_and_clues_is_kept_as_text(server: ServerThread) -> None:
    code, token = create_room(server.base, "dixit", 3, first_storyteller=0)
    host = Client(server.base, code, token)
    evil = join(server.base, code, XSS[:24], "#2a9d8f")
    join(server.base, code, "Bob", "#8338ec")
    assert host.request({"type": "start"})["type"] == "ack"
    hand = host.until(lambda f: f["type"] == "state" and f["game"] is not None)["game"]["hand"]
    assert host.request({"type": "clue", "text": XSS, "card": hand[0]})["type"] == "ack"
    seen = evil.until(lambda f: f["type"] == "state" and bool(f["game"] and f["game"]["clue"]))
    assert seen["game"]["clue"] == XSS  # stored and sent as plain text; the page escapes it
    assert seen["room"]["players"][1]["name"] == XSS[:24]


def test_http_errors_are_clear(server: ServerThread) -> None:
    r = httpx.post(f"{server.base}/api/rooms", content=b"{")
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad_message"
    body = {"name": "A", "color": "#e63946", "variant": "uno", "seats": 4}
    r = httpx.post(f"{server.base}/api/rooms", json=body)
    assert r.status_code == 400 and "Unknown variant" in r.json()["error"]["message"]
    r = httpx.post(f"{server.base}/api/rooms", json={**body, "variant": "dixit", "seats": 9})
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad_options"
    r = httpx.post(f"{server.base}/api/rooms", json={**body, "variant": "dixit", "color": "red"})
    assert r.json()["error"]["code"] == "bad_color"
    r = httpx.post(
        f"{server.base}/api/rooms",
        json={**body, "variant": "dixit", "options": {"on_timeout": "explode"}},
    )
    assert r.json()["error"]["code"] == "bad_options"
    r = httpx.post(f"{server.base}/api/rooms", json={**body, "variant": "dixit", "lang": "xx"})
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad_language"  # issue #24
    r = httpx.post(f"{server.base}/api/rooms", json={**body, "variant": "dixit", "lang": "it"})
    assert r.status_code == 201
    r = httpx.post(f"{server.base}/api/rooms", content=b"x" * 20000)
    assert r.status_code == 413
    assert httpx.get(f"{server.base}/api/rooms/NOPE42").status_code == 404
    assert (
        httpx.get(f"{server.base}/decks/default/cards/..%2f..%2fmanifest.json").status_code == 404
    )
    assert "content-security-policy" in httpx.get(f"{server.base}/healthz").headers


def test_unknown_room_and_missing_hello(server: ServerThread) -> None:
    from websockets.sync.client import connect

    with connect(server.base.replace("http", "ws") + "/ws/NOPE42") as ws:
        assert json.loads(ws.recv(timeout=5))["code"] == "unknown_room"
        with pytest.raises(ConnectionClosed):
            ws.recv(timeout=5)
        assert ws.close_code == 4404
    code, _ = create_room(server.base, "dixit", 3)
    with connect(server.base.replace("http", "ws") + f"/ws/{code}") as ws:
        ws.send(json.dumps({"type": "vote", "position": 1}))
        assert json.loads(ws.recv(timeout=5))["code"] == "bad_message"
        with pytest.raises(ConnectionClosed):
            ws.recv(timeout=5)


def test_opening_rooms_in_a_loop_is_refused(server: ServerThread) -> None:
    body = {"name": "A", "color": "#e63946", "variant": "dixit", "seats": 4}
    codes = [httpx.post(f"{server.base}/api/rooms", json=body).status_code for _ in range(12)]
    assert codes[:10] == [201] * 10
    assert codes[10:] == [429, 429]
    r = httpx.post(f"{server.base}/api/rooms", json=body)
    assert r.json()["error"]["code"] == "rate_limited"
