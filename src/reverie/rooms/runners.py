"""What a room does by itself, in the process holding its lease: the phase timer that
ends a phase at its deadline, and the bots' moves. Both go through the same write as a
player's command, so they are in the log like everything else."""

from __future__ import annotations

import asyncio
import logging
import random
from typing import TYPE_CHECKING

from reverie.errors import RoomError
from reverie.rooms.events import Acted, RoomEvent
from reverie.rooms.live import LiveRoom
from reverie.rooms.presence import paused
from reverie.rooms.retry import backoff, write_or_retry
from reverie.rooms.state import RoomState

if TYPE_CHECKING:
    from reverie.rooms.service import RoomService

log = logging.getLogger("reverie.rooms")

#: A phase whose deadline passed while no process ran the room still gets this long once
#: it is loaded again, so players who reconnect see the clock before it ends the phase.
MIN_TIMER = 1.0
#: A game that paused with every person gone gives its phase at least this long once
#: someone is back.
RESUME_TIMER = 10.0

#: A phase's timer is armed for (game, phase version, phase, timer name).
TimerKey = tuple[int, int, str, str]
#: At most this share of the phase's timer goes to a bot's thinking.
TIMER_SHARE = 0.25


def think_seconds(
    scale: float, pace: tuple[float, float], limit: float | None, rng: random.Random
) -> float:
    """Seconds a bot seems to think, so that a table of people does not see moves fall
    at once: a person's ``pace`` over the move (the family's ``bot_pace``) times
    ``scale`` (the server's ``bot_delay``: 1 is a person's pace, 0 moves at once), at
    most a quarter of the phase's timer ``limit`` when the table has one.

    >>> think_seconds(0, (2.5, 6.0), None, random.Random(1))
    0.0
    >>> 2.5 <= think_seconds(1, (2.5, 6.0), None, random.Random(1)) <= 6.0
    True
    >>> think_seconds(1, (1.5, 4.0), 8, random.Random(1)) <= 2.0
    True
    """
    if scale <= 0:
        return 0.0
    seconds = scale * rng.uniform(*pace)
    if limit:
        seconds = min(seconds, TIMER_SHARE * limit)
    return seconds


def _loop_running() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


class Runners:
    """A room's phase timer and bots."""

    def __init__(self, service: RoomService) -> None:
        self.service = service

    def after_change(self, live: LiveRoom) -> None:
        """The room changed (or came back): re-arm the timer, let the bots look again,
        and see whether someone gone needs a stand-in."""
        svc = self.service
        if svc.closed:
            return
        if live.state.closed:  # the operator closed it: no timer, no bot moves on
            self.stop(live)
            return
        self.arm_timer(live)
        self.schedule_bots(live)
        svc.presence.watch_absence(live)  # a game that starts may need stand-ins at once

    def stop(self, live: LiveRoom) -> None:
        """Cancel the room's timers and bots here (the lease moved, or the room left
        memory)."""
        if live.timer is not None:
            live.timer.cancel()
            live.timer = None
        if live.absence_timer is not None:
            live.absence_timer.cancel()
            live.absence_timer = None
        current = asyncio.current_task()
        for task in live.bot_tasks.values():
            if task is not current:  # a bot that finds the lease gone just returns
                task.cancel()

    def holds_lease(self, live: LiveRoom) -> bool:
        """Whether a timer, bot or stand-in may act in the room now: this process holds
        its lease, and the lease surely has not run out since its last renewal (while
        Redis is away the room runs on until then, by this process's own clock, and no
        longer: another process may take the lease after that). A lease found run out
        is let go here, as the next round of ``run_leases`` would."""
        if not live.leased:
            return False
        svc = self.service
        code = live.state.code
        if svc.leases.holds(code):
            return True
        live.leased = False
        svc.stats["leases_lost"] += 1
        log.info("room %s: lease ran out unrenewed; its timers and bots wait", code)
        self.stop(live)
        return False

    def resume(self, live: LiveRoom) -> None:
        """Someone is back: a paused game's bots and clock go on, the phase with at least
        :data:`RESUME_TIMER` left."""
        now = self.service.clock
        if live.deadline is not None and live.deadline < now() + RESUME_TIMER:
            live.phase_started += now() + RESUME_TIMER - live.deadline
            live.deadline_key = None  # re-armed below with the moved deadline
        self.after_change(live)

    # ------------------------------------------------------------------ the phase timer

    def arm_timer(self, live: LiveRoom) -> None:
        """Work out the phase's deadline (every process shows it) and, in the process
        holding the lease, set the timer that ends the phase."""
        room = live.state
        timer = room.timer()  # the table's time factor included
        phase = room.phase_key()
        key = None if timer is None or phase is None else (*phase, timer[0])
        if key == live.deadline_key and (key is None or (live.timer is not None) == live.leased):
            return
        if live.timer is not None:
            live.timer.cancel()
            live.timer = None
        if key != live.deadline_key:
            live.presence += 1  # the deadline is part of the frames
        live.deadline_key = key
        live.deadline = None
        if key is None or timer is None:
            return
        live.deadline = live.phase_started + timer[1]
        if live.leased:
            self._call_time_up(live, key, max(MIN_TIMER, live.deadline - self.service.clock()))

    def _call_time_up(self, live: LiveRoom, key: TimerKey, delay: float) -> None:
        loop = asyncio.get_running_loop()
        live.timer = loop.call_later(delay, lambda: loop.create_task(self._time_up(live, key)))

    async def _time_up(self, live: LiveRoom, key: TimerKey) -> None:
        svc = self.service
        async with live.lock:
            if live.deadline_key != key or svc.closed or not self.holds_lease(live):
                return
            if paused(live):
                return  # nobody is there: the clock waits for someone to come back
            timeout = live.state.family.timeout()
            if timeout is None:
                return

            def time_is_up(room: RoomState) -> RoomEvent:
                if live.deadline_key != key:
                    raise RoomError("wrong_phase", "The phase ended meanwhile.")
                return Acted(timeout)

            # The store failing must not leave the table frozen: the phase still ends,
            # later.
            delay = await write_or_retry(live, svc.writer.commit(live, time_is_up), "timeout")
            if delay is not None and live.deadline_key == key:
                self._call_time_up(live, key, delay)

    # ------------------------------------------------------------------ bots

    def schedule_bots(self, live: LiveRoom) -> None:
        """Start a move for each bot the game waits for (in the lease holder)."""
        room = live.state
        game = room.game
        if game is None or room.status != "playing" or paused(live) or not live.leased:
            return
        bots = [p.controlled_by_bot for p in room.players]
        for seat in room.family.bot_seats(game, bots):
            if seat in live.bot_tasks:
                continue
            task = asyncio.get_running_loop().create_task(self._bot_move(live, seat))
            live.bot_tasks[seat] = task

    async def _bot_move(self, live: LiveRoom, seat: int) -> None:
        svc = self.service
        try:
            if live.failures:  # the last write failed: give the store time to come back
                await asyncio.sleep(backoff(live.failures))
            elif svc.bot_delay > 0:
                await asyncio.sleep(self._think_seconds(live.state))
            else:
                await asyncio.sleep(0)
            async with live.lock:
                room = live.state
                if not self.holds_lease(live) or room.game is None:
                    return
                if not room.players[seat].controlled_by_bot:
                    return
                level = room.players[seat].bot_level
                # In a thread: a clever bot's first move loads its encoder (seconds), and
                # the event loop serves the other rooms meanwhile.
                action = await asyncio.to_thread(
                    room.family.bot_action, room.game, seat, svc.rng, room, svc.library, level
                )
                # The bot thought in a thread (seconds, the first time): the lease may
                # have run out meanwhile.
                if action is None or not self.holds_lease(live):
                    return
                decided_on = room.version

                def bot_move(now: RoomState) -> RoomEvent:
                    # Decided on the room as it was: if another process moved it on
                    # meanwhile, this move is dropped and the bot looks again.
                    if now.version != decided_on:
                        raise RoomError("stale_version", "The table moved on; look again.")
                    return Acted(action)

                # A failed write is tried again by the next look (after the backoff).
                await write_or_retry(live, svc.writer.commit(live, bot_move), "bot move")
        finally:
            live.bot_tasks.pop(seat, None)
            # A coroutine discarded with a stopped server has no loop to schedule on.
            if not svc.closed and _loop_running():
                self.schedule_bots(live)

    def _think_seconds(self, room: RoomState) -> float:
        """How long a bot seems to think: ``bot_delay`` times a human pace for the move
        (the family's), shortened to fit the table's timer."""
        if room.game is None:
            return 0.0
        family = room.family
        timer = family.timer(room.game)
        limit = timer[1] if timer else None
        pace = family.bot_pace(room.game)
        return think_seconds(self.service.bot_delay, pace, limit, self.service.rng)
