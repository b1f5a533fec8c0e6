"""The open tables: ``GET /api/open`` (the list every process shares) and play now
(``POST /api/play``).

The list is the board's (:mod:`reverie.bus.board`): the public tables of every process,
each put there by the process that runs it (:class:`reverie.rooms.listing.Lister`).
Only tables a person may sit at now are answered; an entry names no person. The answer
carries an ETag, so the page polls cheaply: an unchanged list is a ``304`` without body.
"""

from __future__ import annotations

import hashlib
import json
import time
from typing import Any

import msgspec
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from reverie.bus import BusUnavailable
from reverie.bus.board import Board
from reverie.errors import RoomError
from reverie.games import Limit, all_variants
from reverie.rooms.commands import Join
from reverie.rooms.listing import Lister
from reverie.rooms.seating import check_may_seat
from reverie.rooms.service import RoomService
from reverie.rooms.state import PALETTE, RoomState
from reverie.store.moderation import check_site_ban
from reverie.web.browser_id import address_id, browser_id, person_ids
from reverie.web.limits import Registry, client_address
from reverie.web.moderation import check_public_rate

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


class PlayNow(msgspec.Struct, forbid_unknown_fields=True):
    """Body of ``POST /api/play``."""

    game: str
    lang: str
    name: str
    color: str = ""


#: Seats of a table play now opens: this many, within the game's bounds.
PLAY_SEATS = 4


def _error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status)


def _free_color(room: RoomState, wanted: str) -> str:
    taken = {p.color for p in room.players}
    if wanted and wanted not in taken:
        return wanted
    return next((c for c in PALETTE if c not in taken), PALETTE[0])


async def play_now(request: Request) -> Response:
    """``POST /api/play {game, lang, name, color}``: a seat at the best waiting public
    table of that game and language (most people, then nearest to starting); else a
    bot's seat, taken at the next turn, at a running one with people at it (the most
    first; rooms/takeover.py), never in a game decided; else a seat at a new public
    table that starts within ``play_start_seconds``, bots in its empty seats. Answers
    ``{"code", "token", "seat", "url", "how": "joined" | "queued" | "opened"}`` (seat
    null when queued). A site-banned browser or address is refused (403); a table it
    opens counts toward REVERIE_PUBLIC_TABLES_PER_HOUR (429 past it)."""
    settings = request.app.state.settings
    try:
        req = msgspec.json.decode(await request.body(), type=PlayNow)
    except (msgspec.ValidationError, msgspec.DecodeError) as exc:
        return _error(400, "bad_message", f"Invalid play request: {exc}")
    per_minute: float = settings.plays_per_minute
    if per_minute > 0:
        limits: Registry = request.app.state.limits
        key = ("plays", client_address(request.scope))
        if not await limits.allow((key, Limit(rate=per_minute / 60, burst=per_minute), 1.0)):
            return _error(429, "rate_limited", "Too many taps of play now; wait a minute.")
    if req.game not in {v.name for v in all_variants()}:
        return _error(400, "bad_options", f"No game {req.game!r}.")
    service: RoomService = request.app.state.service
    lister: Lister = request.app.state.lister
    browser, address = browser_id(request) or "", address_id(request) or ""
    ids = person_ids(request)
    try:  # the operator's site bans (reverie moderation ban), before any table is chosen
        await check_site_ban(
            getattr(request.app.state, "moderation", None), browser or None, address or None,
            time.time(),
        )  # fmt: skip
    except RoomError as exc:
        return _error(403, exc.code, exc.message)
    try:
        found = await open_entries(request.app.state.board, req.game, req.lang)
    except BusUnavailable:
        found = []
    waiting = [e for e in found if e.get("phase") == "lobby"]
    waiting.sort(key=lambda e: (-int(e.get("people", 0)), e.get("starts_at") or 1e18))
    # A running game with people at it, where a bot's seat is free to take: people meet
    # there rather than at a new table of bots.
    running = [e for e in found if e.get("phase") == "playing" and int(e.get("present", 0))]
    running.sort(key=lambda e: (-int(e.get("present", 0)), float(e.get("progress", 0.0))))
    for entry in [*waiting, *running]:
        live = await service.get(str(entry["code"]))
        if live is None:
            continue
        try:
            check_may_seat(live.state, address, browser)
            color = _free_color(live.state, req.color)
            seat, token = await service.join(live, Join(name=req.name, color=color), ids)
        except RoomError:
            continue  # full, started or removed meanwhile, or the name taken: the next
        how = "joined" if seat is not None else "queued"
        lister.seatings[how] += 1
        if live.state.status == "lobby" and len(live.state.players) >= live.state.seats:
            lister.start_later(live, 0)  # full: nobody else to wait for
        code = live.state.code
        return JSONResponse(
            {"code": code, "token": token, "seat": seat, "url": f"/r/{code}", "how": how}
        )
    try:  # opening one here is opening a public table: the same allowance as the lobby's
        await check_public_rate(request.app.state, ids, client_address(request.scope))
    except RoomError as exc:
        return _error(429, exc.code, exc.message)
    variant = next(v for v in all_variants() if v.name == req.game)
    seats = max(variant.min_players, min(variant.max_players, PLAY_SEATS))
    try:
        live, token = await service.create_room(
            name=req.name, color=req.color or PALETTE[0], variant=req.game, seats=seats,
            options={}, lang=req.lang, public=True, ids=ids,
            starts_at=service.clock() + settings.play_start_seconds,
        )  # fmt: skip
    except RoomError as exc:
        return _error(400, exc.code, exc.message)
    lister.start_later(live, settings.play_start_seconds)
    lister.seatings["opened"] += 1
    code = live.state.code
    return JSONResponse(
        {"code": code, "token": token, "seat": 0, "url": f"/r/{code}", "how": "opened"},
        status_code=201,
    )
