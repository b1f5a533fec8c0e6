"""Public tables play the built-in decks and word lists or ones the operator approved;
players' word lists and deck titles pass the text filter; the operator's site bans hold
on opening a table and on joining one; public tables one person may open an hour."""

from __future__ import annotations

from pathlib import Path

import httpx

from reverie.store.moderation import ModerationStore, open_moderation
from reverie.web.browser_id import Ids, load_salt
from tests.aio import run_async
from tests.pictures import numbered

from .harness import Client, ServerThread, create_room
from .test_open_tables import _until
from .test_own_decks import OWNER, new_deck, upload

WORDS = "\n".join(["pirog", "samovar", "balalaika", "valenok", "matrioska",
                   "garmon", "prianik", "lapot", "sarafan", "bublik"])  # fmt: skip
HOST = {"name": "Host", "color": "#e63946"}


def operator(server: ServerThread, do: str, *args: object) -> object:
    """Call the moderation store as ``reverie moderation`` would."""

    async def call() -> object:
        store: ModerationStore = open_moderation(server.settings.store_url)
        await store.open()
        try:
            return await getattr(store, do)(*args)
        finally:
            await store.close()

    return run_async(call())


def test_public_tables_play_approved_content_only(tmp_path: Path) -> None:
    server = ServerThread(tmp_path, public_tables_per_hour=2).start()
    web = httpx.Client(base_url=server.base)  # one browser: it keeps its id cookie
    try:
        base = server.base
        # The filter reads a player's words: a rude one is refused with its line.
        rude = WORDS.replace("lapot", "shit")
        r = httpx.post(f"{base}/api/words", json={"language": "en",
                                                  "categories": {"objects": rude}})  # fmt: skip
        assert r.status_code == 400
        problem = r.json()["error"]["problems"][0]
        assert (problem["code"], problem["params"]) == ("word_not_allowed", {"line": 8})
        r = httpx.post(f"{base}/api/words", json={"language": "en",
                                                  "categories": {"objects": WORDS}})  # fmt: skip
        assert r.status_code == 201
        words = r.json()["id"]

        visual = {**HOST, "variant": "visual", "seats": 4, "options": {"words": words}}
        r = httpx.post(f"{base}/api/rooms", json={**visual, "public": True})
        assert r.status_code == 400 and r.json()["error"]["code"] == "words_not_approved"
        # A private table plays it; listing that table is refused the same way.
        r = httpx.post(f"{base}/api/rooms", json=visual)
        assert r.status_code == 201
        host = Client(base, r.json()["code"], r.json()["token"])
        refused = host.request({"type": "public", "public": True})
        assert refused["type"] == "error" and refused["code"] == "words_not_approved"
        operator(server, "approve", "words", words, "ops", 1.0)
        assert host.request({"type": "public", "public": True})["type"] == "ack"
        host.close()
        # A player's deck likewise: refused at a public table until approved.
        deck = f"u-{'a' * 26}"
        dixit = {**HOST, "variant": "dixit", "seats": 3, "deck": deck, "public": True}
        r = web.post("/api/rooms", json=dixit)
        assert r.status_code == 400 and r.json()["error"]["code"] == "deck_not_approved"
        operator(server, "approve", "deck", deck, "ops", 2.0)
        r = web.post("/api/rooms", json=dixit)  # approved: on to the deck's own checks
        assert r.status_code == 400 and r.json()["error"]["code"] == "unknown_deck"

        # Two public tables an hour from one browser (the one refused for its unknown
        # deck counted: it was let through to be opened); a private one is no matter.
        plain = {**HOST, "variant": "dixit", "seats": 3, "public": True}
        assert web.post("/api/rooms", json=plain).status_code == 201
        r = web.post("/api/rooms", json=plain)
        assert r.status_code == 429 and r.json()["error"]["code"] == "rate_limited"
        assert r.json()["error"]["params"] == {"per_hour": 2}
        assert web.post("/api/rooms", json={**plain, "public": False}).status_code == 201
        # Another browser has its own.
        assert httpx.post(f"{base}/api/rooms", json=plain).status_code == 201
        # Play now opening a table counts too; joining one already there does not.
        lang = _until(lambda: {t["lang"] for t in httpx.get(f"{base}/api/open?game=dixit")
                               .json()["tables"]})  # fmt: skip
        (lang,) = lang
        tap = {"game": "dixit", "lang": lang, "name": "Zed"}
        assert web.post("/api/play", json=tap).json()["how"] == "joined"
        r = web.post("/api/play", json={**tap, "lang": "ru" if lang != "ru" else "it"})
        assert r.status_code == 429 and r.json()["error"]["code"] == "rate_limited"
        r = httpx.post(f"{base}/api/play", json={**tap, "lang": "ru" if lang != "ru" else "it"})
        assert r.status_code == 201 and r.json()["how"] == "opened"  # another browser
    finally:
        web.close()
        server.stop()


def test_a_deck_title_passes_the_filter(server: ServerThread) -> None:
    deck, owner = new_deck(server.base)
    assert upload(server.base, deck, owner, "one.png", numbered(1)).status_code == 200
    r = httpx.post(f"{server.base}/api/decks/{deck}/publish", json={"title": "Fuck off"},
                   headers={OWNER: owner})  # fmt: skip
    assert r.status_code == 400 and r.json()["error"]["code"] == "deck_title_not_allowed"
    r = httpx.post(f"{server.base}/api/decks/{deck}/publish", json={"title": "Scunthorpe"},
                   headers={OWNER: owner})  # fmt: skip
    assert r.status_code == 200


def test_a_site_ban_holds_on_opening_and_joining(server: ServerThread) -> None:
    code, token = create_room(server.base, "dixit", 4)
    host = Client(server.base, code, token)
    # The harness's clients come from 127.0.0.1: ban that address's id, as a report shows.
    address = Ids(load_salt(None, server.data_dir)).address("127.0.0.1")
    operator(server, "ban", "address", address, 4e9, "troll", "ops", 1.0)
    guest = Client(server.base, code)
    refused = guest.request({"type": "join", "name": "Ann", "color": "#2a9d8f"})
    assert refused["type"] == "error" and refused["code"] == "site_banned"
    r = httpx.post(f"{server.base}/api/rooms", json={**HOST, "variant": "dixit", "seats": 3})
    assert r.status_code == 403 and r.json()["error"]["code"] == "site_banned"
    tap = {"game": "dixit", "lang": "en", "name": "Ann"}  # play now: no table, joined or opened
    r = httpx.post(f"{server.base}/api/play", json=tap)
    assert r.status_code == 403 and r.json()["error"]["code"] == "site_banned"
    operator(server, "unban", "address", address, "ops", 2.0)
    assert guest.request({"type": "join", "name": "Ann", "color": "#2a9d8f"})["type"] == "ack"
    guest.close()
    host.close()
