"""The Visual Game on paper in the browser: the host's device on the table (a tablet),
four phones in two teams and a table screen. A turn guessed, a turn whose sand timer
runs out (the alarm sounds on the device and the table screen), and a proverb round
moved from the device; the word shows on its drawers' phones only, never on the device,
the other phones or the table screen (neither in their frames nor in their text)."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, expect

from reverie.rules.visual import CATEGORIES
from reverie.rules.visual.cards import CHOOSABLE
from tests.browser.companion import TABLE_1280, TABLE_1920, TableScreen, both_sizes
from tests.browser.conftest import DESKTOP, PHONE, Open, Player, shot
from tests.browser.ui import join, wait_phase

pytestmark = pytest.mark.browser

NAMES = ["Ann", "Bob", "Cy", "Dee"]
TEAMS = [0, 0, 1, 1]


class Watched:
    """A page and every frame its socket received."""

    def __init__(self, player: Player) -> None:
        self.player = player
        self.page = player.page
        self.frames: list[dict[str, Any]] = []
        self.page.on("websocket", self._watch)

    def _watch(self, ws: Any) -> None:
        def received(payload: str | bytes) -> None:
            text = payload.decode() if isinstance(payload, bytes) else payload
            self.frames.append(json.loads(text))

        ws.on("framereceived", received)


def received(frames: list[dict[str, Any]], text: str) -> bool:
    """Whether any frame held ``text`` as (part of) a string value."""
    return any(text in s for f in frames for s in _strings(f))


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


class PaperTable:
    """A visual-companion room: the device (the host), phones, a table screen."""

    def __init__(
        self,
        open_player: Open,
        server: str,
        *,
        lang: str = "en",
        device_size: Any = DESKTOP,
        table_size: Any = TABLE_1280,
        **options: object,
    ) -> None:
        r = httpx.post(
            f"{server}/api/rooms",
            json={"name": "Tablet", "color": "#e63946", "variant": "visual-companion",
                  "seats": 5, "options": options, "lang": lang},
        )  # fmt: skip
        assert r.status_code == 201, r.text
        self.code, token = r.json()["code"], r.json()["token"]
        self.device = Watched(open_player("device", device_size, lang=lang))
        self.device.page.add_init_script(TONES)
        self.device.page.goto(f"/r/{self.code}#t={token}")
        self.device.page.wait_for_selector("#lobby .lobby-player.is-you")
        self.phones: list[Watched] = []
        for name, team in zip(NAMES, TEAMS, strict=True):
            phone = Watched(open_player(name, PHONE, lang=lang))
            join(phone.player, f"/r/{self.code}", name)
            phone.page.click(f"#join-team-{team}")
            phone.page.wait_for_selector(f".team-col[data-team='{team}'] .is-you")
            self.phones.append(phone)
        self.screen = TableScreen(open_player("table", table_size, lang=lang), self.code)

    def phone(self, seat: int) -> Watched:
        return self.phones[seat - 1]

    @property
    def pages(self) -> list[Page]:
        return [self.device.page, *(p.page for p in self.phones), self.screen.page]

    def start(self) -> None:
        self.device.page.click("#start")
        for page in self.pages:
            wait_phase(page, "choose")


# Every tone the page starts, by its pitch: the test cannot hear, but it can see the
# sand timer's alarm (880, 660, 440 Hz) being played through the page's audio.
TONES = """(() => {
  window.__tones = [];
  const start = OscillatorNode.prototype.start;
  OscillatorNode.prototype.start = function (...args) {
    window.__tones.push(this.frequency.value);
    return start.apply(this, args);
  };
})()"""


def _wait_stage(page: Page, turn: int, phase: str, timeout: float = 30_000) -> None:
    page.wait_for_selector(
        f"#vc-stage[data-turn='{turn}'][data-phase='{phase}']", state="attached", timeout=timeout
    )


def _next_card(room_log: Any, code: str) -> tuple[str, str]:
    """(a category that is not the next card's blank, the blank's category): which
    sector is blank is secret, the test reads it from the log."""
    game = room_log(code).game
    blank = game.cards[game.deck[0]].blank
    assert blank is not None  # every card has a blank in these rooms
    plain = next(c for c in CHOOSABLE if c != CATEGORIES[blank])
    return plain, CATEGORIES[blank]


def _square(page: Page, team: int) -> int:
    return int(
        page.locator(f".vboard-svg .pawn[data-team='{team}']").get_attribute("data-square") or 0
    )


def _expect_square(page: Page, team: int, square: int) -> None:
    """Wait for ``team``'s pawn on ``square`` (another page than the one a step was
    awaited on may take a moment longer to receive the same state)."""
    pawn = page.locator(f".vboard-svg .pawn[data-team='{team}']")
    expect(pawn).to_have_attribute("data-square", str(square))


def _word_holders(t: PaperTable, turn: int) -> list[int]:
    """The seats whose phone shows the word card once ``turn``'s thinking has begun on
    every phone."""
    for seat in range(1, 5):
        _wait_stage(t.phone(seat).page, turn, "think")
    return [s for s in range(1, 5) if t.phone(s).page.locator("#word-card").count()]


def test_a_turn_guessed_a_sand_timer_run_out_and_a_proverb(
    open_player: Open, server: str, room_log: Any
) -> None:
    # Sand enough for a busy machine to look at every phone and tap before it runs out.
    t = PaperTable(open_player, server, think_seconds=8, draw_seconds=20, blank_share=1.0)
    device = t.device.page
    expect(device.locator("#device-note")).to_contain_text("Tablet's device is the table's")
    # The device has no team to join; the host still deals the teams.
    expect(device.locator("#join-team-0")).to_have_count(0)
    shot(device, "vcompanion-lobby-device")
    t.start()
    expect(device.locator("#vc-stage")).to_have_attribute("data-role", "table")

    # Turn 1: the device chooses for the drawer; only the drawer's phone shows the word.
    team1 = int(device.locator(".vc-stage .team-badge").first.get_attribute("data-team") or 0)
    plain, _ = _next_card(room_log, t.code)
    device.click(f"#choose-{plain}")
    cards = _word_holders(t, 1)
    assert len(cards) == 1
    drawer1 = cards[0]
    word1 = t.phone(drawer1).page.inner_text("#subject").strip()
    assert word1
    shot(t.phone(drawer1).page, "vcompanion-drawer-phone", full_page=True)
    _wait_stage(device, 1, "draw")
    shot(device, "vcompanion-device-draw")
    shot(t.screen.page, "vcompanion-table-draw-1280")
    guesser = next(s for s in range(1, 5) if s != drawer1 and TEAMS[s - 1] == team1)
    shot(t.phone(guesser).page, "vcompanion-guesser-phone", full_page=True)
    for page in [device, t.screen.page, *(t.phone(s).page for s in range(1, 5) if s != drawer1)]:
        assert word1 not in page.inner_text("body")
    value = {"objects": 3, "actions": 4, "places": 5, "luck": 6}[plain]
    device.click(f"#guessed-{team1}")
    _wait_stage(device, 2, "choose")
    assert _square(device, team1) == 1 + value
    _expect_square(t.screen.page, team1, 1 + value)
    # The drawer's phone tells the word of the turn just played; nobody else's does.
    expect(t.phone(drawer1).page.locator("#last-turn")).to_contain_text(word1)
    expect(device.locator("#last-turn")).not_to_contain_text(word1)

    # Turn 2: the other team; nobody taps, the sand runs out and the alarm sounds.
    team2 = 1 - team1
    plain, _ = _next_card(room_log, t.code)
    device.click(f"#choose-{plain}")
    _wait_stage(device, 2, "draw")
    rang = "Number(document.body.dataset.alarms || 0)"
    alarms = {p: int(p.evaluate(rang)) for p in (device, t.screen.page)}
    tones = int(device.evaluate("window.__tones.length"))
    # Nobody taps in this turn, so there is time for the table screen at both widths
    # (in the turns that need a tap, the test must beat the sand).
    both_sizes(t.screen, "vcompanion-sand")
    _wait_stage(device, 3, "choose", timeout=40_000)
    for page in (device, t.screen.page):
        page.wait_for_function(f"() => {rang} > {alarms[page]}", timeout=5000)
    # The device was tapped, so the browser lets it sound: the alarm's three notes play.
    played = device.evaluate(f"window.__tones.slice({tones})")
    alarm = [880, 660, 440]
    assert any(played[i : i + 3] == alarm for i in range(len(played))), played
    assert _square(device, team2) == 1  # a failed turn moves no pawn

    # Turn 3: team 1 again; the blank sector: every team draws the proverb.
    plain, blank = _next_card(room_log, t.code)
    device.click(f"#choose-{blank}")
    drawers = _word_holders(t, 3)
    assert sorted(TEAMS[s - 1] for s in drawers) == [0, 1]
    proverb = t.phone(drawers[0]).page.inner_text("#subject").strip()
    assert proverb == t.phone(drawers[1]).page.inner_text("#subject").strip()
    shot(t.phone(drawers[0]).page, "vcompanion-proverb-phone", full_page=True)
    _wait_stage(device, 3, "draw")
    shot(t.screen.page, "vcompanion-table-proverb-1280")
    for page in [
        device,
        t.screen.page,
        *(t.phone(s).page for s in range(1, 5) if s not in drawers),
    ]:
        assert proverb not in page.inner_text("body")
    # Team 2 says it first; the device moves its pawn 5 squares forward.
    device.click(f"#guessed-{team2}")
    _wait_stage(device, 3, "move")
    device.click(".vstep[data-direction='forward'][data-steps='5']")
    shot(device, "vcompanion-device-move")
    device.click("#confirm-move")
    device.wait_for_selector(
        "#vc-stage[data-turn='3'][data-phase='bonus'], #vc-stage[data-turn='4']",
        state="attached",
    )
    if device.locator("#bonus-keep").count():
        device.click("#bonus-keep")
    _wait_stage(device, 4, "choose")
    _expect_square(t.screen.page, team2, 6)
    # The team that guessed the proverb plays the next turn.
    expect(device.locator("#vc-stage .team-badge").first).to_have_attribute("data-team", str(team2))

    # The words never reached the device, the table screen or a phone that did not draw.
    watchers: dict[int | None, list[dict[str, Any]]] = {s: t.phone(s).frames for s in range(1, 5)}
    watchers[0] = t.device.frames
    watchers[None] = t.screen.frames  # the table screen
    for label, frames in watchers.items():
        assert frames, label
        if label != drawer1:
            assert not received(frames, word1), label
        if label not in drawers:
            assert not received(frames, proverb), label
    assert received(t.phone(drawer1).frames, word1)
    # The table screen holds no seat: it is a spectator.
    states = [f for f in t.screen.frames if f.get("type") == "state"]
    assert states and all(f["room"]["you"] is None for f in states)
    assert all(f["game"]["you"]["seat"] is None for f in states if f["game"])
    assert not any(f.get("type") == "welcome" for f in t.screen.frames)
    for person in [t.device.player, *(p.player for p in t.phones), t.screen.player]:
        assert person.errors == [], (person.label, person.errors)


@pytest.mark.parametrize("lang", ["ru", "it"])
def test_screens_in_russian_and_italian(
    open_player: Open, server: str, room_log: Any, lang: str
) -> None:
    t = PaperTable(
        open_player,
        server,
        lang=lang,
        table_size=TABLE_1920,
        think_seconds=15,
        draw_seconds=60,
        blank_share=1.0,
    )
    t.start()
    plain, _ = _next_card(room_log, t.code)
    t.device.page.click(f"#choose-{plain}")
    drawer = _word_holders(t, 1)[0]
    word = t.phone(drawer).page.inner_text("#subject").strip()
    shot(t.phone(drawer).page, f"vcompanion-drawer-phone-{lang}", full_page=True)
    shot(t.device.page, f"vcompanion-device-{lang}")
    both_sizes(t.screen, f"vcompanion-{lang}")
    other = next(s for s in range(1, 5) if s != drawer)
    shot(t.phone(other).page, f"vcompanion-phone-{lang}", full_page=True)
    for page in [t.device.page, t.screen.page, t.phone(other).page]:
        text = page.inner_text("body")
        assert word not in text
        # No key left untranslated on the screen.
        assert "vcompanion." not in text and "teams.device" not in text
    for person in [t.device.player, *(p.player for p in t.phones), t.screen.player]:
        assert person.errors == [], (person.label, person.errors)
