"""Who is this, as far as a ban needs to know: a browser and an address, hashed.

A browser carries a random cookie, ``reverie_b`` (HttpOnly, SameSite=Lax, set on the
first page, API answer or socket that arrives without one). What a room records of a
person (``Created``/``Joined`` ``ids``) and what a ban holds are HMACs of that cookie
and of the client's address (:func:`reverie.web.limits.client_address`, the proxy's
``X-Forwarded-For`` when trusted) under a secret salt: ``REVERIE_ID_SALT``, else a file
``<data_dir>/id_salt`` made once. So the event log never holds a raw address or cookie,
and ids from one server cannot be matched against another's. Every process of one
deployment must share the salt (the same data directory, or the same
``REVERIE_ID_SALT``), or a ban made on one would not hold on another.

:func:`browser_id` and :func:`address_id` are what other code calls (joins, site bans,
seating); each returns ``""`` when it cannot tell (no cookie, no address), which never
matches a ban.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import re
import secrets
from collections.abc import MutableMapping
from pathlib import Path
from typing import Any

from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from reverie.web.limits import client_address

__all__ = ["COOKIE", "BrowserCookie", "Ids", "address_id", "browser_id", "load_salt"]

COOKIE = "reverie_b"
#: Where the middleware leaves the request's cookie value (read or new) in the scope.
SCOPE_KEY = "reverie.browser"
#: A cookie lives at most 400 days in today's browsers; one that is used is renewed.
MAX_AGE = 400 * 24 * 3600
_VALID = re.compile(r"[A-Za-z0-9_-]{16,64}")
#: Answers that a browser loads as a page or an API call get the cookie; static files
#: (cached, served by a proxy in production) do not.
_TYPES = (b"text/html", b"application/json")


def load_salt(salt: str | None, data_dir: Path) -> bytes:
    """The deployment's secret salt: ``salt`` (REVERIE_ID_SALT) if given, else the one
    in ``data_dir/id_salt``, made on first use (only the first of several processes
    starting at once writes it; the others read it)."""
    if salt:
        return salt.encode()
    path = data_dir / "id_salt"
    data_dir.mkdir(parents=True, exist_ok=True)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return path.read_text().strip().encode()
    with os.fdopen(fd, "w") as f:
        f.write(secrets.token_hex(32) + "\n")
    return path.read_text().strip().encode()


class Ids:
    """Hashes browsers and addresses under the deployment's salt."""

    def __init__(self, salt: bytes) -> None:
        self._salt = salt

    def _mac(self, kind: str, value: str) -> str:
        digest = hmac.new(self._salt, f"{kind}:{value}".encode(), hashlib.sha256).hexdigest()
        return f"{kind}:{digest[:32]}"

    def browser(self, cookie: str) -> str:
        """A browser's id (``b:…``) from its cookie value; ``""`` for none.

        >>> Ids(b"s").browser("x" * 22)[:2], Ids(b"s").browser("")
        ('b:', '')
        """
        return self._mac("b", cookie) if cookie else ""

    def address(self, address: str) -> str:
        """An address's id (``a:…``); ``""`` when the address is unknown (``?``)."""
        return self._mac("a", address) if address and address != "?" else ""


def _scope(conn: HTTPConnection | MutableMapping[str, Any]) -> MutableMapping[str, Any]:
    return conn.scope if isinstance(conn, HTTPConnection) else conn


def _ids(scope: MutableMapping[str, Any]) -> Ids | None:
    app = scope.get("app")
    ids = getattr(getattr(app, "state", None), "ids", None)
    return ids if isinstance(ids, Ids) else None


def browser_cookie(scope: MutableMapping[str, Any]) -> str:
    """The raw cookie value of this request (the one the middleware set for a browser
    that had none), or ``""``."""
    value = scope.get(SCOPE_KEY)
    if isinstance(value, str):
        return value
    return _read_cookie(scope)


def _read_cookie(scope: MutableMapping[str, Any]) -> str:
    headers: list[tuple[bytes, bytes]] = scope.get("headers") or []
    for name, raw in headers:
        if name != b"cookie":
            continue
        for part in raw.decode("latin-1").split(";"):
            key, _, value = part.strip().partition("=")
            if key == COOKIE and _VALID.fullmatch(value):
                return value
    return ""


def browser_id(conn: HTTPConnection | MutableMapping[str, Any]) -> str:
    """The hashed id of the browser of a request or socket (or its ASGI scope); ``""``
    when unknown."""
    scope = _scope(conn)
    ids = _ids(scope)
    return ids.browser(browser_cookie(scope)) if ids is not None else ""


def address_id(conn: HTTPConnection | MutableMapping[str, Any]) -> str:
    """The hashed id of the client address of a request or socket; ``""`` when
    unknown."""
    scope = _scope(conn)
    ids = _ids(scope)
    return ids.address(client_address(scope)) if ids is not None else ""


def person_ids(conn: HTTPConnection | MutableMapping[str, Any]) -> tuple[str, ...]:
    """Both ids, for a room to record (``Created``/``Joined`` ``ids``)."""
    return tuple(i for i in (browser_id(conn), address_id(conn)) if i)


def _set_cookie(value: str, secure: bool) -> tuple[bytes, bytes]:
    cookie = f"{COOKIE}={value}; Path=/; Max-Age={MAX_AGE}; HttpOnly; SameSite=Lax"
    return b"set-cookie", (cookie + ("; Secure" if secure else "")).encode()


class BrowserCookie:
    """Gives a browser without a ``reverie_b`` cookie one: on its page and API answers
    and on a socket's handshake, so that even a socket opened first (a seat link's page
    served from a cache) has an id from its first frame."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        value = _read_cookie(scope)
        if value:
            scope[SCOPE_KEY] = value
            await self.app(scope, receive, send)
            return
        value = secrets.token_urlsafe(24)
        scope[SCOPE_KEY] = value
        secure = scope.get("scheme") in ("https", "wss")
        header = _set_cookie(value, secure)

        async def send_with_cookie(message: Message) -> None:
            kind = message["type"]
            if kind == "http.response.start":
                headers = list(message.get("headers") or ())
                types = [v for k, v in headers if k.lower() == b"content-type"]
                if types and types[0].startswith(_TYPES):
                    message = {**message, "headers": [*headers, header]}
            elif kind == "websocket.accept":
                message = {**message, "headers": [*(message.get("headers") or ()), header]}
            await send(message)

        await self.app(scope, receive, send_with_cookie)
