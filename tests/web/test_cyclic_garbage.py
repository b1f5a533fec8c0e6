"""A WebSocket leaves no reference cycle behind when it closes (issue #28, item 6).

gcpolicy freezes what lives long and keeps full collections rare, so whatever a closed
socket leaves in a cycle waits for a full pass: uvicorn's HTTP protocol object, kept after
the upgrade in a cycle with its parser, held each socket's transport and 29 objects until
then. The test counts what the collector finds unreachable after sockets come and go."""

from __future__ import annotations

import gc
import time
from collections import Counter
from pathlib import Path

from tests.web.harness import Client, ServerThread, create_room

SOCKETS = 20


def _sockets(base: str, code: str, n: int) -> None:
    for _ in range(n):
        c = Client(base, code)
        c.until(lambda f: f["type"] == "state")
        c.close()


def test_closed_sockets_leave_nothing_for_the_collector(tmp_path: Path) -> None:
    server = ServerThread(tmp_path, gc_settle_seconds=0).start()
    try:
        code, _token = create_room(server.base, "dixit", 6)
        _sockets(server.base, code, 3)  # first-use caches out of the count
        time.sleep(0.3)
        gc.collect()
        gc.disable()
        gc.set_debug(gc.DEBUG_SAVEALL)
        try:
            _sockets(server.base, code, SOCKETS)
            time.sleep(0.5)  # the server's side of the last close
            gc.collect()
            kinds = Counter(type(o).__qualname__.rsplit(".", 1)[-1] for o in gc.garbage)
        finally:
            gc.set_debug(0)
            gc.garbage.clear()
            gc.enable()
    finally:
        server.stop()
    per_socket = {
        kind: n / SOCKETS
        for kind, n in kinds.items()
        if kind in ("GuardedHttp", "HttpRequestParser", "TCPTransport", "Connection")
    }
    assert per_socket == {}, per_socket
