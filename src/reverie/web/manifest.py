"""The room page and its own web app manifest: a room added to a phone's home screen
opens that room, full screen.

Chrome launches an installed app at the manifest's ``start_url``, not at the page it was
installed from, and resolves a relative ``start_url`` (and ``scope``) against the
manifest's URL, not the page's. One static manifest (``start_url`` "/") would open the
home page; a relative "." in it would open ``/static/``. So the room page links a
manifest of its own, ``/r/{code}/manifest.webmanifest``, whose ``start_url``, ``scope``
and ``id`` are the room's address:

- ``start_url`` ``/r/{code}``: the icon opens the room (the seat is kept by the browser's
  storage, which an Android home-screen app shares with Chrome);
- ``scope`` ``/r/{code}``: the room stays full screen, a link to the room from a chat
  opens in the installed room, and other pages (home, rules) open with a browser bar and
  a way back instead of being claimed by every room ever installed;
- ``id`` ``/r/{code}``: each room is its own app, so a second room is offered for
  installation as well instead of being taken for the first.

The table screen (``?table``) gets its own start address and id, so a tablet on the
table opens the table screen again.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any
from urllib.parse import quote

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from reverie.rooms.service import normalise_code
from reverie.web.assets import page_response

STATIC = Path(__file__).parent / "static"
#: What the room page's static file links; replaced by the room's own manifest.
SITE_MANIFEST = "/static/manifest.webmanifest"
#: Room codes as the service makes them (letters and digits, either case: codes are
#: case-insensitive, and the manifest keeps the page's own spelling so the page is inside
#: its scope); anything else is no room, and no address is built from it.
_CODE = re.compile(r"^[A-Za-z0-9]{4,12}$")


def _site_manifest() -> dict[str, Any]:
    data: dict[str, Any] = json.loads((STATIC / "manifest.webmanifest").read_text("utf-8"))
    return data


def room_manifest_href(code: str, table: bool) -> str | None:
    """The address of the room's manifest (None for a code no room can have)."""
    if not _CODE.match(code):
        return None
    return f"/r/{code}/manifest.webmanifest" + ("?table" if table else "")


def room_manifest_data(code: str, table: bool) -> dict[str, Any]:
    """The site's manifest with the room as its start, scope and identity."""
    room = f"/r/{code}"
    start = room + ("?table" if table else "")
    data = _site_manifest()
    data.update(
        id=start,
        start_url=start,
        scope=room,
        name=f"Reverie · {code}",
        # Under the icon: the launcher cuts long labels, so the code goes in `name`.
        short_name="Reverie",
    )
    return data


async def room_page(request: Request) -> Response:
    """``GET /r/{code}``: room.html, linking the room's own manifest."""
    code: str = request.path_params["code"]
    try:
        html = (STATIC / "room.html").read_text(encoding="utf-8")
    except OSError:
        return JSONResponse(
            {"error": {"code": "missing_page", "message": "room.html is not installed."}}, 404
        )
    href = room_manifest_href(code, "table" in request.query_params)
    if href is not None:
        html = html.replace(f'href="{SITE_MANIFEST}"', f'href="{href}"', 1)
    return page_response(request, html, _first_fetches(request, code) if href else [])


def _first_fetches(request: Request, code: str) -> list[str]:
    """What the room page fetches first, preloaded from its head so that it is there when
    the scripts ask: the room's summary (js/room.js, by the code as shell/app.js spells
    it), and the list of the pictures of the deck the room's family names, if any
    (families/association/cards.js; only for a room in memory: a page load never reads
    the store, so probing codes costs nothing)."""
    fetches = [f"/api/rooms/{code.upper()}"]
    service = getattr(request.app.state, "service", None)
    live = service.rooms.get(normalise_code(code)) if service is not None else None
    deck = live.state.family.setup_facts(live.state).get("deck") if live is not None else None
    if isinstance(deck, str) and deck:
        fetches.append(f"/api/decks/{quote(deck, safe='')}/images")
    return fetches


async def room_manifest(request: Request) -> Response:
    """``GET /r/{code}/manifest.webmanifest``: the room's manifest."""
    code: str = request.path_params["code"]
    if room_manifest_href(code, False) is None:
        return JSONResponse(
            {"error": {"code": "unknown_room", "message": "No room has this code."}}, 404
        )
    return JSONResponse(
        room_manifest_data(code, "table" in request.query_params),
        media_type="application/manifest+json",
        headers={"cache-control": "no-cache"},
    )
