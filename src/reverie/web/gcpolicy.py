"""Keeping the garbage collector's full passes off the tables' latency.

A server with thousands of open sockets holds hundreds of thousands of long-lived
objects (sockets, connections, rooms). CPython's full collection walks all of them, and it
runs whenever enough objects have survived into the old generation since the last one:
with a few hundred moves a second that is every few seconds, and each pass stops every
table for hundreds of milliseconds (docs/benchmarks.md, "GC tail").

The policy here: objects that have lived through a young collection and then a while
longer are *settled* (a socket that stays open, a room in memory), so every
``every`` seconds the young generations are collected (cheap: only young objects) and
everything still alive is frozen (``gc.freeze``), out of reach of later full passes.
Frozen objects are still freed by reference counting when they die; what freezing
costs is that a reference *cycle* among them is never collected, so the server breaks
its own cycles when a socket closes (``Connection.release``) and the sockets and tasks of
uvicorn and asyncio drop their references when they close. The pause of each settle and
of every collection is recorded for ``/metrics``.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import time
from collections.abc import Callable
from typing import Any

log = logging.getLogger("reverie.server")

#: Seconds between settles (0: leave the collector as CPython sets it). Short: at 1,000
#: tables the young generations hold tens of thousands of objects a few seconds old
#: (each socket's waiting coroutines and futures, made anew at every frame), which
#: every generation-1 pass walked (50-80 ms each, the p99 of every move) until they
#: were frozen; settled every 2 s they stay small and the settle itself is a few
#: milliseconds (docs/benchmarks.md, "GC tail").
SETTLE_EVERY = 2.0


class GcWatch:
    """Times every collection: ``observe(generation, seconds)`` for each."""

    def __init__(self, observe: Callable[[int, float], None] | None = None) -> None:
        self.observe = observe
        self.started = 0.0
        self.full = 0

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self.started = time.perf_counter()
            return
        took = time.perf_counter() - self.started
        generation = int(info.get("generation", 0))
        if generation == 2:
            self.full += 1
        if self.observe is not None:
            self.observe(generation, took)

    def install(self) -> None:
        """Start timing collections."""
        if self not in gc.callbacks:
            gc.callbacks.append(self)

    def remove(self) -> None:
        """Stop timing collections."""
        if self in gc.callbacks:
            gc.callbacks.remove(self)


def settle() -> float:
    """Collect the young generations and freeze what survives; returns the seconds it
    took."""
    started = time.perf_counter()
    gc.collect(1)
    gc.freeze()
    return time.perf_counter() - started


async def run_settler(every: float = SETTLE_EVERY) -> None:
    """Settle every ``every`` seconds until cancelled."""
    while True:
        await asyncio.sleep(every)
        took = settle()
        if took > 0.05:
            log.info("gc: settled %d objects in %.0f ms", gc.get_freeze_count(), took * 1000)
