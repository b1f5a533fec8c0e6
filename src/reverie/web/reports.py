"""Reports: a player reports another player (or the whole table) to the operator.

A report keeps what the reported person wrote in that room, as they wrote it: their
names, chat lines, clues and guesses from the room's log, and the words of the table's
own word list when they are its host. The text filter masks a line where it is said,
so the log (and everyone at the table) holds the masked line; the original is kept
apart, in the moderation store only (:func:`keep_original`), and put back in the
report. What was kept goes REVERIE_MODERATION_KEEP_DAYS after the report closes.
"""

from __future__ import annotations

import hashlib
import logging
import time
from collections.abc import Iterable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from reverie.content.custom_words import SHELF
from reverie.errors import RoomError
from reverie.games import Limit
from reverie.rooms.commands import ReportCmd
from reverie.rooms.events import Acted, Chatted, Created, Joined, RoomEvent, decode_log
from reverie.rooms.members import people
from reverie.rooms.state import RoomState, evolve
from reverie.rooms.texts import clean_chat
from reverie.store import StoreUnavailable
from reverie.store.moderation import (
    REPORT_REASONS,
    REPORT_TEXT_MAX,
    KeptLine,
    ModerationStore,
    NewReport,
)
from reverie.web.limits import Bucket, scaled

if TYPE_CHECKING:
    from reverie.web.ws import Connection

log = logging.getLogger("reverie.moderation")

#: What a masked line was, by the kind of frame it came in.
_KINDS = {"Chat": "chat", "ClueCmd": "clue", "TellCmd": "clue", "GuessCmd": "guess"}


def person_key(address: str) -> str:
    """Who files a report when the connection has no hashed ids (for the per-person
    limit and the operator: the moderation store keeps no address in the clear)."""
    return hashlib.sha256(f"address:{address}".encode()).hexdigest()[:24]


def kind_of(cmd: object) -> str:
    """``chat``, ``clue``, ``guess`` or the frame's own tag: what a line was."""
    name = type(cmd).__name__
    if name in _KINDS:
        return _KINDS[name]
    tag = getattr(type(cmd), "__struct_config__", None)
    return str(getattr(tag, "tag", None) or name.lower())


async def keep_original(
    store: ModerationStore | None,
    room: str,
    author: str | None,
    kind: str,
    masked: str,
    original: str,
    at: float,
) -> None:
    """Keep what the filter masked, for a report (a store that fails costs the line
    nothing: it is said, masked, all the same)."""
    if store is None or author is None or masked == original:
        return
    try:
        await store.keep_original(room, author, kind, masked, original, at)
    except StoreUnavailable as exc:
        log.warning("room %s: the original of a masked line was not kept: %s", room, exc)


def _author_lines(
    events: Iterable[RoomEvent], token_hash: str, originals: dict[str, str]
) -> list[KeptLine]:
    """What the seat holding ``token_hash`` wrote, folding the log (seats move in the
    lobby, so a line's author is read from the room as it was when it was said)."""
    room: RoomState | None = None
    lines: list[KeptLine] = []
    for event in events:
        before = room
        room = evolve(room, event)
        if isinstance(event, Created | Joined) and event.token_hash == token_hash:
            lines.append(KeptLine("name", event.name, getattr(event, "at", 0.0)))
            # The hashed browser and address ids a room records of a person (when it
            # does): what the operator bans.
            ids = getattr(event, "ids", None)
            for value in ids if isinstance(ids, list | tuple) else ():
                lines.append(KeptLine("id", str(value)))
        elif before is None:
            continue
        elif isinstance(event, Chatted):
            if _holds(before, event.seat, token_hash, getattr(event, "member", 0)):
                lines.append(KeptLine("chat", originals.get(event.text, event.text), event.at))
        elif isinstance(event, Acted):
            action: Any = event.action
            seat, text = getattr(action, "seat", None), getattr(action, "text", None)
            if isinstance(text, str) and text and _holds(before, seat, token_hash):
                kind = "clue" if type(action).__name__ in ("Clue", "Tell") else "guess"
                lines.append(KeptLine(kind, originals.get(text, text)))
    return lines


def _holds(room: RoomState, seat: object, token_hash: str, member: int = 0) -> bool:
    """Whether ``token_hash`` is the person (``member`` of a team seat) in ``seat``."""
    if not isinstance(seat, int) or not 0 <= seat < len(room.players):
        return False
    seated = people(room.players[seat])
    return 0 <= member < len(seated) and seated[member][1] == token_hash


async def _own_words(room: RoomState, target_seat: int | None) -> list[KeptLine]:
    """The table's own word list, when the reported person is the host who chose it (or
    the whole table is reported)."""
    list_id = getattr(room.options, "words", None)
    if not isinstance(list_id, str) or (target_seat is not None and target_seat != room.host):
        return []
    words = await SHELF.fetch(list_id)
    if words is None:
        return []
    return [KeptLine("words", f"{category}: {', '.join(entries)}")
            for category, entries in words.lists.items()]  # fmt: skip


async def file_report(conn: Connection, cmd: ReportCmd) -> int:
    """Take a report from this connection; returns its id (``RoomError`` when it is
    refused: no moderation, an unknown reason or seat, past the hourly limit)."""
    state: Any = conn.ws.app.state
    store: ModerationStore | None = getattr(state, "moderation", None)
    if store is None:
        raise RoomError("no_moderation", "This server takes no reports.")
    if cmd.reason not in REPORT_REASONS:
        raise RoomError("bad_reason", f"A report's reason is one of {', '.join(REPORT_REASONS)}.")
    text = " ".join(cmd.text.split())
    if len(text) > REPORT_TEXT_MAX:
        raise RoomError(
            "report_too_long",
            f"A report says at most {REPORT_TEXT_MAX} characters.",
            {"max": REPORT_TEXT_MAX},
        )
    if text:
        text = clean_chat(text)
    room = conn.live.state
    target = None
    if cmd.seat is not None:
        if not 0 <= cmd.seat < len(room.players) or not 0 <= cmd.member < len(
            people(room.players[cmd.seat])
        ):
            raise RoomError("bad_seat", "There is nobody to report in that seat.")
        # One person of a team seat (member 0: its first, or a solo seat's person).
        name, token = people(room.players[cmd.seat])[cmd.member]
        if token is not None and token == conn.token_hash:
            raise RoomError("bad_seat", "There is nobody to report in that seat.")
        target = replace(room.players[cmd.seat], name=name, token_hash=token)
    # The browser's hashed id when it has one (web/browser_id.py), else the address's.
    ids: tuple[str, ...] = getattr(conn, "ids", ())
    reporter = ids[0] if ids else person_key(conn.address)
    per_hour: float = state.settings.reports_per_hour
    if per_hour > 0:
        limit = Limit(rate=per_hour / 3600, burst=per_hour)
        buckets: list[Bucket] = [(("reports", reporter), limit, 1.0)]
        if conn.address_factor > 0:  # a new cookie buys no more than the address's share
            address = scaled(limit, conn.address_factor)
            buckets.append((("reports", "address", conn.address), address, 1.0))
        if not await conn.limits.allow(*buckets):
            raise RoomError(
                "rate_limited", "You have sent many reports lately; wait a while.",
                {"per_hour": int(per_hour)},
            )  # fmt: skip
    kept: list[KeptLine] = []
    if target is not None and target.token_hash is not None:
        stored = await conn.service.store.load(room.code)
        events = decode_log(r.payload for r in stored)
        originals = await store.originals(room.code, target.token_hash)
        kept = _author_lines(events, target.token_hash, originals)
    elif target is not None:  # a bot: its name is what there is
        kept = [KeptLine("name", target.name)]
    kept += await _own_words(room, cmd.seat)
    report = NewReport(
        room=room.code,
        target="table" if target is None else "player",
        target_name="" if target is None else target.name,
        reason=cmd.reason,
        text=text,
        reporter=reporter,
        kept=tuple(kept),
    )
    report_id = await store.add_report(report, time.time())
    metrics = getattr(state, "metrics", None)
    if metrics is not None:
        metrics.reports.inc()
    log.info("room %s: report #%d (%s)", room.code, report_id, cmd.reason)
    return report_id
