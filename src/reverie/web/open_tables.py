"""The open tables: ``GET /api/open`` (the list every process shares) for the /play page.

The list is the board's (:mod:`reverie.bus.board`): the public tables of every process,
each put there by the process that runs it (:class:`reverie.rooms.listing.Lister`).
Only tables a person may sit at now are answered; an entry names no person. The answer
carries an ETag, so the page polls cheaply: an unchanged list is a ``304`` without body.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from reverie.bus import BusUnavailable
from reverie.bus.board import Board

#: The fields of a board entry the page is told (``present`` and ``process`` stay inside).
SHOWN = (
    *("code", "game", "lang", "people", "bots", "seats", "free", "phase"),
    *("created", "started", "starts_at", "waiting"),
)


def _order(entry: dict[str, Any]) -> tuple[int, int, float]:
    # Lobbies first (a seat now), the fullest first, then the oldest.
    return (0 if entry.get("phase") == "lobby" else 1, -int(entry.get("people", 0)),
            float(entry.get("created", 0.0)))  # fmt: skip


async def open_entries(
    board: Board, game: str | None = None, lang: str | None = None
) -> list[dict[str, Any]]:
    """The tables a person may sit at now, of ``game`` and in ``lang`` if given, in the
    page's order, with every field the board keeps."""
    found = [
        e
        for e in await board.entries()
        if e.get("may_seat")
        and (not game or e.get("game") == game)
        and (not lang or e.get("lang") == lang)
    ]
    return sorted(found, key=_order)


async def open_tables(request: Request) -> Response:
    """``GET /api/open?game=&lang=``: ``{"tables": [...]}``, with an ETag."""
    board: Board = request.app.state.board
    game = request.query_params.get("game") or None
    lang = request.query_params.get("lang") or None
    try:
        entries = await open_entries(board, game, lang)
    except BusUnavailable:
        body = {"code": "unavailable", "message": "The open tables cannot be read right now."}
        return JSONResponse({"error": body}, status_code=503)
    tables = [{k: e.get(k) for k in SHOWN} for e in entries]
    payload = json.dumps({"tables": tables}, separators=(",", ":"), sort_keys=True).encode()
    etag = '"' + hashlib.sha1(payload).hexdigest()[:20] + '"'
    headers = {"etag": etag, "cache-control": "no-cache"}
    if etag in [t.strip() for t in request.headers.get("if-none-match", "").split(",")]:
        return Response(status_code=304, headers=headers)
    return Response(payload, media_type="application/json", headers=headers)
