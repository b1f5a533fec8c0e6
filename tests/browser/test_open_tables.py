"""The open tables page in real browsers: two strangers tap play now for Dixit in
Italian and meet at one table with bots, which starts by itself (the second's open list
shows the first's table without a reload); a third taps play now mid-game, watches as
one queued, takes a bot's seat with its hand and score when the turn ends, and the
(short) game finishes. The pages are swept by axe-core at 375 and
1280 px and used with the keyboard."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from playwright.sync_api import Page, expect

from tests.browser.axe import assert_accessible
from tests.browser.conftest import DESKTOP, PHONE, Open
from tests.browser.ui import choose, hand, scores


def _act(page: Page) -> None:
    """Whatever this person must do now in the Dixit game, if anything (a state that
    moves on under a click is looked at again on the next call)."""
    try:
        if page.locator("#clue-form").count():
            tiles = page.locator(".hand-row .card-tile[aria-pressed]")
            if tiles.count():
                choose(page, ".hand-row .card-tile")
            page.fill("#clue-text", "il mare", timeout=2000)
            page.click("#clue-submit", timeout=2000)
        elif page.locator("#confirm-card").count():
            choose(page, ".hand-row .card-tile")
            page.click("#confirm-card", timeout=2000)
        elif page.locator("#confirm-vote").count():
            choose(page, ".vote-row .card-tile:not(.mine)")
            page.click("#confirm-vote", timeout=2000)
        else:
            page.wait_for_timeout(100)
    except Exception as exc:  # moved on meanwhile (a timeout): look again
        if "Timeout" not in type(exc).__name__:
            raise


def test_two_strangers_meet_at_a_table_with_bots_that_starts(
    open_player: Open, room_log: Callable[[str], Any]
) -> None:
    ann = open_player("ann", PHONE, lang="it")
    bea = open_player("bea", DESKTOP, lang="it")
    for player in (bea, ann):  # Bea's list is open before Anna opens a table
        page = player.page
        page.goto("/play")
        expect(page.locator("h1")).to_have_text("Tavoli aperti")
        page.locator("#play-game").select_option("dixit")
        page.locator("#play-lang").select_option("it")
    for player, name in ((ann, "Anna"), (bea, "Bea")):
        page = player.page
        if player is bea:  # Anna's table came onto Bea's list by itself, no reload
            mine = ann.page.url.rsplit("/", 1)[-1]
            expect(page.locator(f".open-table:has(a[href='/r/{mine}'])")).to_be_visible()
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
            # A short game that she tells first: 8 points end it, and no first turn can
            # decide it (6 points; a turn gives at most 5), so a seat is still taken.
            # (one options frame: the choice sends the form with the score typed in it)
            page.fill("#lobby-target_score", "8")
            page.select_option("#lobby-first_storyteller", "0")
            expect(page.locator("#lobby-target_score")).to_have_value("8")
            expect(page.locator("#lobby-first_storyteller")).to_have_value("0")
    assert ann.page.url == bea.page.url  # the second joined the first's table
    for player in (ann, bea):
        # The table starts by itself with bots in the two empty seats.
        # (the body's data-phase is empty in the lobby and names the game's phase after).
        player.page.wait_for_selector("body[data-phase]:not([data-phase=''])", state="attached")
        assert not player.errors, player.errors

    # Cleo taps play now while turn 1 waits for Anna's clue: there is no waiting table,
    # and this one has people and bots' seats, so she is queued for one.
    cleo = open_player("cleo", PHONE, lang="it")
    page = cleo.page
    page.goto("/play")
    page.locator("#play-game").select_option("dixit")
    page.locator("#play-lang").select_option("it")
    code = ann.page.url.rsplit("/", 1)[-1]
    # Anna's options reached the table before it started (else the game runs long).
    options = room_log(code).options
    assert (options.target_score, options.first_storyteller) == (8, 0), options
    # The list says the table plays (play now reads the same list).
    expect(page.locator(f".open-table:has(a[href='/r/{code}'])")).to_contain_text("in gioco")
    page.locator("#play-name").focus()
    page.keyboard.type("Cleo")
    page.keyboard.press("Enter")
    page.wait_for_url(ann.page.url)
    expect(page.locator("#queued")).to_contain_text("finisce questo turno prendi il posto")
    expect(page.locator("#status-text")).to_contain_text("Ti siedi quando finisce questo turno")
    assert_accessible(page, "queued for a bot's seat (phone)")
    bot = ann.page.locator("#scores .score-row[data-seat='2'] .pname").inner_text()
    # Turn 1: Anna tells, Bea plays a card and votes (the bots too); Cleo still watches.
    expect(ann.page.locator("#clue-form")).to_be_visible()
    players = (ann, bea, cleo)

    def until(done: Callable[[], Any]) -> None:
        for _ in range(600):  # a bound on the steps, not a clock
            if done():
                return
            for p in players:
                _act(p.page)
        raise AssertionError("the game did not get there")

    until(lambda: page.locator("#scores .score-row.is-you").count() > 0)
    # Turn 2: she plays the bot's seat, with its score and its hand (the log's).
    row = page.locator("#scores .score-row.is-you")
    expect(row).to_have_attribute("data-seat", "2")
    expect(row.locator(".pname")).to_have_text("Cleo")
    assert bot not in scores(page)
    seat_score = scores(ann.page)["Cleo"]
    assert scores(page)["Cleo"] == seat_score
    expect(page.locator(".hand-row .card-tile")).to_have_count(6)
    # The seat's own cards, as the server's log has them (the bot's until this turn).
    assert sorted(hand(page)) == sorted(str(c) for c in room_log(code).game.hands[2])
    # A stranger opening the table's link now is offered the last bot's seat (the form
    # that queues), on a desktop; he only looks.
    dario = open_player("dario", DESKTOP, lang="it")
    dario.page.goto(f"/r/{code}")
    expect(dario.page.locator("#join-submit")).to_have_text("Prendi il posto di un automa")
    assert_accessible(dario.page, "a bot's seat offered mid-game (desktop)")
    dario.page.close()
    # The game plays to its end (8 points), Cleo in it.
    until(lambda: all(p.page.evaluate("document.body.dataset.status") == "over" for p in players))
    for player in players:
        assert not player.errors, player.errors
