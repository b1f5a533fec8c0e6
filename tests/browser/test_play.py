"""What a play-test found (issue #24): the stage in view when a move becomes the reader's,
and a phone's hand, results and status line (the whole of each on a 375 px screen)."""

from __future__ import annotations

from playwright.sync_api import Page, ViewportSize, expect

from tests.browser.axe import assert_accessible
from tests.browser.conftest import DESKTOP, PHONE, Open, shot
from tests.browser.test_visual import balanced_table, drawer_of_choose
from tests.browser.ui import add_bots, choose, create_room, join, wait_phase


def _stage_in_view(page: Page) -> None:
    """The stage starts on screen, under the sticky status bar, in its upper part."""
    page.wait_for_function(
        """() => {
            const s = document.getElementById('stage').getBoundingClientRect().top;
            const bar = document.getElementById('status').getBoundingClientRect().bottom;
            return s >= bar - 1 && s < innerHeight * 0.4;
        }"""
    )


def _all_on_screen(page: Page, selector: str) -> None:
    """Every element of `selector` lies whole inside the screen's width, and their row
    does not scroll sideways."""
    width = page.viewport_size["width"] if page.viewport_size else 0
    boxes = page.locator(selector).evaluate_all(
        "els => els.map(e => { const r = e.getBoundingClientRect(); return [r.left, r.right]; })"
    )
    assert boxes and all(left >= 0 and right <= width for left, right in boxes), boxes
    row = page.locator(selector).first.locator("xpath=ancestor::div[contains(@class,'card-row')]")
    assert row.evaluate("r => r.scrollWidth <= r.clientWidth + 1"), "the row scrolls sideways"


def test_start_brings_the_stage_and_a_phone_sees_its_whole_hand(open_player: Open) -> None:
    ann = open_player("ann", PHONE)
    bob = open_player("bob", DESKTOP)
    create_room(ann, "Ann", "dixit")
    join(bob, ann.page.input_value("#invite-link"), "Bob")
    add_bots(ann.page, 2, 2)
    # Both have scrolled to the foot of the lobby (Ann to its Start button).
    bob.page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    ann.page.locator("#start").scroll_into_view_if_needed()
    assert ann.page.evaluate("scrollY") > 200  # the lobby is long on a phone
    ann.page.click("#start")
    for p in (ann, bob):
        wait_phase(p.page, "clue")
        # The open first turn is everyone's move: the stage is in view, and the bar
        # says so in colour as well as in words.
        _stage_in_view(p.page)
        expect(p.page.locator("#status")).to_have_class("status-bar your-move")
        expect(p.page.locator("#status-you")).to_have_text("Your move")
    shot(ann.page, "play-start-375")
    shot(bob.page, "play-start-1280")
    # A phone's status line is whole: nothing cut off, whose move it is included.
    status = ann.page.locator("#status-text")
    expect(status).to_contain_text("Turn 1")
    assert status.evaluate(
        "e => e.scrollWidth <= e.clientWidth + 1 && e.scrollHeight <= e.clientHeight + 1"
    ), status.inner_text()
    # Ann tells: her whole hand of six on her phone at once, a tap opens a card large.
    ann.page.click("#claim")
    _all_on_screen(ann.page, ".hand-row .card-tile")
    expect(ann.page.locator(".hand-row .card-tile")).to_have_count(6)
    ann.page.locator(".hand-row .card-tile").nth(4).click()
    expect(ann.page.locator("#zoom")).to_be_visible()
    big = ann.page.locator("#zoom .zoom-card").bounding_box()
    small = ann.page.locator(".hand-row .card-tile").first.bounding_box()
    assert big and small and big["width"] > 2 * small["width"], (big, small)
    ann.page.click("#zoom-choose")
    shot(ann.page, "play-hand-375", full_page=True)
    assert_accessible(ann.page, "the storyteller's stage at 375 px")
    # Bob, on his laptop, has scrolled down to the chat meanwhile: his next move (a
    # card for Ann's clue) brings the stage back.
    bob.page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    assert bob.page.evaluate("scrollY") > 100
    ann.page.fill("#clue-text", "Far away")
    ann.page.press("#clue-text", "Enter")
    wait_phase(bob.page, "submit")
    _stage_in_view(bob.page)
    choose(bob.page, ".hand-row .card-tile")
    bob.page.click("#confirm-card")
    wait_phase(bob.page, "vote")
    _stage_in_view(bob.page)
    assert_accessible(bob.page, "the vote at 1280 px")
    choose(bob.page, ".vote-row .card-tile:not(.mine)")
    bob.page.click("#confirm-vote")
    # The results on a phone: compact, one screen and a bit; who voted for what unfolds.
    panel = ann.page.locator("#reveal-panel[data-turn='1']")
    expect(panel).to_be_visible()
    ann.page.wait_for_timeout(300)  # the panel scrolls into view after its render
    height = panel.evaluate("e => e.getBoundingClientRect().height")
    assert height <= PHONE["height"] * 1.25, height
    details = ann.page.locator("#reveal-details")
    expect(details.locator(".points-table")).to_be_hidden()
    _all_on_screen(ann.page, ".reveal-row .card-tile")
    shot(ann.page, "play-results-375")
    ann.page.click("#reveal-details-summary")
    expect(details.locator(".points-table")).to_be_visible()
    expect(details.locator(".points-table tbody tr")).to_have_count(4)
    shot(ann.page, "play-results-open-375", full_page=True)
    assert_accessible(ann.page, "the results at 375 px")
    # On the laptop the results are whole at once, as before.
    expect(bob.page.locator("#reveal-details .points-table")).to_be_visible()
    expect(bob.page.locator("#reveal-panel .voters").first).to_be_visible()
    shot(bob.page, "play-results-1280", full_page=True)
    assert_accessible(bob.page, "the results at 1280 px")
    # Unfolded once, it stays so across the renders that follow (a clock tick, a state).
    ann.page.wait_for_timeout(600)
    expect(details).to_have_attribute("open", "")
    assert not ann.errors and not bob.errors, (ann.errors, bob.errors)


#: A television, for the table screen.
TV: ViewportSize = {"width": 1920, "height": 1080}
#: The laptop screens the drawer must fit: 1280x800 and 1366x768.
LAPTOPS: list[ViewportSize] = [{"width": 1280, "height": 800}, {"width": 1366, "height": 768}]


def test_the_drawer_has_canvas_and_every_tool_on_one_laptop_screen(open_player: Open) -> None:
    table, _ = balanced_table(open_player, draw_seconds=120)
    table.everyone[0].page.click("#start")
    drawer = drawer_of_choose(table)
    page = drawer.page
    page.set_viewport_size(LAPTOPS[0])
    page.evaluate("window.scrollTo(0, 0)")
    page.click("#choose-objects")
    wait_phase(page, "draw")
    # The drawing scrolls the stage up under the status bar by itself.
    page.wait_for_function(
        """() => Math.abs(document.querySelector('#stage .vstage').getBoundingClientRect().top
            - document.getElementById('status').getBoundingClientRect().bottom - 8) < 3"""
    )
    tools = [
        ".vcanvas canvas.sketch",
        "#subject",
        ".vpalette label",
        ".vmodes label",
        ".vsizes label",
        "#tool-undo",
        "#tool-clear",
        "#guesses",
    ]
    for size in (*LAPTOPS, PHONE):
        page.set_viewport_size(size)
        page.locator("#stage .vstage").evaluate("e => e.scrollIntoView({block: 'start'})")
        name = f"play-drawer-{size['width']}x{size['height']}"
        shot(page, name)
        if size is PHONE:
            continue  # a phone scrolls: test_drawer_phone.py has its layout
        for selector in tools:
            boxes = page.locator(selector).evaluate_all(
                "els => els.map(e => { const r = e.getBoundingClientRect(); "
                "return [r.left, r.top, r.right, r.bottom]; })"
            )
            assert boxes, selector
            for left, top, right, bottom in boxes:
                assert left >= 0 and right <= size["width"], (name, selector, left, right)
                assert top >= 0 and bottom <= size["height"], (name, selector, top, bottom)
        canvas = page.locator(".vcanvas canvas.sketch").bounding_box()
        assert canvas and canvas["width"] >= 640, (name, canvas)
    page.set_viewport_size(LAPTOPS[0])
    assert_accessible(page, "the drawer at 1280x800")
    # The table screen of the drawing game: no gate, the room's two columns on the TV
    # (the drawing and the board side by side, not stacked across the screen).
    tv = open_player("tv", TV)
    tv.page.goto(page.url + "?table")
    expect(tv.page.locator("#stage .vstage")).to_be_visible()
    expect(tv.page.locator(".gate")).to_have_count(0)
    _whole_on_screen(tv.page, "#board .vsquare")
    stage = tv.page.locator("#stage").bounding_box()
    board = tv.page.locator("#board").bounding_box()
    assert stage and board and board["x"] > stage["x"] + stage["width"] - 1, (stage, board)
    shot(tv.page, "play-tv-visual-1920")
    assert_accessible(tv.page, "the drawing game's table screen")
    assert not drawer.errors and not tv.errors, (drawer.errors, tv.errors)


def _whole_on_screen(page: Page, selector: str) -> None:
    size = page.viewport_size
    assert size
    boxes = page.locator(selector).evaluate_all(
        "els => els.map(e => { const r = e.getBoundingClientRect(); "
        "return [r.left, r.top, r.right, r.bottom]; })"
    )
    assert boxes, selector
    for left, top, right, bottom in boxes:
        assert left >= 0 and right <= size["width"] and top >= 0 and bottom <= size["height"], (
            selector,
            (left, top, right, bottom),
        )


def test_the_table_screen_of_an_online_game_is_a_tv_view(open_player: Open) -> None:
    ann = open_player("ann", PHONE)
    code = create_room(ann, "Ann", "dixit")
    tv = open_player("tv", TV)
    tv.page.goto(f"/r/{code}?table")
    # No "join or watch?" gate: the way to join, and the board, big.
    expect(tv.page.locator("#join-qr")).to_be_visible()
    expect(tv.page.locator(".gate")).to_have_count(0)
    _whole_on_screen(tv.page, "#table-board svg")
    shot(tv.page, "play-tv-lobby-1920")
    assert_accessible(tv.page, "the table screen's lobby")
    add_bots(ann.page, 1, 2)
    ann.page.click("#start")
    ann.page.click("#claim")
    choose(ann.page, ".hand-row .card-tile")
    ann.page.fill("#clue-text", "Far away")
    ann.page.press("#clue-text", "Enter")
    # The bots add their cards and vote at once: the results of turn 1 on the screen,
    # and what comes next above them.
    results = tv.page.locator("#reveal-panel[data-turn='1']")
    expect(results).to_be_visible()
    expect(tv.page.locator("#table-next")).to_contain_text("Next turn:")
    _whole_on_screen(tv.page, "#table-board svg")
    _whole_on_screen(tv.page, "#reveal-panel .reveal-row .card-tile")
    shot(tv.page, "play-tv-results-1920")
    assert_accessible(tv.page, "the table screen's results")
    # Then the next turn by itself (a bot told its clue at once): the results go, the
    # cards come face down as they are added (the storyteller's and the other bot's).
    now = tv.page.locator("#table-now[data-turn='2'][data-phase='submit']")
    expect(now).to_be_visible(timeout=20_000)
    expect(results).to_have_count(0)
    expect(tv.page.locator("#table-clue")).not_to_be_empty()
    expect(tv.page.locator("#table-now .card-back")).to_have_count(2)
    _whole_on_screen(tv.page, "#table-now .card-back")
    shot(tv.page, "play-tv-submit-1920")
    wait_phase(ann.page, "submit")
    choose(ann.page, ".hand-row .card-tile")
    ann.page.click("#confirm-card")
    # The vote: the cards on the table face up, numbered, and the board, on one screen.
    expect(tv.page.locator("#table-now[data-phase='vote'] .card-face")).to_have_count(3)
    _whole_on_screen(tv.page, "#table-now .card-face")
    _whole_on_screen(tv.page, "#table-board svg")
    positions = tv.page.locator("#table-now .card-face").evaluate_all(
        "els => els.map(e => Number(e.dataset.position))"
    )
    assert positions == [1, 2, 3], positions
    expect(tv.page.locator("#reveal-panel")).to_have_count(0)
    shot(tv.page, "play-tv-vote-1920")
    assert_accessible(tv.page, "the table screen's vote")
    for size, label in ((DESKTOP, "1280"), (PHONE, "375")):
        tv.page.set_viewport_size(size)
        expect(tv.page.locator("#table-now .card-face").first).to_be_visible()
        shot(tv.page, f"play-tv-vote-{label}")
    assert not tv.errors and not ann.errors, (tv.errors, ann.errors)
