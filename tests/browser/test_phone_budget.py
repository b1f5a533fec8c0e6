"""What the room page costs a phone on its first visit and its next (issue #30): the
number of requests and the bytes transferred, against a budget set as a share of what it
cost before (no clock: counts and bytes only, the same on a busy machine).

Before (commit 252ef04, measured by ``python -m benchmarks.phone``): a newcomer's room
page, cold, made 65 requests (51 modules found import by import, 5 stylesheets, fonts,
dictionary, API) and transferred 588 KiB, none of it compressed; a second visit asked
the server again about most files. Now it makes about a dozen requests for about 260 KiB
(docs/benchmarks.md); the budget leaves room for the client to grow a little but fails
if modules go back to one request each or text goes uncompressed.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest
from playwright.sync_api import Browser

from .conftest import PHONE

pytestmark = pytest.mark.browser

BEFORE_REQUESTS = 65
BEFORE_KIB = 588
#: Cold: at most a quarter of the requests and half of the bytes of before.
REQUEST_SHARE = 0.25
BYTE_SHARE = 0.5
#: Warm: only what is not a file of the client (the page, the room's summary, the deck's
#: picture list) reaches the server.
WARM_REQUESTS = 3


def load(browser_context: Any, url: str) -> tuple[list[str], int]:
    """Open ``url`` in a new page; the addresses that went to the network (not to the
    cache) until the join form was there and the network quiet, and the bytes."""
    page = browser_context.new_page()
    cdp = browser_context.new_cdp_session(page)
    cdp.send("Network.enable")
    sent: dict[str, str] = {}
    cached: set[str] = set()
    size: dict[str, int] = {}
    cdp.on(
        "Network.requestWillBeSent",
        lambda e: sent.__setitem__(e["requestId"], e["request"]["url"]),
    )
    cdp.on("Network.requestServedFromCache", lambda e: cached.add(e["requestId"]))
    cdp.on(
        "Network.responseReceived",
        lambda e: cached.add(e["requestId"]) if e["response"].get("fromDiskCache") else None,
    )
    cdp.on(
        "Network.loadingFinished",
        lambda e: size.__setitem__(e["requestId"], int(e["encodedDataLength"])),
    )
    page.goto(url)
    page.locator("#join-name").wait_for()
    page.locator("#join-form button[type=submit]").wait_for()
    page.wait_for_load_state("networkidle")
    net = [r for r in sent if r not in cached and not sent[r].startswith("data:")]
    cdp.detach()
    page.close()
    return [sent[r] for r in net], sum(size.get(r, 0) for r in net)


def test_the_room_page_stays_within_its_budget(browser: Browser, server: str) -> None:
    made = httpx.post(
        f"{server}/api/rooms",
        json={"name": "Host", "color": "#e63946", "variant": "dixit", "seats": 4},
    )
    code = made.json()["code"]
    ctx = browser.new_context(viewport=PHONE, locale="en", base_url=server, is_mobile=True)
    try:
        cold, cold_bytes = load(ctx, f"/r/{code}")
        warm, _ = load(ctx, f"/r/{code}")
    finally:
        ctx.close()
    scripts = [u for u in cold if urlsplit(u).path.endswith(".js")]
    assert len(scripts) == 1, scripts  # the page's modules come as one file
    assert len(cold) <= BEFORE_REQUESTS * REQUEST_SHARE, cold
    assert cold_bytes <= BEFORE_KIB * 1024 * BYTE_SHARE, (cold_bytes, cold)
    assert not [u for u in warm if "/static/" in u], warm
    assert len(warm) <= WARM_REQUESTS, warm
