"""Reports and a room the operator closed, in Chromium: a player reports another from the
keyboard (the dialog passes axe at 375 and 1280 px, a report without a reason is told
so, the server's ack is told in the dialog and the focus goes back to the button); then
the site's operator closes the room with ``reverie moderation close``: the open page
shows the closed panel and opens no new socket, and a page opened later shows the same."""

from __future__ import annotations

from playwright.sync_api import WebSocket, expect

from tests.browser.axe import assert_accessible
from tests.browser.conftest import DATA_DIRS, DESKTOP, PHONE, Open, shot
from tests.browser.test_removal import _public_room
from tests.browser.ui import join
from tests.test_cli_moderation import cli


def test_report_a_player_then_the_operator_closes_the_room(open_player: Open, server: str) -> None:
    ann = open_player("ann", DESKTOP)
    bob = open_player("bob", PHONE)
    sockets: list[str] = []

    def opened(ws: WebSocket) -> None:
        sockets.append(ws.url)

    bob.page.on("websocket", opened)
    code, token = _public_room(server)
    ann.page.goto(f"/r/{code}#t={token}")
    ann.page.wait_for_selector("#lobby .lobby-player.is-you")
    join(bob, f"/r/{code}", "Bob")
    page = bob.page

    # Bob reports Ann (seat 0) by keyboard: the dialog opens on its first reason.
    page.locator("#report-0").focus()
    page.keyboard.press("Enter")
    dialog = page.locator("#report")
    expect(dialog).to_be_visible()
    expect(dialog.locator("h2")).to_contain_text("Report Ann")
    expect(page.locator("#report-reason-abuse")).to_be_focused()
    for size in (PHONE, DESKTOP):
        page.set_viewport_size(size)
        assert_accessible(page, f"the report dialog at {size['width']} px", "#report")
    page.set_viewport_size(PHONE)
    shot(page, "report-dialog-375")
    # Sent with no reason: the dialog says to choose one, and goes back to the reasons.
    page.keyboard.press("Tab")  # the note
    page.keyboard.press("Tab")  # send
    expect(page.locator("#report-send")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator("#report-error")).to_have_text("Choose a reason for the report.")
    expect(page.locator("#report-reason-abuse")).to_be_focused()
    page.keyboard.press("ArrowDown")  # the next reason, chosen as it gets the focus
    expect(page.locator("#report-reason-hate")).to_be_checked()
    page.keyboard.press("Tab")
    page.keyboard.type("rude in the chat")
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    expect(page.locator("#report-done")).to_have_text(
        "Thank you: your report went to the site's operator."
    )
    expect(page.locator("#report-close")).to_be_focused()
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    expect(page.locator("#report-0")).to_be_focused()
    # The whole table, with a note longer than the box lets one type (its limit taken
    # off): the server's refusal is told in the dialog.
    page.locator("#report-table").click()
    expect(dialog.locator("h2")).to_contain_text("Report this table")
    page.locator("#report-reason-other").check()
    page.locator("#report-text").evaluate("e => e.removeAttribute('maxlength')")
    page.locator("#report-text").fill("x" * 501)
    page.locator("#report-send").click()
    expect(page.locator("#report-error")).to_have_text("This report is too long: shorten it.")
    page.keyboard.press("Escape")
    expect(page.locator("#report-table")).to_be_focused()
    url = f"sqlite:///{DATA_DIRS[server] / 'reverie.db'}"
    listed = cli(url, "reports", "list")
    assert code in listed.output and "hate" in listed.output, listed.output

    # The operator closes the room: both pages say so (within the server's poll) and
    # Bob's opens no new socket (its first reconnect would come within half a second).
    result = cli(url, "close", code, "--reason", "test", "--by", "test")
    assert result.exit_code == 0, result.output
    for p in (ann, bob):
        expect(p.page.locator("#closed-room")).to_contain_text("The site's operator closed")
    expect(page.locator("#closed-play")).to_have_attribute("href", "/play")
    shot(page, "room-closed-375")
    assert_accessible(page, "the closed room at 375 px")
    expect(page.locator("#conn")).to_be_hidden()
    page.wait_for_timeout(1500)
    assert len(sockets) == 1, sockets
    # A page opened now is told at once, on its one socket.
    page.reload()
    expect(page.locator("#closed-room")).to_be_visible()
    page.wait_for_timeout(1500)
    assert len(sockets) == 2, sockets
    for p in (ann, bob):
        assert not p.errors, (p.label, p.errors)
