"""A room added to the home screen opens that room: the room page links a manifest whose
start address, resolved as a browser does (against the manifest's own URL), is the room."""

from __future__ import annotations

from html.parser import HTMLParser
from urllib.parse import urljoin

import httpx

from .harness import ServerThread, create_room


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.manifests: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "link" and a.get("rel") == "manifest" and a.get("href"):
            self.manifests.append(a["href"] or "")


def _manifest_of(page_url: str) -> tuple[str, dict[str, object]]:
    """The manifest a page links: (its absolute URL, its members)."""
    page = httpx.get(page_url)
    assert page.status_code == 200
    links = _Links()
    links.feed(page.text)
    assert len(links.manifests) == 1, links.manifests
    url = urljoin(page_url, links.manifests[0])
    r = httpx.get(url)
    assert r.status_code == 200, r.text
    assert r.headers["content-type"].startswith("application/manifest+json")
    return url, r.json()


def test_the_room_page_links_a_manifest_that_starts_in_the_room(server: ServerThread) -> None:
    code, _ = create_room(server.base, "dixit", 3)
    room = f"{server.base}/r/{code}"
    url, m = _manifest_of(room)
    # Relative members resolve against the manifest's URL (not the page's).
    start = urljoin(url, str(m["start_url"]))
    scope = urljoin(url, str(m["scope"]))
    assert start == room
    assert start.startswith(scope) and room.startswith(scope)
    assert urljoin(url, str(m["id"])) == room
    assert m["display"] == "standalone" and code in str(m["name"])
    assert isinstance(m["icons"], list)
    for icon in m["icons"]:
        assert httpx.get(urljoin(url, icon["src"])).status_code == 200, icon
    # Another room is another app, starting in that room.
    other, _ = create_room(server.base, "imaginarium", 3)
    _, m2 = _manifest_of(f"{server.base}/r/{other}")
    assert m2["start_url"] == f"/r/{other}" and m2["id"] != m["id"]


def test_the_table_screen_starts_on_the_table_screen(server: ServerThread) -> None:
    code, _ = create_room(server.base, "dixit", 3)
    url, m = _manifest_of(f"{server.base}/r/{code}?table")
    assert urljoin(url, str(m["start_url"])) == f"{server.base}/r/{code}?table"
    assert urljoin(url, str(m["scope"])) == f"{server.base}/r/{code}"


def test_other_pages_keep_the_site_manifest(server: ServerThread) -> None:
    url, m = _manifest_of(f"{server.base}/")
    assert urljoin(url, str(m["start_url"])) == f"{server.base}/"


def test_a_code_no_room_can_have_builds_no_address(server: ServerThread) -> None:
    bad = "%22%3E%3Cscript%3E"  # '"><script>'
    page = httpx.get(f"{server.base}/r/{bad}")
    assert page.status_code == 200 and "<script>" not in page.text.replace(
        '<script type="module"', ""
    )
    assert 'href="/static/manifest.webmanifest"' in page.text
    r = httpx.get(f"{server.base}/r/{bad}/manifest.webmanifest")
    assert r.status_code == 404 and r.json()["error"]["code"] == "unknown_room"
