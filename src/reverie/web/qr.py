"""The join link of a room as a QR code, for the table screen.

A phone scans it to open the room. The address is the one the table screen itself was
opened at (the request's own origin), so a server reached over the local network hands
out its network address. A screen opened at ``localhost`` on the server's machine gets,
on asking, the machine's address on the local network instead (a phone cannot open
``localhost``); that only helps when the server listens there (``make run
HOST=0.0.0.0``).
"""

from __future__ import annotations

import contextlib
import io
import ipaddress
import socket

import segno
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from reverie.rooms.service import RoomService
from reverie.web.limits import Registry, client_address

_LOOPBACK_NAMES = frozenset({"localhost", "localhost.localdomain", "ip6-localhost"})


def is_loopback(host: str) -> bool:
    """Whether ``host`` (a name or address) means this machine only.

    >>> is_loopback("localhost"), is_loopback("127.0.0.1"), is_loopback("192.168.1.4")
    (True, True, False)
    """
    if host.lower() in _LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def lan_address() -> str | None:
    """This machine's address on the local network, or None when it has none.

    A UDP socket "connected" to a private address sends nothing; the address the system
    picks for it is the one phones on the same network can reach.
    """
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.connect(("10.254.254.254", 1))
        address: str = s.getsockname()[0]
        if not ipaddress.ip_address(address).is_loopback:
            return address
    return None


def join_urls(request: Request, code: str) -> tuple[str, str | None]:
    """The room's address as the table screen sees it, and the network address to
    offer instead when the screen was opened at a loopback address (or None)."""
    url = request.url
    here = f"{url.scheme}://{url.netloc}/r/{code}"
    if not is_loopback(url.hostname or ""):
        return here, None
    lan = lan_address()
    if lan is None:
        return here, None
    port = f":{url.port}" if url.port else ""
    return here, f"{url.scheme}://{lan}{port}/r/{code}"


def qr_svg(text: str) -> bytes:
    """A QR code of ``text`` as a standalone SVG document (medium error correction: a
    screen seen at an angle or with glare still scans)."""
    out = io.BytesIO()
    segno.make(text, error="m").save(
        out, kind="svg", scale=8, border=2, dark="#1d1a16", light="#ffffff", xmldecl=False
    )
    return out.getvalue()


def _error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status)


async def _room_code(request: Request) -> str | Response:
    """The room's code, or the refusal (an unknown code counts against the same
    allowance as the room page's look-ups)."""
    service: RoomService = request.app.state.service
    limits: Registry = request.app.state.limits
    per_minute: float = request.app.state.settings.room_misses_per_minute
    address = client_address(request.scope)
    if not await limits.lookups_allowed(address, per_minute):
        message = "Too many unknown room codes from here; wait a bit."
        return _error(429, "rate_limited", message)
    live = await service.get(request.path_params["code"])
    if live is None:
        await limits.missed(address, per_minute)
        return _error(404, "unknown_room", "No room with that code.")
    return live.state.code


async def join_info(request: Request) -> Response:
    """The room's join address, and a network address to prefer when the table screen
    was opened at ``localhost``."""
    code = await _room_code(request)
    if isinstance(code, Response):
        return code
    here, lan = join_urls(request, code)
    return JSONResponse({"url": here, "lan_url": lan})


async def join_qr(request: Request) -> Response:
    """The join address as a QR code (SVG); ``?lan=1`` encodes the network address."""
    code = await _room_code(request)
    if isinstance(code, Response):
        return code
    here, lan = join_urls(request, code)
    target = lan if request.query_params.get("lan") == "1" and lan else here
    return Response(
        qr_svg(target), media_type="image/svg+xml", headers={"cache-control": "no-cache"}
    )
