"""axe-core (WCAG 2.2 AA) over a page in the browser tests.

axe-core comes from npm with the other client tools (package.json, ``make jscheck``
installs it into ``node_modules``); ``AXE_CORE_JS`` may point at another copy of
``axe.min.js``. Without it these checks fail, they never skip.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page

ROOT = Path(__file__).resolve().parents[2]
#: The rule sets of WCAG 2.2 A and AA (and their 2.0 and 2.1 parts).
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa"]


def _axe_source() -> str:
    path = Path(os.environ.get("AXE_CORE_JS") or ROOT / "node_modules/axe-core/axe.min.js")
    if not path.is_file():
        pytest.fail(f"axe-core is missing at {path}: run `make jscheck` (npm ci) first")
    return path.read_text(encoding="utf-8")


def axe_violations(page: Page, selector: str | None = None) -> list[dict[str, Any]]:
    """The WCAG 2.2 AA violations axe-core finds in the page (or in ``selector``)."""
    if not page.evaluate("typeof window.axe === 'object'"):
        # Evaluated by the browser's devtools protocol, so the page's strict CSP (no
        # inline script) does not stop it, and nothing about the page changes for it.
        page.evaluate("() => {\n" + _axe_source() + "\n}")
    found: list[dict[str, Any]] = page.evaluate(
        """async ([selector, tags]) => {
            const res = await axe.run(selector ? document.querySelector(selector) : document,
                {runOnly: {type: "tag", values: tags}, resultTypes: ["violations"]});
            const where = (n) => n.target.join(" ") + " :: " + n.failureSummary;
            return res.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
                nodes: v.nodes.slice(0, 5).map(where)}));
        }""",
        [selector, TAGS],
    )
    return found


def assert_accessible(page: Page, where: str, selector: str | None = None) -> None:
    """Fail with axe-core's findings when the page breaks a WCAG 2.2 AA rule."""
    found = axe_violations(page, selector)
    lines = [f"{v['id']} ({v['impact']}): {v['help']} {v['nodes']}" for v in found]
    assert not found, f"{where}: " + "\n".join(lines)
