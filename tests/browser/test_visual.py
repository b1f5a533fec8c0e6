"""Four people play the team drawing game ``visual`` through the real UI.

Two teams of two: the lobby's team columns, a word turn (the drawer picks a category,
draws with the mouse, the teammate sees the strokes, marks a synonym, guesses the word
read off the drawer's screen, the pawn moves), a proverb round (every card has a blank:
``blank_share`` 1.0), its move phase, and a short game to the end screen.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from playwright.sync_api import Page, expect

from tests.browser.conftest import DESKTOP, PHONE, TAKE_SCREENSHOTS, Open, Player, shot
from tests.browser.ui import ROOM_URL, join, wait_phase

#: Squares each category moves.
VALUES = {"objects": 3, "actions": 4, "places": 5, "luck": 6}

#: The number of points a canvas shows (data-points), at least 40.
POINTS_AT_LEAST = """seat => Number(
    document.querySelector(`.vcanvas[data-seat='${seat}'] canvas`).dataset.points) >= 40"""
#: The pawn of a team stands on a square.
PAWN_ON = """([team, square]) => Number(
    document.querySelector(`#board .pawn[data-team='${team}']`)?.dataset.square) === square"""

RAW_KEY = re.compile(
    r"\b(?:home|nav|common|options|status|conn|room|gate|lobby|players|final|chat|seat|error|"
    r"teams|vboard|vcanvas|vcat|vchoose|vdecide|vfinal|vguess|vlast|vlog|vphase|vplayers|"
    r"vstage|vstatus|vsubject|vtools|variant)\.[a-z_]+"
)


@dataclass
class Table:
    everyone: list[Player]
    teams: dict[int, list[Player]]  # team number → its players
    spectator: Player | None = None

    def team_of(self, player: Player) -> int:
        return next(t for t, members in self.teams.items() if player in members)


def create_visual_room(
    player: Player, name: str, selects: dict[str, str], turn_limit: int | None = None
) -> str:
    """Create a drawing-game room through the home page; returns the invite URL."""
    page = player.page
    page.goto("/")
    page.fill("#create-name", name)
    page.check("#variant-visual", force=True)
    page.click(".options-details summary")
    for field, value in selects.items():
        page.select_option(f"#create [name={field}]", value)
    if turn_limit is not None:
        page.fill("#create [name=turn_limit]", str(turn_limit))
    page.click("#create-submit")
    page.wait_for_url(ROOM_URL)
    page.wait_for_selector("#lobby:not([hidden]) #teams")
    return page.input_value("#invite-link")


def seat_up(open_player: Open, selects: dict[str, str], turn_limit: int | None = None) -> Table:
    """Ann (host) and Bob against Cy and Dee, on laptops and phones."""
    ann = open_player("ann", DESKTOP)
    bob = open_player("bob", PHONE)
    cy = open_player("cy", DESKTOP)
    dee = open_player("dee", PHONE)
    invite = create_visual_room(ann, "Ann", selects, turn_limit)
    for p, name in ((bob, "Bob"), (cy, "Cy"), (dee, "Dee")):
        join(p, invite, name)
    everyone = [ann, bob, cy, dee]
    for p in everyone:
        expect(p.page.locator("#teams .lobby-player")).to_have_count(4)
    teams = {0: [ann, bob], 1: [cy, dee]}
    for t, members in teams.items():
        for p in members:
            p.page.click(f"#join-team-{t}")
            expect(
                p.page.locator(f"#teams .team-col[data-team='{t}'] .lobby-player.is-you")
            ).to_be_visible()
    for t, members in teams.items():
        expect(ann.page.locator(f"#teams .team-col[data-team='{t}'] .lobby-player")).to_have_count(
            len(members)
        )
    return Table(everyone, teams)


def role(page: Page) -> str:
    return page.locator("#stage .vstage").get_attribute("data-role") or ""


def turn_number(page: Page) -> int:
    return int(page.locator("#stage .vstage").get_attribute("data-turn") or "0")


def wait_turn(table: Table, number: int) -> None:
    for p in table.everyone:
        p.page.wait_for_selector(f"#stage .vstage[data-turn='{number}']", timeout=60_000)


def drawer_of_choose(table: Table) -> Player:
    """The player whose page offers the categories."""
    for p in table.everyone:
        wait_phase(p.page, "choose")
    return next(p for p in table.everyone if p.page.locator("#choose-objects").count())


def draw_squiggle(page: Page) -> None:
    """Draw three strokes on one's own canvas with the mouse."""
    canvas = page.locator(".vcanvas canvas.sketch").first
    canvas.scroll_into_view_if_needed()
    box = canvas.bounding_box()
    assert box, "the canvas is not on screen"
    x0, y0, w, hgt = box["x"], box["y"], box["width"], box["height"]
    for k in range(3):
        page.mouse.move(x0 + w * 0.2, y0 + hgt * (0.3 + 0.2 * k))
        page.mouse.down()
        for i in range(1, 16):
            page.mouse.move(
                x0 + w * (0.2 + 0.04 * i), y0 + hgt * (0.3 + 0.2 * k + 0.05 * ((i % 4) - 1.5))
            )
        page.mouse.up()


def non_white_pixels(page: Page, seat: str) -> int:
    count: int = page.evaluate(
        """seat => {
            const c = document.querySelector(`.vcanvas[data-seat="${seat}"] canvas`);
            const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
            let n = 0;
            for (let i = 0; i < d.length; i += 4) {
                if (d[i] < 240 || d[i + 1] < 240 || d[i + 2] < 240) n++;
            }
            return n;
        }""",
        seat,
    )
    return count


def square_of(page: Page, team: int) -> int:
    return int(
        page.locator(f"#board .pawn[data-team='{team}']").get_attribute("data-square") or "0"
    )


def settle_bonus(table: Table, team: int) -> None:
    """A landing on a bonus token asks the team: keep it (when asked)."""
    page = table.teams[team][0].page
    page.wait_for_function(
        "() => ['bonus', 'choose', 'over'].includes(document.body.dataset.phase)", timeout=30_000
    )
    if page.locator("#bonus-keep").count():
        page.click("#bonus-keep")


def no_errors(players: list[Player]) -> None:
    for p in players:
        text = p.page.locator("body").inner_text()
        assert not RAW_KEY.search(text), f"{p.label}: untranslated {RAW_KEY.search(text)}"
        assert not p.errors, f"{p.label}: {p.errors}"
        assert not p.dialogs, f"{p.label}: {p.dialogs}"


def play_word_turn(table: Table, drawer: Player, *, value: int, showcase: bool) -> None:
    """A usual turn: draw, (showcase: strokes reach the others, a synonym), guess it."""
    team = table.team_of(drawer)
    mate = next(p for p in table.teams[team] if p is not drawer)
    watchers = table.teams[1 - team]
    for p in table.everyone:
        wait_phase(p.page, "draw")
    subject = drawer.page.locator("#subject").inner_text().strip()
    assert subject
    expect(mate.page.locator("#subject")).to_have_count(0)
    before = square_of(mate.page, team)
    if showcase:
        assert role(drawer.page) == "drawer"
        assert role(mate.page) == "guesser"
        assert all(role(w.page) == "watcher" for w in watchers)
        # Drawers cannot chat while drawing; the others can, and team lines stay in the team.
        expect(drawer.page.locator("#chat-silent")).to_be_visible()
        expect(drawer.page.locator("#chat-input")).to_have_count(0)
        draw_squiggle(drawer.page)
        seat = drawer.page.locator(".vcanvas").first.get_attribute("data-seat") or ""
        for p in [mate, *watchers]:
            canvas = p.page.locator(f".vcanvas[data-seat='{seat}'] canvas")
            expect(canvas).not_to_have_attribute("data-items", "0")
            p.page.wait_for_function(
                POINTS_AT_LEAST,
                arg=seat,
            )
            assert non_white_pixels(p.page, seat) > 500
        # Undo on the drawer's page removes the last stroke everywhere.
        items = int(drawer.page.locator(".vcanvas canvas").first.get_attribute("data-items") or "0")
        drawer.page.click("#tool-undo")
        expect(mate.page.locator(f".vcanvas[data-seat='{seat}'] canvas")).to_have_attribute(
            "data-items", str(items - 1)
        )
        # A page opened anew gets the whole drawing so far (the `canvas` frame).
        late = watchers[1].page
        late.reload()
        expect(late.locator(f".vcanvas[data-seat='{seat}'] canvas")).to_have_attribute(
            "data-items", str(items - 1)
        )
        assert non_white_pixels(late, seat) > 300
        watcher = watchers[0]
        watcher.page.check("#chat-team")
        watcher.page.fill("#chat-input", "they will never get it")
        watcher.page.press("#chat-input", "Enter")
        expect(watchers[1].page.locator(".chat-line.chat-team")).to_contain_text(
            "they will never get it"
        )
        expect(mate.page.locator("#chat-list")).not_to_contain_text("they will never get it")
        # A wrong guess, marked as a synonym by the drawer.
        mate.page.fill("#guess-input", "zzz qqq")
        mate.page.press("#guess-input", "Enter")
        guess = drawer.page.locator(".vguess", has_text="zzz qqq")
        expect(guess).to_be_visible()
        expect(watchers[0].page.locator(".vguess", has_text="zzz qqq")).to_be_visible()
        shots(drawer.page, "visual-draw-drawer")
        guess.locator(".vsyn").click()
        expect(mate.page.locator(".vguess.synonym", has_text="zzz qqq")).to_be_visible()
        shots(mate.page, "visual-draw-guesser")
        shots(watchers[0].page, "visual-draw-watcher")
    mate.page.fill("#guess-input", subject)
    mate.page.press("#guess-input", "Enter")
    settle_bonus(table, team)
    for p in table.everyone:
        p.page.wait_for_function(
            PAWN_ON,
            arg=[team, before + value],
        )
    if showcase:
        last = mate.page.locator("#last-turn")
        expect(last).to_contain_text(subject)
        expect(last.locator(".vlast-result")).to_contain_text(f"{before} → {before + value}")


def shots(page: Page, name: str) -> None:
    """With ``REVERIE_SCREENSHOTS=1``, screenshots of a page at phone and laptop widths
    (name-375, name-1280); without, nothing (not even the resizing)."""
    if not TAKE_SCREENSHOTS:
        return
    size = page.viewport_size
    for width, vp in (("375", PHONE), ("1280", DESKTOP)):
        page.set_viewport_size(vp)
        page.wait_for_timeout(150)
        shot(page, f"{name}-{width}", full_page=True)
    if size:
        page.set_viewport_size(size)


def play_proverb_round(table: Table, *, showcase: bool) -> int:
    """Every team's drawer gets the proverb; team 1 guesses it and moves. Returns the solver."""
    for p in table.everyone:
        wait_phase(p.page, "draw")
        expect(p.page.locator("#turn-category")).to_have_attribute("data-category", "proverbs")
    drawers = {
        t: next(p for p in members if role(p.page) == "drawer")
        for t, members in table.teams.items()
    }
    proverb = drawers[0].page.locator("#subject").inner_text().strip()
    assert proverb
    assert drawers[1].page.locator("#subject").inner_text().strip() == proverb
    for t, members in table.teams.items():
        drawer_seat = drawers[t].page.locator(".vcanvas").first.get_attribute("data-seat")
        for p in members:
            # Each team sees only its own drawer's canvas.
            expect(p.page.locator(".vcanvas")).to_have_count(1)
            assert p.page.locator(".vcanvas").first.get_attribute("data-seat") == drawer_seat
    solver = 1
    guesser = next(p for p in table.teams[solver] if p is not drawers[solver])
    if showcase:
        draw_squiggle(drawers[solver].page)
        expect(guesser.page.locator(".vcanvas canvas")).not_to_have_attribute("data-items", "0")
        shots(drawers[solver].page, "visual-proverb-drawer")
        shots(guesser.page, "visual-proverb-guesser")
        if table.spectator:
            # A spectator sees no team's canvas: a player watching from a second tab
            # must not see the other teams' drawings.
            expect(table.spectator.page.locator(".vcanvas")).to_have_count(0)
            expect(table.spectator.page.locator("#canvases-hidden")).to_be_visible()
            expect(table.spectator.page.locator("#guess-input")).to_have_count(0)
            shots(table.spectator.page, "visual-proverb-spectator")
    start = square_of(guesser.page, solver)
    guesser.page.fill("#guess-input", proverb)
    guesser.page.press("#guess-input", "Enter")
    for p in table.everyone:
        wait_phase(p.page, "move")
    other = table.teams[1 - solver][0]
    expect(other.page.locator(".vstep")).to_have_count(0)
    expect(other.page.locator("#decision")).to_contain_text("is choosing its move")
    mover = table.teams[solver][0]
    step = mover.page.locator(".vstep[data-direction='forward'][data-steps='2']")
    step.click()
    target = start + 2
    expect(mover.page.locator(f"#board .vsquare.target[data-square='{target}']")).to_have_count(1)
    expect(mover.page.locator("#confirm-move")).to_contain_text(str(target))
    if showcase:
        shots(mover.page, "visual-proverb-move")
        shots(other.page, "visual-proverb-wait")
    mover.page.click("#confirm-move")
    settle_bonus(table, solver)
    for p in table.everyone:
        p.page.wait_for_function(
            PAWN_ON,
            arg=[solver, target],
        )
    return solver


def next_blank(room: Any) -> str:
    """The blank sector of the card the next choice draws."""
    game = room.game
    card = game.cards[game.deck[0]]
    assert card.blank is not None
    return str(list(VALUES)[card.blank])


def test_visual_word_and_proverb_rounds(open_player: Open, room_log: Callable[[str], Any]) -> None:
    # Three minutes to draw: the word turn takes a dozen screenshots, slow on a busy machine.
    table = seat_up(open_player, {"think_seconds": "0", "blank_share": "1", "draw_seconds": "180"})
    ann, bob = table.teams[0]
    # The host can make three teams (an empty one) and go back to two.
    ann.page.select_option("#team-count", "3")
    expect(bob.page.locator("#teams .team-col[data-team='2']")).to_be_visible()
    ann.page.select_option("#team-count", "2")
    expect(bob.page.locator("#teams .team-col[data-team='2']")).to_have_count(0)
    expect(bob.page.locator("#teams .team-col[data-team='0'] .lobby-player")).to_have_count(2)
    shots(ann.page, "visual-lobby")
    # Only the host sets the teams and starts; nobody can add a bot.
    expect(bob.page.locator("#team-count")).to_have_count(0)
    expect(bob.page.locator("#start")).to_have_count(0)
    expect(ann.page.locator("#add-bot")).to_have_count(0)
    eve = open_player("eve", DESKTOP)
    eve.page.goto(ann.page.input_value("#invite-link"))
    eve.page.click("#gate-watch")
    table.spectator = eve
    ann.page.click("#start")

    code = ROOM_URL.match(ann.page.url)
    assert code, ann.page.url
    # Every card has a blank; the log tells the test (never a player) which sector it is.
    # Turn 1 avoids it (a word turn), turn 2 picks it (a proverb round).
    for number in (1, 2):
        wait_turn(table, number)
        drawer = drawer_of_choose(table)
        if number == 1:
            for p in table.everyone:
                if p is not drawer:
                    expect(p.page.locator("#stage-title")).to_contain_text("is choosing a category")
            shots(drawer.page, "visual-choose")
        blank = next_blank(room_log(code.group(1)))
        category = blank if number == 2 else next(c for c in VALUES if c != blank)
        drawer.page.click(f"#choose-{category}")
        drawer.page.wait_for_selector("#turn-category")
        shown = drawer.page.locator("#turn-category").get_attribute("data-category")
        if number == 1:
            assert shown == category
            play_word_turn(table, drawer, value=VALUES[category], showcase=True)
        else:
            assert shown == "proverbs"
            solver = play_proverb_round(table, showcase=True)
            # The team that guessed the proverb plays the next turn.
            wait_turn(table, number + 1)
            assert table.team_of(drawer_of_choose(table)) == solver
            # Every team drew it: the turn just finished names each drawer (issue #24).
            title = ann.page.locator("#last-turn .vlast-title")
            expect(title).to_contain_text("every team drew the proverb")
            text = title.inner_text()
            for members in table.teams.values():
                assert any(p.label.capitalize() in text for p in members), text
    no_errors([*table.everyone, eve])


def test_visual_game_to_the_end(open_player: Open) -> None:
    table = seat_up(open_player, {"think_seconds": "0", "blank_share": "0"}, turn_limit=1)
    ann = table.teams[0][0]
    ann.page.click("#start")
    drawer = drawer_of_choose(table)
    drawer.page.click("#choose-luck")
    team = table.team_of(drawer)
    mate = next(p for p in table.teams[team] if p is not drawer)
    for p in table.everyone:
        wait_phase(p.page, "draw")
    # The drawer accepts a guess by hand.
    mate.page.fill("#guess-input", "near enough")
    mate.page.press("#guess-input", "Enter")
    drawer.page.locator(".vguess", has_text="near enough").locator(".vaccept").click()
    settle_bonus(table, team)
    for p in table.everyone:
        wait_phase(p.page, "over")
        expect(p.page.locator("#final")).to_be_visible()
        expect(p.page.locator("#winners")).to_contain_text("Team")
    # The team that guessed holds a token; it wins on points.
    winner = ann.page.locator("#final .vfinal-row.winner")
    expect(winner).to_have_count(1)
    assert winner.get_attribute("data-team") == str(team)
    expect(ann.page.locator("#rematch")).to_be_visible()
    expect(table.teams[1][1].page.locator("#rematch")).to_have_count(0)
    # The story of the game: its one turn, told in the table's language (English here)
    # even on a screen switched to Russian, where the rest of the end screen is Russian.
    dee = table.teams[1][1]
    expect(dee.page.locator("#story .story-round")).to_have_count(1)
    dee.page.select_option(".lang-select", "ru")
    expect(dee.page.locator("#story")).to_have_attribute("lang", "en")
    expect(dee.page.locator("#story h3").first).to_have_text("The pawns, turn by turn")
    expect(dee.page.locator("#story .story-points")).to_contain_text("Guessed by Team")
    expect(dee.page.locator("#final")).to_contain_text("Хозяин стола может начать новую игру")
    dee.page.locator("#story").scroll_into_view_if_needed()
    shot(dee.page, "visual-story-ru-375")
    shots(ann.page, "visual-over")
    no_errors(table.everyone)


def balanced_table(open_player: Open, draw_seconds: int) -> tuple[Table, str]:
    """Four players dealt by the host into two teams of a drawing room (no blanks, no
    think time, ``draw_seconds`` to draw), still in the lobby; and the invite link."""
    ann = open_player("ann", DESKTOP)
    res = ann.page.request.post(
        "/api/rooms",
        data={
            "name": "Ann",
            "color": "#e63946",
            "variant": "visual",
            "seats": 4,
            "lang": "en",
            # The teams' decisions get ten minutes: the test takes its screenshots while a
            # decision waits, and on a loaded machine 30 s ran out before the click (CI).
            "options": {
                "think_seconds": 0,
                "draw_seconds": draw_seconds,
                "blank_share": 0.0,
                "move_seconds": 600,
                "bonus_seconds": 600,
                "lose_seconds": 600,
            },
        },
    )
    assert res.status == 201, res.text()
    room = res.json()
    ann.page.goto(f"{room['url']}#t={room['token']}")
    ann.page.wait_for_selector("#lobby:not([hidden]) #teams")
    invite = ann.page.input_value("#invite-link")
    others = [open_player("bob", PHONE), open_player("cy", DESKTOP), open_player("dee", PHONE)]
    for p, name in zip(others, ("Bob", "Cy", "Dee"), strict=True):
        join(p, invite, name)
    everyone = [ann, *others]
    # The host deals everyone into the two teams.
    ann.page.click("#balance-teams")
    for t in (0, 1):
        expect(ann.page.locator(f"#teams .team-col[data-team='{t}'] .lobby-player")).to_have_count(
            2
        )
    expect(ann.page.locator("#teams .team-col[data-team='none'] .lobby-player")).to_have_count(0)
    teams: dict[int, list[Player]] = {0: [], 1: []}
    for p in everyone:
        # Each page shows the dealt teams before it is read (nobody left standing aside).
        unassigned = p.page.locator("#teams .team-col[data-team='none'] .lobby-player")
        expect(unassigned).to_have_count(0)
        mine = p.page.locator("#teams .team-col:has(.lobby-player.is-you)")
        expect(mine).to_have_count(1)
        teams[int(mine.get_attribute("data-team") or "-1")].append(p)
    assert all(len(m) == 2 for m in teams.values()), teams
    return Table(everyone, teams), invite


def test_visual_failed_turn_gives_up_a_token(open_player: Open) -> None:
    """A team that does not guess in time chooses which of its tokens to give up."""
    # 8 s to draw: a turn that runs out is quick, and a loaded machine still shows it.
    table, _ = balanced_table(open_player, draw_seconds=8)
    ann = table.everyone[0]
    ann.page.click("#start")

    first: int | None = None
    for number in range(1, 16):
        wait_turn(table, number)
        drawer = drawer_of_choose(table)
        team = table.team_of(drawer)
        first = team if first is None else first
        drawer.page.click("#choose-objects")
        # The drawer's page only: another page, read after it on a loaded machine, may
        # have seen the short draw come and go (CI: it waited for a phase already over).
        wait_phase(drawer.page, "draw")
        tokens = ann.page.locator(f"#scores .vteam[data-team='{team}'] .vteam-tokens .vtoken")
        # Read in one go: the short draw may run out and re-render the tokens between a
        # count and reading each one (seen on a busy machine with parallel workers).
        values = {
            (value, bonus)
            for value, bonus in tokens.evaluate_all(
                "els => els.map(e => [e.dataset.value ?? null, e.classList.contains('bonus')])"
            )
        }
        if team == first and len(values) > 1:
            # Let the time run out: the team must give one of its tokens up.
            held = tokens.count()
            mate = next(p for p in table.teams[team] if p is not drawer)
            wait_phase(mate.page, "lose")
            expect(mate.page.locator(".forfeit-token")).to_have_count(held)
            other = table.teams[1 - team][0]
            expect(other.page.locator("#decision")).to_contain_text("which token to give up")
            shots(mate.page, "visual-lose")
            shots(other.page, "visual-lose-wait")
            given = mate.page.locator(".forfeit-token").first.get_attribute("data-token")
            mate.page.locator(".forfeit-token").first.click()
            wait_turn(table, number + 1)
            expect(tokens).to_have_count(held - 1)
            # The turn just finished says which token it cost (issue #24).
            lost = ann.page.locator("#last-lost .vtoken")
            expect(lost).to_have_attribute("data-token", given or "")
            no_errors(table.everyone)
            return
        if team == first:
            mate = next(p for p in table.teams[team] if p is not drawer)
            wait_phase(mate.page, "draw")
            subject = drawer.page.locator("#subject").inner_text().strip()
            mate.page.fill("#guess-input", subject)
            mate.page.press("#guess-input", "Enter")
            settle_bonus(table, team)
        # The other team lets its turns run out (it holds nothing to lose).
    raise AssertionError("the first team never held two different tokens")
