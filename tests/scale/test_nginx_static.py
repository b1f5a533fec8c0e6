"""The client's files through the shipped nginx config (deploy/nginx/reverie.conf): a
phone gets them compressed and with the app's cache headers, and revalidation still
answers 304 (issue #30). One app process (SQLite) behind nginx is enough here."""

from __future__ import annotations

import gzip
import re
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.scale.cluster import Nginx
from tests.web.harness import ServerThread, create_room


@pytest.fixture
def proxied(tmp_path: Path) -> Iterator[tuple[ServerThread, Nginx]]:
    app = ServerThread(tmp_path).start()
    nginx = Nginx(tmp_path, [app.port, app.port])
    try:
        nginx.start()
        yield app, nginx
    finally:
        nginx.stop()
        app.stop()


def raw(url: str, **headers: str) -> tuple[httpx.Response, bytes]:
    with httpx.Client() as client, client.stream("GET", url, headers=headers) as r:
        return r, b"".join(r.iter_raw())


def test_files_come_compressed_cached_and_revalidated_through_nginx(
    proxied: tuple[ServerThread, Nginx],
) -> None:
    app, nginx = proxied
    code, _ = create_room(app.base, "dixit", 4)
    page, body = raw(f"{nginx.base}/r/{code}", **{"Accept-Encoding": "gzip"})
    assert page.headers["content-encoding"] == "gzip"
    html = gzip.decompress(body).decode()
    script = re.search(r'<script type="module" src="([^"]+)">', html)
    assert script is not None
    res, js = raw(nginx.base + script[1], **{"Accept-Encoding": "gzip"})
    assert res.headers["content-encoding"] == "gzip"
    assert res.headers["cache-control"] == "public, max-age=31536000, immutable"
    assert b"__reverie_modules" in gzip.decompress(js)
    plain, _ = raw(f"{nginx.base}/static/js/dom.js", **{"Accept-Encoding": "identity"})
    assert plain.headers["cache-control"] == "no-cache"
    again, empty = raw(
        f"{nginx.base}/static/js/dom.js",
        **{"Accept-Encoding": "identity", "If-None-Match": plain.headers["etag"]},
    )
    assert again.status_code == 304 and empty == b""
    api, data = raw(f"{nginx.base}/api/variants", **{"Accept-Encoding": "gzip"})
    assert api.headers["content-encoding"] == "gzip"
    assert b'"variants"' in gzip.decompress(data)
