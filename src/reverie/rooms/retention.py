"""Retention: rooms nobody plays any more leave the store after a while.

A finished room is kept :attr:`Retention.keep_finished` seconds after its last write (30
days by default: its players may look back at the story and the scores), a room that was
never finished (a lobby left behind, a game given up) :attr:`Retention.keep_abandoned`
seconds (7 days). Deleting a room removes its whole log (names, chat, clues, moves), its
snapshot and the record of the players' decks and word lists it played; a deleted
deck's pictures then go at the deck purge's next pass, since no room plays them any more.
A table's own word list goes in the same pass once no room in the store names it and
none has for :attr:`Retention.keep_words` seconds (7 days): lists have no owner to
delete them, and a list may serve many rooms.

A room is never deleted while it is in use: one this process holds in memory is skipped
(someone watched or played it within the last minutes), and every deletion is fenced by
the store on the room's last write (a move made meanwhile keeps the room).

In a server, :func:`run_retention` runs a pass every hour in the one process that holds
the ``~retention`` lease (the same leases rooms are run by); ``reverie rooms prune`` runs
one pass from the command line.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from reverie.bus.leases import Leases
from reverie.rooms.events import decode_event, decode_log
from reverie.rooms.opening import RESUME_WINDOW
from reverie.rooms.snapshots import UnusableSnapshot, decode_snapshot
from reverie.rooms.state import RoomState, evolve
from reverie.store import EventStore, RoomDeletion
from reverie.store.decks import DeckStore

log = logging.getLogger("reverie.retention")

DAY = 24 * 3600.0
#: The lease that decides which process prunes (no room code starts with ``~``).
LEASE = "~retention"
#: Seconds between two passes of a server.
EVERY = 3600.0
#: Seconds a server waits before its first pass (it is resuming its rooms).
FIRST = 60.0
#: Rooms deleted in one transaction.
BATCH = 100


class RetentionStore(EventStore, RoomDeletion, Protocol):
    """A store that can be pruned (both shipped stores are)."""


@dataclass(frozen=True, slots=True)
class Retention:
    """How long rooms are kept after their last write, and word lists no room names
    after one last did, in seconds (0: for ever)."""

    keep_finished: float = 30 * DAY
    keep_abandoned: float = 7 * DAY
    keep_words: float = 7 * DAY

    @classmethod
    def days(cls, finished: float, abandoned: float, words: float = 7.0) -> Retention:
        """The policy for periods given in days (``REVERIE_KEEP_FINISHED_DAYS``,
        ``REVERIE_KEEP_ABANDONED_DAYS``, ``REVERIE_KEEP_WORD_LISTS_DAYS``)."""
        if finished < 0 or abandoned < 0 or words < 0:
            raise ValueError("a retention period cannot be negative (0 keeps them for ever)")
        return cls(finished * DAY, abandoned * DAY, words * DAY)

    @property
    def enabled(self) -> bool:
        """Whether anything is ever deleted."""
        return self.keep_finished > 0 or self.keep_abandoned > 0 or self.keep_words > 0


@dataclass(slots=True)
class Pruned:
    """What a pass deleted (or, dry, would delete)."""

    finished: list[str] = field(default_factory=list)
    abandoned: list[str] = field(default_factory=list)
    in_use: list[str] = field(default_factory=list)
    word_lists: list[str] = field(default_factory=list)

    @property
    def deleted(self) -> int:
        """How many rooms went."""
        return len(self.finished) + len(self.abandoned)


class UnreadableLog(Exception):
    """A room's log cannot be folded (a damaged event)."""


async def fold_room(store: EventStore, code: str) -> RoomState | None:
    """The room's state: its latest snapshot and the log after it, folded (None if the
    room is unknown); :class:`UnreadableLog` if the log cannot be read."""
    state: RoomState | None = None
    snap = await store.load_snapshot(code)
    if snap is not None:
        try:
            state, _ = decode_snapshot(snap.payload)
        except UnusableSnapshot:
            state = None
    try:
        if state is None:
            events = decode_log(e.payload for e in await store.load(code))
        else:
            family = state.family
            events = [
                decode_event(e.payload, family) for e in await store.load(code, state.version)
            ]
        for event in events:
            state = evolve(state, event)
    except Exception as exc:  # a damaged log: the room service closes such a room
        raise UnreadableLog(code) from exc
    return state


async def room_finished(store: EventStore, code: str) -> bool | None:
    """Whether the room's game is over; None if the room is unknown. A log that cannot
    be read counts as finished: such a room is kept as long as a finished one, never
    less."""
    try:
        state = await fold_room(store, code)
    except UnreadableLog:
        log.warning("room %s: its log cannot be read; kept as long as a finished room", code)
        return True
    return None if state is None else state.status == "over"


async def rooms_running(store: EventStore, codes: Sequence[str], now: float) -> list[str]:
    """Which of these rooms still play: written to in the last week (a server resumes
    those at start-up, their bots and clocks running), neither over nor closed by the
    operator. An operator may not delete a deck or word list such a room plays."""
    wanted = set(codes)
    recent = [c for c in await store.active_rooms(now - RESUME_WINDOW) if c in wanted]
    running = []
    for code in recent:
        try:
            state = await fold_room(store, code)
        except UnreadableLog:
            continue  # closed by the server as soon as it is opened
        if state is not None and state.status != "over" and not state.closed:
            running.append(code)
    return sorted(running)


class Pruner:
    """Passes of the retention policy over one store; remembers which idle rooms it
    found finished, so a pass does not read their logs again while they wait out the
    longer period."""

    def __init__(self, store: RetentionStore, policy: Retention) -> None:
        self.store = store
        self.policy = policy
        self._finished: dict[str, tuple[float, bool]] = {}

    async def prune(
        self,
        now: float,
        *,
        in_use: Callable[[str], bool] = lambda code: False,
        still_ours: Callable[[], Awaitable[bool]] | None = None,
        dry_run: bool = False,
    ) -> Pruned:
        """Delete what the policy says is due at ``now``, except rooms ``in_use``; stops
        early when ``still_ours()`` (asked before each batch) says the pass is no longer
        this process's. Then the word lists no room names any more, if their time is up.
        ``dry_run``: delete nothing, say what would go."""
        result = await self._prune_rooms(now, in_use, still_ours, dry_run)
        if self.policy.keep_words > 0 and isinstance(self.store, DeckStore):
            if still_ours is not None and not await still_ours():
                return result
            # Lists only the rooms deleted now (or, dry, due now) named go in the same pass.
            going = set(result.finished) | set(result.abandoned)
            cut = now - self.policy.keep_words
            stale = [
                w.id
                for w in await self.store.stored_word_lists(used_before=cut)
                if set(w.rooms) <= going
            ]
            if dry_run:
                result.word_lists = stale
            elif stale:
                result.word_lists = await self.store.delete_word_lists(stale, unused_before=cut)
        return result

    async def _prune_rooms(
        self,
        now: float,
        in_use: Callable[[str], bool],
        still_ours: Callable[[], Awaitable[bool]] | None,
        dry_run: bool,
    ) -> Pruned:
        policy, result = self.policy, Pruned()
        finished_cut = now - policy.keep_finished if policy.keep_finished > 0 else None
        abandoned_cut = now - policy.keep_abandoned if policy.keep_abandoned > 0 else None
        cuts = [c for c in (finished_cut, abandoned_cut) if c is not None]
        if not cuts:
            return result
        due: dict[float, list[str]] = {}  # the cut each room is due by → its codes
        for code, at in await self.store.idle_rooms(max(cuts)):
            if in_use(code):
                result.in_use.append(code)
                continue
            finished = await self._is_finished(code, at)
            if finished is None:
                continue
            cut = finished_cut if finished else abandoned_cut
            if cut is not None and at < cut:
                due.setdefault(cut, []).append(code)
                (result.finished if finished else result.abandoned).append(code)
            await asyncio.sleep(0)  # a long pass must not hold the tables' event loop
        if dry_run:
            return result
        deleted: set[str] = set()
        for cut, codes in due.items():
            for start in range(0, len(codes), BATCH):
                if still_ours is not None and not await still_ours():
                    log.info("retention pass stopped: another process prunes now")
                    return self._only(result, deleted)
                gone = await self.store.delete_rooms(codes[start : start + BATCH], idle_before=cut)
                deleted.update(gone)
        for code in deleted:
            self._finished.pop(code, None)
        return self._only(result, deleted)

    @staticmethod
    def _only(result: Pruned, deleted: set[str]) -> Pruned:
        return Pruned(
            [c for c in result.finished if c in deleted],
            [c for c in result.abandoned if c in deleted],
            result.in_use,
        )

    async def _is_finished(self, code: str, at: float) -> bool | None:
        known = self._finished.get(code)
        if known is not None and known[0] == at:
            return known[1]
        finished = await room_finished(self.store, code)
        if finished is not None:
            self._finished[code] = (at, finished)
        return finished


async def run_retention(
    store: RetentionStore,
    policy: Retention,
    leases: Leases,
    *,
    clock: Callable[[], float],
    in_use: Callable[[str], bool],
    shared: bool,
    every: float | None = None,
    first: float | None = None,
    forget_words: Callable[[Sequence[str]], None] = lambda ids: None,
) -> None:
    """Prune every ``every`` seconds (:data:`EVERY`), until cancelled, in the process holding the
    :data:`LEASE` (with several processes it renews the lease a few times per lease
    period, as rooms' leases are, so one process keeps the task). A failed pass is
    logged and tried again at the next. The first pass waits ``first`` seconds
    (:data:`FIRST`): the server is resuming its rooms then. ``forget_words``: drop the
    word lists a pass deleted from this process's memory."""
    pruner = Pruner(store, policy)
    every = EVERY if every is None else every
    first = FIRST if first is None else first
    next_pass = clock() + first
    while True:
        held = await leases.take(LEASE)
        if held and clock() >= next_pass:
            next_pass = clock() + every
            try:
                pruned = await pruner.prune(
                    clock(), in_use=in_use, still_ours=lambda: leases.take(LEASE)
                )
            except Exception:
                log.warning("retention pass failed; trying again later", exc_info=True)
            else:
                if pruned.deleted:
                    log.info(
                        "retention: %d finished and %d abandoned room(s) deleted",
                        len(pruned.finished),
                        len(pruned.abandoned),
                    )
                if pruned.word_lists:
                    forget_words(pruned.word_lists)
                    log.info("retention: %d unused word list(s) deleted", len(pruned.word_lists))
        # Alone, the process needs no renewals: it sleeps until the next pass is due.
        await asyncio.sleep(leases.seconds / 4 if shared else max(1.0, next_pass - clock()))
