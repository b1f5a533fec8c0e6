"""The child process a server reads a deck in ends with the server, however the server
ends: a server killed mid-read must not leave a child of a few hundred megabytes behind."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

# A stand-in for a server: it starts the pool, has the child busy with a long job, and
# waits (the test kills it meanwhile, as kill -9 would).
SERVER = """
import os, time
from reverie.bots.reading import reading_pool
pool = reading_pool()
print(pool.submit(os.getpid).result(), flush=True)
pool.submit(time.sleep, 120)
time.sleep(120)
"""


def _alive(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie waiting to be reaped does not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def test_the_deck_reading_child_ends_with_a_killed_server() -> None:
    server = subprocess.Popen([sys.executable, "-c", SERVER], stdout=subprocess.PIPE, text=True)
    child = 0
    try:
        assert server.stdout is not None
        child = int(server.stdout.readline())
        assert child != server.pid and _alive(child)
        server.kill()
        server.wait()
        waited = time.monotonic() + 30
        while _alive(child) and time.monotonic() < waited:
            time.sleep(0.05)
        assert not _alive(child), "the child outlived its server"
    finally:
        server.kill()
        if child and _alive(child):
            os.kill(child, signal.SIGKILL)
