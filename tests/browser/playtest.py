"""A play-test of the six online games as new players would play them: not a test of
``make test`` (it takes minutes and its findings are for a person to read), a script.

    .venv/bin/python -m tests.browser.playtest [--games dixit,visual] [--out DIR]

Each game is played to its end by three or four people in Chromium through the real UI,
at 375 and 1280 px and in English, Russian and Italian (the creator's language is the
table's). Every page is screenshotted at each new moment (lobby, each phase, results,
the end) into ``artifacts/playtest/`` and checked at every step for console errors, raw
i18n keys, words of another language than the page's, and sideways scrolling. The
findings are printed at the end, and written to ``findings.txt`` next to the pictures.
"""

from __future__ import annotations

import argparse
import json
import re
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from playwright.sync_api import Browser, Dialog, Page, ViewportSize, sync_playwright

from reverie.rooms.commands import BOT_NAMES_BY_LANG
from tests.browser.conftest import DESKTOP, PHONE, free_port, start_server, stop_server
from tools.chromium import CHROMIUM, CHROMIUM_ARGS

ROOT = Path(__file__).resolve().parents[2]
I18N = ROOT / "src" / "reverie" / "web" / "static" / "i18n"
DICTS = {lang: json.loads((I18N / f"{lang}.json").read_text()) for lang in ("en", "ru", "it")}
KEYS = set(DICTS["en"])
#: A clue of four words ending in "?": it passes every machine-checked restriction but
#: the three-word one, which gets THREE.
CLUES = {
    "en": ("Moon over quiet water?", "Moon over water?"),
    "ru": ("Луна над тихой водой?", "Луна над водой?"),
    "it": ("Luna sopra acqua calma?", "Luna sopra acqua?"),
}
#: Names that are the same in every language.
PROPER = {
    *("Reverie", "Dixit", "Imaginarium", "Pictoric", "Harmony", "Gallery", "PICTORICBOX"),
    *("Visual", "Game", "English", "Italiano", "Ctrl", "QR", "SVG"),
}


#: The page's words as a person reads them, without what the players wrote or the table
#: was dealt (clues, names in chat, the drawing game's words), labels included.
PAGE_TEXT = """() => { const c = document.body.cloneNode(true);
  c.querySelectorAll('q, [lang], .chat-text, .chat-name, input, textarea, script, style, '
    + '.vguess-text, .vsubject, .lang-select').forEach(e => e.remove());
  const labels = [...c.querySelectorAll('[aria-label],[title],[placeholder]')].map(e =>
    ['aria-label', 'title', 'placeholder'].map(a => e.getAttribute(a)).filter(Boolean).join('\\n'));
  return c.innerText + '\\n' + labels.join('\\n'); }"""
#: The elements that stick out on the right, when the page scrolls sideways.
TOO_WIDE = """() => document.documentElement.scrollWidth > window.innerWidth + 1
  ? [...document.querySelectorAll('body *')]
      .filter(e => e.getBoundingClientRect().right > window.innerWidth + 1)
      .slice(0, 3).map(e => e.tagName + '.' + e.className + '#' + e.id)
  : null"""


@dataclass
class Person:
    name: str
    lang: str
    viewport: ViewportSize
    page: Page
    errors: list[str] = field(default_factory=list)
    seen: set[str] = field(default_factory=set)

    @property
    def width(self) -> int:
        return self.viewport["width"]

    @property
    def label(self) -> str:
        return f"{self.name}@{self.width}/{self.lang}"


@dataclass
class Run:
    game: str
    out: Path
    people: list[Person]
    findings: list[str] = field(default_factory=list)
    names: list[str] = field(default_factory=list)
    teams: dict[str, int] = field(default_factory=dict)

    def note(self, who: Person | None, text: str) -> None:
        line = f"[{self.game}] {who.label if who else '-'}: {text}"
        if line not in self.findings:
            self.findings.append(line)
            print(line, flush=True)

    def shot(self, p: Person, moment: str, *, full: bool = False) -> None:
        """One picture per person and moment, the first time it happens."""
        if moment in p.seen:
            return
        p.seen.add(moment)
        p.page.wait_for_timeout(250)
        path = self.out / f"{self.game}-{p.name.lower()}-{p.width}-{p.lang}-{moment}.png"
        if full:
            p.page.evaluate("window.scrollTo(0, 0)")
        p.page.screenshot(path=str(path), full_page=full)
        self.check(p)

    def check(self, p: Person) -> None:
        """Raw keys, words of another language, sideways scrolling, console errors."""
        for e in p.errors:
            self.note(p, f"console: {e}")
        p.errors.clear()
        text: str = p.page.evaluate(PAGE_TEXT)
        for name in sorted(self.names, key=len, reverse=True):
            text = text.replace(name, " ")
        text = re.sub(r"\b[A-Z0-9]{6}\b", " ", text)  # the room's code
        for m in re.finditer(r"\b[a-z_]+(?:\.[a-z0-9_]+)+\b", text):
            if m.group(0) in KEYS:
                self.note(p, f"raw key {m.group(0)!r}")
        # Hex digests (the round's commitment) are no words.
        text = re.sub(r"\b[0-9a-f]{8,}\b", " ", text)
        words = set(re.findall(r"[A-Za-z][A-Za-z']{2,}", text)) - PROPER
        cyr = set(re.findall(r"[А-Яа-яЁё]{3,}", text)) - {"Русский"}
        if p.lang == "ru" and words:
            self.note(p, f"latin words on a Russian page: {sorted(words)[:12]}")
        if p.lang != "ru" and cyr:
            self.note(p, f"cyrillic words on a {p.lang} page: {sorted(cyr)[:12]}")
        if p.lang == "it":
            en_only = {
                v
                for k, v in DICTS["en"].items()
                if isinstance(v, str) and len(v) > 4 and "{" not in v and DICTS["it"].get(k) != v
            }
            for line in {x.strip() for x in text.splitlines()}:
                if line in en_only:
                    self.note(p, f"English on an Italian page: {line!r}")
        wide = p.page.evaluate(TOO_WIDE)
        if wide:
            self.note(p, f"scrolls sideways: {wide}")


def open_person(browser: Browser, base: str, name: str, lang: str, vp: ViewportSize) -> Person:
    ctx = browser.new_context(viewport=vp, locale=lang, base_url=base)
    ctx.set_default_timeout(10_000)
    page = ctx.new_page()
    person = Person(name, lang, vp, page)
    page.on("pageerror", lambda e: person.errors.append(str(e)))
    page.on("console", lambda m: person.errors.append(m.text) if m.type == "error" else None)

    def on_dialog(d: Dialog) -> None:
        person.errors.append(f"dialog {d.message}")
        d.dismiss()

    page.on("dialog", on_dialog)
    page.goto("/")
    page.select_option(".lang-select", lang)
    page.wait_for_function(f"document.documentElement.lang === '{lang}'")
    return person


def phase(page: Page) -> str:
    return str(page.evaluate("document.body.dataset.phase || ''"))


def seat_everyone(run: Run, variant: str, options: dict[str, str]) -> None:
    host, *others = run.people
    page = host.page
    page.goto("/")
    run.shot(host, "home")
    page.fill("#create-name", host.name)
    page.check(f"#variant-{variant}", force=True)
    page.click(".options-details summary")
    run.shot(host, "home-options")
    for name, value in options.items():
        field_ = page.locator(f"#create [name={name}]")
        if field_.evaluate("e => e.tagName") == "SELECT":
            field_.select_option(value)
        else:
            field_.fill(value)
    page.click("#create-submit")
    page.wait_for_selector("#lobby:not([hidden])")
    invite = page.input_value("#invite-link")
    for p in others:
        p.page.goto(invite)
        p.page.wait_for_selector("#join-form")
        run.shot(p, "gate")
        p.page.fill("#join-name", p.name)
        p.page.click("#join-submit")
        p.page.wait_for_selector("#lobby .lobby-player.is-you")
    page.wait_for_function(
        f"document.querySelectorAll('.lobby-player').length >= {len(run.people)}"
    )


def act_association(run: Run, p: Person) -> None:
    """Whatever this person must do now, if anything."""
    page = p.page
    try:
        if page.locator("#reveal-close").count() and "reveal" not in p.seen:
            run.shot(p, "reveal")
        if page.locator("#claim").count():
            run.shot(p, "claim")
            page.click("#claim", timeout=2000)
        if page.locator("#clue-form").count():
            run.shot(p, "clue-teller")
            tiles = page.locator(
                ".hand-row .card-tile[aria-pressed], .table-row .card-tile[aria-pressed]"
            )
            if tiles.count():
                tiles.first.click()
                page.click("#zoom-choose", timeout=2000)
            for clue in CLUES[p.lang]:
                page.fill("#clue-text", clue)
                if not page.locator("#clue-hint.bad").count():
                    break
            run.shot(p, "clue-typed")
            page.click("#clue-submit", timeout=2000)
            page.wait_for_timeout(300)
        elif page.locator("#confirm-card").count():
            run.shot(p, "submit")
            page.locator(".hand-row .card-tile").first.click()
            run.shot(p, "zoom")
            page.click("#zoom-choose", timeout=2000)
            page.click("#confirm-card", timeout=2000)
            page.wait_for_timeout(300)
        elif page.locator("#confirm-vote").count():
            run.shot(p, "vote")
            page.locator(".vote-row .card-tile:not(.mine)").first.click()
            page.click("#zoom-choose", timeout=2000)
            page.click("#confirm-vote", timeout=2000)
            page.wait_for_timeout(300)
        else:
            ph = phase(page)
            if ph:
                run.shot(p, f"wait-{ph}")
    except Exception as exc:  # a state that moved on under the click: try again
        if "Timeout" not in type(exc).__name__:
            run.note(p, f"step failed: {exc}")
        page.wait_for_timeout(200)


def squiggle(page: Page) -> None:
    canvas = page.locator(".vcanvas canvas.sketch").first
    canvas.scroll_into_view_if_needed()
    box = canvas.bounding_box()
    if not box:
        return
    x0, y0, w, hgt = box["x"], box["y"], box["width"], box["height"]
    page.mouse.move(x0 + w * 0.2, y0 + hgt * 0.4)
    page.mouse.down()
    for i in range(1, 12):
        page.mouse.move(x0 + w * (0.2 + 0.05 * i), y0 + hgt * (0.4 + 0.03 * (i % 3)))
    page.mouse.up()


def role(page: Page) -> str:
    return page.locator("#stage .vstage").get_attribute("data-role") or ""


def act_visual(run: Run) -> None:
    """One step of the drawing game for the whole table."""
    for p in run.people:
        ph = phase(p.page)
        if ph:
            run.shot(p, f"{ph}-{role(p.page) or 'x'}")
    page0 = run.people[0].page
    ph = phase(page0)
    if ph == "choose":
        for p in run.people:
            cats = p.page.locator(".vcat:not([disabled])")
            if cats.count():
                cats.first.click()
                break
    elif ph == "draw":
        for d in [p for p in run.people if role(p.page) == "drawer"]:
            subject = d.page.locator("#subject").inner_text().strip()
            squiggle(d.page)
            run.shot(d, "drawn")
            mates = [
                p
                for p in run.people
                if run.teams[p.name] == run.teams[d.name]
                and p is not d
                and p.page.locator("#guess-input").count()
            ]
            if mates:
                mates[0].page.fill("#guess-input", subject)
                mates[0].page.press("#guess-input", "Enter")
                break
    elif ph in ("move", "bonus", "decide"):
        for p in run.people:
            if p.page.locator("#bonus-keep").count():
                p.page.click("#bonus-keep")
                break
            steps = p.page.locator(".vstep:not([disabled])")
            if steps.count():
                steps.last.click()
                run.shot(p, "move-picked")
                p.page.click("#confirm-move")
                break
    page0.wait_for_timeout(400)


#: Each game's people: (name, language, width). The host's language is the table's.
TABLES: dict[str, list[tuple[str, str, ViewportSize]]] = {
    "dixit": [("Ann", "en", DESKTOP), ("Boris", "ru", PHONE), ("Chiara", "it", PHONE)],
    "imaginarium": [("Vera", "ru", DESKTOP), ("Carlo", "it", PHONE), ("Ed", "en", PHONE)],
    "imaginarium-harmony": [
        ("Lucia", "it", DESKTOP),
        ("Bea", "en", PHONE),
        ("Dima", "ru", DESKTOP),
    ],
    "pictoric": [("Amy", "en", PHONE), ("Oleg", "ru", DESKTOP), ("Gino", "it", DESKTOP)],
    "pictoric-gallery": [("Nina", "ru", PHONE), ("Marco", "it", DESKTOP), ("Joe", "en", PHONE)],
    "visual": [
        ("Ann", "en", DESKTOP),
        ("Ivan", "ru", PHONE),
        ("Sara", "it", DESKTOP),
        ("Pavel", "ru", PHONE),
    ],
}
OPTIONS: dict[str, dict[str, str]] = {
    "visual": {"turn_limit": "5", "think_seconds": "0"},
}


def play(browser: Browser, base: str, game: str, out: Path) -> Run:
    people = [open_person(browser, base, n, lang, vp) for n, lang, vp in TABLES[game]]
    run = Run(game, out, people, names=[n for n, _, _ in TABLES[game]])
    run.names += [n for names in BOT_NAMES_BY_LANG.values() for n in names]  # the bots', by table
    options = OPTIONS.get(game, {"target_score": "6"})
    seat_everyone(run, game, options)
    if game == "visual":
        host = people[0].page
        for k, p in enumerate(people):
            p.page.click(f"#join-team-{k % 2}")
            run.teams[p.name] = k % 2
        host.wait_for_timeout(500)
    for p in people:
        run.shot(p, "lobby", full=True)
    people[0].page.click("#start")
    end = time.monotonic() + 240
    step: Callable[[], None]
    if game == "visual":
        step = lambda: act_visual(run)  # noqa: E731
    else:

        def step() -> None:
            for p in people:
                act_association(run, p)

    while time.monotonic() < end:
        if all(phase(p.page) == "over" for p in people):
            break
        step()
    else:
        run.note(None, f"not over after 240 s (phase {phase(people[0].page)!r})")
    for p in people:
        p.page.wait_for_timeout(500)
        run.shot(p, "final-view")
        run.shot(p, "final", full=True)
        run.check(p)
    for p in people:
        p.page.context.close()
    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default=",".join(TABLES))
    parser.add_argument("--out", type=Path, default=ROOT / "artifacts" / "playtest")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    findings: list[str] = []
    with tempfile.TemporaryDirectory() as data, sync_playwright() as pw:
        port = free_port()
        proc = start_server(Path(data), port)
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        try:
            for game in args.games.split(","):
                findings += play(browser, f"http://127.0.0.1:{port}", game, args.out).findings
        finally:
            browser.close()
            stop_server(proc)
    (args.out / "findings.txt").write_text("\n".join(findings) + "\n")
    print(f"{len(findings)} finding(s); pictures in {args.out}")


if __name__ == "__main__":
    main()
