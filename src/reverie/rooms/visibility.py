"""What one connection may receive: the one filter every outgoing frame passes.

The secrecy policy of the server, in one place:

- the game itself reaches a connection only as its family's typed view for the
  connection's seat (``GameFamily.views``: every redaction of a game is there), inside
  the ``state`` frame, whose room part adds only the seat's own facts (its ballot, a
  team seat's ``you.proposals``);
- every message the room's bus brings (a chat line, a side channel's frame, a revoked
  link, a side channel's resync, a new state) is judged by :meth:`Visibility.passes`;
  an audience comes from the game's family (who sees a side channel's frame), from the
  room (a chat line: :func:`line_audience`) or is the asker alone (acks and errors,
  ``None``);
- what anyone may read without a seat (the HTTP room summary, the open-tables entry) is
  cut from the spectator's view of the room (:func:`public_facts`).

:class:`Visibility` answers for one connection, at the room's current version, so a
seat that moves in the lobby or changes team is judged by where it is now.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from reverie.games import EVERYONE, Audience, SideChannel, seats_only, team_only
from reverie.rooms.deliveries import ChatSaid, Delivery, Revoked, SideFrame
from reverie.rooms.snapshot import QUEUED, room_info

if TYPE_CHECKING:
    from reverie.rooms.service import LiveRoom, RoomService
    from reverie.rooms.state import ChatLine, RoomState


def chat_audience(team: int | None, own: bool = False, seat: int = -1) -> Audience:
    """Who reads a chat line: everyone, the members of the team it was said to, or
    (``own``) the members of the team seat ``seat`` whose chat it is."""
    if own:
        return seats_only(seat)
    return EVERYONE if team is None else team_only(team)


def line_audience(line: ChatLine) -> Audience:
    """Who reads a kept chat line."""
    return chat_audience(line.team, line.own, line.seat)


def chat_line(line: ChatLine) -> dict[str, Any]:
    """A chat line as a ``chat`` frame lists it (the one place a line becomes JSON)."""
    return {
        "seat": line.seat,
        "name": line.name,
        "text": line.text,
        "at": int(line.at * 1000),
        "team": line.team,
        "own": line.own,
    }


def chat_message(line: ChatLine) -> ChatSaid:
    """The delivery that tells connections a line was said, with its audience."""
    return ChatSaid(line_audience(line), chat_line(line))


def chat_frame(lines: list[dict[str, Any]]) -> dict[str, Any]:
    """The ``chat`` frame of lines a connection may read."""
    return {"type": "chat", "messages": lines}


def public_facts(room: RoomState) -> dict[str, Any]:
    """What anyone who knows a room's code may read without a seat or a socket (the join
    page's summary, the open-tables entry): cut from the spectator's view of the room,
    so it can hold nothing a spectator may not see. The game, whether it runs, the seats
    and who sits in them; nothing of the game itself, the chat or the seat links."""
    seen = room_info(room, None, connected=set(), spectators=0, deadline=None, now=0.0)
    players = seen["players"]
    return {
        "code": seen["code"],
        "variant": seen["variant"],
        "status": seen["status"],
        "seats": seen["seats"],
        "taken": len(players),
        "players": [p["name"] for p in players],
        "colors": [p["color"] for p in players],
    }


def _nobody() -> int | None:
    return None


def _no_token() -> str | None:
    return None


class Visibility:
    """The filter of one connection: ``seat()`` tells where it sits now (None: a
    spectator), ``token()`` the hash of the seat link it uses, ``me`` the connection's
    id (a frame it sent itself is not sent back to it)."""

    def __init__(
        self,
        service: RoomService,
        live: LiveRoom,
        seat: Callable[[], int | None],
        token: Callable[[], str | None] = _no_token,
        me: int = 0,
    ):
        self.service = service
        self.live = live
        self._seat = seat
        self._token = token
        self.me = me

    def release(self) -> None:
        """Forget the connection (its ``seat`` callable refers back to it): a closed
        socket's objects are then freed by reference counting alone, even once the
        garbage collector no longer looks at them (reverie.web.gcpolicy)."""
        self._seat = _nobody
        self._token = _no_token

    def passes(self, message: Delivery) -> bool:
        """Whether a message of the room's bus reaches this connection: a chat line or a
        side channel's frame if its audience admits it (a side frame not back to its
        sender), a revoked link only to the sockets that used it; a new state and a
        side channel's resync to everyone (what they send is cut to this seat:
        :meth:`state_frame`, :meth:`channel_frames`)."""
        if isinstance(message, ChatSaid):
            return self.admits(message.audience)
        if isinstance(message, SideFrame):
            return message.sender != self.me and self.admits(message.audience)
        if isinstance(message, Revoked):
            token = self._token()
            return message.sender != self.me and token is not None and message.token_hash == token
        return True

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

    def channel_frames(self, only: SideChannel[Any, Any] | None = None) -> list[dict[str, Any]]:
        """The side channels of the game (or ``only`` that one: the whole drawing so
        far), cut to what this connection may see."""
        return self.service.channel_frames(self.live, self.admits, only=only)

    def chat_history(self) -> list[dict[str, Any]]:
        """The room's kept chat lines this connection may read."""
        return [chat_line(c) for c in self.live.state.chat if self.admits(line_audience(c))]

    def opening_frames(self) -> list[dict[str, Any]]:
        """What a connection receives on opening besides its state: the kept chat it may
        read and the side channels so far (a late joiner sees the drawing)."""
        history = self.chat_history()
        return ([chat_frame(history)] if history else []) + self.channel_frames()
