"""The first screen on a phone network: the home page, the room page and a game in
progress in Chromium with network emulation, at 375 px.

The server runs as its own process (``reverie serve`` on a fresh data folder, SQLite, one
process: what ``make run`` starts), on this machine; Chromium's network emulation (the
DevTools protocol's ``Network.emulateNetworkConditions``) adds the phone network's
latency to every request and shares its bandwidth between them:

- ``slow4g``: 150 ms, 1.6 Mbit/s down, 750 kbit/s up (Lighthouse's "slow 4G");
- ``3g``: 300 ms, 750 kbit/s down, 250 kbit/s up.

Each page is opened *cold* (a new browser context: empty cache) and then *warm* (a new
page in the same context: what a player who opened the link before gets). For each it
reports, from the start of the navigation (the page's own ``performance.now()``):

- **usable**: the first control the player needs is there, visible and enabled: the
  home page's "create a room" button (``#create-submit``); the room page's name field
  and join button for a newcomer (``#join-name`` and the join form's submit button); in
  a game, the seat's hand (``.hand-row``);
- **card**: in a game, the first of the hand's card pictures decoded
  (``.hand-row img`` complete with a width), and **hand**: all of them;
- **KiB** and **requests**: what went over the network until the page was quiet
  (500 ms without a request after it was usable): bytes as transferred (compressed,
  headers included), requests that reached the server (not those the cache answered).

Times are the median of ``--runs`` runs (each with a fresh context).

    python -m benchmarks.phone [--runs 3] [--profiles slow4g 3g] [--no-write]
    python -m benchmarks.phone --against /tmp/old/src

``--against`` also serves another checkout's ``src`` folder (``git worktree add /tmp/old
<commit>``), "before", and makes every visit on both servers in turn: a busy machine
then slows both alike, and the table shows them side by side.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from benchmarks.load import free_port
from benchmarks.machine import describe, write_section
from tools.chromium import CHROMIUM, CHROMIUM_ARGS

#: name: (latency ms, download bit/s, upload bit/s)
PROFILES: dict[str, tuple[float, float, float]] = {
    "slow4g": (150, 1.6e6, 750e3),
    "3g": (300, 750e3, 250e3),
    "fast": (40, 9e6, 3e6),
}
PHONE = {"width": 375, "height": 740}

#: Set in every page before its own scripts: records when the page became usable and
#: when the hand's first and last card pictures were drawn (performance.now(), ms).
PROBE = """
(() => {
  const marks = (window.__marks = {});
  const shown = (el) => el && el.offsetParent !== null && !el.disabled;
  function look() {
    const home = document.querySelector("#create-submit");
    const name = document.querySelector("#join-name");
    const join = document.querySelector("#join-form button[type=submit]");
    const hand = document.querySelector(".hand-row");
    if (marks.usable === undefined &&
        (shown(home) || (shown(name) && shown(join)) || shown(hand))) {
      marks.usable = performance.now();
    }
    if (hand) {
      const imgs = [...hand.querySelectorAll("img")];
      const done = imgs.filter((i) => i.complete && i.naturalWidth > 0);
      if (marks.card === undefined && done.length > 0) marks.card = performance.now();
      if (marks.hand === undefined && imgs.length > 0 && done.length === imgs.length) {
        marks.hand = performance.now();
      }
    }
    if (marks.hand === undefined) requestAnimationFrame(look);
  }
  requestAnimationFrame(look);
})();
"""


@dataclass
class Visit:
    """One page load."""

    usable: float
    card: float | None
    hand: float | None
    bytes: int
    requests: int
    urls: list[str] = field(default_factory=list)


@contextlib.contextmanager
def serve(src: Path | None) -> Iterator[str]:
    """``reverie serve`` (SQLite, one process) on a free port; yields its base URL."""
    port = free_port()
    env = {
        **os.environ,
        "REVERIE_ROOMS_PER_MINUTE": "0",
        "REVERIE_JOINS_PER_MINUTE": "0",
        "REVERIE_MAX_CONNECTIONS_PER_ADDRESS": "0",
    }
    if src is not None:
        env["PYTHONPATH"] = os.pathsep.join([str(src), env.get("PYTHONPATH", "")])
    with tempfile.TemporaryDirectory(prefix="reverie-phone-") as data:
        proc = subprocess.Popen(
            [sys.executable, "-m", "reverie", "serve", "--port", str(port), "--data-dir", data],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env=env,
        )
        base = f"http://127.0.0.1:{port}"
        try:
            for _ in range(300):
                if proc.poll() is not None:
                    raise RuntimeError(f"the server exited with {proc.returncode}")
                try:
                    if httpx.get(f"{base}/healthz", timeout=0.5).status_code == 200:
                        break
                except httpx.HTTPError:
                    pass
                time.sleep(0.1)
            else:
                raise RuntimeError("the server did not start")
            yield base
        finally:
            proc.terminate()
            proc.wait(timeout=10)


def lobby(base: str) -> str:
    """A room waiting for players: its page's address."""
    code = _room(base)
    return f"/r/{code}"


def game(base: str) -> str:
    """A Dixit game of four (the host and three bots): the host's page (its seat link)
    shows the hand (the bots wait for the host's card whoever tells the first story)."""
    from tests.web.harness import Client

    code = _room(base, seats=4)
    token = _tokens[code]
    host = Client(base, code, token)
    try:
        for _ in range(3):
            assert host.request({"type": "add_bot"})["type"] == "ack"
        assert host.request({"type": "start"})["type"] == "ack"
    finally:
        host.close()
    return f"/r/{code}#t={token}"


_tokens: dict[str, str] = {}


def _room(base: str, seats: int = 5) -> str:
    r = httpx.post(
        f"{base}/api/rooms",
        # Nobody's seat goes to a bot while the page loads (the host is away meanwhile).
        json={"name": "Host", "color": "#e63946", "variant": "dixit", "seats": seats,
              "away_seconds": None},
    )  # fmt: skip
    r.raise_for_status()
    body = r.json()
    _tokens[body["code"]] = body["token"]
    return str(body["code"])


def address(page: str, base: str) -> str:
    """Where ``page`` (home, room or game) is, made on the server at ``base``."""
    if page == "home":
        return "/"
    return lobby(base) if page == "room" else game(base)


def visit(context: Any, url: str, profile: str, want_hand: bool) -> Visit:
    """Open ``url`` in a new page of ``context`` on ``profile``'s network."""
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    latency, down, up = PROFILES[profile]
    cdp.send("Network.enable")
    cdp.send(
        "Network.emulateNetworkConditions",
        {
            "offline": False,
            "latency": latency,
            "downloadThroughput": down / 8,
            "uploadThroughput": up / 8,
        },
    )
    sent: dict[str, str] = {}
    cached: set[str] = set()
    finished: dict[str, float] = {}
    last = [time.monotonic()]

    def on_sent(e: dict[str, Any]) -> None:
        if not e["request"]["url"].startswith("data:"):
            sent[e["requestId"]] = e["request"]["url"]
            last[0] = time.monotonic()

    def on_response(e: dict[str, Any]) -> None:
        res = e["response"]
        if res.get("fromDiskCache") or res.get("fromPrefetchCache"):
            cached.add(e["requestId"])

    def on_finished(e: dict[str, Any]) -> None:
        finished[e["requestId"]] = e["encodedDataLength"]
        last[0] = time.monotonic()

    cdp.on("Network.requestWillBeSent", on_sent)
    cdp.on("Network.requestServedFromCache", lambda e: cached.add(e["requestId"]))
    cdp.on("Network.responseReceived", on_response)
    cdp.on("Network.loadingFinished", on_finished)
    page.goto(url, wait_until="commit")
    done = "m.hand !== undefined" if want_hand else "m.usable !== undefined"
    page.wait_for_function(f"() => (m => m && {done})(window.__marks)", timeout=60_000)
    while time.monotonic() - last[0] < 0.5 or len(finished) < len(sent) - 1:
        page.wait_for_timeout(100)
        if time.monotonic() - last[0] > 10:
            break
    marks = page.evaluate("window.__marks")
    net = [r for r in sent if r not in cached]
    visit_ = Visit(
        usable=marks["usable"],
        card=marks.get("card"),
        hand=marks.get("hand"),
        bytes=int(sum(finished.get(r, 0) for r in net)),
        requests=len(net),
        urls=[sent[r] for r in net],
    )
    cdp.detach()
    page.close()
    return visit_


def measure(
    bases: dict[str, str], profiles: list[str], runs: int
) -> dict[tuple[str, str, str, str], Visit]:
    """Median visits by (server label, page, profile, cold/warm). With several servers
    (``bases``: label -> base URL), each visit is made on each in turn, so that a busy
    machine slows them alike."""
    from playwright.sync_api import sync_playwright

    out: dict[tuple[str, str, str, str], list[Visit]] = {}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        try:
            for _ in range(runs):
                for profile in profiles:
                    for name in ("home", "room", "game"):
                        for label, base in bases.items():
                            url = address(name, base)
                            ctx = browser.new_context(
                                viewport=PHONE,  # type: ignore[arg-type]
                                locale="en",
                                base_url=base,
                                is_mobile=True,
                                has_touch=True,
                                device_scale_factor=2,
                            )
                            ctx.add_init_script(PROBE)
                            try:
                                for temp in ("cold", "warm"):
                                    v = visit(ctx, url, profile, want_hand=name == "game")
                                    out.setdefault((label, name, profile, temp), []).append(v)
                            finally:
                                ctx.close()
        finally:
            browser.close()
    return {k: _median(v) for k, v in out.items()}


def _median(visits: list[Visit]) -> Visit:
    def med(values: list[float | None]) -> float | None:
        got = [v for v in values if v is not None]
        return statistics.median(got) if got else None

    usable = med([v.usable for v in visits])
    assert usable is not None
    return Visit(
        usable=usable,
        card=med([v.card for v in visits]),
        hand=med([v.hand for v in visits]),
        bytes=int(statistics.median(v.bytes for v in visits)),
        requests=int(statistics.median(v.requests for v in visits)),
        urls=visits[0].urls,
    )


def table(results: dict[tuple[str, str, str, str], Visit]) -> str:
    """A Markdown table of the results, the servers of one visit side by side."""

    def s(ms: float | None) -> str:
        return "" if ms is None else f"{ms / 1000:.2f}"

    rows = [
        "| page | network | cache | server | usable s | first card s | hand s | KiB | requests |",
        "|---|---|---|---|---:|---:|---:|---:|---:|",
    ]
    keys = sorted(results, key=lambda k: (k[2], ("home", "room", "game").index(k[1]), k[3]))
    for label, name, profile, temp in keys:
        v = results[(label, name, profile, temp)]
        rows.append(
            f"| {name} | {profile} | {temp} | {label} | {s(v.usable)} | {s(v.card)} | "
            f"{s(v.hand)} | {v.bytes / 1024:.0f} | {v.requests} |"
        )
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> None:
    """Run the benchmark, print its table and (unless --no-write) update the docs."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--profiles", nargs="+", default=["slow4g", "3g"], choices=sorted(PROFILES))
    ap.add_argument(
        "--against", type=Path, default=None, help="also serve this checkout's src/ (before)"
    )
    ap.add_argument("--urls", action="store_true", help="list what each visit fetched")
    ap.add_argument("--no-write", action="store_true")
    args = ap.parse_args(argv)
    with contextlib.ExitStack() as stack:
        bases = {}
        if args.against is not None:
            bases["before"] = stack.enter_context(serve(args.against))
        bases["now"] = stack.enter_context(serve(None))
        results = measure(bases, args.profiles, args.runs)
    text = table(results)
    print(text)
    if args.urls:
        for key, v in results.items():
            print(key, *v.urls, sep="\n  ")
    if not args.no_write:
        write_section(
            "phone",
            f"Machine: {describe()}; Chromium {_chromium_version()}; median of {args.runs} "
            f"runs{'; before: ' + str(args.against) if args.against else ''}.\n\n{text}",
        )


def _chromium_version() -> str:
    out = subprocess.run([CHROMIUM, "--version"], capture_output=True, text=True, check=False)
    found = re.search(r"\d+(?:\.\d+)+", out.stdout)
    return found[0] if found else "?"


if __name__ == "__main__":
    main()
