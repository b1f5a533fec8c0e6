"""Drawing load: R drawing-game rooms, each with a drawer streaming strokes to 7 viewers.

The server runs as its own process (``reverie serve`` on a fresh data folder). Each room
is a real table of eight (two teams of four) on real WebSockets; once its drawer is in
the drawing phase, the drawer sends a batch of stroke points every 50 ms (20 batches a
second, 4 points each: a pointer sampled at 80 Hz, as a browser sends while a line is
drawn; a new stroke every second). For each batch it measures the time from the drawer
sending it to the last of the room's seven other sockets receiving it, the bytes the
drawer sends per second and the bytes each viewer receives per second, and the server's
CPU and memory; then how long the servers take to exit on SIGTERM with every socket
still open (they close them with 1012 and give their leases up).

The load generator shares the machine with the server, so it must stay cheap: its
sockets are a minimal WebSocket client (``RawSocket``) that counts drawing frames without
decoding them; its own event-loop lag is reported so an overloaded generator shows.

    python -m benchmarks.strokes [--rooms 50 100 200] [--seconds 20] [--no-write]
    python -m benchmarks.strokes --processes 2 --rooms 200

With ``--processes N`` the server is N processes on one PostgreSQL database and one
Redis (a fresh schema and Redis database). Each room's eight sockets go to one process, as
deploy/nginx/reverie.conf routes them (``--spread room``, rooms spread over the
processes), or over all of them, so that every stroke crosses Redis to reach half the
viewers (``--spread socket``, the worst case).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import httpx

from benchmarks.load import (
    cpu_seconds,
    free_port,
    fresh_services,
    loop_lag,
    rss_mib,
    start_server,
)
from benchmarks.machine import describe, write_section
from benchmarks.rawsocket import RawSocket

COLORS = ["#e63946", "#f4a261", "#e9c46a", "#2a9d8f", "#457b9d", "#8338ec", "#ff66c4", "#8ac926"]
SEATS = 8
BATCHES_PER_SECOND = 20
POINTS_PER_BATCH = 4
BATCHES_PER_STROKE = 20
_DRAW = b'{"type":"draw"'


@dataclass
class Seat:
    """One socket of a room and what it saw."""

    sock: RawSocket | None = None
    seat: int | None = None
    token: str | None = None
    state: dict[str, Any] | None = None
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    draws: list[float] = field(default_factory=list)  # arrival time of each draw frame
    errors: list[str] = field(default_factory=list)

    def on_text(self, payload: bytes, at: float) -> None:
        if payload.startswith(_DRAW):
            self.draws.append(at)
            return
        frame = json.loads(payload)
        kind = frame["type"]
        if kind == "state":
            self.state = frame
        elif kind == "welcome":
            self.seat, self.token = frame["seat"], frame["token"]
        elif kind == "error":
            self.errors.append(frame["code"])
        self.changed.set()

    async def until(self, pred: Callable[[Seat], bool], timeout: float = 60) -> None:
        end = time.perf_counter() + timeout
        while not pred(self):
            self.changed.clear()
            await asyncio.wait_for(self.changed.wait(), max(0.01, end - time.perf_counter()))


@dataclass
class Room:
    code: str
    seats: list[Seat] = field(default_factory=list)
    drawer: Seat | None = None
    sent: list[float] = field(default_factory=list)  # send time of each batch


def _phase(s: Seat) -> str | None:
    game = (s.state or {}).get("game")
    return None if game is None else str(game["phase"])


async def setup_room(
    ports: list[int], index: int, http: httpx.AsyncClient, spread: str = "room"
) -> Room:
    """A table of eight in two teams, its drawer in the drawing phase, on process
    ``index % N``; with ``spread="socket"`` seat i's socket on ``(index + i) % N``."""
    port = ports[index % len(ports)]
    options = {"think_seconds": 0, "choose_seconds": 3600, "draw_seconds": 3600}
    r = await http.post(
        f"http://127.0.0.1:{port}/api/rooms",
        json={"name": "P0", "color": COLORS[0], "variant": "visual", "seats": SEATS,
              "options": options | {"blank_share": 0.0}},
    )  # fmt: skip
    r.raise_for_status()
    body = r.json()
    room = Room(body["code"])
    path = f"/ws/{room.code}"
    for i in range(SEATS):
        seat = Seat()
        where = ports[(index + i) % len(ports)] if spread == "socket" else port
        seat.sock = await RawSocket.open("127.0.0.1", where, path, seat.on_text)
        token = body["token"] if i == 0 else None
        seat.sock.send({"type": "hello", "token": token, "lang": "en"})
        if i:
            seat.sock.send({"type": "join", "name": f"P{i}", "color": COLORS[i]})
        await seat.until(lambda s: s.seat is not None)
        room.seats.append(seat)
    for seat in room.seats:
        assert seat.sock is not None
        seat.sock.send({"type": "team", "team": (seat.seat or 0) % 2})
    host = room.seats[0]
    await host.until(lambda s: all(p["team"] is not None for p in s.state["room"]["players"]))  # type: ignore[index]
    assert host.sock is not None
    host.sock.send({"type": "start"})
    await host.until(lambda s: _phase(s) == "choose")
    assert host.state is not None
    drawer_seat = host.state["game"]["turn"]["drawer"]
    room.drawer = next(s for s in room.seats if s.seat == drawer_seat)
    assert room.drawer.sock is not None
    room.drawer.sock.send({"type": "choose", "category": "objects"})
    await host.until(lambda s: _phase(s) == "draw")
    return room


async def drive(room: Room, stop: float, rng: random.Random) -> None:
    """Stream stroke batches from the room's drawer until ``stop``."""
    drawer = room.drawer
    assert drawer is not None and drawer.sock is not None
    x, y = rng.randrange(100, 700), rng.randrange(100, 500)
    period = 1 / BATCHES_PER_SECOND
    next_at = time.perf_counter() + rng.random() * period
    batch = 0
    while next_at < stop:
        await asyncio.sleep(max(0.0, next_at - time.perf_counter()))
        next_at += period
        points: list[int] = []
        for _ in range(POINTS_PER_BATCH):
            x = min(800, max(0, x + rng.randrange(-12, 13)))
            y = min(600, max(0, y + rng.randrange(-12, 13)))
            points += [x, y]
        if batch % BATCHES_PER_STROKE == 0:
            op = [0, rng.randrange(1, 16), rng.randrange(3), *points]
        else:
            op = [1, *points]
        batch += 1
        room.sent.append(time.perf_counter())
        drawer.sock.send({"type": "draw", "ops": [op]})


def latencies(rooms: list[Room], since: float) -> tuple[list[float], int]:
    """Per batch sent after ``since``: time until the last viewer of its room had it;
    and how many batches some viewer never received."""
    out: list[float] = []
    lost = 0
    for room in rooms:
        viewers = [s for s in room.seats if s is not room.drawer]
        for k, t0 in enumerate(room.sent):
            if t0 < since:
                continue
            arrivals = [v.draws[k] for v in viewers if k < len(v.draws)]
            if len(arrivals) < len(viewers):
                lost += 1
                continue
            out.append(max(arrivals) - t0)
    return out, lost


def traffic(rooms: list[Room]) -> tuple[int, int]:
    """Payload bytes the drawers sent and the viewers received so far."""
    sent = received = 0
    for room in rooms:
        for seat in room.seats:
            assert seat.sock is not None
            if seat is room.drawer:
                sent += seat.sock.sent_bytes
            else:
                received += seat.sock.received_bytes
    return sent, received


async def run(
    n_rooms: int,
    seconds: float,
    port: int,
    processes: int = 0,
    database_url: str | None = None,
    bus_url: str | None = None,
    spread: str = "room",
) -> dict[str, float]:
    """One run; ``processes`` 0: one process on SQLite, else that many on PostgreSQL and
    Redis; ``spread``: see :func:`setup_room`."""
    ports = [port] + [free_port() for _ in range(max(0, processes - 1))]
    with tempfile.TemporaryDirectory() as data:
        servers = [start_server(p, data, database_url, bus_url) for p in ports]
        try:
            idle_rss = sum(rss_mib(s.pid) for s in servers)
            limits = httpx.Limits(max_connections=20, max_keepalive_connections=0)
            async with httpx.AsyncClient(limits=limits, timeout=30) as http:
                gate = asyncio.Semaphore(20)

                async def one(index: int) -> Room:
                    async with gate:
                        return await setup_room(ports, index, http, spread)

                rooms = list(await asyncio.gather(*(one(i) for i in range(n_rooms))))
            await asyncio.sleep(1)
            rng = random.Random(n_rooms)
            warmup = 3.0
            start = time.perf_counter()
            stop = start + warmup + seconds
            lags: list[float] = []
            tasks = [asyncio.create_task(drive(r, stop, rng)) for r in rooms]
            tasks.append(asyncio.create_task(loop_lag(lags, stop)))
            await asyncio.sleep(warmup)
            cpu0 = sum(cpu_seconds(s.pid) for s in servers)
            t0, me0 = time.perf_counter(), time.process_time()
            sent0, got0 = traffic(rooms)
            await asyncio.gather(*tasks)
            cpu1 = sum(cpu_seconds(s.pid) for s in servers)
            t1, me1 = time.perf_counter(), time.process_time()
            sent1, got1 = traffic(rooms)
            await asyncio.sleep(1.0)  # let the last batches land
            rss = sum(rss_mib(s.pid) for s in servers)
            lat, lost = latencies(rooms, start + warmup)
            errors = sum(len(s.errors) for r in rooms for s in r.seats)
        finally:
            # Every socket still open: the servers drain them (1012) and exit.
            drain0 = time.perf_counter()
            for server in servers:
                server.terminate()
            for server in servers:
                server.wait(timeout=60)
            drain = time.perf_counter() - drain0
    lat.sort()
    span = t1 - t0
    return {
        "rooms": n_rooms,
        "sockets": n_rooms * SEATS,
        "batches_per_s": len(lat) / span,
        "p50_ms": 1000 * statistics.median(lat) if lat else float("nan"),
        "p99_ms": 1000 * lat[min(len(lat) - 1, int(len(lat) * 0.99))] if lat else float("nan"),
        "max_ms": 1000 * lat[-1] if lat else float("nan"),
        "lost": lost,
        "errors": errors,
        "up_bytes_per_drawer_s": (sent1 - sent0) / span / n_rooms,
        "down_bytes_per_viewer_s": (got1 - got0) / span / (n_rooms * (SEATS - 1)),
        "server_cpu": (cpu1 - cpu0) / span,
        "load_cpu": (me1 - me0) / span,
        "load_lag_p99_ms": 1000 * sorted(lags)[int(len(lags) * 0.99)] if lags else 0.0,
        "rss_mib": rss,
        "kib_per_room": 1024 * (rss - idle_rss) / n_rooms,
        "drain_s": drain,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", type=int, nargs="+", default=[50, 100, 200])
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--no-write", action="store_true", help="do not update the docs")
    parser.add_argument("--processes", type=int, default=0, help="server processes (PG + Redis)")
    parser.add_argument("--database-url", default="postgresql://postgres@127.0.0.1:5432/test")
    parser.add_argument("--bus-url", default="redis://127.0.0.1:6379/14")
    parser.add_argument(
        "--spread", choices=("room", "socket"), default="room",
        help="with --processes: a room's sockets on one process (as nginx routes them) or "
        "over all of them (every stroke crosses Redis)",
    )  # fmt: skip
    args = parser.parse_args()
    results = []
    for n in args.rooms:
        if args.processes:
            with fresh_services(args.database_url, args.bus_url) as (db, bus):
                r = asyncio.run(
                    run(n, args.seconds, free_port(), args.processes, db, bus, args.spread)
                )
        else:
            r = asyncio.run(run(n, args.seconds, free_port()))
        results.append(r)
        print(
            f"{n:5d} rooms {r['sockets']:5.0f} sockets  {r['batches_per_s']:7.0f} batches/s  "
            f"p50 {r['p50_ms']:6.1f} ms  p99 {r['p99_ms']:6.1f} ms  max {r['max_ms']:6.1f} ms  "
            f"lost {r['lost']:.0f} errors {r['errors']:.0f}  "
            f"up {r['up_bytes_per_drawer_s']:5.0f} B/s/drawer  "
            f"down {r['down_bytes_per_viewer_s']:5.0f} B/s/viewer  "
            f"server CPU {100 * r['server_cpu']:4.0f}%  load CPU {100 * r['load_cpu']:4.0f}%  "
            f"load lag p99 {r['load_lag_p99_ms']:5.1f} ms  RSS {r['rss_mib']:6.1f} MiB  "
            f"drain {r['drain_s']:.1f} s",
            flush=True,
        )
    if args.no_write:
        return
    where = (
        f" --processes {args.processes} --spread {args.spread}`: {args.processes} processes "
        "on PostgreSQL + Redis, "
        + (
            "each room's sockets on one process, rooms spread over the processes (as nginx "
            "routes them); "
            if args.spread == "room"
            else "each room's sockets spread over them (every stroke crosses Redis); "
        )
        if args.processes
        else "`: one process; "
    )
    lines = [
        f"Machine: {describe()}",
        "",
        f"`python -m benchmarks.strokes --rooms {' '.join(map(str, args.rooms))} "
        f"--seconds {args.seconds:g}{where}rooms of {SEATS} (two teams of four), one drawer "
        f"per room sending {BATCHES_PER_SECOND} batches/s of {POINTS_PER_BATCH} points; "
        "latency = drawer's send → the last of the 7 other sockets receiving the batch; "
        "drain = SIGTERM with every socket open → the last server process gone.",
        "",
        "| rooms | sockets | batches/s | p50 ms | p99 ms | max ms | lost | up B/s per drawer "
        "| down B/s per viewer | server CPU | load-generator CPU | generator lag p99 ms "
        "| server RSS MiB | drain s |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in results:
        lines.append(
            f"| {r['rooms']:.0f} | {r['sockets']:.0f} | {r['batches_per_s']:.0f} "
            f"| {r['p50_ms']:.1f} | {r['p99_ms']:.1f} | {r['max_ms']:.1f} | {r['lost']:.0f} "
            f"| {r['up_bytes_per_drawer_s']:.0f} | {r['down_bytes_per_viewer_s']:.0f} "
            f"| {100 * r['server_cpu']:.0f}% | {100 * r['load_cpu']:.0f}% "
            f"| {r['load_lag_p99_ms']:.1f} | {r['rss_mib']:.0f} | {r['drain_s']:.1f} |"
        )
    section = f"strokes-processes-{args.spread}" if args.processes else "strokes"
    write_section(section, "\n".join(lines))


if __name__ == "__main__":
    main()
