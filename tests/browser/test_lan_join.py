"""Phones join by scanning the table screen's QR code, with the server on a laptop in the
room as the README says: ``make run HOST=0.0.0.0``. The QR code is read off the table
screen's pixels by ZXing (zxing-cpp, not segno, which draws it), and a phone opens what it
reads, at the laptop's network address, and takes a seat."""

from __future__ import annotations

import io
import os
import signal
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import zxingcpp
from PIL import Image
from playwright.sync_api import Browser, Page, expect

from reverie.web.qr import lan_address
from tests.browser.companion import TABLE_1280
from tests.browser.conftest import PHONE, ROOT, free_port, shot

pytestmark = pytest.mark.browser


def read_join_qr(page: Page) -> str:
    """The text of the QR code on the table screen, read from its pixels as the page
    shows them (a screenshot of the code, as a phone's camera would see it)."""
    png = page.locator("#join-qr").screenshot()
    found = zxingcpp.read_barcodes(
        Image.open(io.BytesIO(png)), formats=zxingcpp.barcode_formats_from_str("QRCode")
    )
    assert len(found) == 1, f"the table screen shows {len(found)} readable QR codes"
    return found[0].text


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=1) as res:
            return bool(res.status == 200)
    except (urllib.error.URLError, ConnectionError, TimeoutError):
        return False


@pytest.fixture
def laptop(tmp_path: Path) -> Iterator[tuple[str, int, Path]]:
    """``make run HOST=0.0.0.0`` on a free port: (this machine's network address, the
    port, the server's output)."""
    lan = lan_address()
    assert lan, "this machine has no network address: the LAN case cannot be shown here"
    port = free_port()
    out = tmp_path / "make-run.log"
    env = dict(
        os.environ,
        REVERIE_DATA_DIR=str(tmp_path),
        REVERIE_ROOMS_PER_MINUTE="0",
        REVERIE_JOINS_PER_MINUTE="0",
    )
    with out.open("wb") as log:
        # A session of its own: make and the server it starts stop together.
        proc = subprocess.Popen(
            ["make", "--no-print-directory", "run", "HOST=0.0.0.0", f"PORT={port}"],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        deadline = time.monotonic() + 30
        while not _answers(f"http://{lan}:{port}/healthz"):
            if proc.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"make run HOST=0.0.0.0 did not answer:\n{out.read_text()}")
            time.sleep(0.1)
        yield lan, port, out
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def test_phones_join_a_laptop_in_the_room_by_the_qr_code(
    browser: Browser, laptop: tuple[str, int, Path]
) -> None:
    lan, port, out = laptop
    here = f"http://{lan}:{port}"
    # The server says where phones find it.
    assert f"Phones on your network: {here}/" in out.read_text()
    assert _answers(f"http://127.0.0.1:{port}/healthz")
    r = httpx.post(
        f"{here}/api/rooms",
        json={"name": "Ann", "color": "#e63946", "variant": "dixit-companion",
              "seats": 3, "options": {}},
    )  # fmt: skip
    assert r.status_code == 201, r.text
    code, token = r.json()["code"], r.json()["token"]
    contexts = []
    errors: list[str] = []

    def open_page(viewport: object = PHONE) -> Page:
        ctx = browser.new_context(viewport=viewport)  # type: ignore[arg-type]
        ctx.set_default_timeout(30_000)
        contexts.append(ctx)
        page = ctx.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        return page

    try:
        host = open_page()
        host.goto(f"{here}/r/{code}#t={token}")
        host.wait_for_selector("#lobby .lobby-player.is-you")

        # The table screen opened on the laptop at localhost: the QR code carries the
        # laptop's network address (a phone cannot open localhost), with a reminder.
        table = open_page(TABLE_1280)
        table.goto(f"http://localhost:{port}/r/{code}?table")
        expect(table.locator("#join-lan")).to_be_visible()
        expect(table.locator("#join-url")).to_have_text(f"{here}/r/{code}")
        table.wait_for_function(
            "() => { const i = document.querySelector('#join-qr');"
            " return i.complete && i.naturalWidth > 0 && i.src.includes('lan=1'); }"
        )
        shot(table, "companion-lan-table-localhost")
        scanned = read_join_qr(table)
        assert scanned == f"{here}/r/{code}"

        # Two phones scan it and take seats; the table screen lists them.
        for name in ("Bob", "Cy"):
            phone = open_page()
            phone.goto(scanned)
            phone.fill("#join-name", name)
            phone.click("#join-submit")
            phone.wait_for_selector("#lobby .lobby-player.is-you")
            expect(table.locator("ul.table-scores")).to_contain_text(name)
        shot(phone, "companion-lan-joined-phone", full_page=True)

        # A table screen opened at the network address hands out that same address.
        other = open_page(TABLE_1280)
        other.goto(f"{here}/r/{code}?table")
        expect(other.locator("#join-url")).to_have_text(f"{here}/r/{code}")
        other.wait_for_function(
            "() => { const i = document.querySelector('#join-qr');"
            " return i.complete && i.naturalWidth > 0; }"
        )
        expect(other.locator("#join-lan")).to_have_count(0)
        assert read_join_qr(other) == f"{here}/r/{code}"

        # The game starts from the host's phone and the table screen follows it.
        host.click("#start")
        expect(table.locator("#table-phase")).to_be_visible()
        assert errors == []
    finally:
        for ctx in contexts:
            ctx.close()
