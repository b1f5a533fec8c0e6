"""Accessibility over every screen (issue #24 item 17): axe-core (WCAG 2.2 AA) at 375 and
1280 px in en, ru and it on each phase of each game (tests/browser/sweep.py); the live
region that tells a screen reader whose turn it is, the clue, the reveal and the points;
pieces that do not rely on colour alone; the table's "more time" option; and
prefers-reduced-motion.

Each game is driven once, by one person and bots where the game allows them
(REVERIE_BOT_DELAY=0: the bots answer at once, so each phase waits only for the person).
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.browser.companion import TableScreen, companion_table, count, place, start, tell, vote
from tests.browser.conftest import DESKTOP, PHONE, Open, Player, shot
from tests.browser.sweep import Sweep
from tests.browser.test_visual import (
    draw_squiggle,
    drawer_of_choose,
    next_blank,
    no_errors,
    role,
    seat_up,
)
from tests.browser.test_visual_companion import PaperTable, _next_card
from tests.browser.ui import ROOM_URL, add_bots, wait_phase

#: Association games played by one person and two bots, first storyteller the person
#: where the game lets the table choose.
ASSOCIATION = ["dixit", "imaginarium", "imaginarium-harmony", "pictoric", "pictoric-gallery"]


def _phase(page: Page) -> str:
    return str(page.evaluate("document.body.dataset.phase || ''"))


def _create(player: Player, variant: str, sweep: Sweep | None = None, **fields: str) -> str:
    """Create a room from the home page (swept there, options open); returns its code.
    ``fields``: options set on the home page's form where the game offers them."""
    page = player.page
    page.goto("/")
    page.fill("#create-name", "Ann")
    page.wait_for_selector("#variant-dixit", state="attached")
    if not page.locator(f"#variant-{variant}").count():
        page.check("#kind-box", force=True)
    page.check(f"#variant-{variant}", force=True)
    page.click(".options-details summary")
    if sweep is not None:
        sweep.check(page, "home")
    for name, value in fields.items():
        field = page.locator(f"#create [name={name}]")
        if not field.count():
            continue
        if field.evaluate("e => e.tagName") == "SELECT":
            field.select_option(value)
        else:
            field.fill(value)
    page.click("#create-submit")
    page.wait_for_url(ROOM_URL)
    page.wait_for_selector("#lobby:not([hidden]) .lobby-list")
    m = ROOM_URL.match(page.url)
    assert m
    return m.group(1)


def _association_step(page: Page, sweep: Sweep) -> None:
    """Sweep the screen the person is on, then make their move (if any); a screen that
    moved on under a click (the bots are quick) is tried again on the next step."""
    try:
        _association_move(page, sweep)
    except PlaywrightTimeout:
        page.wait_for_timeout(100)


def _association_move(page: Page, sweep: Sweep) -> None:
    if page.locator("#reveal-close").count():
        sweep.check(page, "reveal")
        page.click("#reveal-close", timeout=3000)
        return
    if page.locator("#claim").count():
        sweep.check(page, "clue-claim")
        page.click("#claim", timeout=3000)
        return
    if page.locator("#clue-form").count():
        sweep.check(page, "clue-storyteller")
        # The storyteller picks a card where the game lets them (Pictoric's comes from
        # the deck's top: nothing to pick).
        tiles = page.locator(
            ".hand-row .card-tile[aria-pressed], .table-row .card-tile[aria-pressed]"
        )
        if tiles.count():
            tiles.first.click(timeout=3000)
            sweep.check(page, "card-zoom")
            page.click("#zoom-choose", timeout=3000)
        # A clue that passes the table's restriction of the turn (four words, three
        # words, a question): the hint says when it does not.
        for clue in ("Moon over quiet water?", "Moon over water?"):
            page.fill("#clue-text", clue)
            if not page.locator("#clue-hint.bad").count():
                break
        page.click("#clue-submit", timeout=3000)
    elif page.locator("#confirm-card").count():
        sweep.check(page, "submit")
        page.locator(".hand-row .card-tile").first.click(timeout=3000)
        sweep.check(page, "card-zoom")
        page.click("#zoom-choose", timeout=3000)
        page.click("#confirm-card", timeout=3000)
    elif page.locator("#confirm-vote").count():
        sweep.check(page, "vote")
        page.locator(".vote-row .card-tile:not(.mine)").first.click(timeout=3000)
        page.click("#zoom-choose", timeout=3000)
        page.click("#confirm-vote", timeout=3000)
    else:
        page.wait_for_timeout(100)
        return
    page.wait_for_function("() => !document.querySelector('#zoom[open]')")


@pytest.mark.parametrize("variant", ASSOCIATION)
def test_every_screen_of_an_association_game_passes_axe(open_player: Open, variant: str) -> None:
    """Home, lobby, the storyteller's clue, the card opened large, a card added, the
    vote, the reveal and the end: no WCAG 2.2 AA violation at either width in any
    language."""
    ann = open_player("ann", DESKTOP)
    sweep = Sweep(offset=ASSOCIATION.index(variant))
    # A short game: the sweep needs two turns (Ann tells the first, adds a card to and votes
    # in the second), and no turn of three players scores 8 (5 at most, scoring.py), so the
    # game cannot end before the second; every further turn showed only screens already
    # swept. assert_clean below fails if a screen is not reached.
    _create(ann, variant, sweep, target_score="8", track_length="8", first_storyteller="0")
    page = ann.page
    add_bots(page, 1, 2)
    sweep.check(page, "lobby")
    page.click("#start")
    # Until the end, however many turns the bots make of it (a bound on a stuck game, not
    # a speed limit: a game of Imaginarium to 15 points took more than 200 steps once).
    deadline = time.monotonic() + 900
    while time.monotonic() < deadline:
        if _phase(page) == "over":
            break
        _association_step(page, sweep)
    expect(page.locator("#final")).to_be_visible()
    sweep.check(page, "over")
    shot(page, f"a11y-{variant}-over-1280", full_page=True)
    # The table screen of the same room (a TV by the table), at the end.
    screen = open_player("screen", DESKTOP)
    m = ROOM_URL.match(page.url)
    assert m
    screen.page.goto(f"/r/{m.group(1)}?table")
    screen.page.wait_for_selector("body.table-screen #final:not([hidden]), .table-screen-main")
    sweep.check(screen.page, "table-screen-over")
    expected = {"home", "lobby", "card-zoom", "vote", "reveal", "over", "table-screen-over"}
    if variant != "pictoric-gallery":  # the gallery's cards lie on the table: none added
        expected.add("submit")
    sweep.assert_clean(expected)
    assert not ann.errors, ann.errors


def test_the_site_pages_pass_axe(open_player: Open) -> None:
    """The rules, the credits, the deck page and a missing room."""
    ann = open_player("ann", DESKTOP)
    sweep = Sweep()
    for path, ready in [
        ("/rules", "main h1"),
        ("/credits", "main h1"),
        ("/decks/new", "main h1"),
        ("/r/ZZZZZZ", ".missing h1"),
    ]:
        ann.page.goto(path)
        ann.page.wait_for_selector(ready)
        sweep.check(ann.page, path)
    sweep.assert_clean()
    # The missing room's own 404 is the one error the console may show.
    assert all("404" in e for e in ann.errors), ann.errors


def _i18n(lang: str) -> dict[str, object]:
    import json
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / f"src/reverie/web/static/i18n/{lang}.json"
    data: dict[str, object] = json.loads(path.read_text(encoding="utf-8"))
    return data


def _pattern(template: object) -> re.Pattern[str]:
    """A translated line with its {placeholders} as wildcards."""
    parts = re.split(r"\{[a-z_]+\}", str(template))
    return re.compile(".+?".join(re.escape(p) for p in parts))


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_screen_reader_hears_whose_turn_the_clue_the_reveal_and_the_points(
    open_player: Open, lang: str
) -> None:
    """The one live region (#announcer, polite) says, in the reader's language, whose
    turn it is, the clue once told, the storyteller's card at the reveal, and the points
    each player has and gained."""
    ann = open_player("ann", PHONE, lang=lang)
    page = ann.page
    words = _i18n(lang)
    _create(ann, "imaginarium", first_storyteller="0", target_score="30")
    add_bots(page, 1, 2)
    page.click("#start")
    region = page.locator("#announcer")
    expect(region).to_have_attribute("aria-live", "polite")
    # Turn 1 is Ann's: the region says so (her own status words) and that it is her move.
    expect(region).to_contain_text(str(words["status.you_storyteller"]))
    expect(region).to_contain_text(str(words["status.your_move"]))
    page.locator(".hand-row .card-tile").first.click()
    page.click("#zoom-choose")
    page.fill("#clue-text", "Moon over water")
    page.click("#clue-submit")
    # The bots add their cards and vote at once: the reveal and the points follow.
    expect(page.locator("#reveal-close")).to_be_visible()
    text = region.inner_text()
    assert _pattern(words["announce.clue"]).search(text) and "Moon over water" in text, text
    reveal = _pattern(words["announce.reveal"]).search(text)
    assert reveal and "Ann" in reveal.group(0), text
    story = page.locator("#reveal-panel .card-tile.story").get_attribute("data-position")
    assert f" {story}" in reveal.group(0), (story, text)
    points = re.search(re.escape(str(words["announce.points"]).split("{")[0]) + r"(.+)", text)
    assert points, text
    for name in page.locator("#scores .score-row .pname").all_inner_texts():
        assert re.search(re.escape(name) + r" \d+ \([+−]\d+\)", points.group(1)), (name, text)
    # Turn 2: someone else tells; the region names them.
    teller = str(words["status.storyteller"]).split("{")[0]
    assert teller in text.split(reveal.group(0))[-1], text
    assert not ann.errors, ann.errors


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["375", "1280"])
def test_every_piece_on_the_boards_has_its_own_mark_besides_its_colour(
    open_player: Open, viewport: dict[str, int]
) -> None:
    """Association boards: each player's piece carries an initial (two letters or the
    seat's number where they meet), different from every other piece's."""
    ann = open_player("ann", viewport)
    _create(ann, "imaginarium")
    page = ann.page
    add_bots(page, 1, 3)
    pieces = page.locator("#board .piece")
    expect(pieces).to_have_count(4)
    marks = pieces.evaluate_all(
        "els => els.map(e => [e.dataset.seat, e.querySelector('.piece-mark')?.textContent || ''])"
    )
    names = page.locator(".lobby-player .pname").all_inner_texts()
    assert all(m for _, m in marks), marks
    assert len({m for _, m in marks}) == len(marks), marks
    for seat, mark in marks:
        assert names[int(seat)].upper().startswith(mark) or mark == str(int(seat) + 1), (
            names,
            marks,
        )
    shot(page, f"a11y-board-marks-{viewport['width']}", full_page=True)


def test_the_time_option_is_set_in_the_lobby_and_shown_to_everyone(open_player: Open) -> None:
    """The host picks x2 or x4 in the lobby's options; a guest sees the choice there and
    a note under the players, at 375 and 1280 px."""
    ann = open_player("ann", DESKTOP)
    bob = open_player("bob", PHONE, lang="it")
    _create(ann, "imaginarium")
    invite = ann.page.input_value("#invite-link")
    bob.page.goto(invite)
    bob.page.fill("#join-name", "Bob")
    bob.page.click("#join-submit")
    expect(bob.page.locator("#time-note")).to_have_count(0)  # the game's own pace
    ann.page.select_option("#lobby-options [name=time_factor]", "4")
    note = str(_i18n("it")["time.note"]).replace("{n}", "4")
    expect(bob.page.locator("#time-note")).to_have_text(note)
    expect(bob.page.locator("#lobby-options [name=time_factor]")).to_have_value("4")
    expect(bob.page.locator("#lobby-options [name=time_factor]")).to_be_disabled()
    expect(ann.page.locator("#time-note")).to_be_visible()
    shot(bob.page, "a11y-time-note-375", full_page=True)
    shot(ann.page, "a11y-time-note-1280", full_page=True)
    ann.page.select_option("#lobby-options [name=time_factor]", "1")
    expect(bob.page.locator("#time-note")).to_have_count(0)
    assert not ann.errors and not bob.errors, (ann.errors, bob.errors)


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["375", "1280"])
def test_reduced_motion_stops_every_animation_and_transition(
    open_player: Open, viewport: dict[str, int]
) -> None:
    """With prefers-reduced-motion, no element of the room page (the board's pieces, the
    panels) keeps an animation or a transition; without it the pieces still glide."""
    ann = open_player("ann", viewport)
    _create(ann, "imaginarium")
    page = ann.page
    moving = """() => [...document.querySelectorAll('*')].filter(e => {
        const c = getComputedStyle(e);
        const long = v => v.split(',').some(x => parseFloat(x) > 0);
        return (c.animationName !== 'none' && long(c.animationDuration))
            || long(c.transitionDuration);
    }).map(e => e.tagName + '.' + (e.getAttribute('class') || ''))"""
    assert any("piece" in m for m in page.evaluate(moving))  # the test can see motion
    page.emulate_media(reduced_motion="reduce")
    assert page.evaluate(moving) == []


def test_every_screen_of_the_drawing_game_passes_axe(
    open_player: Open, room_log: Callable[[str], Any]
) -> None:
    """The drawing game: the team lobby, the category choice (the drawer's and another's
    page), a proverb round (the drawer's, a guesser's), the team's move decision (the
    deciding team's page and the other's) and the end."""
    table = seat_up(open_player, {"think_seconds": "0", "blank_share": "1"}, turn_limit=1)
    ann = table.teams[0][0]
    sweep = Sweep()
    # More time for each move: the sweep looks at each page while the clock runs.
    ann.page.select_option("#lobby-options [name=time_factor]", "4")
    expect(ann.page.locator("#time-note")).to_be_visible()
    sweep.check(ann.page, "lobby")
    ann.page.click("#start")
    drawer = drawer_of_choose(table)
    other = next(p for p in table.everyone if p is not drawer)
    sweep.check(drawer.page, "choose-drawer")
    sweep.check(other.page, "choose-other")
    # Each team's pawn carries the team's number besides its colour.
    marks = ann.page.locator("#board .pawn").evaluate_all(
        "els => els.map(e => [e.dataset.team, e.querySelector('.piece-mark')?.textContent])"
    )
    assert marks == [["0", "1"], ["1", "2"]], marks
    code = ROOM_URL.match(ann.page.url)
    assert code
    blank = next_blank(room_log(code.group(1)))
    drawer.page.click(f"#choose-{blank}")
    for p in table.everyone:
        wait_phase(p.page, "draw")
    # The table screen (a TV by the table): a watcher's stage beside the board, no word.
    screen = open_player("table", DESKTOP).page
    screen.goto(f"/r/{code.group(1)}?table")
    expect(screen.locator("#stage .vstage")).to_be_visible()
    expect(screen.locator("#board")).to_be_visible()
    expect(screen.locator("#subject")).to_have_count(0)
    expect(screen.locator("#gate")).to_be_hidden()
    shot(screen, "visual-table-screen-draw-1280")
    sweep.check(screen, "table-screen-draw")
    drawers = {t: next(p for p in m if role(p.page) == "drawer") for t, m in table.teams.items()}
    guesser = next(p for p in table.teams[1] if p is not drawers[1])
    draw_squiggle(drawers[1].page)
    sweep.check(drawers[1].page, "proverb-drawer")
    sweep.check(guesser.page, "proverb-guesser")
    proverb = drawers[1].page.locator("#subject").inner_text().strip()
    guesser.page.fill("#guess-input", proverb)
    guesser.page.press("#guess-input", "Enter")
    for p in table.everyone:
        wait_phase(p.page, "move")
    mover = table.teams[1][0]
    waiting = table.teams[0][0]
    mover.page.locator(".vstep").last.click()
    sweep.check(mover.page, "move-deciding")
    sweep.check(waiting.page, "move-waiting")
    mover.page.click("#confirm-move")
    mover.page.wait_for_function(
        "() => ['bonus', 'over'].includes(document.body.dataset.phase)", timeout=10_000
    )
    if mover.page.locator("#bonus-keep").count():
        sweep.check(mover.page, "bonus-deciding")
        mover.page.click("#bonus-keep")
    for p in table.everyone:
        wait_phase(p.page, "over")
    sweep.check(ann.page, "over")
    shot(ann.page, "a11y-visual-over-1280", full_page=True)
    sweep.assert_clean()
    no_errors(table.everyone)


#: The association games with the box on the table.
COMPANION = [
    "dixit-companion",
    "imaginarium-companion",
    "imaginarium-harmony-companion",
    "pictoric-companion",
    "pictoric-gallery-companion",
]


@pytest.mark.parametrize("variant", COMPANION)
def test_every_screen_of_a_companion_game_passes_axe(open_player: Open, variant: str) -> None:
    """A game with the box: the phones' lobby, the storyteller's tell and count, a
    phone placing its card and voting, the reveal; the table screen (/r/CODE?table) in
    the lobby, while the entries come in, and at the reveal."""
    phones, code = companion_table(
        open_player, variant, ["Ann", "Bob", "Cy"], first_storyteller="0"
    )
    pages = [p.page for p in phones]
    sweep = Sweep(offset=COMPANION.index(variant))
    sweep.check(pages[0], "lobby-phone")
    table = TableScreen(open_player("table", DESKTOP), code)
    sweep.check(table.page, "lobby-table-screen")
    start(pages[0])
    if pages[0].locator("#tell").count() == 0:  # a die chooses the first storyteller
        pages[0].wait_for_selector("#tell, .companion-stage[data-phase='dice']")
    sweep.check(pages[0], "tell")
    tell(pages[0], "")
    gallery = variant.startswith("pictoric-gallery")
    sweep.check(pages[0], "count")
    count(pages[0], 6 if gallery else 3)
    sweep.check(pages[1], "secret-phone")
    if gallery:
        vote(pages[1], 2)
        place(pages[0], 5)
    else:
        for seat, pos in enumerate([1, 2, 3]):
            place(pages[seat], pos)
        pages[2].wait_for_selector("#confirm-vote")
        sweep.check(pages[2], "vote-phone")
        vote(pages[1], 1)
    sweep.check(table.page, "secret-table-screen")
    vote(pages[2], 5 if gallery else 2)
    table.page.wait_for_selector("#companion-reveal[data-turn='1']")
    sweep.check(pages[1], "reveal-phone")
    sweep.check(table.page, "reveal-table-screen")
    sweep.assert_clean()
    for person in [*phones, table.player]:
        assert person.errors == [], (person.label, person.errors)


def test_every_screen_of_the_drawing_game_on_paper_passes_axe(
    open_player: Open, server: str, room_log: Callable[[str], Any]
) -> None:
    """The drawing game with paper: the device's and a phone's lobby, the device's
    category choice; while the sand runs, the drawer's phone with the word, another
    phone, the device with its 'guessed' buttons and the table screen; then the next
    turn's choice with the last turn told."""
    # No thinking time, and sand enough to look at four screens on a busy machine.
    t = PaperTable(open_player, server, think_seconds=0, draw_seconds=3600, blank_share=1.0)
    device = t.device.page
    sweep = Sweep()
    sweep.check(device, "lobby-device")
    sweep.check(t.phone(1).page, "lobby-phone")
    t.start()
    sweep.check(device, "choose-device")
    plain, _ = _next_card(room_log, t.code)
    device.click(f"#choose-{plain}")
    device.wait_for_selector("#vc-stage[data-phase='draw']")
    for seat in range(1, 5):
        t.phone(seat).page.wait_for_selector("#vc-stage[data-phase='draw']", state="attached")
    drawer = next(s for s in range(1, 5) if t.phone(s).page.locator("#subject").count())
    sweep.check(t.phone(drawer).page, "draw-drawer-phone")
    other = next(s for s in range(1, 5) if s != drawer)
    sweep.check(t.phone(other).page, "draw-other-phone")
    sweep.check(device, "draw-device")
    sweep.check(t.screen.page, "draw-table-screen")
    team = int(device.locator(".vc-stage .team-badge").first.get_attribute("data-team") or 0)
    device.click(f"#guessed-{team}")
    device.wait_for_selector("#vc-stage[data-turn='2'][data-phase='choose']")
    sweep.check(device, "next-choose-device")
    sweep.check(t.phone(drawer).page, "last-turn-phone")
    sweep.assert_clean()
    for person in [t.device.player, *(p.player for p in t.phones), t.screen.player]:
        assert person.errors == [], (person.label, person.errors)
