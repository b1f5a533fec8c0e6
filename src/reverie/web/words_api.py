"""A table's own words for the drawing game over HTTP.

``POST /api/words`` (``{"language", "categories": {category: pasted text}}``) checks and
keeps a list and answers its id (``w-`` and 26 random letters) and how many entries
each category kept; the host's lobby puts the id in the table's options. ``GET
/api/words/w-{id}`` answers the counts only: the room's frames carry the id to every
player, and guessers must not read the words.
"""

from __future__ import annotations

import logging
import re
from typing import Any

import msgspec
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from reverie.content.custom_words import SHELF, Loader, WordList, WordsRefused, parse_lists
from reverie.rules.visual.language import Language
from reverie.store.decks import DeckStore
from reverie.web.decks_api import Decks, allowed, error, new_id, read_body

log = logging.getLogger("reverie.words")
MAX_BODY = 512 * 1024
_ID = re.compile(r"^[a-z2-7]{26}$")


class NewWords(msgspec.Struct, forbid_unknown_fields=True):
    """Body of ``POST /api/words``."""

    language: Language
    categories: dict[str, str]


def _encode(words: WordList) -> bytes:
    return msgspec.json.encode({"language": words.language, "lists": words.lists})


def _decode(payload: bytes) -> WordList:
    return msgspec.json.decode(payload, type=WordList)


def loader(store: DeckStore) -> Loader:
    """Reads lists for :data:`~reverie.content.custom_words.SHELF` from ``store``."""

    async def load(list_id: str) -> WordList | None:
        payload = await store.load_words(list_id)
        return None if payload is None else _decode(payload)

    return load


async def room_names(ctx: Decks, list_id: str, code: str) -> None:
    """Remember that room ``code`` names a word list (retention keeps the list while
    the room is kept); a failure only risks an early deletion, never a refused move."""
    try:
        await ctx.store.record_words_use(list_id, code, ctx.clock())
    except Exception:
        log.warning("word list %s: use by room %s not recorded", list_id, code, exc_info=True)


def _summary(list_id: str, words: WordList) -> dict[str, Any]:
    return {
        "id": list_id,
        "language": words.language,
        "counts": {c: len(v) for c, v in words.lists.items()},
    }


async def create_words(request: Request) -> Response:
    """Check and keep a table's own words."""
    ctx: Decks = request.app.state.custom_decks
    try:
        data = await read_body(request, MAX_BODY)
    except ClientDisconnect:
        return error(400, "bad_request", "The request was not sent in full.")
    if data is None:
        return error(413, "too_large", "The word lists are too long.")
    try:
        req = msgspec.json.decode(data, type=NewWords)
    except (msgspec.ValidationError, msgspec.DecodeError) as exc:
        return error(400, "bad_message", f"Invalid word lists: {exc}")
    if not await allowed(request, "words", ctx.settings.word_lists_per_hour):
        return error(429, "rate_limited", "Too many word lists from here; wait a while.")
    try:
        lists = parse_lists(req.categories, req.language)
    except WordsRefused as exc:
        problems = [
            {"category": p.category, "code": p.code, "message": p.message, "params": p.params}
            for p in exc.problems
        ]
        body = {"code": "bad_words", "message": str(exc), "problems": problems}
        return JSONResponse({"error": body}, status_code=400)
    words = WordList(req.language, lists)
    list_id = "w-" + new_id()
    await ctx.store.save_words(list_id, _encode(words), ctx.clock())
    SHELF.keep(list_id, words)
    return JSONResponse(_summary(list_id, words), status_code=201)


async def words_summary(request: Request) -> Response:
    """How many entries each category of a list has (never the entries)."""
    raw = request.path_params["words"]
    words = await SHELF.fetch("w-" + raw) if _ID.match(raw) else None
    if words is None:
        return error(404, "unknown_words", "No such word list.")
    return JSONResponse(_summary("w-" + raw, words))


def word_routes() -> list[BaseRoute]:
    """The routes of tables' own words."""
    return [
        Route("/api/words", create_words, methods=["POST"]),
        Route("/api/words/w-{words}", words_summary),
    ]
