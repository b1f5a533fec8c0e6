"""The table never stalls: absent hosts and players, results in view, the end's story,
and the small things around them (live language switch, bot tags, chat refusals)."""

from __future__ import annotations

import contextlib
import re
import time
from collections.abc import Callable
from typing import Any

from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.browser.conftest import DESKTOP, PHONE, Open, Player, shot
from tests.browser.playtest import PAGE_TEXT, PROPER
from tests.browser.test_visual import create_visual_room
from tests.browser.ui import choose, create_room, join


def _add_bot(page: Page, seated: int) -> None:
    """Add a bot once the lobby shows the `seated` players already in the room (a join
    may not have reached this page yet: counting once would race it)."""
    players = page.locator(".lobby-player")
    expect(players).to_have_count(seated)
    page.click("#add-bot")
    expect(players).to_have_count(seated + 1)


def _phase(page: Page) -> str:
    return str(page.evaluate("document.body.dataset.phase || ''"))


def _act(page: Page, clue: str) -> None:
    """Do whatever this page's player must do now, if anything."""
    try:
        if page.locator("#claim").count():
            page.click("#claim", timeout=1000)
        if page.locator("#clue-form").count():
            choose(page, ".hand-row .card-tile, .table-row .card-tile")
            page.fill("#clue-text", clue, timeout=1000)
            page.click("#clue-submit", timeout=1000)
            page.wait_for_timeout(200)
        elif page.locator("#confirm-card").count():
            choose(page, ".hand-row .card-tile")
            page.click("#confirm-card", timeout=1000)
            page.wait_for_timeout(200)
        elif page.locator("#confirm-vote").count():
            choose(page, ".vote-row .card-tile:not(.mine)")
            page.click("#confirm-vote", timeout=1000)
            page.wait_for_timeout(200)
    except Exception:
        page.wait_for_timeout(100)


def _play_until(players: list[Player], done: str, timeout: float = 60.0) -> None:
    """Every page plays its part until `done` (a JS expression) holds on the first."""
    end = time.monotonic() + timeout
    n = 0
    while time.monotonic() < end:
        if players[0].page.evaluate(done):
            return
        for p in players:
            n += 1
            _act(p.page, f"Clue {n}")
        players[0].page.wait_for_timeout(100)
    raise AssertionError(f"never reached {done}")


def _comes_into_view(page: Page, selector: str) -> None:
    """The panel settles in view: a loaded machine may take a few frames to draw and
    scroll it (a fixed 300 ms once read it mid-way); then :func:`_in_viewport` says where."""
    with contextlib.suppress(PlaywrightTimeout):
        page.wait_for_function(
            """s => { const b = document.querySelector(s)?.getBoundingClientRect();
                const bar = document.getElementById('status')?.getBoundingClientRect();
                return b && b.top >= (bar ? bar.bottom : 0) - 1 && b.top < innerHeight * 0.5; }""",
            arg=selector,
            timeout=5_000,
        )
    _in_viewport(page, selector)


def _watch_arrival(page: Page, selector: str) -> None:
    """Note where ``selector`` stands two frames after it first appears (the page brings
    it into view in the frame after its render). Read then, not when the test gets to
    look: on a loaded machine the bots' next move may have come, and with it the stage,
    which a move of the reader's rightly brings into view instead."""
    page.evaluate(
        """s => {
            const note = () => {
                const b = document.querySelector(s).getBoundingClientRect();
                const bar = document.getElementById('status')?.getBoundingClientRect();
                window.__arrived = { top: b.top, below: bar ? bar.bottom : 0 };
            };
            const seen = new MutationObserver(() => {
                if (!document.querySelector(s)) return;
                seen.disconnect();
                requestAnimationFrame(() => requestAnimationFrame(note));
            });
            seen.observe(document.body, { childList: true, subtree: true });
        }""",
        selector,
    )


def _arrived_in_view(page: Page, selector: str) -> None:
    page.wait_for_function("() => !!window.__arrived")
    at = page.evaluate("() => window.__arrived")
    height = page.viewport_size["height"] if page.viewport_size else 0
    top, below = at["top"], at["below"]
    assert below - 1 <= top < height * 0.5, f"{selector} arrived at {top} of {height}"


def _in_viewport(page: Page, selector: str) -> None:
    box = page.locator(selector).bounding_box()
    assert box, f"{selector} is not drawn"
    height = page.viewport_size["height"] if page.viewport_size else 0
    bar = page.locator("#status").bounding_box()
    below = bar["y"] + bar["height"] if bar else 0
    # Under the sticky status bar, in the upper half of the screen.
    assert below - 1 <= box["y"] < height * 0.5, f"{selector} starts at {box['y']} of {height}"


def test_reveal_comes_into_view_after_the_vote(open_player: Open) -> None:
    ann = open_player("ann", DESKTOP)
    bob = open_player("bob", PHONE)
    create_room(ann, "Ann", "dixit")
    join(bob, ann.page.input_value("#invite-link"), "Bob")
    _add_bot(ann.page, 2)
    # A bot: its name once, and one tag that says "bot" (in the reader's language).
    bot = ann.page.locator(".lobby-player", has=ann.page.locator(".tag-bot"))
    expect(bot).to_have_count(1)
    expect(bot.locator(".tag-bot")).to_have_text("bot")
    assert bot.inner_text().lower().count("bot") == 1, bot.inner_text()
    assert bot.inner_text().count("Luna") == 1, bot.inner_text()
    expect(bob.page.locator(".lobby-player .tag-bot")).to_have_text("bot")
    shot(ann.page, "table-lobby-bot-1280")
    shot(bob.page, "table-lobby-bot-375")
    ann.page.click("#start")
    for p in (ann, bob):
        p.page.wait_for_selector("body[data-phase='clue']", state="attached")
    # The open first turn: bots do not claim it.
    expect(ann.page.locator("#stage")).to_contain_text("not a bot")
    # On a laptop the storyteller's six cards lie on one row, the clue box in sight.
    ann.page.click("#claim")
    expect(ann.page.locator("#clue-text")).to_be_visible()
    tops = ann.page.locator(".hand-row .card-tile").evaluate_all(
        "els => els.map(e => Math.round(e.getBoundingClientRect().top))"
    )
    assert len(tops) == 6 and len(set(tops)) == 1, tops
    box = ann.page.locator("#clue-text").bounding_box()
    assert box and box["y"] + box["height"] <= DESKTOP["height"], box
    shot(ann.page, "table-clue-1280")
    for p in (ann, bob):
        _watch_arrival(p.page, "#reveal-panel")
    # Bob on his phone scrolls down to his hand, as a player does.
    _play_until([ann, bob], "!!document.querySelector('#reveal-panel')")
    for p in (ann, bob):
        expect(p.page.locator("#reveal-panel")).to_be_visible()
        _arrived_in_view(p.page, "#reveal-panel")
    shot(ann.page, "table-reveal-1280")
    shot(bob.page, "table-reveal-375")
    # On the phone the points are in the first screen, as the table far below has them.
    line = bob.page.locator("#reveal-points-line")
    expect(line).to_be_visible()
    box = line.bounding_box()
    assert box and box["y"] + box["height"] <= 740, box
    # (The table is folded on the phone, a tap away: its text is there all the same.)
    table = bob.page.locator("#reveal-panel .points-table tbody td.num").all_text_contents()
    assert line.locator("strong").all_inner_texts() == table
    expect(ann.page.locator("#reveal-points-line")).to_be_hidden()
    # The next turn is one tap away: "Continue" at the top of the results.
    bob.page.click("#reveal-close")
    expect(bob.page.locator("#reveal-panel")).to_have_count(0)
    assert not ann.errors and not bob.errors, (ann.errors, bob.errors)


def test_end_screen_chart_and_story(open_player: Open, room_log: Callable[[str], Any]) -> None:
    ann = open_player("ann", DESKTOP)
    bob = open_player("bob", PHONE)
    # Ann's screen is in Russian, so her table is; Bob reads English.
    ann.page.goto("/")
    ann.page.select_option(".lang-select", "ru")
    expect(ann.page.locator("html")).to_have_attribute("lang", "ru")
    create_room(ann, "Ann", "dixit", target_score=5)
    code_url = ann.page.input_value("#invite-link")
    join(bob, code_url, "Bob")
    _add_bot(ann.page, 2)
    ann.page.click("#start")
    _play_until([ann, bob], "!!document.querySelector('#final:not([hidden]) .final')", timeout=120)
    names = [x.strip() for x in ann.page.locator("#scores .pname").all_inner_texts()]
    for p in (ann, bob):
        expect(p.page.locator("#story")).to_be_visible()
        rounds = p.page.locator("#final .muted.small").first.inner_text()
        n = int("".join(c for c in rounds if c.isdigit()))
        expect(p.page.locator("#story .story-round")).to_have_count(n)
        expect(p.page.locator("#score-chart .chart-line")).to_have_count(3)
        # Each line has a point per round and the start.
        pts = p.page.locator("#score-chart .chart-line").first.get_attribute("points") or ""
        assert len(pts.split()) == n + 1
        _comes_into_view(p.page, "#final")
    # The story tells the clues.
    expect(ann.page.locator("#story .story-clue").first).to_contain_text("Clue")
    # Chart and story say what the server's event log says, round by round.
    room = room_log(code_url.rsplit("/", 1)[-1])
    history = room.game.history
    assert len(history) == n
    seat_names = [pl.name for pl in room.players]
    told = _story_rounds(bob.page)
    for result, shown in zip(history, told, strict=True):
        assert shown["turn"] == str(result.number)
        assert shown["clue"] == (result.clue or ""), (shown, result.clue)
        assert shown["story"] == str(result.story_position)
        assert shown["cards"] == len(result.table)
        assert shown["points"] == {
            seat_names[s]: f"+{p}" if p > 0 else f"\u2212{-p}" if p < 0 else "0"
            for s, p in enumerate(result.points)
        }, shown
    totals = {name: sum(r.points[s] for r in history) for s, name in enumerate(seat_names)}
    legend = bob.page.locator("#score-chart .chart-key").evaluate_all(
        "ks => ks.map(k => [k.querySelector('.chart-name').textContent, "
        "Number(k.querySelector('strong').textContent)])"
    )
    assert dict(legend) == totals, (legend, totals)
    # A round opens to show its table of cards.
    ann.page.locator("#story .story-round summary").first.click()
    expect(ann.page.locator("#story .story-round").first.locator(".story-card")).to_have_count(3)
    shot(ann.page, "table-final-1280", full_page=True)
    box = bob.page.locator("#score-chart svg").bounding_box()
    assert box and box["width"] <= 375
    shot(bob.page, "table-final-375", full_page=True)
    # The story is told in the table's language (Ann's screen made it a Russian table),
    # on Bob's English screen too, marked as Russian there; the rest of his end screen
    # is in English.
    for p in (ann, bob):
        expect(p.page.locator("#story h3").first).to_have_text("Очки по ходам")
        assert not re.search("[a-z]", _story_text(p.page, names), re.I)
    for p in (ann, bob):
        expect(p.page.locator("#story")).to_have_attribute("lang", "ru")
    expect(bob.page.locator("#final h2").first).to_have_text("The game is over")
    assert not re.search("[а-яё]", _final_text(bob.page, names), re.I)
    # A live switch: the page around the story changes language, the story does not,
    # and no word of the screen's old language is left outside it.
    ann.page.select_option(".lang-select", "en")
    expect(ann.page.locator("#final h2").first).to_have_text("The game is over")
    expect(ann.page.locator("#story")).to_have_attribute("lang", "ru")
    expect(ann.page.locator("#story h3").first).to_have_text("Очки по ходам")
    assert not re.search("[а-яё]", _final_text(ann.page, names), re.I)
    assert not re.search("[a-z]", _story_text(ann.page, names), re.I)
    ann.page.select_option(".lang-select", "ru")
    expect(ann.page.locator("#final h2").first).to_have_text("Игра окончена")
    expect(ann.page.locator("#story")).to_have_attribute("lang", "ru")
    # No text is left marked as of an unknown language by a switch.
    expect(ann.page.locator("[lang='']")).to_have_count(0)
    assert not re.search("[a-z]", _final_text(ann.page, names), re.I)
    # After the game the room link still tells it, to anyone who opens it.
    cy = open_player("cy", PHONE)
    cy.page.goto(code_url)
    expect(cy.page.locator("#story .story-round")).to_have_count(n)
    expect(cy.page.locator("#story h3").first).to_have_text("Очки по ходам")
    expect(cy.page.locator("#score-chart .chart-line")).to_have_count(3)
    shot(cy.page, "table-final-link-375", full_page=True)
    assert not ann.errors and not bob.errors and not cy.errors, (ann.errors, bob.errors)


def _story_rounds(page: Page) -> list[dict[str, Any]]:
    """Each round of the story as the page tells it."""
    rounds: list[dict[str, Any]] = page.locator("#story .story-round").evaluate_all(
        """rs => rs.map(r => ({
            turn: r.dataset.turn,
            clue: r.querySelector('.story-clue')?.textContent ?? '',
            story: r.querySelector('.story-card.story')?.dataset.position ?? null,
            cards: r.querySelectorAll('.story-card').length,
            points: Object.fromEntries([...r.querySelectorAll('.story-pts')].map(p => [
                p.firstChild.textContent, p.querySelector('strong').textContent])),
        }))"""
    )
    return rounds


def _final_text(page: Page, names: list[str]) -> str:
    """The end screen's text outside the story, without the players' names."""
    text = str(
        page.locator("#final").evaluate(
            """e => { const c = e.cloneNode(true);
                c.querySelectorAll('#story, q').forEach(q => q.remove());
                return c.innerText; }"""
        )
    )
    for name in sorted(names, key=len, reverse=True):
        text = text.replace(name, "")
    return text


def _story_text(page: Page, names: list[str]) -> str:
    """The story's text without what the players wrote (names, clues)."""
    for summary in page.locator("#story .story-round summary").all():
        summary.click()  # every round open: its table of cards is told too
    text = str(
        page.locator("#story").evaluate(
            """e => { const c = e.cloneNode(true);
                c.querySelectorAll('q, .chart-name').forEach(q => q.remove());
                return c.innerText + ' ' + [...c.querySelectorAll('[aria-label]')]
                    .map(x => x.getAttribute('aria-label')).join(' '); }"""
        )
    )
    for name in sorted(names, key=len, reverse=True):
        text = text.replace(name, "")
    return text


def test_take_over_as_host_when_the_host_leaves(open_player: Open) -> None:
    ann = open_player("ann", DESKTOP)
    bob = open_player("bob", PHONE)
    create_room(ann, "Ann", "dixit")
    join(bob, ann.page.input_value("#invite-link"), "Bob")
    # The lobby shows and the host sets when a bot stands in.
    away = ann.page.locator("#lobby-options [name=away_seconds]")
    expect(away).to_have_value("60")
    ann.page.select_option("#lobby-options [name=away_seconds]", "")
    bob.page.click(".lobby-options-box summary")
    expect(bob.page.locator("#lobby-options [name=away_seconds]")).to_have_value("")
    ann.page.select_option("#lobby-options [name=away_seconds]", "120")
    expect(bob.page.locator("#lobby-options [name=away_seconds]")).to_have_value("120")
    expect(bob.page.locator("#take-host")).to_have_count(0)

    ann.context.close()
    expect(bob.page.locator("#take-host")).to_be_visible()
    shot(bob.page, "table-host-gone-375")
    bob.page.click("#take-host")
    expect(bob.page.locator("#start")).to_be_visible()
    expect(bob.page.locator("#take-host")).to_have_count(0)
    assert not bob.errors, bob.errors


def test_bot_banner_and_status_note(open_player: Open) -> None:
    ann = open_player("ann", DESKTOP)
    bob = open_player("bob", PHONE)
    create_room(ann, "Ann", "dixit")
    join(bob, ann.page.input_value("#invite-link"), "Bob")
    _add_bot(ann.page, 2)
    ann.page.click("#start")
    ann.page.wait_for_selector("body[data-phase='clue']", state="attached")
    # Bob's phone drops; the host hands his seat to a bot.
    url = bob.page.url
    bob.page.goto("about:blank")
    button = ann.page.locator("#scores .score-row", has_text="Bob").locator(".seat-bot")
    expect(button).to_be_visible()
    button.click()
    expect(ann.page.locator("#status-text")).to_contain_text("a bot plays for Bob")
    bob.page.goto(url)
    expect(bob.page.locator("#bot-banner")).to_be_visible()
    expect(bob.page.locator("#bot-banner")).to_contain_text("A bot is playing for you")
    shot(bob.page, "table-bot-banner-375")
    bob.page.click("#reclaim")
    expect(bob.page.locator("#bot-banner")).to_have_count(0)
    expect(ann.page.locator("#status-text")).not_to_contain_text("a bot plays for Bob")
    assert not bob.errors, bob.errors


def test_home_form_proposes_timers_and_away(open_player: Open) -> None:
    ann = open_player("ann", DESKTOP)
    ann.page.goto("/")
    ann.page.check("#variant-dixit", force=True)
    ann.page.click(".options-details summary")
    expect(ann.page.locator("#create [name=clue_seconds]")).to_have_value("120")
    expect(ann.page.locator("#create [name=card_seconds]")).to_have_value("60")
    expect(ann.page.locator("#create [name=vote_seconds]")).to_have_value("60")
    expect(ann.page.locator("#create [name=away_seconds]")).to_have_value("60")
    # Dixit's board has no special clouds: no "board" choice that says there are none.
    texts = ann.page.locator("#create [name=restrictions] option").all_inner_texts()
    assert not any("none on this one" in x for x in texts), texts
    assert "clouds" not in (ann.page.locator("#create-restrictions-hint").inner_text())
    ann.page.select_option("#create [name=vote_seconds]", "")
    ann.page.select_option("#create [name=away_seconds]", "300")
    ann.page.fill("#create-name", "Ann")
    ann.page.click("#create-submit")
    ann.page.wait_for_selector("#lobby:not([hidden]) .lobby-list")
    expect(ann.page.locator("#lobby-options [name=clue_seconds]")).to_have_value("120")
    expect(ann.page.locator("#lobby-options [name=vote_seconds]")).to_have_value("")
    expect(ann.page.locator("#lobby-options [name=away_seconds]")).to_have_value("300")
    # The lobby's selects show their whole text at 1280 px.
    cut = ann.page.evaluate(
        """() => [...document.querySelectorAll('#lobby-options select')]
            .filter(s => s.scrollWidth > s.clientWidth + 1).map(s => s.name)"""
    )
    assert cut == [], cut
    # The header's label follows a live language switch.
    expect(ann.page.locator(".room-code")).to_contain_text("Room")
    ann.page.select_option(".lang-select", "ru")
    expect(ann.page.locator(".room-code")).to_contain_text("Комната")
    expect(ann.page.locator("#lobby-options [name=away_seconds] option:checked")).to_have_text(
        "Через 5 минут отсутствия"
    )
    # Nothing of the English lobby is left, labels and choices included.
    text = str(ann.page.evaluate(PAGE_TEXT.replace("'q, ", "'dialog:not([open]), q, ")))
    for word in sorted(["Ann", *PROPER, ann.page.url.rsplit("/", 1)[-1]], key=len, reverse=True):
        text = text.replace(word, "")
    left = re.findall(r".{0,30}[A-Za-z]{2,}.{0,30}", text)
    assert not left, left
    assert not ann.errors, ann.errors


def test_a_refused_chat_line_stays_in_the_box(open_player: Open) -> None:
    ann = open_player("ann", DESKTOP)
    create_room(ann, "Ann", "dixit")
    page = ann.page
    toast = page.locator(".toast", has_text="one message a second")
    for i in range(30):
        page.fill("#chat-input", f"line {i}")
        page.press("#chat-input", "Enter")
        # Taken (the box empties) or refused (the toast says so).
        page.wait_for_function(
            "() => !document.querySelector('#chat-input').value || "
            "[...document.querySelectorAll('.toast')].some(t => /one message/.test(t.textContent))"
        )
        if toast.count():
            break
    else:
        raise AssertionError("the chat was never refused")
    # The refused line is still in the box, ready to go again.
    expect(page.locator("#chat-input")).to_have_value(f"line {i}")
    page.wait_for_timeout(1200)
    page.press("#chat-input", "Enter")
    expect(page.locator("#chat-input")).to_have_value("")
    expect(page.locator(".chat-line .chat-text").last).to_have_text(f"line {i}")
    assert not ann.errors, ann.errors


CUE_SPY = """
window.__cues = {vibrate: 0, wake: 0, tones: 0};
const make = AudioContext.prototype.createOscillator;
AudioContext.prototype.createOscillator = function () {
  window.__cues.tones += 1; return make.call(this); };
navigator.vibrate = () => { window.__cues.vibrate += 1; return true; };
Object.defineProperty(navigator, 'wakeLock', {configurable: true, value: {
  request: async () => { window.__cues.wake += 1;
    return {release: async () => {}, addEventListener: () => {}}; }}});
"""


def test_cues_when_it_becomes_my_move(open_player: Open) -> None:
    ann = open_player("ann", PHONE)
    ann.context.add_init_script(CUE_SPY)
    create_room(ann, "Ann", "dixit")
    _add_bot(ann.page, 1)
    _add_bot(ann.page, 2)
    # The manifest is linked and served; the icons exist.
    href = ann.page.locator("link[rel=manifest]").get_attribute("href")
    manifest = ann.page.request.get(href or "").json()
    assert manifest["display"] == "standalone"
    for ic in manifest["icons"]:
        assert ann.page.request.get(ic["src"]).ok, ic
    ann.page.click("#start")
    ann.page.wait_for_selector("body[data-wake='on']", state="attached")
    assert ann.page.evaluate("window.__cues.wake") >= 1
    # Ann tells the first clue; the bots play; the second turn asks her for a card.
    ann.page.click("#claim")
    choose(ann.page, ".hand-row .card-tile")
    ann.page.fill("#clue-text", "Far away")
    ann.page.press("#clue-text", "Enter")
    expect(ann.page.locator("#confirm-card")).to_be_visible(timeout=30_000)
    ann.page.wait_for_function("window.__cues.vibrate >= 1")
    ann.page.wait_for_function("window.__cues.tones >= 2")  # the two tones of the cue
    # Muted: remembered across a reload.
    ann.page.click("#cue-toggle")
    expect(ann.page.locator("#cue-toggle")).to_have_attribute("aria-pressed", "true")
    ann.page.reload()
    expect(ann.page.locator("#cue-toggle")).to_have_attribute("aria-pressed", "true")
    assert not ann.errors, ann.errors


def test_the_drawing_games_lobby_says_its_timers_stay_on(open_player: Open) -> None:
    ann = open_player("ann", DESKTOP)
    bob = open_player("bob", PHONE)
    invite = create_visual_room(ann, "Ann", {})
    join(bob, invite, "Bob")
    bob.page.click(".lobby-options-box summary")
    for p in (ann, bob):
        timers = p.page.locator("#lobby-options select[name$=_seconds]:not([name=away_seconds])")
        expect(timers).to_have_count(4)  # draw, think, choose, decide
        for name in timers.evaluate_all("els => els.map(e => e.name)"):
            values = p.page.locator(f"#lobby-options [name={name}] option").evaluate_all(
                "os => os.map(o => o.value)"
            )
            assert "" not in values, (name, values)
        hint = p.page.locator("#lobby-options .hint", has_text="cannot be turned off")
        expect(hint).to_have_count(1)
    ann.page.locator("#lobby-options [name=decide_seconds]").scroll_into_view_if_needed()
    shot(ann.page, "visual-lobby-timers-1280")
    bob.page.locator("#lobby-options [name=draw_seconds]").scroll_into_view_if_needed()
    shot(bob.page, "visual-lobby-timers-375")
    bob.page.select_option(".lang-select", "ru")
    expect(bob.page.locator("#lobby-options .hint", has_text="не отключаются")).to_have_count(1)
    assert not ann.errors and not bob.errors, (ann.errors, bob.errors)
