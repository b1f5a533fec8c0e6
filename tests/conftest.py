"""Fixtures shared by every test folder."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, sync_playwright

from tools.chromium import CHROMIUM, CHROMIUM_ARGS

BROWSER_TESTS = Path(__file__).resolve().parent / "browser"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark as ``browser`` every test that needs Chromium, so ``-m "not browser"`` skips them.

    A hook rather than a ``pytestmark`` per module: a new browser test module, or a test
    elsewhere that asks for the ``browser`` fixture, is marked without anyone remembering to.
    """
    for item in items:
        if BROWSER_TESTS in item.path.parents or "browser" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    """One headless Debian Chromium for the whole session (Playwright's sync API allows
    one running instance per thread). A missing Chromium fails the tests; never skips."""
    if not Path(CHROMIUM).exists():
        pytest.fail(
            f"Chromium is missing at {CHROMIUM}: apt-get install -y chromium fonts-dejavu-core"
        )
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()
