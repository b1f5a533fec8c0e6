"""Browser tests: the real server in a subprocess, Debian's Chromium driven by Playwright.

The server runs on a free port with a temporary data dir and ``REVERIE_BOT_DELAY=0`` so
that bots move at once. Chromium must be at ``/usr/bin/chromium`` (``apt-get install -y
chromium fonts-dejavu-core``); without it these tests fail, they never skip. The
``browser`` fixture is shared with the other test folders (tests/conftest.py).
With ``REVERIE_SCREENSHOTS=1``, screenshots go to ``artifacts/screenshots/`` (git-ignored);
without it :func:`shot` takes none (no test reads them: they are for a person to look at).
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import (
    Browser,
    BrowserContext,
    Dialog,
    Page,
    ViewportSize,
)

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "artifacts" / "screenshots"
PHONE: ViewportSize = {"width": 375, "height": 740}
DESKTOP: ViewportSize = {"width": 1280, "height": 900}
#: Screenshots for a person to look at, off by default: a full-page capture costs Chromium
#: a render and a PNG encoding, about a second of CPU each, and the suite takes ~150.
TAKE_SCREENSHOTS = os.environ.get("REVERIE_SCREENSHOTS") == "1"


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _reverie_command() -> list[str]:
    exe = Path(sys.executable).with_name("reverie")
    if exe.exists():
        return [str(exe)]
    return [sys.executable, "-m", "reverie"]


def start_server(data: Path, port: int) -> subprocess.Popen[bytes]:
    """Start ``reverie serve`` on ``port`` with ``data`` as its data dir; wait for /healthz."""
    log_path = data / f"server-{port}.log"
    # Bots move at once; the suite opens more rooms a minute than one person would; a
    # player who closes a page is away at once (a bot may take the seat).
    env = dict(
        os.environ,
        REVERIE_BOT_DELAY="0",
        REVERIE_ROOMS_PER_MINUTE="0",
        REVERIE_JOINS_PER_MINUTE="0",  # every browser here joins from 127.0.0.1
        REVERIE_AWAY_GRACE="0",
        PYTHONUNBUFFERED="1",
    )
    cmd = [
        *_reverie_command(),
        "serve",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--data-dir",
        str(data),
    ]
    log = log_path.open("ab")
    proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env=env, cwd=ROOT)
    log.close()
    base = f"http://127.0.0.1:{port}"
    # Generous: the session's browser tests all hang on this server, and make test starts
    # one per worker at once, beside each worker's Chromium, on a machine perhaps busy.
    deadline = time.monotonic() + 120
    while True:
        if proc.poll() is not None:
            pytest.fail(f"reverie serve exited early:\n{log_path.read_text(errors='replace')}")
        try:
            with urllib.request.urlopen(f"{base}/healthz", timeout=1) as res:
                if res.status == 200:
                    return proc
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        if time.monotonic() > deadline:
            proc.kill()
            pytest.fail(f"reverie serve did not answer /healthz:\n{log_path.read_text()}")
        time.sleep(0.1)


def stop_server(proc: subprocess.Popen[bytes]) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


#: The data folder of each running test server, by base URL.
DATA_DIRS: dict[str, Path] = {}


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Start ``reverie serve`` for the whole session and yield its base URL."""
    port = free_port()
    data = tmp_path_factory.mktemp("reverie-data")
    proc = start_server(data, port)
    base = f"http://127.0.0.1:{port}"
    DATA_DIRS[base] = data
    try:
        yield base
    finally:
        stop_server(proc)


@pytest.fixture
def room_log(server: str) -> Callable[[str], Any]:
    """The room with this code as the server's event log has it now (secrets included):
    for a test that must know what no player may, e.g. which sector of the next card
    is blank."""
    from tests.web.harness import room_history

    def latest(code: str) -> Any:
        return room_history(DATA_DIRS[server] / "reverie.db", code)[-1]

    return latest


@dataclass
class Player:
    """One browser context and page: one person at the table."""

    context: BrowserContext
    page: Page
    label: str
    errors: list[str] = field(default_factory=list)
    dialogs: list[str] = field(default_factory=list)


Open = Callable[..., Player]


@pytest.fixture
def open_player(browser: Browser, server: str) -> Iterator[Open]:
    """Open a fresh browser context (its own localStorage) at a viewport size."""
    made: list[Player] = []

    def make(label: str, viewport: ViewportSize = DESKTOP, lang: str = "en") -> Player:
        ctx = browser.new_context(viewport=viewport, locale=lang, base_url=server)
        # Bounds, not speed tests: make test runs Chromiums in parallel workers on what
        # may be a busy machine (the same 30 s everywhere in the browser tests).
        ctx.set_default_timeout(30_000)
        page = ctx.new_page()
        player = Player(ctx, page, label)

        def on_dialog(d: Dialog) -> None:
            player.dialogs.append(f"{d.type}: {d.message}")
            d.dismiss()

        page.on("dialog", on_dialog)
        page.on("pageerror", lambda e: player.errors.append(str(e)))
        page.on(
            "console",
            lambda m: player.errors.append(m.text) if m.type == "error" else None,
        )
        made.append(player)
        return player

    yield make
    for pl in made:
        pl.context.close()


def shot(page: Page, name: str, *, full_page: bool = False) -> None:
    """With ``REVERIE_SCREENSHOTS=1``, save a screenshot as artifacts/screenshots/<name>.png
    (a bound of 60 s: Chromium encodes a full page slowly on a busy machine)."""
    if not TAKE_SCREENSHOTS:
        return
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    safe = re.sub(r"[^A-Za-z0-9_.-]+", "-", name)
    if full_page:
        # From the top, so that the sticky status bar sits where a person sees it.
        page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(SCREENSHOTS / f"{safe}.png"), full_page=full_page, timeout=60_000)
