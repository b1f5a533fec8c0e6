"""A table is private (link only) unless made public: the flag over real sockets and
HTTP, who may change it and when, and the text filter a public table keeps."""

from __future__ import annotations

import time

import httpx

from .harness import Client, ServerThread, create_room, join, play

BODY = {"name": "Host", "color": "#e63946", "variant": "dixit", "seats": 3, "options": {}}


def test_rooms_are_private_unless_made_public(server: ServerThread) -> None:
    code, token = create_room(server.base, "dixit", 3)
    host = Client(server.base, code, token)
    assert host.until(lambda f: f["type"] == "state")["room"]["public"] is False

    r = httpx.post(f"{server.base}/api/rooms", json={**BODY, "public": True})
    assert r.status_code == 201, r.text
    listed = Client(server.base, r.json()["code"], r.json()["token"])
    assert listed.until(lambda f: f["type"] == "state")["room"]["public"] is True

    # A public table needs the filter on; made public with the filter off, it is refused.
    r = httpx.post(f"{server.base}/api/rooms", json={**BODY, "public": True, "text_filter": "off"})
    assert r.status_code == 400 and r.json()["error"]["code"] == "public_filter"
    r = httpx.post(f"{server.base}/api/rooms", json={**BODY, "public": "yes"})
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad_message"


def test_only_the_host_lists_a_table_until_the_game_ends(server: ServerThread) -> None:
    code, token = create_room(server.base, "dixit", 3, first_storyteller=0)
    host = Client(server.base, code, token)
    ann = join(server.base, code, "Ann", "#2a9d8f")
    bob = join(server.base, code, "Bob", "#457b9d")
    refused = ann.request({"type": "public", "public": True})
    assert refused["type"] == "error" and refused["code"] == "not_host"

    # The filter off, then public: listing turns the filter back on (mild), and the
    # filter cannot be turned off while the table is listed.
    assert host.request({"type": "options", "options": {}, "text_filter": "off"})["type"] == "ack"
    assert host.request({"type": "public", "public": True})["type"] == "ack"
    room = ann.until(lambda f: f["type"] == "state" and f["room"]["public"])["room"]
    assert room["text_filter"] == "mild"
    off = host.request({"type": "options", "options": {}, "text_filter": "off"})
    assert off["type"] == "error" and off["code"] == "public_filter"

    # Mid-game the host may still change it, back and forth.
    assert host.request({"type": "start"})["type"] == "ack"
    assert host.request({"type": "public", "public": False})["type"] == "ack"
    ann.until(lambda f: f["type"] == "state" and f["room"]["status"] == "playing"
              and not f["room"]["public"])  # fmt: skip
    assert host.request({"type": "public", "public": True})["type"] == "ack"

    # Once the game is over the table leaves the list's reach: no listing an ended game.
    play([host, ann, bob])
    late = host.request({"type": "public", "public": False})
    while late.get("code") == "rate_limited":  # the game was played faster than people play
        time.sleep(0.2)
        late = host.request({"type": "public", "public": False})
    assert late["type"] == "error" and late["code"] == "wrong_phase"
