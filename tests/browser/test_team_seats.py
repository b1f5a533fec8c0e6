"""A whole Imaginarium game in Chromium with two team seats of two people and a solo
seat (a bot), the table's team seats set to "a second member must agree" (issue #27).

Ann and Bob each take a seat; Cy joins Ann's team and Dee Bob's from the gate's seat
choice. In every phase the team's first member chooses and confirms, the teammate sees
the choice on the team bar and agrees from the keyboard (Tab to the button, Enter).
The team chat reaches the teammates only; the end screen names each team by its
members. axe-core checks the gate's seat choice and a team seat's stage with the bar.
"""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.browser.axe import axe_violations
from tests.browser.conftest import DESKTOP, PHONE, Open, Player
from tests.browser.ui import add_bots, choose, create_room, wait_phase


def _join_team(player: Player, url: str, name: str, team_of: str) -> None:
    """Open the invite link, choose a team seat in the gate and join it."""
    page = player.page
    page.goto(url)
    page.wait_for_selector("#join-form")
    page.fill("#join-name", name)
    page.get_by_label(f"Join the team: {team_of}").check()
    page.click("#join-submit")
    page.wait_for_selector("#lobby .lobby-player.is-you")


def _agree_by_keyboard(page: Page) -> None:
    """The teammate's confirmed move is on the bar: reach its Agree button with the
    keyboard and press Enter."""
    button = page.locator("#team-bar button[id^='agree-']").first
    expect(button).to_be_visible()
    page.locator("#team-bar-title").click()  # put the keyboard where the bar starts
    for _ in range(10):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement?.id?.startsWith('agree-')"):
            break
    assert page.evaluate("document.activeElement?.id?.startsWith('agree-')")
    page.keyboard.press("Enter")


def _stage(page: Page, turn: int, phase: str) -> None:
    page.wait_for_selector(
        f"#stage .stage[data-turn='{turn}'][data-phase='{phase}']", state="attached"
    )


def test_an_imaginarium_game_with_two_teams_of_two_and_a_solo_seat(open_player: Open) -> None:
    ann = open_player("ann", DESKTOP)
    bob = open_player("bob", DESKTOP)
    cy = open_player("cy", PHONE)
    dee = open_player("dee", DESKTOP)
    create_room(
        ann, "Ann", "imaginarium", target_score=6, first_storyteller="0",
        selects={"team_seats": "agree", "restrictions": "off"},
    )  # fmt: skip
    url = ann.page.input_value("#invite-link")
    bob.page.goto(url)
    bob.page.wait_for_selector("#join-form")
    bob.page.fill("#join-name", "Bob")
    bob.page.click("#join-submit")  # "A seat of my own" is the choice while seats are free
    bob.page.wait_for_selector("#lobby .lobby-player.is-you")
    _join_team(cy, url, "Cy", "Ann")
    dee.page.goto(url)
    dee.page.wait_for_selector("#join-form")
    assert not axe_violations(dee.page, "#gate"), "the gate's seat choice"
    dee.page.fill("#join-name", "Dee")
    dee.page.get_by_label("Join the team: Bob").check()
    dee.page.click("#join-submit")
    dee.page.wait_for_selector("#lobby .lobby-player.is-you")
    add_bots(ann.page, 2, 1)
    lobby = ann.page.locator(".lobby-player .pname")
    expect(lobby).to_have_text(["Ann & Cy", "Bob & Dee", "Luna"])
    ann.page.click("#start")
    everyone = [ann, bob, cy, dee]
    teams = {"ann": (ann, cy), "bob": (bob, dee)}
    for p in everyone:
        wait_phase(p.page, "clue")

    # The team's own chat: Cy's line reaches Ann, not Bob.
    cy.page.check("#chat-team")
    cy.page.fill("#chat-input", "the owl one?")
    cy.page.press("#chat-input", "Enter")
    expect(ann.page.locator("#chat-list")).to_contain_text("the owl one?")
    expect(bob.page.locator("#chat-list")).not_to_contain_text("the owl one?")

    checked_axe = False
    for turn in range(1, 30):
        page = ann.page
        # Any phase of the turn: a bot's clue may come before this page draws its clue.
        page.wait_for_selector(
            f"#final:not([hidden]), #stage .stage[data-turn='{turn}']", state="attached"
        )
        if page.locator("#final:not([hidden])").count():
            break
        for first, _ in teams.values():
            first.page.wait_for_selector(f"#stage .stage[data-turn='{turn}']", state="attached")
        # A team's clue phase waits for the team: it is still on its page.
        tellers = [k for k, (first, _) in teams.items() if first.page.locator("#clue-form").count()]
        for k in tellers:  # the storyteller team tells a clue, the teammate agrees
            first, mate = teams[k]
            choose(first.page, ".hand-row .card-tile")
            expect(mate.page.locator("#team-bar")).to_contain_text("this card")
            first.page.fill("#clue-text", f"Turn {turn} dream")
            first.page.press("#clue-text", "Enter")
            expect(first.page.locator("#team-waiting")).to_be_visible()
            _agree_by_keyboard(mate.page)
        _stage(page, turn, "submit")
        for k, (first, mate) in teams.items():
            if k in tellers:
                continue
            _stage(first.page, turn, "submit")
            choose(first.page, ".hand-row .card-tile")
            first.page.click("#confirm-card")
            if not checked_axe:
                expect(mate.page.locator("#team-bar button[id^='agree-']")).to_be_visible()
                assert not axe_violations(mate.page, "#stage"), "a team seat's stage"
                checked_axe = True
            _agree_by_keyboard(mate.page)
        _stage(page, turn, "vote")
        for k, (first, mate) in teams.items():
            if k in tellers:
                continue
            _stage(first.page, turn, "vote")
            choose(first.page, ".vote-row .card-tile:not(.mine)")
            first.page.click("#confirm-vote")
            _agree_by_keyboard(mate.page)
    else:
        raise AssertionError("the game did not end")
    assert turn > 2, "a game of several turns, each team telling once"

    for p in everyone:
        final = p.page.locator("#final")
        expect(final).to_be_visible()
        names = final.locator(".final-row .chip-name, .final-row .pname").all_inner_texts()
        assert any("Ann & Cy" in n for n in names), names
        assert any("Bob & Dee" in n for n in names), names
        assert not p.errors, f"{p.label}: {p.errors}"
