"""Uploads through the shipped nginx config (deploy/nginx/reverie.conf): a picture the
app allows passes the proxy, and every refusal, the proxy's own included, is JSON with a
code the page translates (issue #24, item 4)."""

from __future__ import annotations

import io
import random
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from PIL import Image

from tests.scale.cluster import Nginx, Process

pytestmark = pytest.mark.slow

OWNER = "x-deck-owner"


@pytest.fixture
def proxied(tmp_path: Path) -> Iterator[str]:
    """One server process (SQLite, no Redis) behind nginx; the proxy's base URL (its
    error log is ``nginx-error.log`` in ``tmp_path``)."""
    server = Process(tmp_path, f"sqlite:///{tmp_path / 'reverie.db'}", "memory://").start()
    try:
        nginx = Nginx(tmp_path, [server.port]).start()
        try:
            yield nginx.base
        finally:
            nginx.stop()
    finally:
        server.stop()


def noise_png(side: int) -> bytes:
    """A picture that does not compress: about 3 × side² bytes."""
    rnd = random.Random(side)
    img = Image.frombytes("RGB", (side, side), rnd.randbytes(3 * side * side))
    out = io.BytesIO()
    img.save(out, "PNG", compress_level=1)
    return out.getvalue()


def error_code(r: httpx.Response) -> str:
    assert r.headers["content-type"].startswith("application/json"), r.text[:200]
    code: str = r.json()["error"]["code"]
    return code


def test_a_picture_of_several_megabytes_passes_the_proxy(proxied: str) -> None:
    deck = httpx.post(f"{proxied}/api/decks").json()
    big = noise_png(1400)  # about 6 MB: nginx's old 1 MB bound refused it with HTML
    assert len(big) > 5_000_000
    r = httpx.post(
        f"{proxied}/api/decks/{deck['deck']}/pictures",
        params={"name": "big.png"},
        content=big,
        headers={OWNER: deck["owner"]},
        timeout=120,
    )
    assert r.status_code == 200, r.text[:300]
    assert [x["ok"] for x in r.json()["results"]] == [True]
    assert deck["limits"]["file_bytes"] == 25_000_000


@pytest.mark.parametrize(
    ("size", "who"),
    # Past the app's 25 MB but within nginx's 25 MiB: the app refuses; past both: nginx.
    [(25_500_000, "app"), (27_000_000, "nginx")],
)
def test_a_file_past_the_limit_is_refused_in_json_by_whoever_sees_it_first(
    proxied: str, tmp_path: Path, size: int, who: str
) -> None:
    deck = httpx.post(f"{proxied}/api/decks").json()
    r = httpx.post(
        f"{proxied}/api/decks/{deck['deck']}/pictures",
        params={"name": "huge.png"},
        content=b"\0" * size,
        headers={OWNER: deck["owner"]},
        timeout=120,
    )
    assert r.status_code == 413
    assert error_code(r) == "file_too_large"
    assert r.json()["error"]["params"] == {"mb": 25}
    log = (tmp_path / "nginx-error.log").read_text()
    assert ("client intended to send too large body" in log) == (who == "nginx")


def test_other_requests_past_the_proxys_bound_are_refused_in_json(proxied: str) -> None:
    for path in ("/api/rooms", "/"):
        r = httpx.post(f"{proxied}{path}", content=b"{" + b" " * 2_000_000 + b"}", timeout=60)
        assert r.status_code == 413 and error_code(r) == "too_large"
