"""The room service's moderation: the operator's close of a room, the count of people
removed (by the host, by a vote), and the end of a vote that runs out with nobody to
decide it. A part of the room service (``service.moderation``); deciding the commands
is rooms/moderating.py's, folding them rooms/removal.py's."""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from reverie.errors import RoomError
from reverie.rooms.errors import RoomDamaged
from reverie.rooms.events import Closed, Removed, RoomEvent, Voted, VoteEnded
from reverie.rooms.state import RoomState

if TYPE_CHECKING:
    from reverie.rooms.live import LiveRoom
    from reverie.rooms.service import RoomService

__all__ = ["Moderation"]

log = logging.getLogger("reverie.rooms")


class Moderation:
    """Closing rooms, counting removals, ending votes on time."""

    def __init__(self, service: RoomService) -> None:
        self.service = service
        #: People removed from rooms by this process, by how (the host, a vote).
        self.removals: dict[str, int] = {"host": 0, "vote": 0}
        self._vote_tasks: set[asyncio.Task[None]] = set()

    def counted(self, before: RoomState, after: RoomState, event: RoomEvent) -> None:
        """Count a removal that ``event`` (taking ``before`` to ``after``) made."""
        if isinstance(event, Removed):
            self.removals["host"] += 1
        elif (
            isinstance(event, Voted)
            and before.vote is not None
            and after.seat_of(before.vote.target) is None
        ):
            # The ballot that made the majority removed the vote's target.
            self.removals["vote"] += 1

    def end_vote_later(self, live: LiveRoom, started: float, seconds: float) -> None:
        """End the vote that started at ``started`` once its time is up, if nobody decided
        it before (a vote whose process stopped ends by its deadline anyway: the fold
        and the snapshot read it as over)."""
        loop = asyncio.get_running_loop()
        task: asyncio.Task[None] | None = None

        def fire() -> None:
            nonlocal task
            task = loop.create_task(self._end_vote(live, started))
            self._vote_tasks.add(task)
            task.add_done_callback(self._vote_tasks.discard)

        loop.call_later(max(0.0, seconds), fire)

    async def _end_vote(self, live: LiveRoom, started: float) -> None:
        service = self.service
        if service.closed:
            return

        def ended(room: RoomState) -> RoomEvent:
            vote = room.vote
            if vote is None or vote.started != started:
                raise RoomError("no_vote", "That vote is over.")
            return VoteEnded(max(service.clock(), vote.deadline))

        try:
            async with live.lock:
                if live.state.vote is None or live.state.vote.started != started:
                    return
                await service.writer.commit(live, ended)
        except RoomError:
            pass  # decided, or ended by another process meanwhile
        except Exception:  # the store may be down: the deadline ends it for the fold
            log.warning("room %s: the vote's end was not written", live.state.code)

    async def close_room(self, code: str, reason: str = "") -> bool:
        """See :meth:`RoomService.close_room`."""
        service = self.service
        try:
            live = await service.get(code)
        except RoomDamaged:
            return False
        if live is None:
            return False
        if live.state.closed:
            return True
        async with live.lock:
            try:
                await service.writer.commit(live, lambda room: Closed(reason, service.clock()))
            except RoomError as exc:
                if exc.code != "room_closed":  # another process closed it meanwhile
                    raise
        log.info("room %s closed by the operator%s", live.state.code,
                 f": {reason}" if reason else "")  # fmt: skip
        return True
