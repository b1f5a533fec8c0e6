"""The open tables over real HTTP and sockets: ``GET /api/open`` lists the public tables
a person may sit at (filters, ETag), and a private room never shows anywhere."""

from __future__ import annotations

import time
from collections.abc import Callable
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
