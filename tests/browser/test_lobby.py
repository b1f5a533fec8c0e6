"""The lobby: join by code, seat order, bots, kick, host hand-over, options."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.browser.conftest import DESKTOP, PHONE, Open, shot
from tests.browser.ui import create_room


def test_lobby_host_controls(open_player: Open) -> None:
    ann = open_player("ann", DESKTOP)
    bob = open_player("bob", PHONE, lang="it")
    code = create_room(ann, "Ann", "imaginarium")

    # Bob joins by typing the code on the home page (the page speaks his language).
    bob.page.goto("/")
    expect(bob.page.locator("#join-h")).to_have_text("Entra in una stanza")
    bob.page.fill("#join-code", code.lower())
    bob.page.press("#join-code", "Enter")
    bob.page.wait_for_url(f"**/r/{code}")
    bob.page.fill("#join-name", "Bob")
    bob.page.click("#join-submit")
    expect(bob.page.locator(".lobby-player.is-you .pname")).to_have_text("Bob")

    names = ann.page.locator(".lobby-player .pname")
    ann.page.click("#add-bot")
    expect(names).to_have_count(3)
    bot = names.nth(2).inner_text()
    expect(ann.page.locator(".lobby-player").nth(2).locator(".tag-bot")).to_be_visible()
    # Move the bot up one seat.
    ann.page.locator(".lobby-player").nth(2).locator(".lobby-tools button").first.click()
    expect(names).to_have_text(["Ann", bot, "Bob"])
    expect(bob.page.locator(".lobby-player .pname")).to_have_text(["Ann", bot, "Bob"])
    # Remove it.
    ann.page.locator(".lobby-player").nth(1).locator(".btn-danger").click()
    expect(names).to_have_text(["Ann", "Bob"])

    # The host changes the options; the others see them, read-only.
    ann.page.select_option("#lobby-options [name=seats]", "4")
    ann.page.select_option("#lobby-options [name=restrictions]", "question")
    expect(ann.page.locator("#status-text")).to_contain_text("of 4 seats")
    bob.page.click(".lobby-options-box summary")
    expect(bob.page.locator("#lobby-options [name=seats]")).to_have_value("4")
    expect(bob.page.locator("#lobby-options [name=restrictions]")).to_have_value("question")
    expect(bob.page.locator("#lobby-options [name=seats]")).to_be_disabled()
    expect(bob.page.locator("#start")).to_have_count(0)
    # The text filter: mild unless the host says otherwise; its words reach Bob masked.
    expect(bob.page.locator("#lobby-options [name=text_filter]")).to_have_value("mild")
    ann.page.select_option("#lobby-options [name=text_filter]", "strict")
    expect(bob.page.locator("#lobby-options [name=text_filter]")).to_have_value("strict")
    expect(bob.page.locator("#lobby-options [name=text_filter]")).to_be_disabled()
    ann.page.fill("#chat-input", "a nude shiitake")
    ann.page.press("#chat-input", "Enter")
    expect(bob.page.locator("#chat-list")).to_contain_text("a **** shiitake")
    shot(bob.page, "lobby-guest-it-375", full_page=True)

    # Hand the host role to Bob.
    ann.page.locator(".lobby-player", has_text="Bob").locator(".lobby-tools button").nth(2).click()
    expect(bob.page.locator("#start")).to_be_visible()
    expect(bob.page.locator("#start")).to_be_disabled()  # two players are not enough
    expect(ann.page.locator("#start")).to_have_count(0)
    assert not ann.errors and not bob.errors, (ann.errors, bob.errors)
