"""Reload, a second device, and a seat handed to a bot and taken back."""

from __future__ import annotations

import time
from pathlib import Path

from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import (
    DESKTOP,
    PHONE,
    Open,
    Player,
    free_port,
    shot,
    start_server,
    stop_server,
)
from tests.browser.ui import add_bots, choose, create_room, hand, join


def _until_i_must_play(page: Page, timeout: float = 15.0) -> None:
    """Play the storyteller's part when it falls to us, until we must add a card."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if page.locator("#confirm-card").count():
            return
        if page.locator("#claim").count():
            page.click("#claim")
        if page.locator("#clue-form").count():
            choose(page, ".hand-row .card-tile")
            page.fill("#clue-text", "Somewhere far")
            page.press("#clue-text", "Enter")
            page.wait_for_timeout(300)
        page.wait_for_timeout(100)
    raise AssertionError("never had to add a card")


def test_reload_mid_round_keeps_seat_and_hand(open_player: Open) -> None:
    ann = open_player("ann", PHONE)
    code = create_room(ann, "Ann", "dixit")
    add_bots(ann.page, 1, 2)
    ann.page.click("#start")
    _until_i_must_play(ann.page)
    before = hand(ann.page)
    assert len(before) == 6
    token = ann.page.evaluate(f"localStorage.getItem('reverie:token:{code}')")
    assert token

    ann.page.reload()
    expect(ann.page.locator("#confirm-card")).to_be_visible()
    assert hand(ann.page) == before
    expect(ann.page.locator("#scores .score-row.is-you .pname")).to_have_text("Ann")
    expect(ann.page.locator("#gate")).to_be_hidden()

    # The "move to another device" link opens the same seat elsewhere, then drops the hash.
    ann.page.click(".move-device summary")
    link = ann.page.input_value("#seat-link")
    assert link.endswith(f"/r/{code}#t={token}")
    other = open_player("ann-laptop", DESKTOP)
    other.page.goto(link)
    expect(other.page.locator("#confirm-card")).to_be_visible()
    assert "#" not in other.page.url
    assert hand(other.page) == before
    stored = other.page.evaluate(f"localStorage.getItem('reverie:token:{code}')")
    assert stored == token
    choose(other.page, ".hand-row .card-tile")
    other.page.click("#confirm-card")
    expect(other.page.locator("#confirm-card")).to_have_count(0)
    # The first device follows along.
    expect(ann.page.locator("#confirm-card")).to_have_count(0)
    assert not ann.errors and not other.errors, (ann.errors, other.errors)


def test_hand_seat_to_bot_and_take_it_back(open_player: Open) -> None:
    ann = open_player("ann", DESKTOP)
    bob = open_player("bob", PHONE)
    create_room(ann, "Ann", "pictoric")
    join(bob, ann.page.input_value("#invite-link"), "Bob")
    add_bots(ann.page, 2, 1)
    ann.page.click("#start")
    expect(bob.page.locator("body[data-status='playing']")).to_be_attached()
    bob.page.click(".move-device summary")
    seat_link = bob.page.input_value("#seat-link")
    bob.page.close()

    row = ann.page.locator("#scores .score-row", has_text="Bob")
    expect(row.locator(".tag-off")).to_be_visible()
    row.locator(".seat-bot").click()
    expect(row.locator(".tag-warn")).to_be_visible()  # "a bot plays"
    shot(ann.page, "seat-handed-to-bot-1280", full_page=True)

    back = bob.context.new_page()
    back.goto(seat_link)
    expect(back.locator("#reclaim")).to_be_visible()
    shot(back, "reclaim-375", full_page=True)
    back.click("#reclaim")
    expect(back.locator("#reclaim")).to_have_count(0)
    expect(row.locator(".tag-warn")).to_have_count(0)
    assert not ann.errors, ann.errors


def test_server_restart_reconnects(browser: Browser, tmp_path: Path) -> None:
    """The network goes away mid-game: the page says so, retries, and finds its seat again."""
    port = free_port()
    proc = start_server(tmp_path, port)
    try:
        ctx = browser.new_context(viewport=PHONE, base_url=f"http://127.0.0.1:{port}")
        ctx.set_default_timeout(30_000)
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        player = Player(ctx, page, "ann")
        create_room(player, "Ann", "dixit")
        add_bots(page, 1, 2)
        page.click("#start")
        _until_i_must_play(page)
        before = hand(page)

        stop_server(proc)
        expect(page.locator("#conn")).to_be_visible()
        expect(page.locator("#conn")).to_contain_text("Reconnecting")
        shot(page, "connection-lost-375")
        proc = start_server(tmp_path, port)
        expect(page.locator("#conn")).to_be_hidden()
        expect(page.locator("#confirm-card")).to_be_visible()
        assert hand(page) == before
        assert not errors, errors
        ctx.close()
    finally:
        stop_server(proc)
