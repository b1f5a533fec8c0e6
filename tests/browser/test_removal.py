"""Keeping strangers civil, in Chromium: at a public table one player mutes another (their
chat shows as hidden, with a way to show it, and so does their clue on the stage, in the
round's results and in the log), a vote to remove runs (its bar passes axe, and is voted
on by keyboard), and the host removes a player mid-game (a bot plays on); each member of
a team seat has a row of their own in the people panel, and one is removed alone."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Callable, Iterator

import pytest
from playwright.sync_api import Browser, Dialog, expect

from tests.browser.axe import assert_accessible
from tests.browser.conftest import DESKTOP, PHONE, Player
from tests.browser.ui import choose, join, wait_phase
from tests.web.harness import Client, create_room
from tests.web.harness import join as harness_join

NO_TIMERS = {"clue_seconds": None, "card_seconds": None, "vote_seconds": None}


def _keep(errors: list[str]) -> Callable[[object], None]:
    return lambda e: errors.append(str(e))


@pytest.fixture
def people(browser: Browser, server: str) -> Iterator[list[Player]]:
    """Ann, Bob and Cid, each in a browser of their own that says yes to every confirm
    (removing and voting ask first)."""
    made: list[Player] = []
    for label, viewport in (("ann", DESKTOP), ("bob", PHONE), ("cid", DESKTOP)):
        ctx = browser.new_context(viewport=viewport, locale="en", base_url=server)
        ctx.set_default_timeout(30_000)
        player = Player(ctx, ctx.new_page(), label)

        def on_dialog(d: Dialog, player: Player = player) -> None:
            player.dialogs.append(d.message)
            d.accept()

        player.page.on("dialog", on_dialog)
        player.page.on("pageerror", _keep(player.errors))
        made.append(player)
    try:
        yield made
    finally:
        for p in made:
            p.context.close()


def _public_room(server: str) -> tuple[str, str]:
    body = {"name": "Ann", "color": "#e63946", "variant": "dixit", "seats": 3,
            "options": NO_TIMERS, "public": True}  # fmt: skip
    request = urllib.request.Request(
        f"{server}/api/rooms", json.dumps(body).encode(), {"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request) as answer:
        made = json.load(answer)
    return made["code"], made["token"]


def test_mute_a_vote_and_the_hosts_removal(people: list[Player], server: str) -> None:
    ann, bob, cid = people
    code, token = _public_room(server)
    ann.page.goto(f"/r/{code}#t={token}")
    ann.page.wait_for_selector("#lobby .lobby-player.is-you")
    join(bob, f"/r/{code}", "Bob")
    join(cid, f"/r/{code}", "Cid")
    expect(ann.page.locator(".lobby-player")).to_have_count(3)
    ann.page.click("#start")
    cid.page.wait_for_selector("body[data-status='playing']", state="attached")

    # Cid mutes Bob, by keyboard: Bob's chat line shows as hidden until Cid shows it.
    mute = cid.page.locator("#mute-1")
    mute.focus()
    cid.page.keyboard.press("Enter")
    expect(mute).to_have_attribute("aria-pressed", "true")
    bob.page.fill("#chat-input", "a rude remark")
    bob.page.press("#chat-input", "Enter")
    expect(ann.page.locator("#chat-list")).to_contain_text("a rude remark")
    line = cid.page.locator("#chat-list .chat-line", has_text="Bob")
    expect(line).to_contain_text("hidden")
    expect(line).not_to_contain_text("a rude remark")
    line.get_by_role("button", name="Show this text by Bob").click()
    expect(line).to_contain_text("a rude remark")

    # Bob tells the first clue: Cid reads "hidden" for it on the stage, in the round's
    # results and in the log; Ann reads it.
    bob.page.click("#claim")
    choose(bob.page, ".hand-row .card-tile")
    bob.page.fill("#clue-text", "A rude clue")
    bob.page.press("#clue-text", "Enter")
    for p in (ann, cid):
        wait_phase(p.page, "submit")
        choose(p.page, ".hand-row .card-tile")
        p.page.click("#confirm-card")
    expect(ann.page.locator("#current-clue")).to_have_text("A rude clue")
    expect(cid.page.locator("#stage")).to_contain_text("hidden")
    expect(cid.page.locator("#stage")).not_to_contain_text("A rude clue")
    for p in (ann, cid):
        wait_phase(p.page, "vote")
        choose(p.page, ".vote-row .card-tile:not(.mine)")
        p.page.click("#confirm-vote")
    for where in ("#reveal-panel", "#log"):
        expect(ann.page.locator(where)).to_contain_text("A rude clue")
        expect(cid.page.locator(where)).to_contain_text("hidden")
        expect(cid.page.locator(where)).not_to_contain_text("A rude clue")
    assert "A rude clue" not in cid.page.locator("#main").inner_text()

    # Cid asks the table to vote Bob out; Ann sees the bar, passes axe, votes no by keyboard.
    cid.page.click("#vote-kick-1")
    bar = ann.page.locator("#vote-bar")
    expect(bar).to_contain_text("Vote: remove Bob?")
    expect(bar).to_contain_text("Yes: 1 · No: 0 · Needed: 2")
    expect(bob.page.locator("#vote-bar")).to_contain_text("voting on removing you")
    expect(bob.page.locator("#ballot-yes")).to_have_count(0)  # not Bob's to vote on
    assert_accessible(ann.page, "the vote bar", "#vote-bar")
    ann.page.locator("#ballot-no").focus()
    ann.page.keyboard.press("Enter")
    expect(bar).to_have_count(0)  # no majority is left: the vote ends, Bob stays
    expect(ann.page.locator("#people")).to_contain_text("Bob")

    # The host removes Bob mid-game: his page watches, a bot plays his seat on.
    ann.page.click("#remove-1")
    expect(bob.page.locator("#status-you")).to_have_text("Watching")
    expect(ann.page.locator("#people")).not_to_contain_text("Bob")
    assert cid.dialogs == ["Ask the people at the table to vote on removing Bob?"]
    assert ann.dialogs and ann.dialogs[0].startswith("Remove Bob from the table?")
    for p in people:
        assert not p.errors, (p.label, p.errors)


def test_the_people_panel_lists_a_team_seats_members_and_removes_one(
    browser: Browser, server: str
) -> None:
    ctx = browser.new_context(viewport=DESKTOP, locale="en", base_url=server)
    ctx.set_default_timeout(30_000)
    ann = Player(ctx, ctx.new_page(), "ann")

    def on_dialog(d: Dialog) -> None:
        ann.dialogs.append(d.message)
        d.accept()

    ann.page.on("dialog", on_dialog)
    ann.page.on("pageerror", _keep(ann.errors))
    try:
        code, token = create_room(server, "dixit", 3, team_seats="one", **NO_TIMERS)
        bob = harness_join(server, code, "Bob", "#2a9d8f")
        dee = harness_join(server, code, "Dee", "#457b9d")
        cid = Client(server, code)
        assert cid.request({"type": "join", "name": "Cid", "color": "", "seat": 1})["type"] == "ack"
        ann.page.goto(f"/r/{code}#t={token}")
        ann.page.click("#start")
        # Bob and Cid play seat 1: each has a row of their own, with their own tools.
        for row, name in (("#remove-1", "Bob"), ("#remove-1-1", "Cid")):
            expect(ann.page.locator(row)).to_have_attribute(
                "aria-label", f"Remove {name} from the table"
            )
        assert_accessible(ann.page, "the people panel of a team seat", "#people")
        ann.page.click("#remove-1-1")
        expect(ann.page.locator("#people")).not_to_contain_text("Cid")
        expect(ann.page.locator("#people")).to_contain_text("Bob")
        seen = cid.until(lambda f: f["type"] == "state" and f["room"]["you"] is None)
        assert not seen["room"]["players"][1]["bot"] and seen["room"]["players"][1]["name"] == "Bob"
        assert ann.dialogs == ["Remove Cid from the table? They cannot take a seat here again; "
                               "in a game a bot plays their seat on."]  # fmt: skip
        assert not ann.errors, ann.errors
        for c in (bob, cid, dee):
            c.close()
    finally:
        ctx.close()
