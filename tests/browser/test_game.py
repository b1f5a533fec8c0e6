"""Three people play through the real UI: a Dixit round and a gallery game to the end."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from tests.browser.conftest import DESKTOP, PHONE, Open, Player, shot
from tests.browser.ui import choose, create_room, hand, join, scores, wait_phase


def _all(players: list[Player], phase: str) -> None:
    for p in players:
        wait_phase(p.page, phase)


RAW_KEY = re.compile(
    r"\b(?:home|nav|common|color|variant|options|restriction|clue|status|phase|conn|room|gate|"
    r"lobby|players|stage|card|reveal|final|board|log|chat|seat|error|rules|credits)\.[a-z_]+"
)


def _no_errors(players: list[Player]) -> None:
    for p in players:
        text = p.page.locator("body").inner_text()
        assert not RAW_KEY.search(text), f"{p.label}: untranslated {RAW_KEY.search(text)}"
        assert not p.errors, f"{p.label}: {p.errors}"
        assert not p.dialogs, f"{p.label}: {p.dialogs}"


def _reveal_points(page: Page) -> dict[str, int]:
    out: dict[str, int] = {}
    for row in page.locator("#reveal-panel .points-table tbody tr").all():
        name = row.locator(".chip-name").inner_text()
        text = row.locator("td.num").inner_text().replace("−", "-").replace("+", "")
        out[name] = int(text)
    return out


def test_dixit_round_three_players(open_player: Open) -> None:
    ann = open_player("ann", DESKTOP)
    bob = open_player("bob", PHONE)
    cy = open_player("cy", DESKTOP)
    everyone = [ann, bob, cy]

    create_room(ann, "Ann", "dixit")
    invite = ann.page.input_value("#invite-link")
    assert "/r/" in invite
    join(bob, invite, "Bob")
    join(cy, invite, "Cy")
    expect(ann.page.locator(".lobby-player")).to_have_count(3)
    expect(bob.page.locator(".lobby-player")).to_have_count(3)
    shot(ann.page, "dixit-lobby-1280", full_page=True)
    shot(bob.page, "dixit-lobby-375", full_page=True)
    # Only the host has the start button.
    expect(bob.page.locator("#start")).to_have_count(0)

    ann.page.click("#start")
    _all(everyone, "clue")
    # Dixit's first turn has no storyteller: anyone may claim it.
    expect(bob.page.locator("#claim")).to_be_visible()
    expect(bob.page.locator("#status-text")).to_contain_text("anyone may give the first clue")
    assert len(hand(bob.page)) == 6
    shot(bob.page, "dixit-hand-375", full_page=True)

    ann.page.click("#claim")
    choose(ann.page, ".hand-row .card-tile")
    ann.page.fill("#clue-text", "A quiet night")
    shot(ann.page, "dixit-clue-1280", full_page=True)
    ann.page.press("#clue-text", "Enter")

    for p in (bob, cy):
        wait_phase(p.page, "submit")
        expect(p.page.locator("#current-clue")).to_have_text("A quiet night")
        choose(p.page, ".hand-row .card-tile")
        expect(p.page.locator("#confirm-card")).to_be_enabled()
    shot(bob.page, "dixit-submit-375", full_page=True)
    bob.page.click("#confirm-card")
    cy.page.click("#confirm-card")

    _all(everyone, "vote")
    expect(ann.page.locator(".vote-row .card-tile")).to_have_count(3)
    # Your own card is marked and cannot be chosen; the storyteller does not vote.
    expect(bob.page.locator(".vote-row .card-tile.mine")).to_have_count(1)
    expect(ann.page.locator("#confirm-vote")).to_have_count(0)
    bob.page.locator(".vote-row .card-tile.mine").click()
    expect(bob.page.locator("#zoom-choose")).to_have_count(0)
    bob.page.keyboard.press("Escape")
    expect(bob.page.locator("#zoom")).not_to_be_visible()
    shot(cy.page, "dixit-vote-1280", full_page=True)
    shot(bob.page, "dixit-vote-375", full_page=True)
    for p in (bob, cy):
        choose(p.page, ".vote-row .card-tile:not(.mine)")
        p.page.click("#confirm-vote")

    for p in everyone:
        panel = p.page.locator("#reveal-panel[data-turn='1']")
        expect(panel).to_be_visible()
        expect(panel.locator(".verify")).to_have_text("Verified")
        expect(panel.locator(".reveal-row .card-tile")).to_have_count(3)
        expect(panel.locator(".card-tile.story")).to_have_count(1)
    shot(ann.page, "dixit-reveal-1280", full_page=True)
    shot(bob.page, "dixit-reveal-375", full_page=True)

    # The scoreboard moved by the points of the round, and turn 2 began.
    points = _reveal_points(ann.page)
    assert set(points) == {"Ann", "Bob", "Cy"}
    assert sum(points.values()) > 0
    expect(ann.page.locator("#status-text")).to_contain_text("Turn 2")
    assert scores(ann.page) == points
    assert scores(bob.page) == points
    # The pieces stand on the squares of the scores (Dixit: square = score + 1).
    for row in ann.page.locator("#scores .score-row").all():
        seat = row.get_attribute("data-seat")
        name = row.locator(".pname").inner_text()
        square = ann.page.locator(f"#board .piece[data-seat='{seat}']").get_attribute("data-square")
        assert square == str(points[name] + 1)
    ann.page.click("#reveal-close")
    shot(ann.page, "dixit-board-1280", full_page=True)
    _no_errors(everyone)


def test_gallery_game_to_the_end(open_player: Open) -> None:
    ann = open_player("ann", DESKTOP)
    bob = open_player("bob", DESKTOP)
    cy = open_player("cy", PHONE)
    everyone = [ann, bob, cy]

    create_room(ann, "Ann", "pictoric-gallery", target_score=3)
    invite = ann.page.input_value("#invite-link")
    join(bob, invite, "Bob")
    join(cy, invite, "Cy")
    expect(ann.page.locator(".lobby-player")).to_have_count(3)
    shot(cy.page, "gallery-lobby-375", full_page=True)
    ann.page.click("#start")
    _all(everyone, "clue")

    # The six cards lie face up for everyone; dice chose the storyteller.
    for p in everyone:
        expect(p.page.locator(".table-row .card-tile")).to_have_count(6)
        expect(p.page.locator(".hand-row")).to_have_count(0)
    teller = next(p for p in everyone if p.page.locator("#clue-form").count())
    voters = [p for p in everyone if p is not teller]
    shot(cy.page, "gallery-clue-375", full_page=True)
    choose(teller.page, ".table-row .card-tile")
    teller.page.fill("#clue-text", "Where the stairs end")
    shot(teller.page, f"gallery-clue-storyteller-{teller.label}", full_page=True)
    teller.page.click("#clue-submit")

    _all(everyone, "vote")
    story = teller.page.locator(".vote-row .card-tile.story")
    expect(story).to_have_count(1)
    position = story.get_attribute("data-position")
    assert position
    other = "2" if position == "1" else "1"
    shot(ann.page, "gallery-vote-1280", full_page=True)
    shot(cy.page, "gallery-vote-375", full_page=True)
    # One voter finds the card, the other does not: the storyteller scores 6 − 1 = 5.
    choose(voters[0].page, f".vote-row .card-tile[data-position='{position}']")
    voters[0].page.click("#confirm-vote")
    choose(voters[1].page, f".vote-row .card-tile[data-position='{other}']")
    voters[1].page.click("#confirm-vote")

    for p in everyone:
        expect(p.page.locator("#final")).to_be_visible()
        expect(p.page.locator("#reveal-panel .verify")).to_have_text("Verified")
        expect(p.page.locator(".final-row.winner")).to_have_count(1)
    teller_name = teller.page.locator("#scores .score-row.is-you .pname").inner_text()
    expect(ann.page.locator(".final-row.winner")).to_contain_text(teller_name)
    expect(ann.page.locator("#rematch")).to_be_visible()
    expect(bob.page.locator("#rematch")).to_have_count(0)
    points = _reveal_points(ann.page)
    assert points[teller_name] == 5
    assert scores(ann.page)[teller_name] == 5
    shot(ann.page, "gallery-final-1280", full_page=True)
    shot(cy.page, "gallery-final-375", full_page=True)

    # Rematch: a new game with the same seats.
    ann.page.click("#rematch")
    for p in everyone:
        wait_phase(p.page, "clue")
        expect(p.page.locator("#final")).to_be_hidden()
    _no_errors(everyone)
