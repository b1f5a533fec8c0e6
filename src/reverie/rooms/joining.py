"""Taking and giving up seats: a spectator joins (or queues for a bot's seat at a
running public table), a queued person watches instead, a seat's link is replaced, and
which member of a team seat holds a token. A part of the room service
(``service.joining``)."""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING

from reverie.errors import RoomError
from reverie.rooms.bans import check_not_banned
from reverie.rooms.commands import Join
from reverie.rooms.deliveries import Revoked
from reverie.rooms.events import Joined, Left, RoomEvent, TokenRotated
from reverie.rooms.members import member_of, smallest_seat, token_at, tokens
from reverie.rooms.state import RoomState, hash_token
from reverie.rooms.takeover import waiting_for
from reverie.rooms.texts import check_new_name

if TYPE_CHECKING:
    from reverie.rooms.live import LiveRoom
    from reverie.rooms.service import RoomService

__all__ = ["Joining"]


def _seat_for(room: RoomState, cmd: Join) -> int | None:
    """The seat a person joins: the one they chose, a free one, or (every seat taken,
    at a table of team seats) the team seat with the fewest people, so teams stay even
    as people come."""
    if cmd.seat is not None or len(room.players) < room.seats or room.status != "lobby":
        return cmd.seat
    return smallest_seat(room)


class Joining:
    """Seats taken, given up and relinked, through the service's writer."""

    def __init__(self, service: RoomService) -> None:
        self.service = service

    async def join(
        self, live: LiveRoom, cmd: Join, ids: tuple[str, ...] = ()
    ) -> tuple[int | None, str]:
        """See :meth:`RoomService.join`."""
        token = secrets.token_urlsafe(24)
        token_hash = hash_token(token)

        def joined(room: RoomState) -> RoomEvent:
            # Under the lock, and again after a conflict: names are unique, and a ban
            # written meanwhile by another process counts.
            check_not_banned(room, *ids)
            name = check_new_name(room, cmd.name)
            return Joined(name, cmd.color, token_hash, seat=_seat_for(room, cmd), ids=ids)

        async with live.lock:
            await self.service.writer.commit(live, joined)
            seat = live.state.seat_of(token_hash)
            self.service.stats["actions"] += 1
        assert seat is not None or waiting_for(live.state, token_hash)
        return seat, token

    async def leave_queue(self, live: LiveRoom, token_hash: str) -> None:
        """See :meth:`RoomService.leave_queue`."""
        async with live.lock:
            await self.service.writer.commit(live, lambda room: Left(-1, waiting=token_hash))
            self.service.stats["actions"] += 1

    async def new_link(
        self, live: LiveRoom, seat: int | None, sender: int, old_token: str | None = None
    ) -> str:
        """See :meth:`RoomService.new_link`."""
        if seat is None:
            raise RoomError("not_seated", "Join the table first; spectators have no link.")
        token = secrets.token_urlsafe(24)
        async with live.lock:
            member = self.member_for(live, seat, old_token)
            old = token_at(live.state.players[seat], member)
            await self.service.writer.commit(
                live, lambda room: TokenRotated(seat, hash_token(token), member=member)
            )
            self.service.stats["actions"] += 1
        self.service.bus.deliver(live.state.code, Revoked(old, sender))
        return token

    def member_for(self, live: LiveRoom, seat: int | None, token_hash: str | None) -> int:
        """See :meth:`RoomService.member_for`."""
        if seat is None or token_hash is None:
            return 0
        found = member_of(live.state, token_hash)
        return found[1] if found is not None and found[0] == seat else 0

    def present_members(self, live: LiveRoom, seat: int | None) -> int:
        """See :meth:`RoomService.present_members`."""
        if seat is None or not 0 <= seat < len(live.state.players):
            return 0
        return sum(1 for t in tokens(live.state.players[seat]) if live.sockets(t) > 0)
