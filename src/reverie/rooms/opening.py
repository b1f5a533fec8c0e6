"""Rooms coming and going: a new room opened, the rooms touched lately resumed at
start-up, idle rooms dropped from memory (their logs stay), every room's tasks stopped
and leases given up at shutdown. A part of the room service
(``service.opening``); loading a room on demand is the service's own (``get``)."""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from reverie.errors import RoomError
from reverie.games import AnyFamily, family_of
from reverie.rooms.errors import RoomDamaged
from reverie.rooms.events import DEFAULT_AWAY, Created, encode_event
from reverie.rooms.live import LiveRoom
from reverie.rooms.state import LANGUAGES, evolve, hash_token
from reverie.rooms.texts import check_new_name
from reverie.store import VersionConflict

if TYPE_CHECKING:
    from reverie.rooms.service import RoomService

__all__ = ["CLOSE_WAIT", "CODE_ALPHABET", "CODE_LENGTH", "IDLE_EVICT", "RESUME_WINDOW", "Opening"]

log = logging.getLogger("reverie.rooms")

CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6
RESUME_WINDOW = 7 * 24 * 3600  # rooms touched in the last week are resumed at start-up
IDLE_EVICT = 15 * 60  # a room nobody watches leaves memory after this long (the log stays)
#: Seconds the shutdown waits for the rooms' tasks to end once cancelled.
CLOSE_WAIT = 5.0


def _family(variant: str) -> AnyFamily:
    try:
        return family_of(variant)
    except LookupError as exc:  # refused as the fold refuses it
        raise RoomError("bad_options", str(exc)) from None


class Opening:
    """Rooms opened, resumed and evicted for the service."""

    def __init__(self, service: RoomService) -> None:
        self.service = service

    async def create(
        self,
        *,
        name: str,
        color: str,
        variant: str,
        seats: int,
        options: dict[str, Any],
        choices: Mapping[str, Any] | None = None,
        lang: str = "en",
        away_seconds: int | None = DEFAULT_AWAY,
        time_factor: int = 1,
        text_filter: str = "mild",
        public: bool = False,
        ids: tuple[str, ...] = (),
        starts_at: float | None = None,
    ) -> tuple[LiveRoom, str]:
        """Open a room with its creator seated as host; returns the room and their token.

        ``choices``: the content the creator chose beside the options, which the game's
        family reads (the association games' ``deck``). ``ids``: the creator's browser
        and address, hashed (:mod:`reverie.web.browser_id`), banned if they are removed.
        ``starts_at``: when the table starts by itself with bots (a table play now opens)."""
        service = self.service
        name = check_new_name(None, name, text_filter)
        if lang not in LANGUAGES:  # the fold reads an unknown one as English (old logs)
            raise RoomError(
                "bad_language", f"The table's language must be one of {', '.join(LANGUAGES)}."
            )
        family = _family(variant)
        await family.check_content(options, service.library)
        setup = await family.prepare(choices or {}, service.library)
        token = secrets.token_urlsafe(24)
        now = service.clock()
        for _ in range(20):
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            event = Created(
                code=code,
                variant=variant,
                seats=seats,
                options=options,
                setup=setup,
                seed=secrets.randbits(62),
                name=name,
                color=color,
                token_hash=hash_token(token),
                at=now,
                lang=lang,
                away_seconds=away_seconds,
                time_factor=time_factor,
                text_filter=text_filter,
                public=public,
                ids=ids,
                starts_at=starts_at,
            )
            state = evolve(None, event)  # validates before anything is written
            try:
                await service.store.create(code, encode_event(event), now)
            except VersionConflict:
                continue
            live = LiveRoom(state, last_active=now, phase_started=now, loaded_at=now)
            await service.bus.watch(code)
            live.leased = await service.leases.take(code)
            service.rooms[code] = live
            facts = family.setup_facts(state)  # "deck reverie2"
            told = "".join(f", {key} {value}" for key, value in facts.items())
            log.info("room %s created: %s, %d seats%s", code, variant, seats, told)
            await family.opened(code, state.setup, service.library)
            await family.options_named(code, options, service.library)
            return live, token
        raise RuntimeError("could not find a free room code")

    async def resume_active(self) -> int:
        """Load rooms touched recently so their bots and timers go on after a restart."""
        service = self.service
        codes = await service.store.active_rooms(service.clock() - RESUME_WINDOW)
        resumed = 0
        for code in codes:
            try:
                await service.get(code)  # loading a room restarts its bots and timers
                resumed += 1
            except RoomDamaged:
                pass  # closed, and said in one line already
            except Exception:  # one broken room must not keep the others (or the server) down
                log.exception("room %s could not be resumed", code)
        return resumed

    async def evict_idle(self, idle: float = IDLE_EVICT) -> int:
        """Drop rooms nobody has watched or touched for ``idle`` seconds from memory.

        Their logs stay; :meth:`RoomService.get` loads them again on the next visit. A room with a
        bot about to move or a command in progress stays. Returns how many left memory.
        """
        service = self.service
        now = service.clock()
        gone = 0
        for code, live in list(service.rooms.items()):
            busy = live.lock.locked() or live.bot_tasks or live.connections or live.spectators
            if busy or now - live.last_active < idle:
                continue
            service.runners.stop(live)
            del service.rooms[code]
            if service.bus.shared:
                await service.bus.unwatch(code)
                await service.leases.release(code)  # if it is this process's (see close)
            gone += 1
        return gone

    async def run_janitor(self, every: float = 60.0) -> None:
        """Evict idle rooms every ``every`` seconds, until cancelled."""
        while not self.service.closed:
            await asyncio.sleep(every)
            await self.evict_idle()

    async def close(self) -> None:
        """Stop bots and timers and give up the leases (the log holds everything)."""
        service = self.service
        service.closed = True
        for live in service.rooms.values():
            service.runners.stop(live)
            if live.inbox_task is not None:
                live.inbox_task.cancel()
        tasks = [t for live in service.rooms.values() for t in live.bot_tasks.values()]
        tasks += [live.inbox_task for live in service.rooms.values() if live.inbox_task]
        if tasks:
            # Bounded: a task that ignores its cancellation must not hold the shutdown.
            done, stuck = await asyncio.wait(tasks, timeout=CLOSE_WAIT)
            for task in done:
                if not task.cancelled() and task.exception() is not None:
                    log.debug("task ended with %r", task.exception())
            if stuck:
                log.warning("%d room task(s) still running at shutdown", len(stuck))
        # Every room's, not only those running here: a lease taken just after Redis
        # started empty is in Redis before it counts here (the script releases only
        # what is this process's).
        held = list(service.rooms)
        if held and service.bus.shared:
            await service.leases.release_many(held)
