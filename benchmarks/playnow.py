"""Play now under arrival (issue #26): N people tap play now for Dixit over a minute, on
real HTTP and sockets against a server process; the time from the tap to a seat (the
answer of ``POST /api/play``) and to the first move shown (the first ``state`` frame with
a game in it).

    python -m benchmarks.playnow                # 200 people over 60 s
    python -m benchmarks.playnow --people 50 --seconds 15

Writes its figures into docs/benchmarks.md (section ``playnow``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import tempfile
import time

import httpx
from websockets.asyncio.client import connect

from benchmarks.load import free_port, start_server
from benchmarks.machine import describe, write_section


async def _person(base: str, i: int, delay: float, out: list[tuple[float, float, str]]) -> None:
    await asyncio.sleep(delay)
    tap = time.perf_counter()
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        r = await http.post("/api/play", json={"game": "dixit", "lang": "it", "name": f"P{i}"})
        r.raise_for_status()
        seated = time.perf_counter() - tap
        body = r.json()
    async with connect(base.replace("http", "ws") + f"/ws/{body['code']}") as ws:
        await ws.send(json.dumps({"type": "hello", "token": body["token"], "lang": "it"}))
        while True:
            frame = json.loads(await asyncio.wait_for(ws.recv(), 60))
            if frame.get("type") == "state" and frame.get("game"):
                break
    out.append((seated, time.perf_counter() - tap, body["how"]))


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def run(people: int, seconds: float, port: int) -> list[tuple[float, float, str]]:
    """Every arrival's (seconds to a seat, seconds to the first move shown, how)."""
    out: list[tuple[float, float, str]] = []
    base = f"http://127.0.0.1:{port}"
    await asyncio.gather(*(_person(base, i, seconds * i / people, out) for i in range(people)))
    return out


def main() -> None:
    """Run once and write the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--people", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=60.0)
    args = parser.parse_args()
    port = free_port()
    env = {"REVERIE_PLAYS_PER_MINUTE": "0", "REVERIE_JOINS_PER_MINUTE": "0",
           "REVERIE_BOT_DELAY": "1.0"}  # fmt: skip
    with tempfile.TemporaryDirectory() as data:
        proc = start_server(port, data, env=env)
        load = os.getloadavg()[0]
        try:
            out = asyncio.run(run(args.people, args.seconds, port))
        finally:
            proc.terminate()
            proc.wait(10)
    seat = [s for s, _, _ in out]
    first = [f for _, f, _ in out]
    opened = sum(1 for _, _, how in out if how == "opened")
    # Queued for a bot's seat at a running table: "seat" is the queueing, the view is
    # the table's as a watcher until the turn ends (these people never move).
    queued = sum(1 for _, _, how in out if how == "queued")
    lines = [
        f"## Play now: {args.people} people tapping over {args.seconds:.0f} s",
        "",
        f"`python -m benchmarks.playnow --people {args.people} --seconds {args.seconds:.0f}`"
        f" (one server process, SQLite, memory bus; load average {load:.1f} at the start)",
        "",
        "| | p50 | p95 | max |",
        "|---|---|---|---|",
        f"| tap → seat | {_pct(seat, 0.5):.3f} s | {_pct(seat, 0.95):.3f} s | {max(seat):.3f} s |",
        f"| tap → first move shown | {_pct(first, 0.5):.2f} s | {_pct(first, 0.95):.2f} s "
        f"| {max(first):.2f} s |",
        "",
        f"{opened} tables opened, {len(out) - opened - queued} people joined a waiting one "
        f"and {queued} were queued for a bot's seat at a running one (4 seats: a table "
        "starts when full, or 5 s after it opened with bots in its empty seats); "
        f"mean tap → first move {statistics.mean(first):.2f} s. Goal: p50 < 2 s, p95 < 5 s.",
        "",
        describe(),
    ]
    write_section("playnow", "\n".join(lines))
    print("\n".join(lines))


if __name__ == "__main__":
    main()
