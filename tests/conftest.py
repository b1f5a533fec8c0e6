"""Fixtures shared by every test folder."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, sync_playwright

from tools.chromium import CHROMIUM, CHROMIUM_ARGS


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
