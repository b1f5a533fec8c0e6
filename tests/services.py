"""Throwaway PostgreSQL and Redis servers for the tests, started from the installed
binaries (Debian packages ``postgresql`` and ``redis-server``): a free port, a temporary
folder, nothing written to disk that matters (fsync off, no Redis snapshots), and gone
when stopped.

Each server is this process's child in a session of its own (a Ctrl+C in the terminal
reaches pytest, which stops it, rather than the server itself), and is told by the kernel
to stop when the thread that started it dies (``PR_SET_PDEATHSIG``), so a killed test
process leaves no server behind. Start servers from the main thread: the signal follows
the starting thread, not the process.

PostgreSQL refuses to run as root: as root, the cluster belongs to the ``postgres`` user
(or ``nobody`` where there is none) and its folder is made under the system's temporary
folder, which that user can reach (pytest's own temporary folders are private to root).
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import psycopg
import redis

_PR_SET_PDEATHSIG = 1
_LIBC = ctypes.CDLL(None, use_errno=True)


def free_port() -> int:
    """A TCP port nobody listens on right now (the caller retries if it is taken later)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _dies_with_parent(sig: signal.Signals) -> Callable[[], None]:
    """A ``preexec_fn`` asking the kernel to send ``sig`` when the parent thread dies."""
    prctl = _LIBC.prctl  # looked up here, not in the forked child

    def ask() -> None:
        prctl(_PR_SET_PDEATHSIG, int(sig), 0, 0, 0)

    return ask


def _stop(proc: subprocess.Popen[bytes], sig: signal.Signals, timeout: float = 30) -> None:
    if proc.poll() is None:
        proc.send_signal(sig)
        try:
            proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def _tail(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8", errors="replace")[-2000:]
    except OSError:
        return ""


def postgres_bin() -> Path:
    """The newest installed PostgreSQL server's binary folder (Debian's layout)."""
    found = sorted(
        Path("/usr/lib/postgresql").glob("*/bin/postgres"),
        key=lambda p: int(p.parts[-3]) if p.parts[-3].isdigit() else 0,
    )
    if not found:
        raise RuntimeError(
            "PostgreSQL's server binaries are needed (apt-get install postgresql; "
            "or set REVERIE_TEST_POSTGRES_URL to a server of yours)"
        )
    return found[-1].parent


def _server_user() -> str | None:
    """Whom PostgreSQL runs as: None (this user) unless this is root."""
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "nobody"):
        with contextlib.suppress(KeyError):
            pwd.getpwnam(name)
            return name
    raise RuntimeError("running as root, PostgreSQL needs a 'postgres' or 'nobody' user")


class PostgresServer:
    """A PostgreSQL cluster of its own: ``init()`` (initdb in a temporary folder, trust
    auth), ``start()``, ``stop()`` and ``start()`` again on the same port and data,
    ``remove()`` to stop it and delete the folder."""

    def __init__(self) -> None:
        self.bin = postgres_bin()
        self.user = _server_user()
        self.port = free_port()
        self.folder = Path(tempfile.mkdtemp(prefix="reverie-test-pg-"))
        self.data = self.folder / "data"
        self.proc: subprocess.Popen[bytes] | None = None
        if self.user is not None:
            shutil.chown(self.folder, self.user)

    @property
    def url(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def _popen(self, *args: str, **kwargs: Any) -> subprocess.Popen[bytes]:
        return subprocess.Popen(
            list(args),
            user=self.user,
            group=None if self.user is None else pwd.getpwnam(self.user).pw_gid,
            extra_groups=None if self.user is None else [],
            cwd=self.folder,
            start_new_session=True,
            **kwargs,
        )

    def init(self) -> PostgresServer:
        """Create the cluster (superuser ``postgres``, trust auth, UTF-8)."""
        log = self.folder / "initdb.log"
        with log.open("wb") as out:
            proc = self._popen(
                str(self.bin / "initdb"), "-D", str(self.data), "-U", "postgres",
                "--auth=trust", "--encoding=UTF8", "--locale=C", "--no-sync",
                stdout=out, stderr=subprocess.STDOUT,
            )  # fmt: skip
            if proc.wait() != 0:
                raise RuntimeError(f"initdb failed:\n{_tail(log)}")
        return self

    def start(self, timeout: float = 30) -> PostgresServer:
        """Start the server and wait until it takes connections."""
        log = self.folder / "server.log"
        with log.open("ab") as out:
            if self.user is not None:
                shutil.chown(log, self.user)
            self.proc = self._popen(
                str(self.bin / "postgres"), "-D", str(self.data), "-p", str(self.port),
                "-k", str(self.folder), "-c", "listen_addresses=127.0.0.1",
                # Thrown away afterwards: nothing needs to survive a crash of the machine
                # (a crash of the server, which a test may cause, loses nothing committed:
                # synchronous_commit stays on).
                "-c", "fsync=off", "-c", "full_page_writes=off",
                stdout=out, stderr=subprocess.STDOUT,
                preexec_fn=_dies_with_parent(signal.SIGQUIT),
            )  # fmt: skip
        end = time.monotonic() + timeout
        while True:
            try:
                psycopg.connect(self.url, connect_timeout=2).close()
                return self
            except psycopg.OperationalError:
                if self.proc.poll() is not None or time.monotonic() > end:
                    self.stop("immediate")
                    raise RuntimeError(f"PostgreSQL did not start:\n{_tail(log)}") from None
                time.sleep(0.05)

    def stop(self, mode: str = "fast") -> None:
        """Stop the server: ``fast`` (roll back and disconnect) or ``immediate`` (as if
        it crashed: recovery on the next start)."""
        if self.proc is not None:
            _stop(self.proc, signal.SIGQUIT if mode == "immediate" else signal.SIGINT)
            self.proc = None

    def remove(self) -> None:
        """Stop (if running) and delete the cluster's folder."""
        self.stop("immediate")
        shutil.rmtree(self.folder, ignore_errors=True)


class RedisServer:
    """A redis-server on a free port (or ``port``, to bring one back where it was),
    keeping nothing on disk."""

    def __init__(self, folder: Path, port: int | None = None) -> None:
        self.port = free_port() if port is None else port
        self.folder = folder
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self, timeout: float = 10) -> RedisServer:
        """Start the server and wait until it answers."""
        binary = shutil.which("redis-server") or "/usr/bin/redis-server"
        if not Path(binary).exists():
            raise RuntimeError(
                "redis-server is needed (apt-get install redis-server; "
                "or set REVERIE_TEST_REDIS_URL to a server of yours)"
            )
        self.proc = subprocess.Popen(
            [binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(self.folder)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
            preexec_fn=_dies_with_parent(signal.SIGTERM),
        )  # fmt: skip
        end = time.monotonic() + timeout
        client = redis.Redis(port=self.port, socket_connect_timeout=0.5)
        try:
            while True:
                try:
                    client.ping()
                    return self
                except redis.RedisError:
                    if self.proc.poll() is not None or time.monotonic() > end:
                        self.kill()
                        raise RuntimeError(f"redis-server did not start on {self.port}") from None
                    time.sleep(0.02)
        finally:
            client.close()

    def kill(self) -> None:
        """Kill the server at once (what a crash looks like to its clients)."""
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()
            self.proc = None

    def stop(self) -> None:
        """Stop the server cleanly."""
        if self.proc is not None:
            _stop(self.proc, signal.SIGTERM)
            self.proc = None
