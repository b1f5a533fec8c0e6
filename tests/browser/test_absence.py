"""The table never stalls, in Chromium: a host who closes the tab mid-game, a player who
drifts away, and a table everyone has left.

The server runs in this process with a clock the test moves forward (as in
tests/web/test_absence.py), so the table's grace period (60 s, the default) passes
without waiting for it; the timers of the phases are off, so nothing but a stand-in can
move the game on. A page opened on the room makes the room look again at who is gone,
as any connection does.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Locator, Page, ViewportSize, expect

from tests.browser.conftest import DESKTOP, PHONE, Player, shot
from tests.browser.ui import choose, create_room, join, wait_phase
from tests.web.harness import ServerThread, SkewClock

NO_TIMERS = {"clue_seconds": "", "card_seconds": "", "vote_seconds": ""}


@dataclass
class Table:
    """A server of its own, its clock, and a way to open a browser on it."""

    server: ServerThread
    clock: SkewClock
    open: Callable[[str, ViewportSize], Player]
    browser: Browser

    def look_in(self, link: str) -> None:
        """A visitor opens the room link and goes: the room looks again at who is gone
        (the players' pages stay as they are, and see what changes)."""
        ctx = self.browser.new_context(base_url=self.server.base)
        try:
            page = ctx.new_page()
            page.goto(link)
            # The room's state has come (the page draws before its socket opens, with
            # an empty status): the server has counted this connection, and looked.
            page.wait_for_selector("body[data-status]:not([data-status=''])", state="attached")
        finally:
            ctx.close()


@pytest.fixture
def table(browser: Browser, tmp_path: Path) -> Iterator[Table]:
    clock = SkewClock()
    server = ServerThread(tmp_path, clock=clock, away_grace=60, rooms_per_minute=0).start()
    made: list[Player] = []

    def open_(label: str, viewport: ViewportSize) -> Player:
        ctx = browser.new_context(viewport=viewport, locale="en", base_url=server.base)
        ctx.set_default_timeout(30_000)
        player = Player(ctx, ctx.new_page(), label)
        player.page.on("pageerror", lambda e: player.errors.append(str(e)))
        made.append(player)
        return player

    try:
        yield Table(server, clock, open_, browser)
    finally:
        for p in made:
            p.context.close()
        server.stop()


def _seat_three(table: Table, teller: str = "bob") -> tuple[Player, Player, str]:
    """Ann (host, laptop) and Bob (phone) with a bot; timers off; one of them (`teller`)
    tells the first clue, so the other must now add a card (and, the storyteller not
    voting, the vote is then for that one and the bot alone). Returns the two and the
    room link."""
    ann = table.open("ann", DESKTOP)
    bob = table.open("bob", PHONE)
    create_room(ann, "Ann", "dixit", selects=NO_TIMERS)
    link = ann.page.input_value("#invite-link")
    join(bob, link, "Bob")
    expect(ann.page.locator(".lobby-player")).to_have_count(2)
    ann.page.click("#add-bot")
    expect(ann.page.locator(".lobby-player")).to_have_count(3)
    ann.page.click("#start")
    tells, adds = (bob, ann) if teller == "bob" else (ann, bob)
    tells.page.click("#claim")
    choose(tells.page, ".hand-row .card-tile")
    tells.page.fill("#clue-text", "Far away")
    tells.page.press("#clue-text", "Enter")
    expect(adds.page.locator("#confirm-card")).to_be_visible()
    return ann, bob, link


def _row(page: Page, name: str) -> Locator:
    return page.locator("#scores .score-row", has_text=name)


def test_the_host_closes_the_tab_and_the_table_goes_on(table: Table) -> None:
    ann, bob, link = _seat_three(table)
    # The host closes her tab in the middle of the turn: the table waits for her card.
    ann.page.close()
    expect(bob.page.locator("#take-host")).to_be_visible()
    # Half the grace period later nothing has changed: a dropped phone gets its minute,
    # and the host role cannot be taken yet.
    table.clock.advance(30)
    table.look_in(link)
    wait_phase(bob.page, "submit")
    expect(bob.page.locator("#status-text")).not_to_contain_text("a bot plays for Ann")
    bob.page.click("#take-host")
    expect(bob.page.locator(".toast", has_text="Not yet")).to_be_visible()
    # Past the table's minute: a bot plays Ann's card (and votes), Bob hosts, and the
    # round is revealed.
    table.clock.advance(31)
    table.look_in(link)
    expect(bob.page.locator("#status-text")).to_contain_text("a bot plays for Ann")
    expect(bob.page.locator("#reveal-panel[data-turn='1']")).to_be_visible()
    expect(bob.page.locator("#take-host")).to_have_count(0)
    host_row = bob.page.locator("#scores .score-row", has_text="Bob")
    expect(host_row.locator(".tag", has_text="host")).to_have_count(1)
    # The chat's running log says when it happened.
    notes = bob.page.locator(".chat-note .chat-text")
    expect(notes).to_have_text(
        ["Ann is away: a bot plays their seat until they are back.", "Bob is the host now."]
    )
    shot(bob.page, "absence-host-gone-375", full_page=True)
    # Ann comes back: the host role returns to her, and one tap gives her seat back.
    back = ann.context.new_page()
    back.goto(link)
    expect(back.locator("#bot-banner")).to_be_visible()
    ann_row = back.locator("#scores .score-row", has_text="Ann")
    expect(ann_row.locator(".tag", has_text="host")).to_have_count(1)
    shot(back, "absence-host-back-1280")
    expect(notes.last).to_have_text("Ann is the host now.")
    back.click("#reclaim")
    expect(back.locator("#bot-banner")).to_have_count(0)
    expect(bob.page.locator("#status-text")).not_to_contain_text("a bot plays for Ann")
    assert not ann.errors and not bob.errors, (ann.errors, bob.errors)


def test_an_absent_players_seat_is_played_and_given_back(table: Table) -> None:
    ann, bob, link = _seat_three(table, teller="ann")
    # Bob's phone goes to sleep before he adds his card; the table waits... a minute.
    bob.page.close()
    expect(_row(ann.page, "Bob").locator(".tag-off")).to_be_visible()
    table.clock.advance(30)
    table.look_in(link)
    expect(_row(ann.page, "Bob").locator(".tag-off")).to_be_visible()
    expect(_row(ann.page, "Bob").locator(".tag-warn")).to_have_count(0)
    wait_phase(ann.page, "submit")
    table.clock.advance(31)
    table.look_in(link)
    expect(ann.page.locator("#status-text")).to_contain_text("a bot plays for Bob")
    expect(_row(ann.page, "Bob").locator(".tag-warn")).to_be_visible()
    expect(ann.page.locator(".chat-note")).to_contain_text("Bob is away: a bot plays")
    # The bot plays his part (his card, his vote): the round is revealed without him.
    expect(ann.page.locator("#reveal-panel[data-turn='1']")).to_be_visible()
    shot(ann.page, "absence-seat-played-1280")
    # Bob is back: his seat is his again with one tap.
    back = bob.context.new_page()
    back.goto(link)
    expect(back.locator("#bot-banner")).to_be_visible()
    shot(back, "absence-seat-back-375")
    back.click("#reclaim")
    expect(back.locator("#bot-banner")).to_have_count(0)
    expect(ann.page.locator("#status-text")).not_to_contain_text("a bot plays for Bob")
    expect(_row(ann.page, "Bob").locator(".tag-warn")).to_have_count(0)
    # The chat said he was away; it says he is back (issue #24).
    expect(ann.page.locator(".chat-note").last).to_contain_text(
        "Bob is back and plays their own seat again."
    )
    assert not ann.errors and not bob.errors, (ann.errors, bob.errors)


def test_with_every_person_gone_the_room_pauses(table: Table) -> None:
    ann, bob, link = _seat_three(table)
    # Ann leaves; 40 s later Bob does too; someone who only watches opens the room.
    ann.page.close()
    expect(bob.page.locator("#take-host")).to_be_visible()  # the server saw her go
    table.clock.advance(40)
    bob.page.close()
    cy = table.open("cy", PHONE)
    cy.page.goto(link)
    cy.page.click("#gate-watch")
    expect(cy.page.locator("#status-text")).to_contain_text("everyone is away")
    # On a phone the status line is cut: a notice in the first screen says it.
    expect(cy.page.locator("#paused")).to_contain_text("the game waits")
    box = cy.page.locator("#paused").bounding_box()
    assert box and box["y"] + box["height"] <= PHONE["height"], box
    # Ann is now gone past the grace period, but the bots do not play on alone: her
    # card is still missing.
    table.clock.advance(30)
    table.look_in(link)
    expect(_row(cy.page, "Ann").locator(".tag-warn")).to_be_visible()  # a bot plays
    expect(cy.page.locator("#status-text")).to_contain_text("everyone is away")
    cy.page.wait_for_timeout(500)  # bots that played would have by now (no delay)
    expect(cy.page.locator(".stage[data-turn='1'][data-phase='submit']")).to_be_visible()
    shot(cy.page, "absence-paused-375")
    cy.page.set_viewport_size(DESKTOP)
    shot(cy.page, "absence-paused-1280")
    # Bob is back within his minute: the room resumes, a bot plays Ann's card and votes,
    # and the next turn waits for Bob's card.
    back = bob.context.new_page()
    back.goto(link)
    expect(back.locator("#reveal-panel[data-turn='1']")).to_be_visible()
    expect(back.locator("#confirm-card")).to_be_visible()
    expect(back.locator("#status-text")).not_to_contain_text("everyone is away")
    expect(back.locator("#status-text")).to_contain_text("a bot plays for Ann")
    expect(cy.page.locator("#status-text")).not_to_contain_text("everyone is away")
    expect(cy.page.locator("#paused")).to_have_count(0)
    assert not cy.errors and not bob.errors, (cy.errors, bob.errors)
