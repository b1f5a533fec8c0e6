"""Companion games in the browser: four phones and a table screen play a Dixit game and
an Imaginarium game to their end with real cards (positions, clashes, votes, the reveal,
the board, every kind of special cloud, the undo), and Pictoric's first storyteller is
rolled, with a re-roll. The table screen's page never changes while the secret entries
come in, and none of its frames holds one."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, expect

from reverie.rooms.state import game_seed
from reverie.rules import companion
from reverie.rules.companion import die
from tests.browser.companion import (
    TABLE_1280,
    TABLE_1920,
    Entry,
    TableScreen,
    accept_confirms,
    both_sizes,
    companion_table,
    count,
    enter,
    place,
    screenshots,
    start,
    tell,
    vote,
    wait_turn,
)
from tests.browser.conftest import PHONE, Open, Player, shot
from tests.browser.ui import join, scores, wait_phase

pytestmark = pytest.mark.browser

NAMES = ["Ann", "Bob", "Cy", "Dee"]


def test_dixit_with_the_box_four_phones_and_a_table_screen(
    open_player: Open, room_log: Callable[[str], Any]
) -> None:
    phones, code = companion_table(open_player, "dixit-companion", NAMES)
    pages = [p.page for p in phones]
    table = TableScreen(open_player("table", TABLE_1280), code)
    expect(table.page.locator("#join-url")).to_contain_text(f"/r/{code}")
    start(pages[0])
    table.page.wait_for_selector("#table-phase")

    # Round 1: Ann claims the first turn (Dixit) and tells; four cards on the table.
    tell(pages[0], "A quiet sea")
    expect(table.page.locator(".table-clue")).to_contain_text("A quiet sea")
    count(pages[0], 4)
    for p in pages:
        wait_phase(p, "secret")
    # While the entries come in, the table screen changes only in its counts.
    table.wait_progress(0, 0)
    secret_free = table.secret_free_html()
    place(pages[0], 1)
    place(pages[1], 2)
    table.wait_progress(2, 0)
    place(pages[2], 2)  # Cy's card is not at 2, but nothing is compared until all are in
    table.wait_progress(3, 0)
    place(pages[3], 4)  # all in, two at 2: everyone looks again, and nobody is named
    table.wait_progress(0, 0)
    expect(table.page.locator("#table-recheck")).to_have_attribute("data-clashes", "1")
    expect(table.page.locator("#table-recheck")).to_contain_text("everyone looks")
    for p in pages:
        expect(p.locator("#look-again")).to_contain_text("everyone enters again")
    for p in (*pages, table.page):
        for name in NAMES:
            expect(p.locator("#look-again, #table-recheck")).not_to_contain_text(name)
    shot(pages[1], "companion-dixit-clash-phone", full_page=True)
    shot(table.page, "companion-dixit-clash-table")
    assert table.secret_free_html() == secret_free
    place(pages[0], 1)
    place(pages[1], 2)
    place(pages[2], 4)  # a slip: Cy's card is at 3, and she enters it again in time
    expect(pages[2].locator("#change-place")).to_contain_text("(now 4)")
    pages[2].click("#change-place")
    expect(pages[2].locator("#keep-place")).to_contain_text("Keep 4")
    place(pages[2], 3)
    expect(pages[2].locator("#change-place")).to_contain_text("(now 3)")
    table.wait_progress(3, 0)
    place(pages[3], 4)
    # A vote never lands on one's own position.
    expect(pages[1].locator(".cpick[data-position='2']")).to_be_disabled()
    vote(pages[1], 1)
    vote(pages[2], 2)
    # The table screen follows the votes as they arrive: wait for the second one.
    expect(table.page.locator("#table-progress")).to_contain_text(
        "Positions in: 4 of 4 · votes in: 2 of 3"
    )
    assert table.secret_free_html() == secret_free
    vote(pages[3], 3)

    # Reveal: Bob found Ann's card, Cy voted Bob's, Dee voted Cy's → 3, 4, 1, 0.
    table.page.wait_for_selector("#companion-reveal[data-turn='1']")
    owners = table.page.locator("#companion-reveal .cpos .cpos-owner").all_inner_texts()
    assert [o.split("\n")[0] for o in owners] == NAMES
    for p in pages:
        wait_turn(p, 2, "clue")
    assert scores(pages[0]) == {"Ann": 3, "Bob": 4, "Cy": 1, "Dee": 0}
    expect(table.page.locator(".table-scores li[data-seat='1']")).to_contain_text("4")
    # The pieces stand on their squares (score + 1 on Dixit's track).
    squares = table.page.locator(".table-board svg [data-seat]").evaluate_all(
        "els => els.map(e => [e.dataset.seat, e.dataset.square])"
    )
    assert dict(squares) == {"0": "4", "1": "5", "2": "2", "3": "1"}
    screenshots(phones, table, "companion-dixit-reveal")

    # The table agrees round 1 was entered wrong: Dee takes it back.
    accept_confirms(pages[3])
    pages[3].click("#undo")
    for p in pages:
        wait_turn(p, 1, "count")
    expect(table.page.locator("#table-undone")).to_contain_text("Dee took back")
    for p in pages:
        expect(p.locator("#undone-note")).to_contain_text("Dee took back the reveal of round 1")
    shot(pages[1], "companion-dixit-undone-phone", full_page=True)
    assert scores(pages[0]) == {"Ann": 0, "Bob": 0, "Cy": 0, "Dee": 0}
    count(pages[0], 4)
    enter(pages, table, _dixit_entries([1, 2, 3, 4], {1: 3, 2: 1, 3: 1}))
    for p in pages:
        wait_turn(p, 2, "clue")
    assert scores(pages[2]) == {"Ann": 3, "Bob": 0, "Cy": 4, "Dee": 3}

    # Round 2: Bob tells; everybody finds him → Bob 0, the others 2 (and no own votes).
    tell(pages[1])
    count(pages[1], 4)
    enter(pages, table, _dixit_entries([4, 3, 2, 1], {0: 3, 2: 3, 3: 3}))
    for p in pages:
        wait_turn(p, 3, "clue")
    assert scores(pages[3]) == {"Ann": 5, "Bob": 0, "Cy": 6, "Dee": 5}

    # Round 3: Cy tells; nobody finds her → Cy 0, the others 2, and Bob 2 and Dee 1
    # more for the votes their cards drew.
    tell(pages[2], "Nobody will get this")
    count(pages[2], 4)
    enter(pages, table, _dixit_entries([2, 1, 4, 3], {0: 1, 1: 3, 3: 1}))
    for p in pages:
        wait_turn(p, 4, "clue")
    assert scores(pages[0]) == {"Ann": 7, "Bob": 4, "Cy": 6, "Dee": 8}

    # Round 4: Dee tells; Ann alone finds her → Dee 3, Ann 3 + 1 (Cy voted her card),
    # Cy 1 (Bob voted hers).
    tell(pages[3])
    count(pages[3], 4)
    enter(pages, table, _dixit_entries([3, 4, 1, 2], {0: 2, 1: 1, 2: 3}))
    for p in pages:
        wait_turn(p, 5, "clue")
    assert scores(pages[1]) == {"Ann": 11, "Bob": 4, "Cy": 7, "Dee": 11}
    squares = table.page.locator(".table-board svg [data-seat]").evaluate_all(
        "els => els.map(e => [e.dataset.seat, e.dataset.square])"
    )
    assert dict(squares) == {"0": "12", "1": "5", "2": "8", "3": "12"}

    # Every storyteller has told once and the deck ran out: the table ends the game;
    # Ann and Dee share the win on every screen.
    accept_confirms(pages[2])
    pages[2].click("#finish")
    for p in pages:
        p.wait_for_selector("#final:not([hidden]) .final")
        expect(p.locator(".final-winners")).to_contain_text("Ann, Dee")
    expect(table.page.locator("#table-final")).to_contain_text("Ann, Dee")
    screenshots(phones, table, "companion-dixit-final")
    # The room's event log keeps the reveal taken back: who took it back, and what it
    # had said (Ann 3, Bob 4, Cy 1, Dee 0).
    logged = room_log(code).game
    assert [(u.seat, u.round.number, u.round.points) for u in logged.undone] == [
        (3, 1, (3, 4, 1, 0))
    ]
    assert [r.number for r in logged.history] == [1, 2, 3, 4]
    assert logged.scores == (11, 4, 7, 11) and logged.winners == (0, 3)
    table.assert_no_secrets()
    for person in [*phones, table.player]:
        assert person.errors == [], (person.label, person.errors)


def _dixit_entries(positions: list[int], votes: dict[int, int]) -> list[Entry]:
    """Each seat's position, then the votes (seat: position)."""
    places: list[Entry] = [("place", s, p) for s, p in enumerate(positions)]
    return places + [("vote", s, p) for s, p in votes.items()]


# Imaginarium to its end, round by round: (whose card each seat votes for, by seat;
# a clash of two seats first, if any). Seat s lays its card at position (s + r) % 4 + 1
# in round r (0-based). The rounds are chosen so that the storytellers stand, one after
# the other, on every kind of special cloud: four words, a question, a story, a brand,
# a film; the last round everybody finds the storyteller's card (Imaginarium: −3).
CLOUD_GAME: list[tuple[dict[int, int], tuple[int, int] | None]] = [
    ({1: 0, 2: 0, 3: 2}, None),
    ({0: 1, 2: 1, 3: 0}, None),
    ({0: 2, 1: 0, 3: 0}, (1, 3)),
    ({0: 3, 1: 0, 2: 0}, None),
    ({1: 0, 2: 0, 3: 2}, None),
    ({0: 1, 2: 0, 3: 0}, None),
    ({0: 2, 1: 2, 3: 2}, None),
]
KINDS = ["four_words", "question", "story", "brand", "film"]


def _entries(r: int, by_owner: dict[int, int], clash: tuple[int, int] | None) -> list[Entry]:
    """The secret entries of round ``r``: positions (after a clash, if any), then votes."""
    pos = [(s + r) % 4 + 1 for s in range(4)]
    out: list[Entry] = []
    if clash:
        a, b = clash  # a claims b's position; when all are in they clash: all enter again
        out += [("place", s, pos[b] if s == a else pos[s]) for s in range(4)]
    out += [("place", s, pos[s]) for s in range(4)]
    return out + [("vote", s, pos[owner]) for s, owner in by_owner.items()]


def _model(
    g: companion.GameState, entries: list[Entry], text: str | None = None
) -> companion.GameState:
    """The same taps in the rules engine: the clue told (unless it stands after an
    undo), four cards counted, the entries."""
    st = g.round.storyteller
    assert st is not None
    if text is not None:
        g = companion.apply(g, companion.Tell(st, text))
    g = companion.apply(g, companion.Count(st, 4))
    for kind, seat, position in entries:
        act = companion.Place if kind == "place" else companion.Vote
        g = companion.apply(g, act(seat, position))
    return g


def _restriction_shown(page: Page, want: str | None) -> None:
    note = page.locator("#companion-restriction")
    if want is None:
        expect(note).to_have_count(0)
    else:
        expect(note).to_have_attribute("data-restriction", want)


def test_imaginarium_to_the_end_on_every_special_cloud(
    open_player: Open, room_log: Callable[[str], Any]
) -> None:
    phones, code = companion_table(
        open_player, "imaginarium-companion", NAMES, first_storyteller="0"
    )
    pages = [p.page for p in phones]
    table = TableScreen(open_player("table", TABLE_1920), code)
    start(pages[0])
    table.page.wait_for_selector("#table-phase")
    # The rules engine, fed the same taps, says what the phones and the table must show.
    model = companion.new_game(
        "imaginarium", NAMES, seed=0, options=companion.Options(first_storyteller=0)
    )
    seen: list[str] = []
    for r, (by_owner, clash) in enumerate(CLOUD_GAME):
        turn = r + 1
        st = model.round.storyteller
        assert st is not None
        want = model.round.restriction.value if model.round.restriction else None
        if want:
            seen.append(want)
        for page in (pages[st], pages[(st + 1) % 4], table.page):
            _restriction_shown(page, want)
        expect(table.page.locator("#table-phase")).to_contain_text(f"{NAMES[st]} tells")
        if want == "film":
            shot(pages[st], "companion-imaginarium-film-phone", full_page=True)
        if r == 0:
            # Round 1 is first entered wrong (Bob meant Ann's card, not Cy's): Dee takes
            # the reveal back, and the round is entered again.
            wrong = _entries(0, {1: 2, 2: 0, 3: 2}, None)
            tell(pages[st], "the first dream")
            count(pages[st], 4)
            enter(pages, table, wrong)
            model = _model(model, wrong, "the first dream")
            for p in pages:
                wait_turn(p, 2, "clue")
            assert scores(pages[0]) == dict(zip(NAMES, model.scores, strict=True))
            accept_confirms(pages[3])
            pages[3].click("#undo")
            model = companion.apply(model, companion.Undo(3))
            for p in pages:
                wait_turn(p, 1, "count")
            expect(table.page.locator("#table-undone")).to_contain_text("Dee took back")
            assert scores(pages[1]) == {name: 0 for name in NAMES}
            entries = _entries(0, by_owner, None)
            count(pages[st], 4)
            enter(pages, table, entries)
            model = _model(model, entries)
        else:
            text = "one two three four" if want == "four_words" else ""
            tell(pages[st], text)
            count(pages[st], 4)
            if r == 2:
                screenshot_secret(phones, table)
            entries = _entries(r, by_owner, clash)
            enter(pages, table, entries)
            model = _model(model, entries, text)
        for p in pages:
            wait_turn(p, turn + 1, "clue")
        table.page.wait_for_selector(f"#companion-reveal[data-turn='{turn}']")
        assert scores(pages[turn % 4]) == dict(zip(NAMES, model.scores, strict=True))
        squares = table.page.locator(".table-board svg [data-seat]").evaluate_all(
            "els => els.map(e => [Number(e.dataset.seat), Number(e.dataset.square)])"
        )
        want_squares = {p["seat"]: p["square"] for p in companion.view(model, None)["players"]}
        assert dict(squares) == want_squares, turn
        if r in (1, 5):
            both_sizes(table, f"companion-imaginarium-reveal-{turn}")
    assert seen == KINDS

    # Everybody found Cy's card in the last round: Imaginarium takes 3 from her.
    assert model.history[-1].points[2] == -3
    # The hands are empty: the table ends the game; Ann wins on every screen.
    accept_confirms(pages[1])
    pages[1].click("#finish")
    model = companion.apply(model, companion.Finish(1))
    for p in pages:
        p.wait_for_selector("#final:not([hidden]) .final")
    expect(table.page.locator("#table-final")).to_contain_text("Ann")
    assert model.winners == (0,)
    shot(pages[2], "companion-imaginarium-final-phone", full_page=True)
    both_sizes(table, "companion-imaginarium-final")
    # The room's event log holds the same game, the reveal taken back included.
    logged = room_log(code).game
    assert logged.scores == model.scores and logged.history == model.history
    assert logged.undone == model.undone and len(logged.undone) == 1
    assert logged.undone[0].seat == 3 and logged.undone[0].round.number == 1
    table.assert_no_secrets()
    for person in [*phones, table.player]:
        assert person.errors == [], (person.label, person.errors)


def screenshot_secret(phones: list[Player], table: TableScreen) -> None:
    """The secret entries as a phone and the table screen show them."""
    shot(phones[0].page, "companion-imaginarium-secret-phone", full_page=True)
    both_sizes(table, "companion-imaginarium-secret")


def test_pictoric_first_storyteller_by_the_die_with_a_reroll(
    open_player: Open, server: str, room_log: object
) -> None:
    names = ["Ann", "Bob", "Cy"]
    # A room whose first roll ties (the rules' own dice, from the room's secret seed):
    # rooms are cheap, and the test must see a re-roll.
    for _ in range(60):
        r = httpx.post(
            f"{server}/api/rooms",
            json={"name": "Ann", "color": "#e63946", "variant": "pictoric-companion",
                  "seats": 3, "options": {}},
        )  # fmt: skip
        assert r.status_code == 201, r.text
        code, token = r.json()["code"], r.json()["token"]
        seed = game_seed(room_log(code).seed, 0)  # type: ignore[operator]
        row = [die(seed, 0, s) for s in range(3)]
        if row.count(max(row)) > 1:
            break
    else:
        pytest.fail("no room with a tie in 60 tries")
    phones = [open_player(n, PHONE) for n in names]
    phones[0].page.goto(f"/r/{code}#t={token}")
    phones[0].page.wait_for_selector("#lobby .lobby-player.is-you")
    for phone, name in zip(phones[1:], names[1:], strict=True):
        join(phone, f"/r/{code}", name)
    table = TableScreen(open_player("table", TABLE_1280), code)
    pages = [p.page for p in phones]
    start(pages[0])
    for p in pages:
        p.click("#roll")
    tied = [names[s] for s in range(3) if row[s] == max(row)]
    expect(table.page.locator("#dice-panel .notice")).to_contain_text(", ".join(tied))
    expect(pages[0].locator("#dice-tie")).to_be_visible()
    shot(table.page, "companion-pictoric-reroll-table")
    shot(pages[0], "companion-pictoric-reroll-phone", full_page=True)
    rows = 1
    while True:
        rows += 1
        contenders = [s for s in range(3) if names[s] in tied]
        for s in contenders:
            pages[s].click("#roll")
        seed_row = [die(seed, rows - 1, s) if s in contenders else 0 for s in range(3)]
        top = max(seed_row)
        tied = [names[s] for s in range(3) if seed_row[s] == top]
        if len(tied) == 1:
            break
        expect(table.page.locator(f".dice-rows li[data-row='{rows}']")).to_have_count(1)
    first = tied[0]
    expect(table.page.locator("#table-phase")).to_contain_text(f"{first} tells")
    for p in pages:
        wait_phase(p, "clue")
    assert table.page.locator(".dice-rows li").count() == rows
    table.assert_no_secrets()


def test_pictoric_a_piece_reaches_the_box_and_the_table_takes_it_back(
    open_player: Open, server: str
) -> None:
    names = ["Ann", "Bob", "Cy"]
    # A short road (5 steps) so that one round reaches PICTORICBOX.
    r = httpx.post(
        f"{server}/api/rooms",
        json={"name": "Ann", "color": "#e63946", "variant": "pictoric-companion", "seats": 3,
              "options": {"first_storyteller": 0, "track_length": 5}},
    )  # fmt: skip
    assert r.status_code == 201, r.text
    code, token = r.json()["code"], r.json()["token"]
    phones = [open_player(n, PHONE) for n in names]
    pages = [p.page for p in phones]
    pages[0].goto(f"/r/{code}#t={token}")
    pages[0].wait_for_selector("#lobby .lobby-player.is-you")
    for phone, name in zip(phones[1:], names[1:], strict=True):
        join(phone, f"/r/{code}", name)
    table = TableScreen(open_player("table", TABLE_1280), code)
    start(pages[0])
    tell(pages[0])
    count(pages[0], 3)
    # Bob finds Ann's card, Cy votes Bob's: Ann 6 − 1 = 5 steps (the box), Bob 3 + 1.
    enter(pages, table, [*(("place", s, s + 1) for s in range(3)), ("vote", 1, 1), ("vote", 2, 2)])
    for p in pages:
        p.wait_for_selector("#final:not([hidden]) .final")
        expect(p.locator(".final-winners")).to_contain_text("Ann")
    expect(table.page.locator("#table-final")).to_contain_text("Ann")
    squares = table.page.locator(".table-board svg [data-seat]").evaluate_all(
        "els => els.map(e => [e.dataset.seat, e.dataset.square])"
    )
    assert dict(squares) == {"0": "6", "1": "5", "2": "1"}  # 6: the box past step 5
    shot(pages[1], "companion-pictoric-box-phone", full_page=True)
    both_sizes(table, "companion-pictoric-box")
    # The table says it was entered wrong: the game that the box ended goes on.
    accept_confirms(pages[2])
    pages[2].click("#undo")
    for p in pages:
        wait_turn(p, 1, "count")
    expect(table.page.locator("#table-final")).to_have_count(0)
    expect(table.page.locator("#table-undone")).to_contain_text("Cy took back")
    assert scores(pages[0]) == {"Ann": 0, "Bob": 0, "Cy": 0}
    table.assert_no_secrets()
    for person in [*phones, table.player]:
        assert person.errors == [], (person.label, person.errors)


@pytest.mark.parametrize(
    ("lang", "variant"),
    [("ru", "pictoric-gallery-companion"), ("it", "imaginarium-harmony-companion")],
)
def test_companion_screens_in_russian_and_italian(
    open_player: Open, lang: str, variant: str
) -> None:
    names = ["Ann", "Bob", "Cy"]
    phones, code = companion_table(open_player, variant, names, first_storyteller="0", lang=lang)
    pages = [p.page for p in phones]
    table = TableScreen(open_player("table", TABLE_1280, lang=lang), code)
    shot(table.page, f"companion-{lang}-lobby-table")
    start(pages[0])
    tell(pages[0], "")
    gallery = variant.startswith("pictoric-gallery")
    count(pages[0], 6 if gallery else 3)
    if gallery:
        vote(pages[1], 2)  # nothing of one's own in the gallery
        place(pages[0], 5)
    else:
        for seat, pos in enumerate([1, 2, 3]):
            place(pages[seat], pos)
        vote(pages[1], 1)
    shot(pages[2], f"companion-{lang}-secret-phone", full_page=True)
    both_sizes(table, f"companion-{lang}-secret")
    vote(pages[2], 5 if gallery else 2)
    table.page.wait_for_selector("#companion-reveal[data-turn='1']")
    both_sizes(table, f"companion-{lang}-reveal")
    shot(pages[1], f"companion-{lang}-reveal-phone", full_page=True)
    for page in [*pages, table.page]:
        text = page.inner_text("body")
        assert "companion." not in text and "table." not in text, text
    # Gallery: Cy found the pick (3), Bob missed: storyteller 6 − 1 = 5.
    # Harmony: Bob found Ann's card, Cy voted Bob's: Ann 3 + 1 (her own card's vote
    # counts too), Bob 3 + 1, Cy 0.
    want = {"Ann": 5, "Bob": 0, "Cy": 3} if gallery else {"Ann": 4, "Bob": 4, "Cy": 0}
    assert scores(pages[0]) == want
    table.assert_no_secrets()
    for person in [*phones, table.player]:
        assert person.errors == [], (person.label, person.errors)
