"""How a team seat moves: members point at a choice, and a confirm moves the seat.

A member's choice (the card they point at, the position they would vote for, the clue
they would tell) is a :class:`~reverie.rooms.events.Proposed` event, folded into
``RoomState.proposals`` and shown in the seat's own ``state`` frame only, so the
teammates see it and nobody else. A confirm is the game's move frame itself:

* ``team_seats`` "one": the first member's confirm moves the seat;
* ``team_seats`` "agree": a confirm waits (a firm proposal) until a second member
  confirms the same move, which then moves the seat; with one member present, one
  confirm is enough (the table must not wait for someone gone).

Everything happens under the room's lock and the log's version: two members who
confirm different cards at the same moment are decided one after the other, and the
second finds the seat moved (the rules refuse it) or its proposal replaced, so exactly
one move lands.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

import msgspec

from reverie.errors import RoomError
from reverie.games import GameCommand
from reverie.rooms import members as seats
from reverie.rooms.events import Acted, Proposed, RoomEvent

if TYPE_CHECKING:
    from reverie.rooms.state import RoomState

#: The frame fields that are not part of the move itself.
_NOT_THE_MOVE = ("id", "version")


@dataclass(frozen=True, slots=True)
class Proposal:
    """A member's current choice for their seat in the current phase."""

    seat: int
    member: int
    move: dict[str, Any]
    firm: bool = False


def move_of(cmd: GameCommand) -> dict[str, Any]:
    """A move frame as the seat's members see it: its fields without ``id`` and
    ``version``, with its ``type``."""
    raw: dict[str, Any] = msgspec.to_builtins(cmd)
    return {k: v for k, v in raw.items() if k not in _NOT_THE_MOVE}


def apply_proposed(room: RoomState, e: Proposed) -> RoomState:
    """``room`` with a member's choice recorded (or withdrawn)."""
    if room.status != "playing" or room.game is None:
        raise RoomError("wrong_phase", "No game is being played.")
    if not 0 <= e.seat < len(room.players):
        raise RoomError("unknown_seat", "There is no such seat.")
    if not 0 <= e.member <= len(room.players[e.seat].members):
        raise RoomError("unknown_seat", "There is no such member.")
    kept = tuple(p for p in room.proposals if (p.seat, p.member) != (e.seat, e.member))
    if e.move is not None:
        kept = (*kept, Proposal(e.seat, e.member, e.move, e.firm))
    return replace(room, proposals=kept)


def after_move(before: RoomState, after: RoomState, actor: int | None) -> RoomState:
    """Proposals after an event: all of them go when the phase changes, and a seat's
    when the seat has moved (they were about the move it made)."""
    if not after.proposals:
        return after
    if after.phase_key() != before.phase_key() or after.status != "playing":
        return replace(after, proposals=())
    if actor is None:
        return after
    return replace(after, proposals=tuple(p for p in after.proposals if p.seat != actor))


def decide_move(
    room: RoomState, seat: int, member: int, cmd: GameCommand, present: int
) -> RoomEvent:
    """The event for a move frame from ``member`` of ``seat`` (``present``: how many of
    the seat's people have a socket open): the move itself, or a firm proposal that
    waits for a second member."""
    action = room.family.action_for(room.game, seat, cmd)
    if seats.mode(room) != "agree" or present < 2 or not room.players[seat].members:
        return Acted(action)
    move = move_of(cmd)
    agreed = any(
        p.seat == seat and p.member != member and p.firm and p.move == move for p in room.proposals
    )
    if agreed:
        return Acted(action)
    room.family.check_move(room.game, action)  # refuse now what the rules would refuse
    return Proposed(seat, member, move, firm=True)


def point(room: RoomState, seat: int, member: int, move: dict[str, Any] | None) -> Proposed:
    """A member points at a choice (None: points at nothing); only a team seat's
    members point, and only at a move of the game."""
    if not room.players[seat].members:
        raise RoomError("bad_message", "Only a team seat's members point for each other.")
    if room.status != "playing" or room.game is None:
        raise RoomError("wrong_phase", "No game is being played.")
    if move is not None:
        kinds = {c.__struct_config__.tag: c for c in room.family.commands}
        kind = kinds.get(move.get("type"))
        if kind is None:
            raise RoomError("bad_message", "Point at a move of this game.")
        try:
            cmd = msgspec.convert(move, kind)
        except msgspec.ValidationError as exc:
            raise RoomError("bad_message", f"Malformed move: {exc}") from None
        move = move_of(cmd)
    return Proposed(seat, member, move, firm=False)


def seat_view(room: RoomState, seat: int) -> list[dict[str, Any]]:
    """The seat's members' current choices, for the seat's own frame only."""
    return [
        {"member": p.member, "name": seats.name_of(room.players[seat], p.member),
         "move": p.move, "firm": p.firm}
        for p in room.proposals
        if p.seat == seat
    ]  # fmt: skip
