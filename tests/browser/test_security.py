"""Names, clues and chat lines are text, never markup."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.browser.conftest import DESKTOP, PHONE, Open, shot
from tests.browser.ui import add_bots, choose, create_room, wait_phase

NAME = "<svg onload=alert(1)>"
CLUE = "<img src=x onerror=alert(1)>"


def test_script_injection_shows_as_text(open_player: Open) -> None:
    host = open_player("host", DESKTOP)
    code = create_room(host, NAME, "dixit", first_storyteller="0")
    add_bots(host.page, 1, 2)
    expect(host.page.locator(".lobby-player.is-you .pname")).to_have_text(NAME)
    host.page.click("#start")
    wait_phase(host.page, "clue")
    expect(host.page.locator("#clue-form")).to_be_visible()
    choose(host.page, ".hand-row .card-tile")
    host.page.fill("#clue-text", CLUE)
    host.page.press("#clue-text", "Enter")
    # Let the clue land first: the bots then play the round out in a burst of updates.
    expect(host.page.locator("#clue-form")).to_have_count(0)
    host.page.fill("#chat-input", CLUE)
    host.page.press("#chat-input", "Enter")
    expect(host.page.locator("#chat-list .chat-text")).to_have_text([CLUE])

    watcher = open_player("watcher", PHONE)
    watcher.page.goto(f"/r/{code}")
    expect(watcher.page.locator("#gate")).to_be_visible()
    watcher.page.click("#gate-watch")
    expect(watcher.page.locator("#status-you")).to_have_text("Watching")
    expect(watcher.page.locator("#chat-list .chat-text")).to_have_text([CLUE])
    expect(watcher.page.locator("#scores .pname").first).to_have_text(NAME)
    # Spectators see the table but no hand and cannot chat.
    expect(watcher.page.locator(".hand-row")).to_have_count(0)
    expect(watcher.page.locator("#chat-input")).to_have_count(0)

    # Bots add their cards and vote at once: the round is revealed with the clue as text.
    panel = host.page.locator("#reveal-panel[data-turn='1']")
    expect(panel.locator(".clue-text")).to_have_text(CLUE)
    # The watcher came after the reveal: the log opens it.
    expect(watcher.page.locator("#log q").first).to_have_text(CLUE)
    watcher.page.click("#show-reveal")
    expect(watcher.page.locator("#reveal-panel .clue-text")).to_have_text(CLUE)
    shot(watcher.page, "injection-375", full_page=True)
    for p in (host, watcher):
        assert p.page.locator("img[src='x']").count() == 0
        assert p.page.locator("svg[onload]").count() == 0
        assert p.page.evaluate("document.body.innerHTML.includes('<img src=\"x\"')") is False
        assert not p.dialogs, p.dialogs
        assert not p.errors, p.errors
