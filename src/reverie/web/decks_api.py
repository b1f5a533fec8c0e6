"""Players' own decks over HTTP: a draft is filled picture by picture, published whole,
played by whoever has its link, and deleted by its owner (docs/decks.md).

- ``POST /api/decks`` opens a draft: its id (``u-`` and 26 random letters: the link)
  and the owner's secret token, which only the owner's browser keeps (the database
  keeps its SHA-256).
- ``POST /api/decks/u-{id}/pictures?name=…&fit=crop|pad&x=…&y=…&zoom=…`` (owner;
  the body is one file: a picture or a ZIP of pictures) answers one result per
  picture: its card, or why it was refused.
- ``DELETE /api/decks/u-{id}/pictures/{card}`` (owner) takes a picture out of a draft.
- ``POST /api/decks/u-{id}/publish`` (owner; ``{"title", "captions": {card: text}}``)
  makes the draft a deck in one transaction: only now can a room use it.
- ``GET /api/decks/u-{id}`` (the deck browser), ``GET /api/decks/u-{id}/images``
  (a table's pictures), ``GET /decks/u-{id}/{card}.webp`` (one picture).
- ``DELETE /api/decks/u-{id}`` (owner) deletes it: see :mod:`reverie.store.decks`.

Card ids are random too and ordered by themselves, so no URL, file name or order
tells who uploaded a picture or when.
"""

from __future__ import annotations

import asyncio
import base64
import hmac
import logging
import re
import secrets
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec
from starlette.requests import ClientDisconnect, Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Route

from reverie.content.textfilter import word_filter
from reverie.content.uploads import (
    CARD_MIME,
    CARD_SUFFIX,
    Fit,
    UploadRefused,
    decoded_pixels,
    file_too_large,
    is_zip,
    too_many_pictures,
    unpack_zip,
)
from reverie.errors import RoomError
from reverie.games import Limit
from reverie.rooms.state import hash_token
from reverie.rooms.texts import clean_chat
from reverie.store.decks import DeckFull, DeckNotDraft, DeckStore, NewCard, StoredDeck
from reverie.web.deck_shelf import CUSTOM_PREFIX, DeckShelf, is_custom
from reverie.web.decoders import Busy, DecoderPool
from reverie.web.limits import Registry, client_address
from reverie.web.settings import Settings

log = logging.getLogger("reverie.decks")
OWNER_HEADER = "x-deck-owner"
_ID = re.compile(r"^[a-z2-7]{26}$")
MAX_TITLE = 60
MAX_CAPTION = 200
MAX_PUBLISH_BODY = 256 * 1024
#: ZIPs inflated at once (in threads: bounded by bytes, ``deck_max_mb`` at most).
UNZIPPERS = 2
_CACHE = "private, max-age=604800, immutable"
#: A player's deck as JSON (a draft for its owner, captions, its state): for this
#: browser only (no shared cache may serve one person's draft to another) and read
#: fresh each time (a deck is deleted or published under the same address).
_PRIVATE_JSON = {"cache-control": "private, no-store", "x-robots-tag": "noindex"}
STATIC = Path(__file__).parent / "static"


def new_id() -> str:
    """26 random letters and digits (130 bits), lower case: ids of decks and cards."""
    return base64.b32encode(secrets.token_bytes(16)).decode().lower().rstrip("=")


@dataclass
class Decks:
    """What the deck routes share: settings, the database, the shelf rooms read."""

    settings: Settings
    store: DeckStore
    shelf: DeckShelf
    limits: Registry
    clock: Any = time.time
    decoding: DecoderPool | None = None
    unzipping: asyncio.Semaphore | None = None

    def decoder(self) -> DecoderPool:
        """The pool of processes that decode pictures (started on the first)."""
        if self.decoding is None:
            cfg = self.settings
            self.decoding = DecoderPool(
                cfg.upload_decoders, cfg.upload_decoder_queue, cfg.upload_decoder_memory_mb
            )
        return self.decoding

    def unzipper(self) -> asyncio.Semaphore:
        if self.unzipping is None:
            self.unzipping = asyncio.Semaphore(UNZIPPERS)
        return self.unzipping

    def close(self) -> None:
        """Stop the decoding processes."""
        if self.decoding is not None:
            self.decoding.close()


class Publish(msgspec.Struct, forbid_unknown_fields=True):
    """Body of ``POST /api/decks/u-{id}/publish``."""

    title: str
    captions: dict[str, str] = {}


def error(status: int, code: str, message: str, **params: Any) -> JSONResponse:
    """An error answer: ``{"error": {"code", "message", "params"?}}``."""
    body: dict[str, Any] = {"code": code, "message": message}
    if params:
        body["params"] = params
    return JSONResponse({"error": body}, status_code=status)


def _decks(request: Request) -> Decks:
    decks: Decks = request.app.state.custom_decks
    return decks


def _deck_id(request: Request) -> str | None:
    raw = request.path_params["deck"]
    return CUSTOM_PREFIX + raw if _ID.match(raw) else None


def _owns(request: Request, deck: StoredDeck) -> bool:
    token = request.headers.get(OWNER_HEADER, "")
    return bool(token) and hmac.compare_digest(hash_token(token), deck.owner_hash)


async def allowed(request: Request, kind: str, per_hour: float, cost: float = 1.0) -> bool:
    """Whether the caller's address may do ``kind`` again (``per_hour``, bursts of as many)."""
    if per_hour <= 0:
        return True
    limit = Limit(rate=per_hour / 3600, burst=per_hour)
    key = (kind, client_address(request.scope))
    return await _decks(request).limits.allow((key, limit, cost))


async def create_deck(request: Request) -> Response:
    """Open an empty draft; its owner token is in the answer, and nowhere else."""
    ctx = _decks(request)
    if not await allowed(request, "decks", ctx.settings.decks_per_hour):
        return error(429, "rate_limited", "Too many new decks from here; wait a while.")
    deck_id, owner = CUSTOM_PREFIX + new_id(), secrets.token_urlsafe(24)
    await ctx.store.create_deck(deck_id, hash_token(owner), ctx.clock())
    return JSONResponse({"deck": deck_id, "owner": owner, "limits": limits(ctx.settings)}, 201)


def limits(cfg: Settings) -> dict[str, Any]:
    """The limits a client checks before it sends a file."""
    return {
        "cards": cfg.deck_max_cards,
        "deck_bytes": int(cfg.deck_max_mb * 1_000_000),
        "file_bytes": int(cfg.upload_max_file_mb * 1_000_000),
        "megapixels": cfg.upload_max_pixels // 1_000_000,
        "upload_megapixels": cfg.upload_megapixels,
        "deck_megapixels": cfg.deck_megapixels,
        "title": MAX_TITLE,
        "caption": MAX_CAPTION,
    }


async def _owned_draft(request: Request) -> StoredDeck | Response:
    deck_id = _deck_id(request)
    stored = await _decks(request).store.load_deck(deck_id) if deck_id else None
    if stored is None or not _owns(request, stored):
        return error(404, "unknown_deck", "No such deck, or it is not yours.")
    if stored.state != "draft":
        return error(409, "deck_published", "This deck is finished; it cannot change.")
    return stored


def _fit(request: Request) -> Fit:
    q = request.query_params
    mode = q.get("fit", "crop")
    if mode not in ("crop", "pad"):
        raise ValueError("fit is crop or pad")
    return Fit(
        mode="pad" if mode == "pad" else "crop",
        x=float(q.get("x", "0.5")),
        y=float(q.get("y", "0.5")),
        zoom=float(q.get("zoom", "1")),
    )


async def read_body(request: Request, limit: int) -> bytes | None:
    """The request body, or None once it passes ``limit`` bytes (never read further)."""
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            return None
        chunks.append(chunk)
    return b"".join(chunks)


async def add_pictures(request: Request) -> Response:
    """Add one uploaded file (a picture or a ZIP of pictures) to a draft."""
    ctx = _decks(request)
    cfg = ctx.settings
    name = request.query_params.get("name", "picture")[:200]
    file_limit = int(cfg.upload_max_file_mb * 1_000_000)
    deck_limit = int(cfg.deck_max_mb * 1_000_000)
    try:
        fit = _fit(request)
        declared = int(request.headers["content-length"])
    except KeyError:
        return error(411, "length_required", "Send the file with its length.")
    except ValueError as exc:
        return error(400, "bad_request", f"Invalid upload: {exc}.")
    if declared > file_limit:
        refused = file_too_large(file_limit)
        return error(413, refused.code, refused.message, **refused.params)
    per_minute = cfg.uploads_mb_per_minute
    if per_minute > 0:
        limit = Limit(rate=per_minute / 60, burst=2 * per_minute)
        key = ("upload_mb", client_address(request.scope))
        if not await ctx.limits.allow((key, limit, max(0.01, declared / 1_000_000))):
            return error(429, "rate_limited", "Too much uploaded from here; wait a minute.")
    draft = await _owned_draft(request)
    if isinstance(draft, Response):
        return draft
    if draft.upload_bytes + declared > deck_limit:
        mb = int(cfg.deck_max_mb)
        return error(413, "deck_too_large", f"A deck takes at most {mb} MB.", mb=mb)
    try:
        async with ctx.decoder().upload():
            return await _add_pictures(request, ctx, draft, name, fit)
    except Busy:
        return JSONResponse(
            {"error": {"code": "busy", "message": "Too many pictures at once; try again soon."}},
            status_code=503,
            headers={"retry-after": "10"},
        )


async def _add_pictures(
    request: Request, ctx: Decks, draft: StoredDeck, name: str, fit: Fit
) -> Response:
    cfg = ctx.settings
    file_limit = int(cfg.upload_max_file_mb * 1_000_000)
    deck_limit = int(cfg.deck_max_mb * 1_000_000)
    try:
        data = await read_body(request, file_limit)
    except ClientDisconnect:
        return error(400, "bad_request", "The file was not sent in full.")
    if data is None:
        refused = file_too_large(file_limit)
        return error(413, refused.code, refused.message, **refused.params)
    entries: list[tuple[str, bytes | UploadRefused]]
    if is_zip(data):
        # Inflating is bounded (per entry and in all) but still seconds of work for a
        # large archive: off the event loop, and no more at once than decoding.
        try:
            async with ctx.unzipper():
                unpacked = await asyncio.to_thread(
                    unpack_zip,
                    data,
                    max_entries=cfg.deck_max_cards,
                    max_entry_bytes=file_limit,
                    max_total_bytes=deck_limit,
                )
            entries = [(f"{name} › {inner}", body) for inner, body in unpacked]
        except UploadRefused as exc:
            entries = [(name, exc)]
    else:
        entries = [(name, data)]
    room = cfg.deck_max_cards - len(draft.cards)
    results: list[tuple[str, NewCard | UploadRefused]] = []
    spent = 0  # pixels this upload has decoded
    for entry_name, body in entries:
        if isinstance(body, bytes) and room <= 0:
            body = too_many_pictures(cfg.deck_max_cards)
        if isinstance(body, UploadRefused):
            results.append((entry_name, body))
            continue
        try:
            # The header tells the cost; it is paid before anything is decoded.
            pixels = decoded_pixels(body, max_pixels=cfg.upload_max_pixels)
            await _charge(request, ctx, draft.id, pixels, spent)
            spent += pixels
            picture = await ctx.decoder().decode(
                body, fit, max_pixels=cfg.upload_max_pixels, pixels=pixels
            )
        except UploadRefused as exc:
            results.append((entry_name, exc))
            continue
        room -= 1
        results.append((entry_name, NewCard(new_id(), CARD_MIME, picture)))
    cards = [r for _, r in results if isinstance(r, NewCard)]
    try:
        await ctx.store.add_cards(
            draft.id, cards, len(data), max_cards=cfg.deck_max_cards, max_bytes=deck_limit
        )
    except DeckFull as exc:  # another upload to the same draft came first
        full = UploadRefused("deck_full", str(exc))
        results = [(n, full if isinstance(r, NewCard) else r) for n, r in results]
    except DeckNotDraft:
        return error(409, "deck_published", "This deck is finished; it cannot change.")
    refusals = sum(isinstance(r, UploadRefused) for _, r in results)
    if refusals:
        log.info("deck %s: %d of %d pictures refused", draft.id, refusals, len(results))
    return JSONResponse({"results": [_result(draft.id, n, r) for n, r in results]})


async def _charge(request: Request, ctx: Decks, deck_id: str, pixels: int, spent: int) -> None:
    """Pay for decoding ``pixels`` from this upload's budget (``spent`` so far), the
    deck's and the address's hourly one; raises :class:`UploadRefused` when one is spent.

    The deck's and the address's are token buckets in the rate limiter (Redis when
    several processes share it): taking a picture out, or deleting the deck and
    starting another, gives nothing back."""
    cfg = ctx.settings
    cost = pixels / 1_000_000
    per_upload = cfg.upload_megapixels
    if per_upload > 0 and (spent + pixels) / 1_000_000 > per_upload:
        n = int(per_upload)
        raise UploadRefused(
            "upload_pixels",
            f"One upload decodes at most {n} million pixels; send fewer pictures at once.",
            megapixels=n,
        )
    per_deck = cfg.deck_megapixels
    if per_deck > 0:
        # Refilled over a draft's life: a draft that old is purged anyway.
        life = max(1.0, cfg.deck_draft_hours) * 3600
        limit = Limit(rate=per_deck / life, burst=per_deck)
        if not await ctx.limits.allow((("deck_pixels", deck_id), limit, cost)):
            n = int(per_deck)
            raise UploadRefused(
                "deck_pixels",
                f"A deck's pictures may have at most {n} million pixels in all.",
                megapixels=n,
            )
    per_hour = cfg.upload_megapixels_per_hour
    if per_hour > 0:
        limit = Limit(rate=per_hour / 3600, burst=per_hour)
        key = ("upload_pixels", client_address(request.scope))
        if not await ctx.limits.allow((key, limit, cost)):
            raise UploadRefused(
                "pixels_per_hour",
                "Too many pictures decoded from here this hour; wait a while.",
                megapixels=int(per_hour),
            )


def _result(deck_id: str, name: str, outcome: NewCard | UploadRefused) -> dict[str, Any]:
    if isinstance(outcome, UploadRefused):
        return {
            "name": name,
            "ok": False,
            "code": outcome.code,
            "message": outcome.message,
            "params": outcome.params,
        }
    cid = outcome.card_id
    return {"name": name, "ok": True, "card": cid, "image": f"/decks/{deck_id}/{cid}{CARD_SUFFIX}"}


async def remove_picture(request: Request) -> Response:
    """Take a picture out of a draft."""
    draft = await _owned_draft(request)
    if isinstance(draft, Response):
        return draft
    if not await _decks(request).store.remove_card(draft.id, request.path_params["card"]):
        return error(404, "unknown_card", "No such picture in this deck.")
    return Response(status_code=204)


async def publish(request: Request) -> Response:
    """Make a draft a deck rooms can play, with its title and captions, all at once."""
    ctx = _decks(request)
    try:
        data = await read_body(request, MAX_PUBLISH_BODY)
    except ClientDisconnect:
        return error(400, "bad_request", "The request was not sent in full.")
    if data is None:
        return error(413, "too_large", "The request is too large.")
    try:
        req = msgspec.json.decode(data, type=Publish)
    except (msgspec.ValidationError, msgspec.DecodeError) as exc:
        return error(400, "bad_message", f"Invalid deck: {exc}")
    draft = await _owned_draft(request)
    if isinstance(draft, Response):
        return draft
    try:
        title = _text(req.title, MAX_TITLE, "deck_title", required=True)
        if not word_filter().allows(title, "mild"):
            # The title is shown in every lobby that plays the deck: refused, not masked.
            raise RoomError(
                "deck_title_not_allowed",
                "The deck's name holds a word the text filter does not allow; choose another.",
            )
        known = {c.card_id for c in draft.cards}
        captions = {
            cid: _text(text, MAX_CAPTION, "caption")
            for cid, text in req.captions.items()
            if cid in known
        }
    except RoomError as exc:
        return error(400, exc.code, exc.message)
    if not draft.cards:
        return error(400, "deck_empty", "Add at least one picture first.")
    try:
        await ctx.store.publish_deck(draft.id, title, captions, ctx.clock())
    except DeckNotDraft:
        return error(409, "deck_published", "This deck is finished; it cannot change.")
    stored = await ctx.shelf.load(draft.id)
    assert stored is not None
    log.info("deck %s published: %d cards", draft.id, len(stored.cards))
    return JSONResponse(_payload(stored))


def _text(raw: str, limit: int, code: str, *, required: bool = False) -> str:
    """A title or caption as said now (chat's cleaning), within ``limit`` characters."""
    if not " ".join(raw.split()):
        if required:
            raise RoomError(code, f"Give it a name of 1 to {limit} characters.")
        return ""
    try:
        clean = clean_chat(raw)
    except RoomError:
        raise RoomError(code, f"Use 1 to {limit} visible characters.") from None
    if len(clean) > limit:
        raise RoomError(code, f"Use at most {limit} characters.")
    return clean


def _payload(stored: StoredDeck) -> dict[str, Any]:
    """The deck browser's view, shaped like a content deck's (every language alike)."""
    langs = ("en", "ru", "it")
    return {
        "name": stored.id,
        "title": dict.fromkeys(langs, stored.title),
        "count": len(stored.cards),
        "aspect": "2:3",
        "license": "",
        "custom": True,
        "state": stored.state,
        "cards": [
            {
                "id": c.card_id,
                "image": c.card_id + CARD_SUFFIX,
                "caption": dict.fromkeys(langs, c.caption),
            }
            for c in stored.cards
        ],
    }


async def deck_detail(request: Request) -> Response:
    """A player's deck for the deck browser (a draft for its owner only)."""
    ctx = _decks(request)
    deck_id = _deck_id(request)
    stored = await ctx.store.load_deck(deck_id) if deck_id else None
    if stored is None or (stored.state == "draft" and not _owns(request, stored)):
        return error(404, "unknown_deck", "No such deck.")
    if stored.state in ("deleted", "purged"):
        return error(410, "deck_deleted", "Its owner deleted this deck.")
    return JSONResponse(_payload(stored), headers=_PRIVATE_JSON)


async def deck_images(request: Request) -> Response:
    """The pictures of a deck in card order, for a table (a deleted deck's too, while
    they last: rooms dealt from it go on)."""
    deck_id = _deck_id(request)
    stored = await _decks(request).store.load_deck(deck_id) if deck_id else None
    if stored is None or stored.state not in ("ready", "deleted"):
        return error(404, "unknown_deck", "No such deck.")
    return JSONResponse(
        {"name": stored.id, "images": [c.card_id + CARD_SUFFIX for c in stored.cards]},
        headers=_PRIVATE_JSON,
    )


async def delete_deck(request: Request) -> Response:
    """The owner deletes a deck: no new room may use it; its pictures go once no room
    playing it is active."""
    ctx = _decks(request)
    deck_id = _deck_id(request)
    stored = await ctx.store.load_deck(deck_id) if deck_id else None
    if stored is None or not _owns(request, stored):
        return error(404, "unknown_deck", "No such deck, or it is not yours.")
    if await ctx.store.delete_deck(stored.id, ctx.clock()):
        log.info("deck %s deleted by its owner", stored.id)
    await purge(ctx)
    return Response(status_code=204)


async def card_image(request: Request) -> Response:
    """One picture of a player's deck: random names that never change, so browsers keep
    them (privately: no shared cache should hold a private deck)."""
    deck_id = _deck_id(request)
    card = request.path_params["card"]
    found = None
    if deck_id and _ID.match(card):
        found = await _decks(request).store.card_image(deck_id, card)
    if found is None:
        return error(404, "unknown_card", "No such card.")
    mime, data = found
    headers = {"cache-control": _CACHE, "x-robots-tag": "noindex"}
    return Response(data, media_type=mime, headers=headers)


async def purge(ctx: Decks) -> int:
    """Erase the pictures of stale drafts and of deleted decks nobody plays now."""
    now = ctx.clock()
    cfg = ctx.settings
    purged = await ctx.store.purge_decks(
        now - cfg.deck_draft_hours * 3600, now - cfg.deck_purge_hours * 3600, now
    )
    if purged:
        log.info("%d deck(s) purged", purged)
    return purged


async def run_purger(ctx: Decks, every: float = 600.0) -> None:
    """Purge every ``every`` seconds until cancelled (a failed pass tries again later)."""
    while True:
        await asyncio.sleep(every)
        try:
            await purge(ctx)
        except Exception:
            log.warning("deck purge failed; trying again later", exc_info=True)


async def check_room_deck(ctx: Decks, name: str) -> None:
    """Raise :class:`RoomError` unless a new room may play ``name`` (a player's deck
    must be published and not deleted); loads it for the room service."""
    if not is_custom(name):
        return
    deck_id = str(name)
    stored = await ctx.shelf.load(deck_id) if _ID.match(deck_id[len(CUSTOM_PREFIX) :]) else None
    if stored is None or stored.state == "draft":
        raise RoomError("unknown_deck", "There is no such deck.")
    if stored.state != "ready":
        raise RoomError("deck_deleted", "Its owner deleted this deck.")


async def room_plays(ctx: Decks, name: str, code: str) -> None:
    """Remember that room ``code`` plays a player's deck (its pictures then outlive a
    deletion while the room is active); a failure only risks an early purge."""
    if not is_custom(name):
        return
    try:
        await ctx.store.record_deck_use(str(name), code, ctx.clock())
    except Exception:
        log.warning("deck %s: use by room %s not recorded", name, code, exc_info=True)


async def upload_page(request: Request) -> Response:
    """The page where a host makes a deck."""
    return FileResponse(STATIC / "mydeck.html", headers={"cache-control": "no-cache"})


def deck_routes() -> list[BaseRoute]:
    """The routes of players' decks (before the content decks' routes: they share paths)."""
    return [
        Route("/decks/new", upload_page),
        Route("/api/decks", create_deck, methods=["POST"]),
        Route("/api/decks/u-{deck}", deck_detail, methods=["GET"]),
        Route("/api/decks/u-{deck}", delete_deck, methods=["DELETE"]),
        Route("/api/decks/u-{deck}/images", deck_images),
        Route("/api/decks/u-{deck}/pictures", add_pictures, methods=["POST"]),
        Route("/api/decks/u-{deck}/pictures/{card}", remove_picture, methods=["DELETE"]),
        Route("/api/decks/u-{deck}/publish", publish, methods=["POST"]),
        Route("/decks/u-{deck}/{card}.webp", card_image),
    ]
