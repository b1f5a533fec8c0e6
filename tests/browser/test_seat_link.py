"""The seat link (/r/CODE#t=TOKEN): it never silently replaces the seat a browser holds,
and a player can replace it with a new one, which ends the old everywhere."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.browser.conftest import DESKTOP, PHONE, Open, Player, shot
from tests.browser.ui import create_room, join


def stored(page: Page, code: str) -> str | None:
    token: str | None = page.evaluate(f"localStorage.getItem('reverie:token:{code}')")
    return token


def seat_link(page: Page) -> str:
    if not page.locator(".move-device[open]").count():
        page.click(".move-device summary")
    return page.input_value("#seat-link")


def me_is(page: Page, name: str) -> None:
    expect(page.locator("#lobby .lobby-player.is-you .pname")).to_have_text(name)


def both_widths(page: Page, name: str) -> None:
    size = page.viewport_size
    for width, vp in (("375", PHONE), ("1280", DESKTOP)):
        page.set_viewport_size(vp)
        page.wait_for_timeout(150)
        shot(page, f"{name}-{width}", full_page=True)
    if size:
        page.set_viewport_size(size)


def test_a_seat_link_asks_before_replacing_this_browsers_seat(open_player: Open) -> None:
    ann = open_player("ann", DESKTOP)
    bob = open_player("bob", PHONE)
    code = create_room(ann, "Ann", "dixit")
    join(bob, f"/r/{code}", "Bob")
    anns = seat_link(ann.page)
    bobs = stored(bob.page, code)
    assert bobs and anns.endswith(f"#t={stored(ann.page, code)}")

    # Bob is sent Ann's link: his page asks, keeps his seat meanwhile, and by default.
    bob.page.goto(anns)
    choice = bob.page.locator("#link-choice")
    expect(choice).to_be_visible()
    expect(choice).to_contain_text("Keep my seat")
    assert "#" not in bob.page.url
    me_is(bob.page, "Bob")
    assert stored(bob.page, code) == bobs
    both_widths(bob.page, "seat-link-choice")
    bob.page.click("#link-keep")
    expect(choice).to_be_hidden()
    me_is(bob.page, "Bob")
    assert stored(bob.page, code) == bobs
    # A reload does not ask again: the link's token was never stored.
    bob.page.reload()
    me_is(bob.page, "Bob")
    expect(choice).to_be_hidden()

    # His own link asks nothing.
    own = seat_link(bob.page)
    bob.page.goto("/")
    bob.page.goto(own)
    me_is(bob.page, "Bob")
    expect(choice).to_be_hidden()

    # Chosen on purpose, the link's seat is taken.
    bob.page.goto("/")
    bob.page.goto(anns)
    expect(choice).to_be_visible()
    bob.page.click("#link-use")
    me_is(bob.page, "Ann")
    assert stored(bob.page, code) == stored(ann.page, code)
    assert seat_link(bob.page) == anns
    expect(bob.page.locator("#new-seat-link")).to_be_visible()
    both_widths(bob.page, "seat-link-tools")

    # A browser whose stored seat is no longer valid loses nothing: the link is used.
    cy = open_player("cy", DESKTOP)
    cy.page.goto("/")
    cy.page.evaluate(f"localStorage.setItem('reverie:token:{code}', 'not-a-seat')")
    cy.page.goto(anns)
    me_is(cy.page, "Ann")
    expect(cy.page.locator("#link-choice")).to_be_hidden()
    assert stored(cy.page, code) == stored(ann.page, code)
    for p in (ann, bob, cy):
        assert not p.errors, (p.label, p.errors)
        assert not p.dialogs, (p.label, p.dialogs)


def test_a_new_seat_link_ends_the_old_one(open_player: Open) -> None:
    ann = open_player("ann", DESKTOP)
    code = create_room(ann, "Ann", "dixit")
    old = seat_link(ann.page)
    old_token = stored(ann.page, code)
    # The link opened on a phone; and a second tab of Ann's own browser.
    phone = open_player("ann-phone", PHONE)
    phone.page.goto(old)
    me_is(phone.page, "Ann")
    tab = ann.context.new_page()
    tab.goto(f"/r/{code}")
    me_is(tab, "Ann")
    sockets: list[str] = []
    phone.page.on("websocket", lambda ws: sockets.append(ws.url))

    ann.page.click("#new-seat-link")
    expect(ann.page.locator("#seat-link")).not_to_have_value(old)
    new = ann.page.input_value("#seat-link")
    new_token = stored(ann.page, code)
    assert new_token and new_token != old_token and new.endswith(f"#t={new_token}")
    expect(ann.page.locator(".toast-info")).to_contain_text("New link made")
    me_is(ann.page, "Ann")
    both_widths(ann.page, "seat-link-new")

    # The phone is told, forgets the dead token, and stops reconnecting.
    gone = phone.page.locator("#link-replaced")
    expect(gone).to_be_visible()
    expect(gone).to_contain_text("open the new link to play here")
    expect(phone.page.locator("#conn")).to_be_hidden()
    assert stored(phone.page, code) is None
    phone.page.wait_for_timeout(3000)
    assert sockets == [], sockets
    expect(gone).to_be_visible()
    both_widths(phone.page, "seat-link-replaced")
    # The other tab of Ann's browser holds the new token already: it plays on.
    me_is(tab, "Ann")
    expect(tab.locator("#link-replaced")).to_have_count(0)

    # The old link opens no seat any more; the new one does.
    stranger = open_player("stranger", DESKTOP)
    stranger.page.goto(old)
    expect(stranger.page.locator("#join-form")).to_be_visible()
    assert stored(stranger.page, code) is None
    phone.page.goto(new)
    me_is(phone.page, "Ann")
    assert seat_link(phone.page) == new
    phone.page.click("#new-seat-link")
    expect(ann.page.locator("#link-replaced")).to_be_visible()
    ann.page.click("#replaced-watch")
    expect(ann.page.locator("#join-form")).to_be_visible()
    players: list[Player] = [ann, phone, stranger]
    for p in players:
        assert not p.dialogs, (p.label, p.dialogs)
