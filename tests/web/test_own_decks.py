"""Players' own decks over HTTP: drafts filled picture by picture, published whole,
played by a room, deleted by their owner only."""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from PIL import Image

from reverie.content.uploads import CARD_SIZE
from tests.pictures import SECRET, bomb_png, damaged_jpeg, exif_jpeg, numbered, picture, zip_of
from tests.services import RedisServer

from .harness import Client, ServerThread, SkewClock

OWNER = "x-deck-owner"


@pytest.fixture
def small(tmp_path: Path) -> Iterator[ServerThread]:
    """A server with small limits: 8 cards, 1 MB per file, 2 MB per deck."""
    srv = ServerThread(
        tmp_path,
        deck_max_cards=8,
        upload_max_file_mb=1.0,
        deck_max_mb=2.0,
        upload_max_pixels=4_000_000,
    ).start()
    try:
        yield srv
    finally:
        srv.stop()


def new_deck(base: str) -> tuple[str, str]:
    r = httpx.post(f"{base}/api/decks")
    assert r.status_code == 201, r.text
    return r.json()["deck"], r.json()["owner"]


def upload(base: str, deck: str, owner: str, name: str, data: bytes, **fit: Any) -> httpx.Response:
    return httpx.post(
        f"{base}/api/decks/{deck}/pictures",
        params={"name": name, **fit},
        content=data,
        headers={OWNER: owner},
        timeout=60,  # pictures are decoded in worker processes: slow on a busy machine
    )


def room_request(variant: str, seats: int, deck: str) -> dict[str, Any]:
    return {"name": "Host", "color": "#e63946", "variant": variant, "seats": seats, "deck": deck}


def create_room(base: str, variant: str, seats: int, deck: str) -> tuple[str, str]:
    r = httpx.post(f"{base}/api/rooms", json=room_request(variant, seats, deck))
    assert r.status_code == 201, r.text
    return r.json()["code"], r.json()["token"]


def results(r: httpx.Response) -> list[dict[str, Any]]:
    assert r.status_code == 200, r.text
    out: list[dict[str, Any]] = r.json()["results"]
    return out


def test_a_deck_is_made_published_and_played(small: ServerThread) -> None:
    base = small.base
    deck, owner = new_deck(base)
    assert re.fullmatch(r"u-[a-z2-7]{26}", deck)
    first = results(upload(base, deck, owner, "me.jpg", exif_jpeg(), fit="pad"))
    assert [(x["name"], x["ok"]) for x in first] == [("me.jpg", True)]
    batch = zip_of({f"p{i}.png": numbered(i) for i in range(5)} | {"notes.txt": b"hello"})
    second = results(upload(base, deck, owner, "more.zip", batch))
    assert [x["ok"] for x in second] == [True] * 5 + [False]
    assert second[5]["name"] == "more.zip › notes.txt" and second[5]["code"] == "not_a_picture"
    # Not playable, not visible while a draft.
    assert httpx.get(f"{base}/api/decks/{deck}").status_code == 404
    assert httpx.get(f"{base}/api/decks/{deck}/images").status_code == 404
    r = httpx.post(f"{base}/api/rooms", json=room_request("dixit", 3, deck))
    assert r.status_code == 400 and r.json()["error"]["code"] == "unknown_deck"
    cards = [x["card"] for x in first + second if x["ok"]]
    captions = {cards[0]: "  a red   wall ", "not-a-card": "ignored"}
    summer = {"title": "Summer", "captions": captions}
    r = httpx.post(f"{base}/api/decks/{deck}/publish", json=summer, headers={OWNER: owner})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["title"]["ru"] == "Summer" and body["count"] == 6
    assert [c["id"] for c in body["cards"]] == sorted(cards)  # random ids, in id order
    assert {c["id"]: c["caption"]["en"] for c in body["cards"]}[cards[0]] == "a red wall"
    # The picture: card-sized WebP, no trace of the upload's metadata, cached privately.
    img = httpx.get(f"{base}/decks/{deck}/{cards[0]}.webp")
    assert img.status_code == 200 and img.headers["content-type"] == "image/webp"
    assert "private" in img.headers["cache-control"] and "immutable" in img.headers["cache-control"]
    assert SECRET.encode() not in img.content
    assert Image.open(io.BytesIO(img.content)).size == CARD_SIZE
    # A published deck cannot change.
    r = upload(base, deck, owner, "late.png", numbered(9))
    assert r.status_code == 409 and r.json()["error"]["code"] == "deck_published"
    # A room plays it (a whole small deck: smaller than Dixit's 84 cards).
    code, token = create_room(base, "pictoric-gallery", 3, deck=deck)
    host = Client(base, code, token)
    assert host.state_at_least(1)["room"]["deck"] == deck
    host.close()
    images = httpx.get(f"{base}/api/decks/{deck}/images")
    assert images.json()["images"] == [f"{c}.webp" for c in sorted(cards)]
    # The deck's JSON is one browser's, read fresh (issue #24: it had no Cache-Control).
    detail = httpx.get(f"{base}/api/decks/{deck}")
    for r in (images, detail):
        assert r.headers["cache-control"] == "private, no-store"


def test_every_refused_file_says_why(small: ServerThread) -> None:
    base = small.base
    deck, owner = new_deck(base)
    cases = {
        "cat.gif": (picture("GIF"), "not_a_picture"),
        "cat.jpg": (b"this is text, not a JPEG", "not_a_picture"),
        "broken.jpg": (damaged_jpeg(), "damaged"),
        "bomb.png": (bomb_png(), "too_many_pixels"),
    }
    for name, (data, code) in cases.items():
        (result,) = results(upload(base, deck, owner, name, data))
        assert (result["name"], result["ok"], result["code"]) == (name, False, code)
        assert result["message"]
    big = upload(base, deck, owner, "huge.png", b"\x89PNG" + b"0" * 1_100_000)
    assert big.status_code == 413 and big.json()["error"]["code"] == "file_too_large"
    assert big.json()["error"]["params"] == {"mb": 1}
    bad = upload(base, deck, owner, "x.png", picture(), fit="stretch")
    assert bad.status_code == 400
    # Nothing refused was kept: the draft is empty and cannot be published.
    r = httpx.post(f"{base}/api/decks/{deck}/publish", json={"title": "T"}, headers={OWNER: owner})
    assert r.status_code == 400 and r.json()["error"]["code"] == "deck_empty"


def test_an_upload_cut_off_midway_leaves_nothing(small: ServerThread) -> None:
    """A connection that drops before the whole file arrived adds no card, although
    what did arrive is a whole picture (with the rest of the body never sent)."""
    import socket
    from urllib.parse import urlsplit

    base = small.base
    deck, owner = new_deck(base)
    data = picture("PNG", (600, 900))
    url = urlsplit(base)
    with socket.create_connection((url.hostname, url.port)) as s:
        s.sendall(
            f"POST /api/decks/{deck}/pictures?name=half.png HTTP/1.1\r\nHost: {url.netloc}\r\n"
            f"x-deck-owner: {owner}\r\nContent-Length: {len(data) + 50_000}\r\n\r\n".encode()
            + data
        )
    # The same draft still takes a whole picture afterwards, and holds only that one.
    whole = results(upload(base, deck, owner, "whole.png", data))
    assert [x["ok"] for x in whole] == [True]
    r = httpx.get(f"{base}/api/decks/{deck}", headers={OWNER: owner})
    assert [c["id"] for c in r.json()["cards"]] == [whole[0]["card"]]


def test_deck_limits(small: ServerThread) -> None:
    base = small.base
    deck, owner = new_deck(base)
    batch = zip_of({f"p{i}.png": numbered(i) for i in range(10)})
    got = results(upload(base, deck, owner, "all.zip", batch))
    assert [x["ok"] for x in got] == [True] * 8 + [False] * 2
    assert {x["code"] for x in got[8:]} == {"too_many_pictures"}
    deck2, owner2 = new_deck(base)
    noisy = Image.effect_noise((600, 600), 100).convert("RGB")
    raw = io.BytesIO()
    noisy.save(raw, "PNG")
    assert 400_000 < len(raw.getvalue()) < 1_000_000
    for _ in range(2000_000 // len(raw.getvalue())):
        assert results(upload(base, deck2, owner2, "n.png", raw.getvalue()))[0]["ok"]
    r = upload(base, deck2, owner2, "n.png", raw.getvalue())
    assert r.status_code == 413 and r.json()["error"]["code"] == "deck_too_large"


def test_a_zip_bomb_is_refused_past_the_decks_bound(small: ServerThread) -> None:
    """Eight entries of 900 kB of zeros (each under the 1 MB file bound) in a ZIP of
    a few kilobytes would inflate to 7.2 MB: only the deck's 2 MB are read, the rest
    is refused, and the draft keeps nothing."""
    base = small.base
    deck, owner = new_deck(base)
    bomb = zip_of({f"p{i:02d}.png": b"\x00" * 900_000 for i in range(8)})
    assert len(bomb) < 100_000
    got = results(upload(base, deck, owner, "bomb.zip", bomb))
    codes = [x["code"] for x in got]
    assert codes == ["not_a_picture"] * 2 + ["deck_too_large"] * 6
    assert got[2]["params"] == {"mb": 2}
    r = httpx.get(f"{base}/api/decks/{deck}", headers={OWNER: owner})
    assert r.status_code == 200 and r.json()["count"] == 0


def test_only_the_owner_changes_or_deletes_a_deck(server: ServerThread) -> None:
    base = server.base
    deck, owner = new_deck(base)
    card = results(upload(base, deck, owner, "a.png", picture()))[0]["card"]
    for who in ({}, {OWNER: "someone-else"}):
        assert upload(base, deck, who.get(OWNER, ""), "b.png", picture()).status_code == 404
        assert (
            httpx.delete(f"{base}/api/decks/{deck}/pictures/{card}", headers=who).status_code == 404
        )
        r = httpx.post(f"{base}/api/decks/{deck}/publish", json={"title": "Mine"}, headers=who)
        assert r.status_code == 404
        assert httpx.delete(f"{base}/api/decks/{deck}", headers=who).status_code == 404
    r = httpx.get(f"{base}/api/decks/{deck}", headers={OWNER: owner})  # the owner sees a draft
    assert r.status_code == 200 and r.json()["state"] == "draft"
    assert r.headers["cache-control"] == "private, no-store"  # no shared cache keeps it
    assert httpx.delete(f"{base}/api/decks/{deck}/pictures/{card}",
                        headers={OWNER: owner}).status_code == 204  # fmt: skip
    assert httpx.get(f"{base}/decks/{deck}/{card}.webp").status_code == 404


def test_a_deleted_deck_serves_its_rooms_until_they_end(tmp_path: Path) -> None:
    clock = SkewClock()
    srv = ServerThread(tmp_path, clock=clock, deck_purge_hours=1.0).start()
    try:
        base = srv.base
        deck, owner = new_deck(base)
        zipped = zip_of({f"p{i}.png": numbered(i) for i in range(30)})
        cards = [x["card"] for x in results(upload(base, deck, owner, "d.zip", zipped))]
        r = httpx.post(f"{base}/api/decks/{deck}/publish", json={"title": "Ours"},
                       headers={OWNER: owner})  # fmt: skip
        assert r.status_code == 200
        code, token = create_room(base, "dixit", 3, deck=deck)
        unused, unused_owner = new_deck(base)
        results(upload(base, unused, unused_owner, "u.png", picture()))
        httpx.post(f"{base}/api/decks/{unused}/publish", json={"title": "U"},
                   headers={OWNER: unused_owner})  # fmt: skip
        for d, o in ((deck, owner), (unused, unused_owner)):
            assert httpx.delete(f"{base}/api/decks/{d}", headers={OWNER: o}).status_code == 204
        # Hidden from the browser and from new rooms ...
        assert httpx.get(f"{base}/api/decks/{deck}").json()["error"]["code"] == "deck_deleted"
        r = httpx.post(f"{base}/api/rooms", json=room_request("dixit", 3, deck))
        assert r.status_code == 400 and r.json()["error"]["code"] == "deck_deleted"
        # ... its room still shows the pictures; the unused deck is gone at once.
        assert len(httpx.get(f"{base}/api/decks/{deck}/images").json()["images"]) == 30
        assert httpx.get(f"{base}/decks/{deck}/{cards[0]}.webp").status_code == 200
        assert httpx.get(f"{base}/api/decks/{unused}/images").status_code == 404
        host = Client(base, code, token)
        host.request({"type": "add_bot"})
        host.request({"type": "add_bot"})
        assert host.request({"type": "start"})["type"] == "ack"
        host.close()
        # Once the room has been quiet for the purge delay, the pictures go.
        clock.advance(2 * 3600)
        httpx.delete(f"{base}/api/decks/{deck}", headers={OWNER: owner})  # runs a purge
        assert httpx.get(f"{base}/decks/{deck}/{cards[0]}.webp").status_code == 404
        assert httpx.get(f"{base}/api/decks/{deck}/images").status_code == 404
    finally:
        srv.stop()


def test_uploads_are_rate_limited_per_address(tmp_path: Path) -> None:
    srv = ServerThread(tmp_path, decks_per_hour=2, uploads_mb_per_minute=0.05).start()
    try:
        base = srv.base
        deck, owner = new_deck(base)
        new_deck(base)
        r = httpx.post(f"{base}/api/decks")
        assert r.status_code == 429 and r.json()["error"]["code"] == "rate_limited"
        ok = [upload(base, deck, owner, "p.png", numbered(i)).status_code for i in range(40)]
        assert ok[0] == 200 and ok[-1] == 429
    finally:
        srv.stop()


def test_two_processes_on_postgresql_serve_the_same_deck(
    tmp_path: Path, postgres_url: str, redis_server: RedisServer
) -> None:
    """Decks live in the event store's database: a deck made on one process is played,
    served and deleted on another."""
    from tests.scale.cluster import Process

    a = Process(tmp_path, postgres_url, redis_server.url).start()
    b = Process(tmp_path, postgres_url, redis_server.url).start()
    try:
        deck, owner = new_deck(a.base)
        zipped = zip_of({f"p{i}.png": numbered(i) for i in range(24)})
        cards = [x["card"] for x in results(upload(a.base, deck, owner, "d.zip", zipped))]
        assert len(cards) == 24
        assert httpx.get(f"{b.base}/api/decks/{deck}").status_code == 404  # a draft
        r = httpx.post(f"{a.base}/api/decks/{deck}/publish", json={"title": "Shared"},
                       headers={OWNER: owner})  # fmt: skip
        assert r.status_code == 200, r.text
        assert httpx.get(f"{b.base}/api/decks/{deck}").json()["title"]["en"] == "Shared"
        picture = httpx.get(f"{b.base}/decks/{deck}/{cards[0]}.webp")
        assert picture.status_code == 200 and picture.content == (
            httpx.get(f"{a.base}/decks/{deck}/{cards[0]}.webp").content
        )
        create_room(b.base, "dixit", 3, deck=deck)  # records the deck's use
        assert httpx.delete(f"{b.base}/api/decks/{deck}", headers={OWNER: owner}).status_code == 204
        assert httpx.get(f"{a.base}/api/decks/{deck}").json()["error"]["code"] == "deck_deleted"
        # The room opened with it keeps its pictures, on either process.
        assert httpx.get(f"{a.base}/decks/{deck}/{cards[1]}.webp").status_code == 200
    finally:
        a.stop()
        b.stop()
