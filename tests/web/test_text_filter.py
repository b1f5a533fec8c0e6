"""The table's text filter over real sockets: rude words in chat, clues and guesses reach the
others as asterisks at the table's level, names with them are refused, and a name that
only looks like another's is refused at the same table."""

from __future__ import annotations

import httpx

from .harness import Client, ServerThread, create_room, join
from .test_visual import choose, table


def _said(c: Client, text: str) -> list[str]:
    c.until(lambda f: f["type"] == "chat" and any(m["text"] == text for m in c.chat))
    return [m["text"] for m in c.chat]


def test_chat_and_clues_reach_the_table_masked_at_its_level(server: ServerThread) -> None:
    code, token = create_room(server.base, "dixit", 3, first_storyteller=0)
    host = Client(server.base, code, token)
    ann = join(server.base, code, "Ann", "#2a9d8f")
    host.until(lambda f: f["type"] == "state" and f["room"]["text_filter"] == "mild")
    assert host.request({"type": "chat", "text": "what the f u c k, a nude tit"})["type"] == "ack"
    assert _said(ann, "what the * * * *, a nude tit")[-1] == "what the * * * *, a nude tit"

    # The host makes it strict in the lobby: "nude" goes too; a level that is none is refused.
    bad = host.request({"type": "options", "options": {}, "text_filter": "harsh"})
    assert bad["type"] == "error" and bad["code"] == "bad_options"
    assert host.request({"type": "options", "options": {}, "text_filter": "strict"})["type"] == (
        "ack"
    )
    ann.until(lambda f: f["type"] == "state" and f["room"]["text_filter"] == "strict")
    assert host.request({"type": "chat", "text": "a nude tit"})["type"] == "ack"
    assert _said(ann, "a **** tit")[-1] == "a **** tit"

    # Off: said as written.
    assert host.request({"type": "options", "options": {}, "text_filter": "off"})["type"] == "ack"
    assert host.request({"type": "chat", "text": "sh1t"})["type"] == "ack"
    assert _said(ann, "sh1t")[-1] == "sh1t"

    # A clue in the game, back at mild: what the table reads is masked.
    assert host.request({"type": "options", "options": {}, "text_filter": "mild"})["type"] == "ack"
    bob = join(server.base, code, "Bob", "#8338ec")
    assert host.request({"type": "start"})["type"] == "ack"
    host.until(lambda f: f["type"] == "state" and f["game"] is not None)
    card = host.state["game"]["hand"][0]  # type: ignore[index]
    assert (
        host.request({"type": "clue", "text": "Holy shit, Scunthorpe", "card": card})["type"]
        == "ack"
    )
    frame = bob.until(lambda f: f["type"] == "state" and bool((f["game"] or {}).get("clue")))
    assert frame["game"]["clue"] == "Holy ****, Scunthorpe"


def test_names_are_filtered_and_lookalikes_refused(server: ServerThread) -> None:
    code, token = create_room(server.base, "dixit", 4)
    host = Client(server.base, code, token)
    ann = join(server.base, code, "Ann", "#2a9d8f")
    for name, why in (("Fuuuck", "name_not_allowed"), ("Аnn", "name_lookalike")):
        c = Client(server.base, code)
        reply = c.request({"type": "join", "name": name, "color": "#8338ec"})
        assert reply["type"] == "error" and reply["code"] == why, reply
        c.close()
    assert join(server.base, code, "Anna", "#8338ec").seat == 2
    # Creating a room with such a name is refused too, unless the filter is off.
    body = {"name": "Sh1t", "color": "#e63946", "variant": "dixit", "seats": 3, "options": {}}
    r = httpx.post(f"{server.base}/api/rooms", json=body)
    assert r.status_code == 400 and r.json()["error"]["code"] == "name_not_allowed"
    r = httpx.post(f"{server.base}/api/rooms", json={**body, "text_filter": "off"})
    assert r.status_code == 201
    r = httpx.post(f"{server.base}/api/rooms", json={**body, "text_filter": "harsh"})
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad_options"
    host.close()
    ann.close()


def test_a_guess_reaches_the_others_masked(server: ServerThread) -> None:
    _code, clients = table(server)
    drawer, _word = choose(clients, "objects")
    mate = next(c for c in clients if c is not drawer and c.seat is not None
                and c.seat % 2 == drawer.seat % 2)  # type: ignore[operator]  # fmt: skip
    assert mate.request({"type": "guess", "text": "a shit house"})["type"] == "ack"
    seen = str(drawer.until(lambda f: f["type"] == "state" and "house" in str(f["game"])))
    assert "a **** house" in seen and "shit" not in seen
    for c in clients:
        c.close()
