"""A phone's page over HTTPS through the shipped nginx config (deploy/nginx/reverie.conf,
with a certificate the test makes): Chromium opens the room at a host name (not an
address browsers trust by themselves), the page is a secure context, so the wake lock is
there and taken when the game starts and the web app manifest is linked and loaded. The
same app over plain HTTP at that name is not a secure context and has no wake lock: what
the TLS server is for."""

from __future__ import annotations

import base64
import hashlib
import subprocess
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect
from playwright.sync_api import Error as PlaywrightError

from tests.browser.conftest import PHONE
from tests.scale.cluster import TlsSite
from tools.chromium import CHROMIUM, CHROMIUM_ARGS

pytestmark = pytest.mark.browser

HOST = "reverie.test"

#: Counts the page's wake lock requests and what became of them (the real API, wrapped).
WAKE_SPY = """
window.__wake = {requests: 0, granted: 0, refused: []};
if (navigator.wakeLock) {
  const real = navigator.wakeLock.request.bind(navigator.wakeLock);
  navigator.wakeLock.request = async (type) => {
    window.__wake.requests += 1;
    try { const lock = await real(type); window.__wake.granted += 1; return lock; }
    catch (e) { window.__wake.refused.push(String(e)); throw e; }
  };
}
"""


def spki_hash(cert: Path) -> str:
    """The base64 SHA-256 of the certificate's public key, as Chromium's
    ``--ignore-certificate-errors-spki-list`` takes it (the certificate is then trusted
    as if a known authority had signed it)."""
    der = subprocess.run(
        ["openssl", "x509", "-in", str(cert), "-pubkey", "-noout"], check=True, capture_output=True
    ).stdout
    key = subprocess.run(
        ["openssl", "pkey", "-pubin", "-outform", "der"], input=der, check=True, capture_output=True
    ).stdout
    return base64.b64encode(hashlib.sha256(key).digest()).decode()


@pytest.fixture
def site(tmp_path: Path) -> Iterator[TlsSite]:
    s = TlsSite(tmp_path, HOST)
    try:
        yield s
    finally:
        s.stop()


@pytest.fixture
def chromium(browser: Browser, site: TlsSite) -> Iterator[Browser]:
    """A Chromium of its own (the session's has none of these flags): ``reverie.test``
    resolves to this machine, and the test's certificate is trusted."""
    own = browser.browser_type.launch(
        executable_path=CHROMIUM,
        headless=True,
        args=[
            *CHROMIUM_ARGS,
            f"--host-resolver-rules=MAP {HOST} 127.0.0.1",
            f"--ignore-certificate-errors-spki-list={spki_hash(site.cert.cert)}",
        ],
        timeout=120_000,
    )
    try:
        yield own
    finally:
        own.close()


def _phone(chromium: Browser) -> BrowserContext:
    """A fresh phone: its own storage, and no HSTS remembered."""
    ctx = chromium.new_context(viewport=PHONE)
    ctx.set_default_timeout(30_000)
    ctx.add_init_script(WAKE_SPY)
    return ctx


def _open_room(ctx: BrowserContext, url: str, errors: list[str], ready: str) -> Page:
    page = ctx.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url)
    page.wait_for_selector(ready, state="attached")
    return page


def test_the_room_page_over_https_is_a_secure_context(site: TlsSite, chromium: Browser) -> None:
    r = httpx.post(
        f"https://127.0.0.1:{site.nginx.port}/api/rooms",
        headers={"host": HOST},
        json={"name": "Ann", "color": "#e63946", "variant": "dixit", "seats": 3, "options": {}},
        verify=site.cert.context(),
    )
    assert r.status_code == 201, r.text
    code, token = r.json()["code"], r.json()["token"]
    errors: list[str] = []
    phone = _phone(chromium)

    # Typed as http://, the address is sent to https:// (nginx's redirect).
    typed = f"http://{HOST}:{site.nginx.http_port}/r/{code}#t={token}"
    page = _open_room(phone, typed, errors, "#lobby .lobby-player.is-you")
    assert page.url.startswith(f"{site.base}/r/{code}")
    assert page.evaluate("window.isSecureContext") is True
    assert page.evaluate("location.protocol") == "https:"
    assert page.evaluate("typeof navigator.wakeLock") == "object"

    # The manifest is linked, and Chromium loads it as the page's web app manifest.
    href = page.locator("link[rel=manifest]").get_attribute("href")
    assert href == f"/r/{code}/manifest.webmanifest"
    media = page.evaluate("async (href) => (await fetch(href)).headers.get('content-type')", href)
    assert media.startswith("application/manifest+json")
    cdp = phone.new_cdp_session(page)
    app = cdp.send("Page.getAppManifest")
    assert app["url"] == f"{site.base}{href}"
    assert app["errors"] == [] and '"standalone"' in app["data"]

    # The game starts: the page asks for the wake lock and Chromium grants it.
    for seated in (1, 2):
        expect(page.locator(".lobby-player")).to_have_count(seated)
        page.click("#add-bot")
    expect(page.locator(".lobby-player")).to_have_count(3)
    page.click("#start")
    page.wait_for_selector("body[data-wake='on']", state="attached")
    page.wait_for_function("window.__wake.requests >= 1")
    page.wait_for_function("window.__wake.granted + window.__wake.refused.length >= 1")
    assert page.evaluate("window.__wake.refused") == []
    assert errors == []

    # HSTS: this phone now goes to https:// by itself, even at another port of the name
    # (the app's own, which speaks no TLS).
    with pytest.raises(PlaywrightError, match="ERR_SSL_PROTOCOL_ERROR"):
        phone.new_page().goto(f"http://{HOST}:{site.process.port}/healthz")

    # The control: the same app at the same name over plain HTTP (straight to the
    # process, no nginx), on a phone that never saw the site: no secure context, and
    # Chromium gives it no wake lock: the game in play wants one, and none is asked for.
    other = _phone(chromium)
    plain_url = f"http://{HOST}:{site.process.port}/r/{code}#t={token}"
    plain = _open_room(other, plain_url, errors, "body[data-wake='on']")
    assert plain.evaluate("window.isSecureContext") is False
    assert plain.evaluate("typeof navigator.wakeLock") == "undefined"
    assert plain.evaluate("window.__wake.requests") == 0
    assert errors == []
