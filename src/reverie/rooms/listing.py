"""What the open tables page lists, and keeping the shared board up to date.

Each process lists the public tables it runs (those whose lease it holds) on the board
(:mod:`reverie.bus.board`), renewing each entry every :data:`LIST_EVERY` seconds with a
time to live of one lease: a process that dies stops renewing, and its tables leave the
board within that time. A table leaves the board at once (the next round) when it is
made private, when its game ends, or when its last person has been gone for
``empty_seconds``. A private table is never put on the board at all.

An entry says what a stranger needs to choose a table, and nothing about the people at
it (no names): the game, the table's language, how many people and bots sit, the seats,
the phase, when it opened and started, and whether a person may take a seat now.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

from reverie.bus.board import Board
from reverie.rooms.live import LiveRoom
from reverie.rooms.members import tokens
from reverie.rooms.state import RoomState
from reverie.rooms.takeover import DECIDED, decided, open_places, takeable_bots
from reverie.rooms.visibility import public_facts

if TYPE_CHECKING:
    from reverie.rooms.service import RoomService

log = logging.getLogger("reverie.rooms")

#: Seconds a public table stays listed after its last person left (REVERIE_OPEN_EMPTY_SECONDS).
OPEN_EMPTY_SECONDS = 30.0
#: Seconds between two renewals of this process's entries.
LIST_EVERY = 1.0

__all__ = ["DECIDED", "Lister", "decided", "entry", "free_seats", "may_seat", "takeable_bots"]


def free_seats(room: RoomState) -> int:
    """Empty seats in the lobby (none once a game runs: the seats are dealt)."""
    return max(0, room.seats - len(room.players)) if room.status == "lobby" else 0


def may_seat(room: RoomState) -> bool:
    """Whether a stranger may sit down now: a free seat in the lobby, or a bot's seat in
    a game not yet decided."""
    if not room.public:
        return False
    if room.status == "lobby":
        return free_seats(room) > 0
    return open_places(room) > 0


def people(room: RoomState) -> int:
    """How many people (not bots) play at the table, every member of a team seat."""
    return sum(len(tokens(p)) for p in room.players if not p.bot)


def present(live: LiveRoom) -> int:
    """How many of the table's people have a socket open in some process."""
    here = live.present_tokens()
    return sum(1 for p in live.state.players if not p.bot for t in tokens(p) if t in here)


def entry(live: LiveRoom, *, started: float | None) -> dict[str, Any]:
    """The board's entry for a public table (``started``: when its game began, if it
    runs). ``starts_at``: when a play-now table starts by itself; ``waiting``: the
    people queued for a bot's seat at the next turn (rooms/takeover.py)."""
    room = live.state
    # What anyone may read of the table (a spectator's view, cut), and counts.
    facts = public_facts(room)
    progress = room.family.progress(room.game) if room.game is not None else 0.0
    return {
        "code": facts["code"],
        "game": facts["variant"],
        "lang": room.lang,
        "people": people(room),
        "present": present(live),
        "bots": sum(1 for p in room.players if p.bot),
        "seats": facts["seats"],
        "free": free_seats(room) if room.status == "lobby" else open_places(room),
        "phase": facts["status"],
        "created": room.created_at,
        "started": started,
        "starts_at": room.starts_at if room.status == "lobby" else None,
        "progress": round(progress, 2),
        "may_seat": may_seat(room),
        "waiting": len(room.waiting),
    }


class Lister:
    """Keeps this process's public tables on the board (one per service)."""

    def __init__(
        self,
        service: RoomService,
        board: Board,
        *,
        empty_seconds: float = OPEN_EMPTY_SECONDS,
        every: float = LIST_EVERY,
    ) -> None:
        self.service = service
        self.board = board
        self.empty_seconds = empty_seconds
        self.every = every
        #: Codes this process put on the board and has not dropped.
        self.listed: set[str] = set()
        # When each table's last person left (by the service's clock).
        self._empty_since: dict[str, float] = {}
        # When each table's game began, and which game that was (this process saw it).
        self._started: dict[str, tuple[int, float]] = {}
        #: People play now seated, by how (at a waiting table, at a table it opened, in
        #: the queue for a bot's seat at a running one).
        self.seatings: dict[str, int] = {"joined": 0, "opened": 0, "queued": 0}
        self._starts: set[asyncio.Task[None]] = set()
        # The tables being started now (a timer here and a due start met by a refresh
        # must not both fill the seats).
        self._starting: set[str] = set()

    def start_later(self, live: LiveRoom, delay: float) -> None:
        """Start the table ``delay`` seconds from now, bots in its empty seats, unless
        its host started it before (a table play now opened: nobody waits in an empty
        lobby). If this process stops or loses the room's lease first, the process
        holding the lease starts it when its refresh finds it due (``starts_at``, which
        the log keeps)."""
        loop = asyncio.get_running_loop()
        loop.call_later(max(0.0, delay), self._launch, live)

    def _launch(self, live: LiveRoom) -> None:
        code = live.state.code
        if code in self._starting or live.state.status != "lobby":
            return
        self._starting.add(code)
        task = asyncio.get_running_loop().create_task(self._start(live))
        self._starts.add(task)
        task.add_done_callback(self._starts.discard)
        task.add_done_callback(lambda _t: self._starting.discard(code))

    def _due(self, live: LiveRoom) -> bool:
        """Whether a play-now table waits past the time it starts by itself."""
        room = live.state
        at = room.starts_at
        return room.status == "lobby" and at is not None and self.service.clock() >= at

    async def _start(self, live: LiveRoom) -> None:
        from reverie.errors import RoomError
        from reverie.rooms.commands import AddBot, Start

        service = self.service
        if service.closed:
            return
        try:
            while live.state.status == "lobby" and len(live.state.players) < live.state.seats:
                await service.command(live, live.state.host, AddBot())
            if live.state.status == "lobby":
                await service.command(live, live.state.host, Start())
        except RoomError as exc:  # started or changed by its host meanwhile
            log.info("room %s: not started by play now (%s)", live.state.code, exc.code)
        except Exception:  # the store may be down: the host can still start
            log.exception("room %s: play now could not start it", live.state.code)

    def listable(self, live: LiveRoom) -> bool:
        """Whether the table belongs on the board now (tracks who is gone as it looks)."""
        room = live.state
        code = room.code
        if not room.public or room.status == "over" or live.damaged:
            return False
        now = self.service.clock()
        if present(live) > 0:
            self._empty_since.pop(code, None)
            return True
        since = self._empty_since.setdefault(code, now)
        return now - since < self.empty_seconds

    def _started_at(self, live: LiveRoom) -> float | None:
        room = live.state
        if room.status != "playing":
            self._started.pop(room.code, None)
            return None
        seen = self._started.get(room.code)
        if seen is None or seen[0] != room.games:
            seen = (room.games, self.service.clock())
            self._started[room.code] = seen
        return seen[1]

    async def refresh(self) -> None:
        """One round: put every public table this process runs, drop those that left."""
        service = self.service
        ttl = service.leases.seconds
        keep: set[str] = set()
        puts = []
        for code, live in list(service.rooms.items()):
            if not service.runners.holds_lease(live):
                continue  # its lease holder lists it (and starts it when due)
            if self._due(live):
                self._launch(live)
            if not self.listable(live):
                continue
            started = self._started_at(live)
            keep.add(code)
            puts.append(self.board.put(code, entry(live, started=started), ttl))
        gone = self.listed - keep
        drops = [self.board.drop(code) for code in gone]
        await asyncio.gather(*puts, *drops)
        for code in gone:
            self._started.pop(code, None)
            if code not in service.rooms:
                self._empty_since.pop(code, None)
        self.listed = keep

    async def run(self) -> None:
        """Refresh every :attr:`every` seconds until the service closes; a failed round
        is said and the next tries again."""
        while not self.service.closed:
            try:
                await self.refresh()
            except Exception:  # the board must not stop for one bad round
                log.exception("the open tables were not refreshed")
            await asyncio.sleep(self.every)

    async def close(self) -> None:
        """Take this process's tables off the board (a clean stop; a killed process's
        entries run out by themselves)."""
        codes, self.listed = self.listed, set()
        await asyncio.gather(*(self.board.drop(c) for c in codes), return_exceptions=True)
