"""Names and chat over the wire: clear refusals, cleaned lines."""

from __future__ import annotations

import httpx

from .harness import Client, ServerThread, create_room


def test_joining_with_a_taken_bot_or_invisible_name_is_refused(server: ServerThread) -> None:
    code, token = create_room(server.base, "dixit", 6)
    host = Client(server.base, code, token)
    host.until(lambda f: f["type"] == "state")
    assert host.request({"type": "add_bot"})["type"] == "ack"
    guest = Client(server.base, code)
    for name, error in [
        ("host", "name_taken"),
        ("luna", "name_taken"),  # the bot's
        ("Luna (bot)", "bad_name"),
        ("Luna (Bot)", "bad_name"),
        ("\u3164", "bad_name"),
        ("Ann\u202e", "bad_name"),
    ]:
        reply = guest.request({"type": "join", "name": name, "color": "#2a9d8f"})
        assert reply["type"] == "error" and reply["code"] == error, (name, reply)
    assert guest.request({"type": "join", "name": "Zoe\u0301", "color": "#2a9d8f"})["type"] == "ack"
    state = guest.until(lambda f: f["type"] == "state" and len(f["room"]["players"]) == 3)
    names = [p["name"] for p in state["room"]["players"]]
    assert names == ["Host", "Luna", "Zoé"]


def test_creating_a_room_with_an_invisible_name_is_refused(server: ServerThread) -> None:
    body = {"name": "\u2800", "color": "#e63946", "variant": "dixit", "seats": 4}
    r = httpx.post(f"{server.base}/api/rooms", json=body)
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad_name"


def test_chat_loses_controls_and_bidi_overrides(server: ServerThread) -> None:
    code, token = create_room(server.base, "dixit", 3)
    host = Client(server.base, code, token)
    host.until(lambda f: f["type"] == "state")
    said = host.request({"type": "chat", "text": "gnp.\u202eexe\x00\x07 ok\u200b"})
    assert said["type"] == "ack"
    line = host.until(lambda f: f["type"] == "chat")["messages"][-1]
    assert line["text"] == "gnp.exe ok"
    reply = host.request({"type": "chat", "text": "\u200b\u202e\x07"})
    assert reply["type"] == "error" and reply["code"] == "bad_message"
