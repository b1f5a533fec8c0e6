"""The client's files as a phone wants them (web/assets.py): versioned and cached for
good, revalidated otherwise, compressed, and each page's head naming them."""

from __future__ import annotations

import base64
import gzip
import hashlib
import re
import time
from dataclasses import dataclass
from pathlib import Path

import httpx
from starlette.datastructures import Headers

from reverie.web.assets import Assets, dictionaries
from reverie.web.manifest import STATIC

from .harness import ServerThread, create_room

GZIP = {"Accept-Encoding": "gzip"}


@dataclass
class Got:
    status_code: int
    headers: httpx.Headers
    raw: bytes  # as it went over the wire (httpx would decompress it silently)


def get(url: str, headers: dict[str, str] | None = None) -> Got:
    sent = headers or {"Accept-Encoding": "identity"}
    with httpx.Client() as client, client.stream("GET", url, headers=sent) as r:
        return Got(r.status_code, r.headers, b"".join(r.iter_raw()))


def test_a_versioned_file_is_cached_for_good_a_plain_one_is_revalidated(
    server: ServerThread,
) -> None:
    assets: Assets = server.app.state.assets
    version = assets.files["js/dom.js"].version
    fresh = get(f"{server.base}/static/js/dom.js?v={version}")
    assert fresh.status_code == 200
    assert fresh.headers["cache-control"] == "public, max-age=31536000, immutable"
    plain = get(f"{server.base}/static/js/dom.js")
    assert plain.headers["cache-control"] == "no-cache"
    old = get(f"{server.base}/static/js/dom.js?v=000000000000")  # a page from before an edit
    assert old.headers["cache-control"] == "no-cache"
    assert plain.raw == fresh.raw == old.raw == (assets.root / "js/dom.js").read_bytes()
    again = get(f"{server.base}/static/js/dom.js", {"If-None-Match": plain.headers["etag"]})
    assert again.status_code == 304 and again.raw == b""
    assert get(f"{server.base}/static/js/nothing.js").status_code == 404
    assert get(f"{server.base}/static/../app.py").status_code == 404
    assert httpx.post(f"{server.base}/static/js/dom.js").status_code == 405


def test_text_goes_compressed_and_pictures_and_fonts_as_they_are(server: ServerThread) -> None:
    assets: Assets = server.app.state.assets
    for rel in ("js/room.js", "css/room.css", "i18n/ru.json", "img/favicon.svg"):
        if len(assets.files[rel].body) < 512:
            continue
        r = get(f"{server.base}/static/{rel}", GZIP)
        assert r.headers["content-encoding"] == "gzip", rel
        assert "Accept-Encoding" in r.headers["vary"]
        assert gzip.decompress(r.raw) == assets.files[rel].body
        assert len(r.raw) < len(assets.files[rel].body) / 2
        assert "content-encoding" not in get(f"{server.base}/static/{rel}").headers
    font = next(p for p in assets.files if p.endswith(".woff2"))
    for rel in (font, "img/icon-512.png"):
        assert "content-encoding" not in get(f"{server.base}/static/{rel}", GZIP).headers


def test_the_apps_other_text_answers_are_compressed(server: ServerThread) -> None:
    """The API's JSON and the card pictures (SVG) are compressed by the app, for `make
    run` on a LAN as behind nginx; a WebSocket still opens (the room tests use them)."""
    variants = get(f"{server.base}/api/variants", GZIP)
    assert variants.headers["content-encoding"] == "gzip"
    assert b'"variants"' in gzip.decompress(variants.raw)
    images = httpx.get(f"{server.base}/api/decks/default/images").json()["images"]
    card = get(f"{server.base}/decks/default/{images[0]}", GZIP)
    assert card.status_code == 200
    if images[0].endswith(".svg"):
        assert card.headers["content-encoding"] == "gzip"
    assert "content-encoding" not in get(f"{server.base}/healthz", GZIP).headers  # tiny


def test_a_page_names_versioned_files_and_allows_its_import_map_by_hash(
    server: ServerThread,
) -> None:
    code, _ = create_room(server.base, "dixit", 4)
    page = httpx.get(f"{server.base}/r/{code.lower()}", headers={"Accept-Language": "ru,en"})
    html = page.text
    assert page.headers["cache-control"] == "no-cache"
    # One stylesheet, one script: the page's files joined, at versioned addresses.
    links = re.findall(r'<link rel="stylesheet" href="([^"]+)">', html)
    scripts = re.findall(r'<script type="module" src="([^"]+)">', html)
    assert len(links) == 1 and len(scripts) == 1
    for url in [*links, *scripts]:
        assert re.search(r"\?v=[0-9a-f]{12}$", url), url
        r = get(server.base + url)
        assert r.status_code == 200 and "immutable" in r.headers["cache-control"]
    # The import map is the only inline script, allowed by its hash.
    inline = re.findall(r"<script type=\"importmap\">(.*?)</script>", html, re.S)
    assert len(inline) == 1
    digest = base64.b64encode(hashlib.sha256(inline[0].encode()).digest()).decode()
    assert f"'sha256-{digest}'" in page.headers["content-security-policy"]
    assert "'unsafe-inline'" not in page.headers["content-security-policy"].split("script-src")[1]
    # What the scripts fetch first is preloaded: the dictionaries, the room's summary
    # (by the code as the page spells it: upper case), the deck's pictures.
    deck = server.app.state.service.rooms[code].state.setup.deck
    assert [p.split("?")[0] for p in preloads(html)] == [
        "/static/i18n/en.json",
        "/static/i18n/ru.json",
        f"/api/rooms/{code.upper()}",
        f"/api/decks/{deck}/images",
    ]
    # The stylesheets' fonts are at versioned addresses that are served.
    css = get(server.base + links[0]).raw.decode()
    fonts = re.findall(r"url\((/static/fonts/[^)]+)\)", css)
    assert fonts and all("?v=" in f for f in fonts)
    assert get(server.base + fonts[0]).headers["cache-control"].endswith("immutable")


def preloads(html: str) -> list[str]:
    return re.findall(r'<link rel="preload" as="fetch" crossorigin href="([^"]+)">', html)


def test_a_room_preloads_the_deck_only_where_its_game_shows_cards(server: ServerThread) -> None:
    drawing, _ = create_room(server.base, "visual", 4)
    cards, _ = create_room(server.base, "imaginarium", 4)
    assert not [p for p in preloads(httpx.get(f"{server.base}/r/{drawing}").text) if "decks" in p]
    assert [p for p in preloads(httpx.get(f"{server.base}/r/{cards}").text) if "decks" in p]
    # An unknown code: the summary only (the page shows "no such room"), no store read.
    assert [p.split("?")[0] for p in preloads(httpx.get(f"{server.base}/r/ZZZZ99").text)] == [
        "/static/i18n/en.json",
        "/api/rooms/ZZZZ99",
    ]


def test_a_file_edited_while_the_server_runs_is_served_at_the_next_page(tmp_path: Path) -> None:
    (tmp_path / "js").mkdir()
    (tmp_path / "js" / "a.js").write_text("export const a = 1;\n")
    assets = Assets(tmp_path, refresh_every=3600)
    first = assets.files["js/a.js"].version
    assert not assets.refresh()
    time.sleep(0.01)
    (tmp_path / "js" / "a.js").write_text("export const a = 22;\n")
    assets.refresh_due()  # pages soon after the last look: no new look
    assert assets.files["js/a.js"].version == first
    assert assets.refresh()
    assert assets.files["js/a.js"].version != first
    assert f"/static/js/a.js?v={assets.files['js/a.js'].version}" in assets.imap


def test_the_dictionaries_preloaded_follow_the_browsers_languages() -> None:
    assert dictionaries("") == ["en"]
    assert dictionaries("it-IT,it;q=0.9,en;q=0.8") == ["en", "it"]
    assert dictionaries("de-DE,ru;q=0.5") == ["en", "ru"]
    assert dictionaries("en-GB,ru") == ["en"]


def test_a_page_from_one_process_names_only_files_another_process_serves() -> None:
    """Two processes behind one proxy: the files a page of one names (its joined
    stylesheet, its bundle) are there in the other before any page was asked of it."""
    first, second = Assets(STATIC, refresh_every=3600), Assets(STATIC, refresh_every=3600)
    for name in ("index.html", "room.html", "rules.html"):
        html = first.page((STATIC / name).read_text("utf-8"))
        named = re.findall(r'(?:href|src)="/static/([^"?]+)\?v=([0-9a-f]+)"', html)
        assert any(rel.startswith("bundle/") for rel, _ in named), name
        for rel, version in named:
            answer = second.response(rel, Headers(), f"v={version}".encode())
            assert answer.status_code == 200, (name, rel)
            assert answer.headers["etag"] == first.files[rel].etag
