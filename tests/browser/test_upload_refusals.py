"""Every refusal of an upload reads in the page's language, whoever made it: the app's
codes (new ones included), a proxy's HTML 413, a crash's HTML 500, a gateway's 502, a
lost connection (issue #24, items 4 and 8)."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Route, ViewportSize, expect

from tests.browser.conftest import DESKTOP, PHONE, Open, shot
from tests.pictures import numbered

HTML_413 = "<html><head><title>413 Request Entity Too Large</title></head></html>"
REPLIES: dict[str, tuple[int, str, str]] = {
    # name: (status, content type, body)
    "budget.png": (
        200,
        "application/json",
        '{"results": [{"name": "budget.png", "ok": false, "code": "upload_pixels",'
        ' "message": "One upload decodes at most 200 million pixels.",'
        ' "params": {"megapixels": 200}}]}',
    ),
    "future.png": (
        200,
        "application/json",
        '{"results": [{"name": "future.png", "ok": false, "code": "some_new_code",'
        ' "message": "A reason this page has no words for.", "params": {}}]}',
    ),
    "proxy.png": (413, "text/html", HTML_413),
    "crash.png": (500, "text/plain", "Internal Server Error"),
    "gateway.png": (502, "text/html", "<html>502 Bad Gateway</html>"),
    "busy.png": (
        503,
        "application/json",
        '{"error": {"code": "busy", "message": "Too many pictures at once; try again soon."}}',
    ),
}
EXPECTED = {
    "ru": {
        "budget.png": "не больше 200 млн",
        "future.png": "сервер отказал: A reason this page has no words for.",
        "proxy.png": "больше 25 МБ",
        "crash.png": "ошибка 500",
        "gateway.png": "сервер не отвечает",
        "busy.png": "сервер занят",
        "lost.png": "связь прервалась",
    },
    "it": {
        "budget.png": "al massimo 200 milioni",
        "future.png": "rifiutato dal server: A reason this page has no words for.",
        "proxy.png": "25 MB",
        "crash.png": "errore 500",
        "gateway.png": "il server non risponde",
        "busy.png": "il server è occupato",
        "lost.png": "la connessione si è interrotta",
    },
}


@pytest.mark.parametrize(("lang", "viewport"), [("ru", PHONE), ("it", DESKTOP)])
def test_each_refusal_is_said_in_the_readers_language(
    open_player: Open, tmp_path: Path, lang: str, viewport: ViewportSize
) -> None:
    player = open_player("host", viewport, lang=lang)
    page = player.page

    def reply(route: Route) -> None:
        name = route.request.url.split("name=")[1].split("&")[0]
        if name == "lost.png":
            route.abort("connectionreset")
            return
        status, kind, body = REPLIES[name]
        route.fulfill(status=status, content_type=kind, body=body)

    page.route("**/api/decks/*/pictures?*", reply)
    page.goto("/decks/new")
    paths = []
    for i, name in enumerate([*REPLIES, "lost.png"]):
        path = tmp_path / name
        path.write_bytes(numbered(i))
        paths.append(path)
    page.set_input_files("#files", paths)
    page.click("#upload")
    refused = page.locator("#refused li")
    expect(refused).to_have_count(len(paths), timeout=20_000)
    for name, text in EXPECTED[lang].items():
        item = refused.filter(has_text=name)
        expect(item).to_contain_text(text)
        assert "HTTP" not in item.inner_text()
    page.locator("#refused").scroll_into_view_if_needed()
    shot(page, f"refusals-{lang}-{viewport['width']}", full_page=True)
