"""Freezing settled objects out of the collector's full passes must not leak: sockets
that were frozen while open are freed when they close (reference counting alone)."""

from __future__ import annotations

import gc
import time
import weakref
from pathlib import Path
from typing import Any

import pytest

from reverie.web import gcpolicy, ws
from tests.web.harness import Client, ServerThread, create_room


def test_sockets_frozen_while_open_are_freed_when_they_close(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    alive: weakref.WeakSet[Any] = weakref.WeakSet()
    original = ws.Connection.__init__

    def counting_init(self: Any, *args: Any, **kwargs: Any) -> None:
        original(self, *args, **kwargs)
        alive.add(self)

    monkeypatch.setattr(ws.Connection, "__init__", counting_init)
    server = ServerThread(tmp_path, gc_settle_seconds=0.1).start()
    try:
        code, token = create_room(server.base, "dixit", 6)
        # Few enough that no test client's queue of unread frames fills up (a full one
        # stops reading, and its close handshake then waits for a timeout).
        clients = [Client(server.base, code, token if i == 0 else None) for i in range(10)]
        for c in clients:
            c.until(lambda f: f["type"] == "state")
        time.sleep(0.5)  # several settles: every connection is frozen now
        assert len(alive) == 10
        assert gc.get_freeze_count() > 0
        frozen_with_sockets = gc.get_freeze_count()
        for c in clients:
            c.close()
        end = time.monotonic() + 10
        while len(alive) and time.monotonic() < end:
            time.sleep(0.05)
        # Gone without any full collection of the frozen objects.
        assert len(alive) == 0
        assert gc.get_freeze_count() <= frozen_with_sockets + 5_000
    finally:
        server.stop()
        gc.unfreeze()


def test_settle_freezes_survivors_and_times_collections() -> None:
    seen: list[tuple[int, float]] = []
    watch = gcpolicy.GcWatch(lambda g, s: seen.append((g, s)))
    watch.install()
    try:
        keep = [[i] for i in range(1000)]
        took = gcpolicy.settle()
        assert took >= 0 and gc.get_freeze_count() >= 1000
        gc.collect(2)
        assert any(g == 2 for g, _ in seen) and watch.full >= 1
        assert keep[999] == [999]
    finally:
        watch.remove()
        gc.unfreeze()
