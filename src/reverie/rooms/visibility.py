"""What one connection may receive: the one filter every outgoing frame passes.

A frame's audience comes from the game's family (who sees a side channel's frame), from
the room (a team's chat line) or is the asker alone (acks and errors, ``None``); the
game state itself is the rules' view for the connection's seat. :class:`Visibility`
answers all of these for one connection, at the room's current version, so a seat that
moves in the lobby or changes team is judged by where it is now.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from reverie.games import EVERYONE, Audience, seats_only, team_only
from reverie.rooms.snapshot import QUEUED

if TYPE_CHECKING:
    from reverie.rooms.service import LiveRoom, RoomService
    from reverie.rooms.state import RoomState


def chat_audience(team: int | None, own: bool = False, seat: int = -1) -> Audience:
    """Who reads a chat line: everyone, the members of the team it was said to, or
    (``own``) the members of the team seat ``seat`` whose chat it is."""
    if own:
        return seats_only(seat)
    return EVERYONE if team is None else team_only(team)


def public_facts(room: RoomState) -> dict[str, Any]:
    """What anyone who knows a room's code may read without a seat or a socket (the join
    page's summary): the game, whether it runs, the seats and who sits in them. Nothing
    of the game itself, the chat or the seat links."""
    return {
        "code": room.code,
        "variant": room.variant,
        "status": room.status,
        "seats": room.seats,
        "taken": len(room.players),
        "players": [p.name for p in room.players],
        "colors": [p.color for p in room.players],
    }


def _nobody() -> int | None:
    return None


class Visibility:
    """The filter of one connection: ``seat()`` tells where it sits now (None: a
    spectator)."""

    def __init__(self, service: RoomService, live: LiveRoom, seat: Callable[[], int | None]):
        self.service = service
        self.live = live
        self._seat = seat

    def release(self) -> None:
        """Forget the connection (its ``seat`` callable refers back to it): a closed
        socket's objects are then freed by reference counting alone, even once the
        garbage collector no longer looks at them (reverie.web.gcpolicy)."""
        self._seat = _nobody

    def admits(self, audience: Audience | None) -> bool:
        """Whether a frame for ``audience`` (None: a reply to this connection's own
        frame) reaches this connection."""
        if audience is None:
            return True
        seat = self._seat()
        return audience.admits(seat, self.live.state.team_of(seat))

    def state_frame(self, *, queued: bool = False) -> bytes:
        """The ``state`` frame for this seat: room facts and the rules' view of the game
        (``queued``: a spectator's, for a person waiting for a bot's seat, which says so)."""
        seat = self._seat()
        return self.service.snapshot_json(self.live, QUEUED if queued and seat is None else seat)

    def channel_frames(self) -> list[dict[str, Any]]:
        """The side channels of the game (the whole drawing so far), cut to what this
        connection may see."""
        return self.service.channel_frames(self.live, self.admits)

    def chat_history(self) -> list[dict[str, Any]]:
        """The room's kept chat lines this connection may read."""
        return [
            {
                "seat": c.seat,
                "name": c.name,
                "text": c.text,
                "at": int(c.at * 1000),
                "team": c.team,
                "own": c.own,
            }
            for c in self.live.state.chat
            if self.admits(chat_audience(c.team, c.own, c.seat))
        ]
