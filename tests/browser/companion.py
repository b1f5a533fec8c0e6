"""Steps of a companion game (a real box on the table) in the browser, and the table
screen that must never show a secret."""

from __future__ import annotations

import json
from typing import Any

from playwright.sync_api import Page, ViewportSize, expect

from tests.browser.conftest import PHONE, Open, Player, shot
from tests.browser.ui import create_room, join, wait_phase

TABLE_1280: ViewportSize = {"width": 1280, "height": 800}
TABLE_1920: ViewportSize = {"width": 1920, "height": 1080}


class TableScreen:
    """A table screen page and every frame its socket received."""

    def __init__(self, player: Player, code: str) -> None:
        self.player = player
        self.page = player.page
        self.frames: list[dict[str, Any]] = []
        self.page.on("websocket", self._watch)
        self.page.goto(f"/r/{code}?table")
        self.page.wait_for_selector(".table-screen-main")

    def _watch(self, ws: Any) -> None:
        def received(payload: str | bytes) -> None:
            text = payload.decode() if isinstance(payload, bytes) else payload
            self.frames.append(json.loads(text))

        ws.on("framereceived", received)

    def secret_free_html(self) -> str:
        """The table screen's page (markup, attributes included) without the lines that
        say how many have entered, who is awaited and that everyone must look again: while the
        positions and votes come in, nothing else on it may change."""
        html: str = self.page.evaluate(
            """() => {
                const body = document.body.cloneNode(true);
                const counts = '#table-progress, #table-recheck, #table-waiting';
                for (const e of body.querySelectorAll(counts)) e.remove();
                return body.innerHTML;
            }"""
        )
        return html

    def wait_progress(self, placed: int, voted: int) -> None:
        """Wait until the table screen counts this many positions and votes in."""
        self.page.wait_for_selector(
            f"#table-progress[data-placed='{placed}'][data-voted='{voted}']", state="attached"
        )

    def games(self) -> list[dict[str, Any]]:
        return [f["game"] for f in self.frames if f.get("type") == "state" and f.get("game")]

    def assert_no_secrets(self) -> None:
        """No frame the table screen got holds a seat's own entries or a seat at all."""
        games = self.games()
        assert games, "the table screen received no game state"
        for g in games:
            assert g["you"] is None
            assert g.get("my_position") is None and g.get("my_vote") is None
            assert "hand" not in g or g["hand"] is None
        for f in self.frames:
            if f.get("type") == "state":
                assert f["room"]["you"] is None
            assert f.get("type") != "welcome"


def companion_table(
    open_player: Open,
    variant: str,
    names: list[str],
    *,
    first_storyteller: str | None = None,
    lang: str = "en",
) -> tuple[list[Player], str]:
    """A companion room of ``variant`` with one phone per name, in the lobby."""
    phones = [open_player(n, PHONE, lang=lang) for n in names]
    code = create_room(phones[0], names[0], variant, first_storyteller=first_storyteller)
    for phone, name in zip(phones[1:], names[1:], strict=True):
        join(phone, f"/r/{code}", name)
    return phones, code


def start(host: Page) -> None:
    host.click("#start")
    host.wait_for_selector("#stage:not([hidden]) .companion-stage")


def tell(page: Page, text: str = "") -> None:
    if text:
        page.fill("#tell-text", text)
    page.click("#tell")
    wait_phase(page, "count")


def count(page: Page, cards: int) -> None:
    page.fill("#count-cards", str(cards))
    page.click("#count")
    wait_phase(page, "secret")


def place(page: Page, position: int) -> None:
    page.click(f".cpick[data-position='{position}']")
    page.click("#confirm-place")


def vote(page: Page, position: int) -> None:
    page.wait_for_selector("#confirm-vote")
    page.click(f".cpick[data-position='{position}']")
    page.click("#confirm-vote")


def accept_confirms(page: Page) -> None:
    """The table agrees: this page's next confirm() answers yes."""
    page.evaluate("window.confirm = () => true")


def wait_turn(page: Page, turn: int, phase: str) -> None:
    page.wait_for_selector(
        f".companion-stage[data-turn='{turn}'][data-phase='{phase}']", state="attached"
    )


def screenshots(phones: list[Player], table: TableScreen, name: str) -> None:
    shot(phones[0].page, f"{name}-phone", full_page=True)
    shot(table.page, f"{name}-table")
    expect(table.page.locator("#join-qr")).to_be_visible()


Entry = tuple[str, int, int]
"""("place" or "vote", seat, position): one secret entry from a phone."""


def enter(pages: list[Page], table: TableScreen, entries: list[Entry]) -> None:
    """Enter ``entries`` from the phones, one after the other, until the last reveals the
    round. After each, the table screen counts it and, but for the counts, shows
    exactly what it showed before the first: no position and no vote reaches it."""
    table.wait_progress(0, 0)
    before = table.secret_free_html()
    claims: dict[int, int] = {}
    votes: dict[int, int] = {}
    clashes = 0
    for i, (kind, seat, position) in enumerate(entries):
        if kind == "place":
            place(pages[seat], position)
            claims[seat] = position
            votes.pop(seat, None)
            if len(claims) == len(pages) and len(set(claims.values())) < len(claims):
                # All in, two in one place: everyone enters again, nobody is named.
                claims.clear()
                votes.clear()
                clashes += 1
                for p in pages:
                    expect(p.locator("#look-again")).to_be_visible()
                expect(table.page.locator("#table-recheck")).to_have_attribute(
                    "data-clashes", str(clashes)
                )
        else:
            vote(pages[seat], position)
            votes[seat] = position
        if i == len(entries) - 1:
            break
        table.wait_progress(len(claims), len(votes))
        assert table.secret_free_html() == before, f"the table screen changed: {kind} {seat}"


def both_sizes(table: TableScreen, name: str) -> None:
    """Screenshots of the table screen at 1280 and at 1920 pixels wide."""
    size = table.page.viewport_size
    for width, viewport in ((1280, TABLE_1280), (1920, TABLE_1920)):
        table.page.set_viewport_size(viewport)
        shot(table.page, f"{name}-table-{width}")
    if size:
        table.page.set_viewport_size(size)
