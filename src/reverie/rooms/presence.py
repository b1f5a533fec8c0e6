"""Who is at a room's table: the sockets open here and in other processes, when each
seat was last seen, the game pausing when every person is gone, and stand-ins (a bot
for a seat, the host role for someone present) for people gone past the table's
``away_seconds``."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

from reverie.errors import ReverieError, RoomError
from reverie.rooms.bot_levels import stand_in_level
from reverie.rooms.events import BotSeat, HostChanged, RoomEvent
from reverie.rooms.live import LiveRoom, PresenceBatch
from reverie.rooms.members import tokens
from reverie.rooms.messages import PresenceSaid
from reverie.rooms.retry import write_or_retry
from reverie.rooms.state import RoomState

if TYPE_CHECKING:
    from reverie.rooms.service import RoomService

log = logging.getLogger("reverie.rooms")


def _always(event: RoomEvent) -> Callable[[RoomState], RoomEvent]:
    """A decision that does not depend on the room (a stand-in worked out before)."""
    return lambda _room: event


def _count(live: LiveRoom, token_hash: str | None) -> None:
    """One more open connection for the seat token (None: a spectator)."""
    if token_hash is None:
        live.spectators += 1
    else:
        live.connections[token_hash] = live.connections.get(token_hash, 0) + 1


def _uncount(live: LiveRoom, token_hash: str | None) -> None:
    """One connection fewer."""
    if token_hash is None:
        live.spectators = max(0, live.spectators - 1)
    else:
        left = live.connections.get(token_hash, 0) - 1
        if left > 0:
            live.connections[token_hash] = left
        else:
            live.connections.pop(token_hash, None)


def teams_back(room: RoomState, before: set[str], after: set[str]) -> list[int]:
    """The team seats a bot plays whose people were all away (``before``: the tokens
    present then) and of whom one is back now (``after``)."""
    back = after - before
    seats = []
    for seat, player in enumerate(room.players):
        people = set(tokens(player))
        if player.members and player.bot_playing and people & back and not people & before:
            seats.append(seat)
    return seats


def paused(live: LiveRoom) -> bool:
    """Whether every person at the table is gone: bots do not play on alone, and the
    clock stops, until someone is back. A person queued for a bot's seat counts: the
    turn they wait for must end (rooms/takeover.py)."""
    people = [t for p in (*live.state.players, *live.state.waiting) for t in tokens(p)]
    return bool(people) and not any(live.sockets(t) > 0 for t in people)


class Attendance:
    """Presence and stand-ins of the rooms in memory."""

    def __init__(self, service: RoomService) -> None:
        self.service = service

    async def connect(self, live: LiveRoom, token_hash: str | None) -> None:
        """A connection opened for the seat holding ``token_hash`` (None: a spectator)."""
        await self.update(live, lambda: _count(live, token_hash), tell_others=True)

    async def move(self, live: LiveRoom, old: str | None, new: str | None) -> None:
        """A connection counted under ``old`` is counted under ``new`` now: one change,
        made at once, so that a socket's writer and reader moving it at the same moment
        cannot interleave their counts."""

        def change() -> None:
            _uncount(live, old)
            _count(live, new)

        await self.update(live, change, tell_others=True)

    async def disconnect(self, live: LiveRoom, token_hash: str | None) -> None:
        """A connection closed."""
        await self.update(live, lambda: _uncount(live, token_hash), tell_others=True)

    def away_seats(self, live: LiveRoom, grace: float | None = None) -> frozenset[int]:
        """Seats of people with no open connection for at least ``grace`` seconds (the
        server's grace period for handing a seat or the host role by hand). A team
        seat is away only once every member is: it plays on while one is here."""
        svc = self.service
        wait = svc.away_grace if grace is None else grace
        now = svc.clock()
        away = set()
        for seat, player in enumerate(live.state.players):
            gone = self._gone_since(live, tokens(player))
            if gone is not None and now - gone >= wait:
                away.add(seat)
        return frozenset(away)

    @staticmethod
    def _gone_since(live: LiveRoom, seat_tokens: list[str]) -> float | None:
        """Since when all of a seat's people have been gone (None: someone is here, or
        a bot's seat)."""
        if not seat_tokens or any(live.sockets(t) > 0 for t in seat_tokens):
            return None
        return max(live.gone_since.get(t, live.loaded_at) for t in seat_tokens)

    async def update(
        self, live: LiveRoom, change: Callable[[], object], *, tell_others: bool = False
    ) -> None:
        """Apply ``change`` to who is connected (here or in another process) now, and
        wait for what follows: when each seat was last seen, a paused game resuming,
        the host getting the role back, stand-ins, a fresh view for everyone, and (if
        ``tell_others``) this process's presence sent to the others.

        What follows is done once for all the changes made to the room in the same turn
        of the event loop (:class:`~reverie.rooms.live.PresenceBatch`): a shutdown that
        closes every socket, or a crowd reconnecting, costs one follow-up per room, not
        one per socket."""
        batch = live.presence_batch
        if batch is None:
            loop = asyncio.get_running_loop()
            batch = PresenceBatch(paused(live), live.present_tokens(), loop.create_future())
            live.presence_batch = batch
            batch.task = loop.create_task(self._follow(live, batch))
        change()
        batch.changes += 1
        batch.tell_others = batch.tell_others or tell_others
        # Shielded: a caller cancelled (its socket dropped) must not cancel the others'.
        await asyncio.shield(batch.done)

    async def _follow(self, live: LiveRoom, batch: PresenceBatch) -> None:
        """Follow a batch of presence changes up (see :meth:`update`)."""
        svc = self.service
        try:
            await asyncio.sleep(0)  # the changes of this turn join the batch meanwhile
            live.presence_batch = None  # changes from now on start the next batch
            svc.stats["presence_batches"] += 1
            after = live.present_tokens()
            now = svc.clock()
            for token in batch.before - after:
                live.gone_since[token] = now
            for token in after - batch.before:
                live.gone_since.pop(token, None)
            live.presence += 1
            live.last_active = now
            home = live.state.home_host
            if home is not None and self._back_home(live, home, after - batch.before):
                await self._host_returns(live, home)
            if live.leased and not svc.closed:
                for seat in teams_back(live.state, batch.before, after):
                    await self._team_returns(live, seat)
            if batch.was_paused and not paused(live):
                svc.runners.resume(live)
            if not svc.closed:
                self.watch_absence(live)
                svc.publish_state(live)
                if batch.tell_others:
                    await self.tell_others(live)
        except Exception:  # the sockets that changed must not fail for a follow-up
            log.exception("room %s: presence change not followed up", live.state.code)
        finally:
            if not batch.done.done():
                batch.done.set_result(None)

    async def tell_others(self, live: LiveRoom) -> None:
        """Tell the other processes which sockets of the room this one holds."""
        if self.service.bus.shared:
            said = PresenceSaid(tokens=dict(live.connections), spectators=live.spectators)
            await self.service.writer.broadcast(live, said)

    @staticmethod
    def _back_home(live: LiveRoom, home: str, back: set[str]) -> bool:
        """Whether someone of the seat the host role was taken from is back (a team
        seat's any member: the role was the seat's)."""
        if not live.leased or not back:
            return False
        seat = live.state.seat_of(home)
        return seat is not None and bool(back & set(tokens(live.state.players[seat])))

    async def _host_returns(self, live: LiveRoom, token_hash: str) -> None:
        """A host whose role was taken while they were away gets it back."""

        def give_back(room: RoomState) -> RoomEvent:
            seat = room.seat_of(token_hash)
            if room.home_host != token_hash or seat is None:
                raise RoomError("bad_message", "The host role was settled meanwhile.")
            return HostChanged(seat)

        async with live.lock:
            try:
                await self.service.writer.commit(live, give_back)
            except ReverieError as exc:
                log.info("host of %s not given back: %s", live.state.code, exc)

    async def _team_returns(self, live: LiveRoom, seat: int) -> None:
        """The first member back at a team seat a bot stands in for takes it back: the
        seat was the team's all along, and its members need not ask for it."""
        before = live.state.players[seat]

        def hand_back(room: RoomState) -> RoomEvent:
            now = room.players[seat] if seat < len(room.players) else None
            if now is None or now.token_hash != before.token_hash or not now.bot_playing:
                raise RoomError("bad_message", "The seat was settled meanwhile.")
            return BotSeat(seat, on=False, auto=True)

        async with live.lock:
            try:
                await self.service.writer.commit(live, hand_back)
            except ReverieError as exc:
                log.info("team seat of %s not handed back: %s", live.state.code, exc)

    # ------------------------------------------------------------------ stand-ins

    def _stand_ins(self, live: LiveRoom) -> list[RoomEvent]:
        """What the room should do now about people gone past the table's
        ``away_seconds``: a bot for each such seat in a game, and the host role of such a
        host to someone at the table."""
        room = live.state
        if room.away_seconds is None:
            return []
        gone = self.away_seats(live, grace=room.away_seconds)
        events: list[RoomEvent] = []
        if room.status == "playing":
            events += [
                BotSeat(s, on=True, auto=True, level=stand_in_level(room))
                for s in sorted(gone)
                if not room.players[s].bot_playing
            ]
        present = [s for s in live.connected if not room.players[s].bot]
        if room.host in gone and present:
            events.append(HostChanged(min(present), takeover=True))
        return events

    def watch_absence(self, live: LiveRoom) -> None:
        """Look again now if a stand-in is due, else when the next person gone would
        pass the table's ``away_seconds`` (never again for those already handled)."""
        if live.absence_timer is not None:
            live.absence_timer.cancel()
            live.absence_timer = None
        wait = live.state.away_seconds
        if wait is None or self.service.closed or not live.leased:
            return
        now = self.service.clock()
        if self._stand_ins(live):
            delay = 0.0
        else:
            gone = [self._gone_since(live, tokens(p)) for p in live.state.players]
            due = [g + wait for g in gone if g is not None]
            later = [d for d in due if d > now]
            if not later:
                return
            delay = min(later) - now + 0.05
        self._call_absence_check(live, delay)

    def _call_absence_check(self, live: LiveRoom, delay: float) -> None:
        if live.absence_timer is not None:
            live.absence_timer.cancel()
        loop = asyncio.get_running_loop()
        live.absence_timer = loop.call_later(
            delay, lambda: loop.create_task(self._absence_check(live))
        )

    async def _absence_check(self, live: LiveRoom) -> None:
        """Carry out the stand-ins due (each commit looks again at who is gone)."""
        svc = self.service
        async with live.lock:
            if svc.closed or not svc.runners.holds_lease(live):
                return
            for event in self._stand_ins(live):
                commit = svc.writer.commit(live, _always(event))
                delay = await write_or_retry(live, commit, "stand-in", refused=logging.INFO)
                if delay is not None:
                    # The store failed: look again after the backoff, not at once.
                    self._call_absence_check(live, delay)
                    return
        self.watch_absence(live)
