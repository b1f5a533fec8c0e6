"""The smaller promises: restrictions, the countdown, polite errors, the language switch."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.browser.conftest import DESKTOP, Open, shot
from tests.browser.playtest import PAGE_TEXT, PROPER
from tests.browser.ui import add_bots, choose, create_room, wait_phase


def test_restriction_timer_errors_and_language(open_player: Open) -> None:
    ann = open_player("ann", DESKTOP)
    page = ann.page
    create_room(
        ann,
        "Ann",
        "imaginarium",
        first_storyteller="0",
        selects={"restrictions": "four_words", "clue_seconds": "90"},
    )
    add_bots(page, 1, 2)
    page.click("#start")
    wait_phase(page, "clue")

    # The restriction of the turn is spelled out, and the clue is checked before sending.
    expect(page.locator(".restriction-box")).to_contain_text("Four words")
    expect(page.locator("#countdown")).to_be_visible()
    expect(page.locator("#countdown .count")).to_have_text(re.compile(r"^1:[23]\d$"))
    choose(page, ".hand-row .card-tile")
    page.fill("#clue-text", "two words")
    expect(page.locator("#clue-hint")).to_contain_text("exactly 4 words")
    page.press("#clue-text", "Enter")
    expect(page.locator(".toast")).to_contain_text("exactly 4 words")
    shot(page, "imaginarium-clue-1280", full_page=True)

    # The server's chat limit comes back as a polite message. The eight lines go in one
    # task of the page: typed one by one, a loaded machine (CI) spaced them past the limit.
    page.evaluate(
        """() => {
            const input = document.querySelector("#chat-input");
            for (let i = 0; i < 8; i++) {
                input.value = `hello ${i}`;
                input.form.requestSubmit();
            }
        }"""
    )
    expect(page.locator(".toast", has_text="one message a second")).to_be_visible()

    # The language switch translates the page and is remembered.
    page.select_option(".lang-select", "ru")
    expect(page.locator(".restriction-box")).to_contain_text("Четыре слова")
    expect(page.locator("#status-text")).to_contain_text("Ход 1")
    assert page.evaluate("localStorage.getItem('reverie:lang')") == "ru"
    # Nothing of the English page is left behind, labels included (the refusals shown
    # in English a moment ago are gone too; a closed dialog is not on the page).
    names = [x.strip() for x in page.locator("#scores .pname").all_inner_texts()]
    text = str(page.evaluate(PAGE_TEXT.replace("'q, ", "'dialog:not([open]), q, ")))
    for word in sorted([*names, *PROPER, page.url.rsplit("/", 1)[-1]], key=len, reverse=True):
        text = text.replace(word, "")
    left = re.findall(r".{0,30}[A-Za-z]{2,}.{0,30}", text)
    assert not left, left
    page.reload()
    expect(page.locator("#status-text")).to_contain_text("Ход 1")
    shot(page, "imaginarium-clue-ru-1280", full_page=True)

    choose(page, ".hand-row .card-tile")
    page.fill("#clue-text", "ночь тиха и светла")
    page.press("#clue-text", "Enter")
    # The bots add their cards and vote at once.
    panel = page.locator("#reveal-panel[data-turn='1']")
    expect(panel.locator(".clue-text")).to_have_text("ночь тиха и светла")
    expect(panel.locator(".verify")).to_have_text("Проверено")
    assert not ann.errors, ann.errors
    assert not ann.dialogs, ann.dialogs


def test_keyboard_only_turn(open_player: Open) -> None:
    """Real buttons: Tab to a card, Enter zooms, Enter chooses, type, Enter tells."""
    ann = open_player("ann", DESKTOP)
    page = ann.page
    create_room(ann, "Ann", "dixit", first_storyteller="0")
    add_bots(page, 1, 2)
    page.focus("#start")
    page.keyboard.press("Enter")
    wait_phase(page, "clue")

    page.focus(".hand-row .card-tile >> nth=1")
    page.keyboard.press("Enter")
    expect(page.locator("#zoom")).to_be_visible()
    page.keyboard.press("Escape")
    expect(page.locator("#zoom")).to_be_hidden()
    expect(page.locator(".hand-row .card-tile").nth(1)).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator("#zoom-choose")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator("#clue-text")).to_be_focused()
    expect(page.locator(".hand-row .card-tile.selected")).to_have_count(1)
    page.keyboard.type("Late light")
    page.keyboard.press("Enter")
    expect(page.locator("#reveal-panel[data-turn='1'] .clue-text")).to_have_text("Late light")
    # The one live region is the announcer's (the status line would speak every move).
    assert page.locator("#announcer").get_attribute("aria-live") == "polite"
    assert page.locator("#status-text").get_attribute("aria-live") is None
    assert not ann.errors, ann.errors
