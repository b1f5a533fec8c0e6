"""Real server processes (``python -m reverie serve``) behind nginx with the config in
``deploy/nginx/``, on one PostgreSQL schema and a Redis server of the test's own (so a
test may kill it and start it again)."""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import ssl
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx

from tests.services import PostgresServer, RedisServer
from tests.web.harness import ServerThread, free_port

# The throwaway servers live in tests/services.py (the session fixtures use them too).
__all__ = [
    "Certificate",
    "Nginx",
    "PostgresServer",
    "Process",
    "RedisServer",
    "landed",
    "nginx_pair",
    "server_pair",
    "sockets_on",
]

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy" / "nginx" / "reverie.conf"


def _wait(url: str, timeout: float = 60.0, verify: ssl.SSLContext | bool = True) -> httpx.Response:
    # A bound on a start, not a speed test: the tests run in parallel workers.
    end = time.monotonic() + timeout
    while True:
        try:
            r = httpx.get(url, timeout=1.0, verify=verify)
            if r.status_code == 200:
                return r
        except httpx.HTTPError:
            pass
        if time.monotonic() > end:
            raise RuntimeError(f"{url} did not answer")
        time.sleep(0.1)


class Process:
    """One ``reverie serve`` process."""

    def __init__(self, folder: Path, database_url: str, bus_url: str, **env: str) -> None:
        self.port = free_port()
        self.folder = folder
        self.database_url = database_url
        self.bus_url = bus_url
        self.env = env
        self.proc: subprocess.Popen[bytes] | None = None
        self.process_id = ""

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> Process:
        env = {**os.environ, "REVERIE_BOT_DELAY": "0.05", "REVERIE_ROOMS_PER_MINUTE": "0",
               "REVERIE_JOINS_PER_MINUTE": "0",
               "REVERIE_LEASE_SECONDS": "2", "REVERIE_LOG_FORMAT": "json",
               # Bots play as easy ones: each process restarted under a game would
               # otherwise read the deck with the sentence encoder (seconds of CPU).
               "REVERIE_BOT_ENCODER": "0", **self.env}  # fmt: skip
        self.log = (self.folder / f"serve-{self.port}.log").open("ab")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "reverie", "serve", "--port", str(self.port),
             "--data-dir", str(self.folder), "--database-url", self.database_url,
             "--bus-url", self.bus_url, "--forwarded-allow-ips", "127.0.0.1"],
            env=env, stdout=self.log, stderr=self.log, cwd=ROOT,
        )  # fmt: skip
        self.process_id = _wait(f"{self.base}/healthz").json()["process"]
        return self

    def kill9(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()
        self.proc = None

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
            self.proc = None


class Certificate:
    """A self-signed certificate (openssl) for ``host`` and 127.0.0.1, made in ``folder``:
    what certbot would give nginx, trusted by whoever loads :attr:`cert`."""

    def __init__(self, folder: Path, host: str = "reverie.test") -> None:
        self.host = host
        self.cert = folder / "tls-cert.pem"
        self.key = folder / "tls-key.pem"
        openssl = shutil.which("openssl")
        if openssl is None:
            raise RuntimeError("openssl is needed (Debian package openssl)")
        subprocess.run(
            [openssl, "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256",
             "-nodes", "-keyout", str(self.key), "-out", str(self.cert), "-days", "30",
             "-subj", f"/CN={host}", "-addext", f"subjectAltName=DNS:{host},IP:127.0.0.1"],
            check=True, capture_output=True,
        )  # fmt: skip

    def context(self) -> ssl.SSLContext:
        """A client context that trusts this certificate (and checks host names)."""
        return ssl.create_default_context(cafile=str(self.cert))


def render_site(
    ports: list[int], listen: int, *, tls: Certificate | None = None, http_port: int = 0
) -> str:
    """``deploy/nginx/reverie.conf`` for a test: the upstreams list ``ports``, the servers
    listen on 127.0.0.1 only. With ``tls``, the HTTPS server listens on ``listen`` with
    that certificate, the redirecting HTTP server on ``http_port``, and the redirect
    keeps the test's port. Without, the HTTPS server's rules are served over plain HTTP on
    ``listen`` (the tests of the proxying itself) and the redirect is left out."""
    site = DEPLOY.read_text(encoding="utf-8")

    def servers(block: re.Match[str]) -> str:
        # The ports change; the shipped parameters (max_fails, ...) stay as they are.
        params = re.match(r"    server 127\.0\.0\.1:\d+([^\n]*)\n", block.group(0))
        assert params is not None
        return "".join(f"    server 127.0.0.1:{p}{params.group(1)}\n" for p in ports)

    site, n = re.subn(r"(    server 127\.0\.0\.1:\d+[^\n]*\n)+", servers, site)
    # Two upstream blocks list the processes: pages and API, and rooms' sockets.
    assert n == 2, "the upstream blocks of deploy/nginx/reverie.conf changed shape"

    def edit(old: str, new: str, count: int = 1) -> None:
        nonlocal site
        assert site.count(old) == count, f"deploy/nginx/reverie.conf: {old!r} changed"
        site = site.replace(old, new)

    edit("    listen [::]:80;\n", "")
    edit("    listen [::]:443 ssl http2;\n", "")
    redirect = "    return 301 https://$host$request_uri;\n"
    if tls is not None:
        edit("listen 80;", f"listen 127.0.0.1:{http_port};")
        edit("listen 443 ssl http2;", f"listen 127.0.0.1:{listen} ssl http2;")
        edit("/etc/letsencrypt/live/reverie/fullchain.pem", str(tls.cert))
        edit("/etc/letsencrypt/live/reverie/privkey.pem", str(tls.key))
        edit(redirect, f"    return 301 https://$host:{listen}$request_uri;\n")
    else:
        edit("listen 443 ssl http2;", f"listen 127.0.0.1:{listen};")
        # The redirecting server goes: its port would be a second one to find.
        head, _, rest = site.partition("server {\n    listen 80;\n")
        assert rest.startswith("    server_name _;\n" + redirect + "}\n"), "the redirect changed"
        site = head + rest.partition("}\n")[2]
        site = re.sub(r"(?m)^    ssl_[^\n]*\n", "", site)
    return site


class Nginx:
    """nginx running ``deploy/nginx/reverie.conf`` in front of ``ports``; over HTTPS with
    ``tls`` (:attr:`base` is then the https:// one, :attr:`http_base` the redirect)."""

    def __init__(
        self,
        folder: Path,
        ports: list[int],
        *,
        tls: Certificate | None = None,
        edit: Callable[[str], str] | None = None,
    ) -> None:
        """``edit``: a change to the rendered site (a test's control experiment)."""
        self.port = free_port()
        self.http_port = free_port() if tls is not None else self.port
        self.tls = tls
        self.folder = folder
        site = render_site(ports, self.port, tls=tls, http_port=self.http_port)
        if edit is not None:
            site = edit(site)
        (folder / "reverie.conf").write_text(site, encoding="utf-8")
        temp = "".join(
            f"{kind}_temp_path {folder}/{kind};\n"
            for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
        )
        user = "user root;\n" if os.geteuid() == 0 else ""
        (folder / "nginx.conf").write_text(
            f"{user}worker_processes 1;\ndaemon off;\npid {folder}/nginx.pid;\n"
            f"error_log {folder}/nginx-error.log warn;\n"
            "events { worker_connections 1024; }\n"
            f"http {{\naccess_log off;\n{temp}include {folder}/reverie.conf;\n}}\n",
            encoding="utf-8",
        )
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def base(self) -> str:
        scheme = "https" if self.tls is not None else "http"
        return f"{scheme}://127.0.0.1:{self.port}"

    @property
    def http_base(self) -> str:
        """The plain-HTTP address (with TLS: the server that redirects)."""
        return f"http://127.0.0.1:{self.http_port}"

    def start(self) -> Nginx:
        binary = shutil.which("nginx") or "/usr/sbin/nginx"
        if not Path(binary).exists():
            raise RuntimeError("nginx is needed (Debian package nginx-light)")
        self.proc = subprocess.Popen(
            [binary, "-p", str(self.folder), "-c", str(self.folder / "nginx.conf")],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        _wait(f"{self.base}/healthz", verify=self.tls.context() if self.tls else True)
        return self

    def errors(self, text: str) -> int:
        """How many lines of nginx's error log contain ``text``."""
        path = self.folder / "nginx-error.log"
        if not path.exists():
            return 0
        return sum(text in line for line in path.read_text(errors="replace").splitlines())

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            self.proc.wait(timeout=10)
            self.proc = None


class TlsSite:
    """One ``reverie serve`` process (SQLite) behind the shipped config with TLS, for a
    host name the test's certificate is made for (resolved to 127.0.0.1 by the client)."""

    def __init__(self, folder: Path, host: str) -> None:
        self.cert = Certificate(folder, host)
        self.process = Process(folder, f"sqlite:///{folder / 'reverie.db'}", "memory://").start()
        self.nginx = Nginx(folder, [self.process.port], tls=self.cert).start()
        self.tls = self.cert.context()
        self.base = f"https://{host}:{self.nginx.port}"

    def stop(self) -> None:
        self.nginx.stop()
        self.process.stop()


@contextlib.contextmanager
def server_pair(
    folder: Path, database_url: str, bus_url: str, name: str, **options: Any
) -> Iterator[list[ServerThread]]:
    """Two apps in this test process on one database and one bus, with process ids
    ``<name>0`` and ``<name>1`` and ``options`` for both."""
    servers = [
        ServerThread(
            folder, database_url=database_url, bus_url=bus_url, process_id=f"{name}{i}", **options
        ).start()
        for i in range(2)
    ]
    try:
        yield servers
    finally:
        for s in servers:
            s.stop()


@contextlib.contextmanager
def nginx_pair(
    folder: Path, database_url: str, bus_url: str, **env: str
) -> Iterator[tuple[Nginx, list[Process]]]:
    """Two ``reverie serve`` processes (environment ``env`` for both) on one database and
    one bus, started at once (each takes seconds), behind nginx."""
    processes = [Process(folder, database_url, bus_url, **env) for _ in range(2)]
    nginx = Nginx(folder, [p.port for p in processes])
    try:
        with ThreadPoolExecutor(2) as pool:
            list(pool.map(Process.start, processes))
        nginx.start()
        yield nginx, processes
    finally:
        nginx.stop()
        for p in processes:
            p.stop()


def sockets_on(process: Process) -> int:
    """The room WebSockets open on ``process`` now (its ``reverie_sockets`` gauge)."""
    r = httpx.get(f"{process.base}/metrics", timeout=10)
    assert r.status_code == 200, r.text
    found = re.search(r"(?m)^reverie_sockets (\S+)$", r.text)
    assert found is not None, "no reverie_sockets in /metrics"
    return int(float(found.group(1)))


def landed(processes: list[Process], before: list[int]) -> Process:
    """The process a socket opened through nginx reached: the one whose count of sockets
    grew from ``before`` (nginx picks it by the hash of /ws/CODE, so a test cannot name
    it beforehand)."""
    end = time.monotonic() + 15
    while True:
        grown = [p for p, n in zip(processes, before, strict=True) if sockets_on(p) > n]
        if len(grown) == 1:
            return grown[0]
        assert len(grown) < 2, "the socket counts grew on both processes"
        if time.monotonic() > end:
            raise AssertionError("no process counts the new socket")
        time.sleep(0.1)
