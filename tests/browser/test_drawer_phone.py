"""The drawer's phone: at 375 × 740 the canvas, the tools and the marks of the guesses
fit on one screen, and the sticky status bar covers none of the canvas."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.browser.conftest import PHONE, Open, shot
from tests.browser.test_visual import drawer_of_choose, seat_up
from tests.browser.ui import wait_phase

#: Where the element at each corner (inset a little) and the centre of the canvas is
#: is not the canvas itself (empty: nothing is drawn over it).
UNCOVERED = """el => {
    const r = el.getBoundingClientRect();
    const pts = [[r.left + 10, r.top + 10], [r.right - 10, r.top + 10],
                 [r.left + 10, r.bottom - 10], [r.right - 10, r.bottom - 10],
                 [r.left + r.width / 2, r.top + r.height / 2]];
    return pts.map(([x, y]) => { const e = document.elementFromPoint(x, y);
        return e === el ? '' : `${x},${y}: ${e && (e.id || e.className || e.tagName)}`; })
        .filter(Boolean).join('; ');
}"""


def _inside(page: Page, selector: str) -> None:
    box = page.locator(selector).first.bounding_box()
    assert box, f"{selector} is not drawn"
    bar = page.locator("#status").bounding_box()
    assert bar
    top = bar["y"] + bar["height"]
    assert box["y"] >= top - 1, f"{selector} at {box['y']} is under the status bar ({top})"
    assert box["y"] + box["height"] <= PHONE["height"] + 1, (
        f"{selector} ends at {box['y'] + box['height']}"
    )


def test_drawer_phone_screen(open_player: Open) -> None:
    table = seat_up(open_player, {"think_seconds": "0"})
    table.everyone[0].page.click("#start")
    drawer = drawer_of_choose(table)
    drawer.page.set_viewport_size(PHONE)
    drawer.page.click("#choose-objects")
    for p in table.everyone:
        wait_phase(p.page, "draw")
    team = table.team_of(drawer)
    mate = next(p for p in table.teams[team] if p is not drawer)
    mate.page.fill("#guess-input", "a first guess")
    mate.page.press("#guess-input", "Enter")
    page = drawer.page
    expect(page.locator(".vaccept")).to_have_count(1)
    page.wait_for_timeout(400)
    shot(page, "drawer-phone-375")
    _inside(page, "#subject")
    _inside(page, ".vcanvas canvas")
    _inside(page, "#pen-tools")
    _inside(page, ".vaccept")
    assert page.locator(".vcanvas canvas").first.evaluate(UNCOVERED) == ""
    # The status bar is one line, its timer inline; the stage does not show it again.
    bar = page.locator("#status").bounding_box()
    assert bar and bar["height"] < 56, bar
    expect(page.locator("#countdown")).to_be_visible()
    expect(page.locator("#stage .vtimer-text")).to_have_count(0)
