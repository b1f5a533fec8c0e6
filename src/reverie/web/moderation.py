"""The server's side of the operator's moderation (docs/moderation.md): site bans on
joining and opening a table, rooms the operator closed, approvals of players' decks and
word lists at public tables, and forgetting what closed reports kept.

``reverie moderation`` writes to the moderation store (:mod:`reverie.store.moderation`);
every server process looks there every REVERIE_CLOSE_POLL_SECONDS for closures to carry
out (the first to look appends the room's ``Closed`` event; the others' copies follow
through the log and the bus, and every socket is told ``room_closed``).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Sequence
from typing import Any

from reverie.errors import RoomError
from reverie.games import Limit
from reverie.rooms.service import RoomService
from reverie.store import StoreUnavailable
from reverie.store.moderation import ApprovalKind, ModerationStore, check_site_ban
from reverie.web.limits import Bucket, scaled

log = logging.getLogger("reverie.moderation")

#: Close code of a socket whose room the operator closed (the page stops reconnecting).
CLOSED_CODE = 4410
ROOM_CLOSED = "The site's operator closed this room."
#: Seconds between two prunings of what closed reports kept.
PRUNE_EVERY = 3600.0


def split_ids(ids: Sequence[str]) -> tuple[str | None, str | None]:
    """A person's hashed browser id (``b:…``) and address id (``a:…``), as
    :func:`reverie.web.browser_id.person_ids` gives them."""
    browser = next((i for i in ids if i.startswith("b:")), None)
    address = next((i for i in ids if i.startswith("a:")), None)
    return browser, address


async def check_person(store: ModerationStore | None, ids: Sequence[str]) -> None:
    """Refuse (``site_banned``) a browser or address the operator banned: called when a
    person joins a table and when they open one."""
    browser, address = split_ids(ids)
    try:
        await check_site_ban(store, browser, address, time.time())
    except StoreUnavailable as exc:  # a ban list that cannot be read bans nobody
        log.warning("site bans not checked: %s", exc)


async def check_public_content(store: ModerationStore | None, options: Any, setup: Any) -> None:
    """A public table plays the built-in decks and word lists, or a player's the
    operator approved: ``deck_not_approved`` / ``words_not_approved`` otherwise."""
    deck = _field(setup, "deck")
    if isinstance(deck, str) and deck.startswith("u-") and not await _approved(store, "deck", deck):
        raise RoomError(
            "deck_not_approved",
            "A public table plays the built-in decks or one the site's operator "
            "approved; this deck is not approved.",
        )
    words = _field(options, "words")
    if (
        isinstance(words, str)
        and words.startswith("w-")
        and not await _approved(store, "words", words)
    ):
        raise RoomError(
            "words_not_approved",
            "A public table plays the built-in words or a list the site's operator "
            "approved; this word list is not approved.",
        )


async def check_public_rate(state: Any, ids: Sequence[str], address: str) -> None:
    """Count one public table opened by this person (their browser, else their address;
    and their address's share, REVERIE_ADDRESS_FACTOR times as many): past
    REVERIE_PUBLIC_TABLES_PER_HOUR an hour, ``rate_limited``. Shared by every process
    when Redis is configured. ``state``: the app's state (settings and limits)."""
    per_hour: float = state.settings.public_tables_per_hour
    if per_hour <= 0:
        return
    limit = Limit(rate=per_hour / 3600, burst=per_hour)
    browser, _ = split_ids(ids)
    buckets: list[Bucket] = [(("public_tables", browser or address), limit, 1.0)]
    factor: float = state.settings.address_factor
    if browser and factor > 0:  # new cookies buy no more than the address's share
        buckets.append((("public_tables", "address", address), scaled(limit, factor), 1.0))
    if not await state.limits.allow(*buckets):
        raise RoomError(
            "rate_limited",
            "You have opened many public tables lately; wait a while.",
            {"per_hour": int(per_hour)},
        )


async def _approved(store: ModerationStore | None, kind: ApprovalKind, item: str) -> bool:
    return store is not None and await store.is_approved(kind, item)


def _field(holder: Any, name: str) -> Any:
    if isinstance(holder, dict):
        return holder.get(name)
    return getattr(holder, name, None)


async def carry_out_closures(service: RoomService, store: ModerationStore) -> int:
    """Close the rooms the operator asked to close; returns how many were closed."""
    done = 0
    for code, reason in await store.pending_closures():
        try:
            closed = await service.close_room(code, reason)
        except (RoomError, StoreUnavailable) as exc:
            log.warning("room %s not closed yet: %s", code, exc)
            continue
        if not closed:
            log.warning("room %s: no such room to close", code)
        await store.closure_applied(code, service.clock())
        done += closed
    return done


async def run_moderation(
    service: RoomService,
    store: ModerationStore,
    every: float,
    keep_seconds: float,
    clock: Callable[[], float] = time.time,
) -> None:
    """Every ``every`` seconds, carry out the operator's closures; every hour, forget
    what closed reports kept past ``keep_seconds``. Until cancelled."""
    pruned = 0.0
    while not service.closed:
        try:
            await carry_out_closures(service, store)
            if clock() - pruned >= PRUNE_EVERY:
                pruned = clock()
                await store.prune(pruned, keep_seconds)
        except StoreUnavailable as exc:
            log.warning("moderation: %s", exc)
        except Exception:  # one bad closure must not end the loop
            log.exception("moderation loop failed; trying again")
        await asyncio.sleep(every)
