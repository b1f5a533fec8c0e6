"""Words typed in the drawing game's own-words box are kept when the host creates the
room without pressing "Use these words", or the room waits with the reason (issue #24,
item 10)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import ViewportSize, expect

from tests.browser.conftest import DESKTOP, PHONE, Open, shot


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["375", "1280"])
def test_typed_words_are_kept_when_the_room_is_created(
    open_player: Open, room_log: object, viewport: ViewportSize
) -> None:
    host = open_player("host", viewport)
    page = host.page
    page.goto("/")
    page.fill("#create-name", "Wendy")
    page.check("#variant-visual", force=True)
    page.click(".options-details summary")
    page.click(".words-editor summary")
    # Too few, never saved: the room is not created, and the box says why.
    page.locator("textarea[data-category=objects]").fill("one\ntwo")
    page.click("#create-submit")
    expect(page.locator(".toast-error")).to_contain_text("Your own words were not kept")
    expect(page.locator(".words-problems")).to_contain_text("at least 10")
    shot(page, f"words-refused-{viewport['width']}", full_page=True)
    assert "/r/" not in page.url
    # Enough words, still never saved with the button: created with them.
    words = [f"thing{i}" for i in range(12)]
    page.locator("textarea[data-category=objects]").fill("\n".join(words))
    page.click("#create-submit")
    page.wait_for_url(re.compile(r".*/r/[A-Z0-9]+$"))
    code = page.url.rsplit("/", 1)[-1]
    room = room_log(code)  # type: ignore[operator]
    assert room.options.words.startswith("w-")
    expect(page.locator("#lobby-words-summary")).to_contain_text("Objects: 12")
    shot(page, f"words-lobby-{viewport['width']}")
