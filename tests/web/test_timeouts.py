"""Half-sent requests, silent connections and sockets that never say hello are closed;
one address cannot hold more than its share of connections open."""

from __future__ import annotations

import contextlib
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from .harness import ServerThread, create_room

#: How long the test waits for what the server should do well within its (small)
#: timeout: generous, so a slow machine does not fail it.
PATIENCE = 20.0


@contextlib.contextmanager
def running(tmp_path: Path, **settings: Any) -> Iterator[ServerThread]:
    server = ServerThread(tmp_path, **settings).start()
    try:
        yield server
    finally:
        server.stop()


def read_until_closed(sock: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection."""
    sock.settimeout(PATIENCE)
    data = b""
    with contextlib.suppress(ConnectionResetError):
        while chunk := sock.recv(4096):
            data += chunk
    return data


def test_a_half_sent_request_is_closed_after_the_request_timeout(tmp_path: Path) -> None:
    with running(tmp_path, request_timeout=0.3) as server:
        with socket.create_connection(("127.0.0.1", server.port)) as half:
            half.sendall(b"GET /healthz HTTP/1.1\r\nHost: localhost\r\nX-Slow: ")
            assert read_until_closed(half).startswith(b"HTTP/1.1 408 ")
        with socket.create_connection(("127.0.0.1", server.port)) as silent:
            assert read_until_closed(silent).startswith(b"HTTP/1.1 408 ")
        # A request that takes its time but finishes within the timeout is answered,
        # and the connection then lives on as keep-alive.
        assert httpx.get(f"{server.base}/healthz").json()["ok"] is True


def test_a_request_with_a_body_that_never_ends_is_closed(tmp_path: Path) -> None:
    with running(tmp_path, request_timeout=0.3) as server:
        slow = socket.create_connection(("127.0.0.1", server.port))
        with slow:
            slow.sendall(
                b"POST /api/rooms HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json"
                b'\r\nContent-Length: 100\r\n\r\n{"name": '
            )
            read_until_closed(slow)  # closed (nothing more to say: the app was reading)


def test_a_socket_that_never_says_hello_is_closed(tmp_path: Path) -> None:
    with running(tmp_path, hello_timeout=0.3) as server:
        code, _ = create_room(server.base, "dixit", 3)
        ws = connect(server.base.replace("http", "ws") + f"/ws/{code}")
        with ws, pytest.raises(ConnectionClosed):
            ws.recv(timeout=PATIENCE)


def test_one_address_holds_at_most_its_cap_of_idle_connections(tmp_path: Path) -> None:
    with running(tmp_path, max_http_connections_per_address=3) as server:
        held = [socket.create_connection(("127.0.0.1", server.port)) for _ in range(3)]
        try:
            with socket.create_connection(("127.0.0.1", server.port)) as extra:
                assert read_until_closed(extra) == b""  # refused: closed at once
            # The connections held are served.
            held[0].sendall(b"GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n")
            held[0].settimeout(PATIENCE)
            assert held[0].recv(4096).startswith(b"HTTP/1.1 200 ")
        finally:
            for s in held:
                s.close()
        # Once they are closed, the address may connect again.
        for _ in range(100):
            with contextlib.suppress(httpx.TransportError):
                if httpx.get(f"{server.base}/healthz").status_code == 200:
                    break
        else:
            raise AssertionError("closed connections never freed their places")


def test_serve_passes_the_timeouts_to_uvicorn(tmp_path: Path) -> None:
    from reverie.web.server import uvicorn_config
    from reverie.web.settings import Settings

    settings = Settings(data_dir=tmp_path, keep_alive_timeout=3, ws_ping_interval=7)
    config = uvicorn_config(object(), settings)
    assert config.timeout_keep_alive == 3 and config.ws_ping_interval == 7
    assert config.ws_ping_timeout == 20 and not config.proxy_headers
    proxied = uvicorn_config(object(), Settings(forwarded_allow_ips="10.0.0.1"))
    assert proxied.proxy_headers and proxied.forwarded_allow_ips == "10.0.0.1"
