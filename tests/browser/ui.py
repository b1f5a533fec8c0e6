"""Steps a person takes in the Reverie client, for the browser tests."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from tests.browser.conftest import Player

ROOM_URL = re.compile(r".*/r/([A-Z0-9]+)$")


def create_room(
    player: Player,
    name: str,
    variant: str,
    *,
    target_score: int | None = None,
    first_storyteller: str | None = None,
    selects: dict[str, str] | None = None,
) -> str:
    """Create a room through the home page; returns its code."""
    page = player.page
    page.goto("/")
    page.fill("#create-name", name)
    # Games played with a box on the table are listed behind the "with your box" toggle.
    page.wait_for_selector("#variant-dixit", state="attached")
    if not page.locator(f"#variant-{variant}").count():
        page.check("#kind-box", force=True)
    page.check(f"#variant-{variant}", force=True)
    if target_score is not None or first_storyteller is not None or selects:
        page.click(".options-details summary")
        for field, value in (selects or {}).items():
            page.select_option(f"#create [name={field}]", value)
        if target_score is not None:
            page.fill("#create [name=target_score]", str(target_score))
        if first_storyteller is not None:
            page.select_option("#create [name=first_storyteller]", first_storyteller)
    page.click("#create-submit")
    page.wait_for_url(ROOM_URL)
    page.wait_for_selector("#lobby:not([hidden]) .lobby-list")
    m = ROOM_URL.match(page.url)
    assert m, page.url
    return m.group(1)


def join(player: Player, url: str, name: str) -> None:
    """Open an invite link and take a seat."""
    page = player.page
    page.goto(url)
    page.wait_for_selector("#join-form")
    page.fill("#join-name", name)
    page.click("#join-submit")
    page.wait_for_selector("#lobby .lobby-player.is-you")


def add_bots(page: Page, seated: int, n: int) -> None:
    """Add n bots in the lobby, one at a time, once `seated` players are on the host's list.

    The count to wait for is given, not read: a player who joined a moment ago may not be on
    the host's list yet, and a count read then is one short.
    """
    players = page.locator(".lobby-player")
    for k in range(n):
        expect(players).to_have_count(seated + k)
        page.click("#add-bot")
    expect(players).to_have_count(seated + n)


def wait_phase(page: Page, phase: str, timeout: float = 30_000) -> None:
    page.wait_for_selector(f"body[data-phase='{phase}']", state="attached", timeout=timeout)


def choose(page: Page, tile_selector: str) -> None:
    """Tap a card (it opens large) and press "Choose" in the zoom dialog."""
    page.locator(tile_selector).first.click()
    page.locator("#zoom-choose").click()
    expect(page.locator("#zoom")).not_to_be_visible()


def hand(page: Page) -> list[str]:
    """The card numbers in the hand on screen."""
    return [
        c or ""
        for c in page.locator(".hand-row .card-tile").evaluate_all(
            "els => els.map(e => e.dataset.card)"
        )
    ]


def scores(page: Page) -> dict[str, int]:
    """Name → score from the scoreboard."""
    out: dict[str, int] = {}
    for row in page.locator("#scores .score-row").all():
        name = row.locator(".pname").inner_text()
        score = row.locator(".score").evaluate("e => e.firstChild.textContent")
        out[name] = int(score)
    return out
