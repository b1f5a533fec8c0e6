"""How uvicorn serves the app: timeouts and a per-address cap below the application.

uvicorn (0.54) has no timeout for a request whose headers never complete, nor for a
connection that never sends a byte: a few thousand half-sent requests from one address
stay open until the process runs out of file descriptors. :func:`guarded_http` closes
a connection that has not delivered a whole request within ``request_timeout`` seconds
and, when clients connect directly (no trusted proxy), refuses more than
``max_http_connections_per_address`` open HTTP connections from one address. Behind a
reverse proxy every connection comes from the proxy, so the proxy enforces that cap
(docs/security.md).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import uvicorn
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from reverie.web.limits import LocalGate
from reverie.web.settings import Settings

log = logging.getLogger("reverie.web")

_TIMEOUT_RESPONSE = (
    b"HTTP/1.1 408 Request Timeout\r\ncontent-type: text/plain; charset=utf-8\r\n"
    b"content-length: 16\r\nconnection: close\r\n\r\nRequest timeout."
)


def guarded_http(settings: Settings) -> type[asyncio.Protocol]:
    """uvicorn's HTTP protocol with a whole-request deadline and a per-address cap."""
    timeout = settings.request_timeout
    upload_timeout = max(settings.upload_timeout, timeout)
    cap = settings.max_http_connections_per_address if not settings.forwarded_allow_ips else 0
    per_address = LocalGate()

    class GuardedHttp(HttpToolsProtocol):
        _deadline: asyncio.TimerHandle | None = None
        _counted: str | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            address = self.client[0] if self.client else "?"
            if cap > 0:
                if not per_address.enter(address, cap):
                    log.warning("refused a connection from %s: %d already open", address, cap)
                    transport.abort()
                    return
                self._counted = address
            self._arm()  # a connection that never sends a byte is closed too

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            self._release()
            super().connection_lost(exc)

        def on_message_begin(self) -> None:
            super().on_message_begin()
            self._arm()

        def on_headers_complete(self) -> None:
            super().on_headers_complete()
            # An upload (a picture or a ZIP of them, for a player's deck) may take
            # longer to send than the other requests.
            scope = getattr(self, "scope", None) or {}
            if scope.get("method") == "POST" and _is_upload(scope.get("path", "")):
                self._disarm()
                if upload_timeout > 0:
                    self._deadline = self.loop.call_later(upload_timeout, self._expired)

        def on_message_complete(self) -> None:
            self._disarm()
            super().on_message_complete()

        def handle_websocket_upgrade(self) -> None:
            # The socket is the application's now: its hello timeout, pings and the
            # per-address cap of open sockets take over.
            self._disarm()
            self._release()
            super().handle_websocket_upgrade()
            # This protocol object is done: the transport speaks to the WebSocket one
            # now. Its parser holds its bound methods (a reference cycle), so left as
            # is, every socket would leave ~29 objects (transport included) for the
            # collector's full pass, the pass gcpolicy keeps off the tables; dropped
            # here, reference counting frees them when the socket closes.
            self.parser = None  # type: ignore[assignment]

        def _arm(self) -> None:
            if self._deadline is None and timeout > 0:
                self._deadline = self.loop.call_later(timeout, self._expired)

        def _disarm(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None

        def _release(self) -> None:
            if self._counted is not None:
                per_address.leave(self._counted)
                self._counted = None

        def _expired(self) -> None:
            self._deadline = None
            if self.transport.is_closing():
                return
            if self.cycle is None or self.cycle.response_complete:
                self.transport.write(_TIMEOUT_RESPONSE)  # headers never completed
            self.transport.close()

    return GuardedHttp


def _is_upload(path: str) -> bool:
    return path.startswith("/api/decks/u-") and path.endswith("/pictures")


def uvicorn_config(app: Any, settings: Settings, **options: Any) -> uvicorn.Config:
    """The uvicorn configuration Reverie runs with (the CLI and the tests share it);
    ``options`` adds or overrides (host, port, log level)."""
    proxied = settings.forwarded_allow_ips is not None
    base: dict[str, Any] = {
        "http": guarded_http(settings),
        "ws_max_size": 64 * 1024,
        # Frames are a few KiB; compressing them costs more CPU and memory per socket
        # (zlib state) than the bandwidth is worth.
        "ws_per_message_deflate": False,
        # A socket whose peer vanished (no FIN: a laptop closed, a network gone) is
        # found by the pings and closed.
        "ws_ping_interval": settings.ws_ping_interval,
        "ws_ping_timeout": settings.ws_ping_timeout,
        "timeout_keep_alive": settings.keep_alive_timeout,
        # Only a trusted proxy's X-Forwarded-For names the client: anyone else could
        # claim any address and dodge every per-address limit.
        "proxy_headers": proxied,
        "forwarded_allow_ips": settings.forwarded_allow_ips if proxied else None,
    }
    return uvicorn.Config(app, **{**base, **options})
