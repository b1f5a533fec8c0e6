"""The open tables page in real browsers: two strangers tap play now for Dixit in
Italian and meet at one table with bots, which starts by itself; the page is swept by
axe-core at 375 and 1280 px and is used with the keyboard."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.browser.axe import assert_accessible
from tests.browser.conftest import DESKTOP, PHONE, Open


def test_two_strangers_meet_at_a_table_with_bots_that_starts(open_player: Open) -> None:
    ann = open_player("ann", PHONE, lang="it")
    bea = open_player("bea", DESKTOP, lang="it")
    for player, name in ((ann, "Anna"), (bea, "Bea")):
        page = player.page
        page.goto("/play")
        expect(page.locator("h1")).to_have_text("Tavoli aperti")
        page.locator("#play-game").select_option("dixit")
        page.locator("#play-lang").select_option("it")
        assert_accessible(page, f"/play ({player.label})")
        # The keyboard: the name field, then Enter submits play now.
        page.locator("#play-name").focus()
        page.keyboard.type(name)
        page.keyboard.press("Enter")
        page.wait_for_url(re.compile(r"/r/[A-Z0-9]{6}$"))
        if player is ann:
            # Ann opened the table, so she hosts it: its lobby's switch says it is public
            # (the table starts by itself only REVERIE_PLAY_START_SECONDS, 5, after).
            expect(page.locator("#lobby-public")).to_be_checked()
    assert ann.page.url == bea.page.url  # the second joined the first's table
    for player in (ann, bea):
        # The table starts by itself with bots in the two empty seats.
        # (the body's data-phase is empty in the lobby and names the game's phase after).
        player.page.wait_for_selector("body[data-phase]:not([data-phase=''])", state="attached")
        assert not player.errors, player.errors
