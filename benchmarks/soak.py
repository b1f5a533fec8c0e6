"""Soak: R Dixit rooms of six sockets at a table's pace for a long while, one server
process with its default settings; the server's memory sampled as it goes.

Issue #28 asks that a server holding 1,000 tables shows no unbounded memory growth over an
hour. This run opens the rooms as benchmarks/load.py does (the same minimal clients and
the same moves), keeps them playing (a finished game is played again), and prints the
server's RSS, the moves it acknowledged and its full garbage-collector passes every
``--every`` seconds, then a line comparing the first sample after the warm-up with the
last. Latencies are not measured here (benchmarks/load.py does that).

    python -m benchmarks.soak [--rooms 1000] [--minutes 60] [--think 5] [--every 300]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import tempfile
import time

import httpx

from benchmarks.load import (
    Room,
    drive,
    free_port,
    gc_full_passes,
    rss_mib,
    scrape,
    setup_room,
    start_server,
)
from benchmarks.machine import describe, write_section


async def soak(rooms_n: int, minutes: float, think: float, every: float) -> list[str]:
    """One soak; returns the table's lines."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    lines = [
        "| minute | server RSS MiB | moves acknowledged | full GC passes | time in them |",
        "|---:|---:|---:|---:|---:|",
    ]
    with tempfile.TemporaryDirectory() as data:
        server = start_server(port, data)
        try:
            limits = httpx.Limits(max_connections=50, max_keepalive_connections=0)
            async with httpx.AsyncClient(limits=limits, timeout=30) as http:
                gate = asyncio.Semaphore(25)

                async def one(index: int) -> Room:
                    async with gate:
                        return await setup_room([base], index, http)

                rooms = list(await asyncio.gather(*(one(i) for i in range(rooms_n))))
            rng = random.Random(rooms_n)
            start = time.perf_counter()
            stop = start + minutes * 60
            drivers = [asyncio.create_task(drive(r, think, stop, rng)) for r in rooms]
            samples: list[tuple[float, float]] = []
            while True:
                left = stop - time.perf_counter()
                await asyncio.sleep(max(0.0, min(every, left)))
                minute = (time.perf_counter() - start) / 60
                passes, seconds = gc_full_passes(await scrape([base]))
                moves = sum(len(r.acks) for r in rooms)
                rss = rss_mib(server.pid)
                samples.append((minute, rss))
                row = (
                    f"| {minute:.1f} | {rss:.0f} | {moves:,} | {passes:.0f} "
                    f"| {seconds * 1000:.0f} ms |"
                )
                lines.append(row)
                print(row, flush=True)
                if left <= every:
                    break
            await asyncio.gather(*drivers)
            for room in rooms:
                for p in room.players:
                    p.ws.close()
        finally:
            server.terminate()
            server.wait(timeout=30)
    first, last = samples[0], samples[-1]
    lines.append("")
    lines.append(
        f"RSS {first[1]:.0f} MiB at minute {first[0]:.1f}, {last[1]:.0f} MiB at minute "
        f"{last[0]:.1f} ({last[1] - first[1]:+.0f} MiB)."
    )
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rooms", type=int, default=1000)
    parser.add_argument("--minutes", type=float, default=60.0)
    parser.add_argument("--think", type=float, default=5.0, help="seconds between a room's moves")
    parser.add_argument("--every", type=float, default=300.0, help="seconds between samples")
    parser.add_argument("--no-write", action="store_true", help="print only")
    args = parser.parse_args()
    lines = asyncio.run(soak(args.rooms, args.minutes, args.think, args.every))
    head = (
        f"Machine: {describe()}. One server process (SQLite, default settings) and the load "
        f"generator on these cores; {args.rooms:,} Dixit rooms of six sockets, one move per "
        f"room about every {args.think:g} s, for {args.minutes:g} minutes."
    )
    body = "\n".join([head, "", *lines])
    print(body)
    if not args.no_write:
        write_section("soak", body)


if __name__ == "__main__":
    main()
