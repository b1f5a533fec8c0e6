"""Decks are data: a raster deck dropped into content/decks plugs in like the default."""

from __future__ import annotations

import base64
import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from reverie.content.decks import content_dir

from .harness import ServerThread

# A 1×1 PNG: enough to prove raster cards are served as they are.
PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
)
CAPTION = {"en": "a photo", "ru": "фотография", "it": "una foto"}


@pytest.fixture
def photo_server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[ServerThread]:
    content = tmp_path / "content"
    shutil.copytree(content_dir() / "decks" / "default", content / "decks" / "default")
    deck = content / "decks" / "photos"
    (deck / "img").mkdir(parents=True)
    cards = []
    for i in range(3):
        (deck / "img" / f"p{i}.png").write_bytes(PNG)
        cards.append({"id": f"p{i}", "image": f"img/p{i}.png"})
    manifest = {"name": "photos", "title": {"en": "Photos", "ru": "Фото", "it": "Foto"},
                "count": 3, "cards": cards}  # fmt: skip
    (deck / "manifest.json").write_text(json.dumps(manifest))
    meta = {"cards": {c["id"]: {"caption": CAPTION, "elements": []} for c in cards}}
    (deck / "meta.json").write_text(json.dumps(meta))
    (deck / "secret.png").write_bytes(PNG)  # in the folder but not in the manifest
    monkeypatch.setenv("REVERIE_CONTENT_DIR", str(content))
    srv = ServerThread(tmp_path / "data").start()
    try:
        yield srv
    finally:
        srv.stop()


def test_a_raster_deck_is_listed_and_served(photo_server: ServerThread) -> None:
    base = photo_server.base
    names = {d["name"] for d in httpx.get(f"{base}/api/decks").json()}
    assert names == {"default", "photos"}
    images = httpx.get(f"{base}/api/decks/photos/images").json()["images"]
    assert images == ["img/p0.png", "img/p1.png", "img/p2.png"]
    r = httpx.get(f"{base}/decks/photos/img/p1.png")
    assert r.status_code == 200 and r.content == PNG
    assert r.headers["content-type"] == "image/png"
    assert "caption" not in json.dumps(httpx.get(f"{base}/api/decks/photos/images").json())
    # Only what the manifest lists is served.
    assert httpx.get(f"{base}/decks/photos/secret.png").status_code == 404
    assert httpx.get(f"{base}/decks/photos/manifest.json").status_code == 404
    assert httpx.get(f"{base}/decks/photos/meta.json").status_code == 404
    assert httpx.get(f"{base}/decks/nope/img/p1.png").status_code == 404
    assert httpx.get(f"{base}/decks/default/cards/c001.svg").status_code == 200
