"""A deck too small for the table is refused with a code and the numbers a page needs to
say why in its own language; the lobby's state tells what the deck allows (issue #24,
item 11)."""

from __future__ import annotations

import httpx

from tests.pictures import numbered, zip_of

from .harness import Client, ServerThread

OWNER = "x-deck-owner"


def published_deck(base: str, cards: int) -> str:
    made = httpx.post(f"{base}/api/decks").json()
    pictures = zip_of({f"p{i}.png": numbered(i) for i in range(cards)})
    r = httpx.post(f"{base}/api/decks/{made['deck']}/pictures", params={"name": "z"},
                   content=pictures, headers={OWNER: made["owner"]}, timeout=120)  # fmt: skip
    assert all(x["ok"] for x in r.json()["results"])
    r = httpx.post(f"{base}/api/decks/{made['deck']}/publish", json={"title": "Tiny"},
                   headers={OWNER: made["owner"]})  # fmt: skip
    assert r.status_code == 200
    return str(made["deck"])


def test_a_deck_too_small_says_how_small_and_the_lobby_what_it_allows(
    server: ServerThread,
) -> None:
    base = server.base
    deck = published_deck(base, 32)
    ask = {"name": "Host", "color": "#e63946", "variant": "dixit", "deck": deck}
    r = httpx.post(f"{base}/api/rooms", json={**ask, "seats": 6})
    assert r.status_code == 400
    error = r.json()["error"]
    assert error["code"] == "deck_too_small"
    assert error["params"] == {"game": "Dixit", "variant": "dixit", "players": 6, "need": 42,
                               "cards": 32}  # fmt: skip
    assert "42" in error["message"]
    r = httpx.post(f"{base}/api/rooms", json={**ask, "seats": 4})
    assert r.status_code == 201, r.text
    host = Client(base, r.json()["code"], r.json()["token"])
    try:
        room = host.state_at_least(1)["room"]
        assert room["deck_fit"] == {"cards": 32, "max_players": 4, "rounds": 2}
        # A seat more in the lobby: the same code and numbers in the error frame.
        bad = host.request({"type": "options", "seats": 5})
        assert bad["type"] == "error" and bad["code"] == "deck_too_small"
        assert bad["params"]["need"] == 35 and bad["params"]["players"] == 5
    finally:
        host.close()
