"""axe-core over every screen a test reaches, at 375 and 1280 px and in en, ru and it.

A test drives a game once; at each new screen it calls :meth:`Sweep.check`, which turns
the same page to both widths in one of the languages, in place (the client's language
switch and the viewport, no reload, nothing the server sees), and runs axe-core (WCAG 2.2
AA) in each. The language goes round from screen to screen, starting from ``offset`` (a
test of several variants gives each its own), so a game's screens meet every language and
the five association variants put every screen in every language: the whole cross
product on each screen cost six axe runs a screen and most of the suite's time.
The findings are gathered and :meth:`Sweep.assert_clean` fails with one readable line
per rule, screen, width and language. Screens are named by the test, from the game's
phase, so the sweep covers whatever the stage shows in that phase.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from playwright.sync_api import Page

from tests.browser.axe import axe_violations
from tests.browser.conftest import DESKTOP, PHONE

WIDTHS = (PHONE, DESKTOP)
LANGS = ("en", "ru", "it")

#: Two frames after a change: the client re-renders on the next one.
SETTLE = "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))"


def set_lang(page: Page, lang: str) -> None:
    """Switch the page's language with its own selector, in place."""
    if page.evaluate("document.documentElement.lang") == lang:
        return
    if page.locator(".lang-select").count():
        page.select_option(".lang-select", lang)
    else:  # a page without the site header (the table screen): the saved choice
        page.evaluate(f"localStorage.setItem('reverie:lang', '{lang}')")
        page.reload()
    page.wait_for_function(f"() => document.documentElement.lang === '{lang}'")
    page.evaluate(SETTLE)


@dataclass
class Sweep:
    """The axe-core findings over the screens of one test."""

    offset: int = 0
    found: list[str] = field(default_factory=list)
    screens: list[str] = field(default_factory=list)
    langs: set[str] = field(default_factory=set)

    def check(self, page: Page, screen: str) -> None:
        """Run axe-core on this screen at each width in this screen's turn of the
        languages; the page is left at its first width and language."""
        if screen in self.screens:
            return
        lang = LANGS[(len(self.screens) + self.offset) % len(LANGS)]
        self.screens.append(screen)
        self.langs.add(lang)
        start_size = page.viewport_size or DESKTOP
        start_lang = str(page.evaluate("document.documentElement.lang"))
        set_lang(page, lang)
        for size in WIDTHS:
            page.set_viewport_size(size)
            page.evaluate(SETTLE)
            for v in axe_violations(page):
                for node in v["nodes"]:
                    self.found.append(
                        f"{screen} @{size['width']}px/{lang}: {v['id']} ({v['impact']}) {node}"
                    )
        set_lang(page, start_lang)
        page.set_viewport_size(start_size)
        page.evaluate(SETTLE)

    def assert_clean(self, expected: set[str] | None = None) -> None:
        """Fail with every finding; with ``expected``, also when a screen was not reached."""
        missing = sorted((expected or set()) - set(self.screens))
        assert not missing, f"screens not reached: {missing} (reached: {self.screens})"
        if len(self.screens) >= len(LANGS):
            assert self.langs == set(LANGS), f"languages not swept: {self.langs}"
        assert not self.found, f"{len(self.found)} axe-core violation(s):\n" + "\n".join(self.found)
