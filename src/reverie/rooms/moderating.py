"""Deciding the moderation commands: the host's ``kick`` and a vote to remove someone
(``vote_kick``, its ``ballot``), turned into the events the fold takes
(rooms/removal.py folds them; rooms/votes.py says who may vote). A ``report`` is no
event of the room: the web layer takes it (reverie.web.reports).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from reverie.errors import RoomError
from reverie.rooms import members as team_seats
from reverie.rooms.commands import Ballot, Kick, VoteKick
from reverie.rooms.events import Left, Removed, RoomEvent
from reverie.rooms.votes import ballot, start_vote

if TYPE_CHECKING:
    from reverie.rooms.state import RoomState

__all__ = ["kick", "vote"]


def kick(room: RoomState, seat: int | None, cmd: Kick, by: int) -> RoomEvent:
    """The event for the host's ``kick`` (the caller checked that ``seat`` is the
    host's; ``by``: which member of the host's seat asks): a bot's seat leaves the
    lobby, a person (``cmd.member`` of a team seat) is removed and banned."""
    if (cmd.seat, cmd.member) == (seat, by):
        raise RoomError("bad_message", "You cannot kick yourself; use leave.")
    if not 0 <= cmd.seat < len(room.players):
        raise RoomError("unknown_seat", "There is no such seat.")
    player = room.players[cmd.seat]
    if player.bot:
        if room.status != "lobby":
            raise RoomError("not_in_lobby", "A bot's seat stays in a game; it plays on.")
        return Left(cmd.seat, kicked=True)
    if not 0 <= cmd.member <= len(player.members):
        raise RoomError("unknown_seat", "There is no such member.")
    # As a leave: in the lobby of a table of team seats, the seats are made even again.
    balance = room.status == "lobby" and team_seats.mode(room) != "off"
    # A team seat's member goes alone, the seat plays on with the others; a solo
    # seat's removal is written as before.
    member = cmd.member if player.members else None
    return Removed(cmd.seat, how="host", member=member, balance=balance)


def vote(
    room: RoomState,
    seat: int | None,
    cmd: VoteKick | Ballot,
    now: float,
    by: int,
    at_table: frozenset[int],
    here: frozenset[str] | None,
    seconds: float,
    cooldown: float,
) -> RoomEvent:
    """The event for a ``vote_kick`` (a vote that starts, lasting ``seconds`` with
    ``cooldown`` after) or a ``ballot``; ``at_table`` and ``here``: the seats and the
    tokens with a socket open (rooms/commands.py ``decide``)."""
    if isinstance(cmd, Ballot):
        return ballot(room, seat, cmd.yes, now, by)
    return start_vote(
        room,
        seat,
        cmd.seat,
        now,
        present=at_table,
        seconds=seconds,
        cooldown=cooldown,
        member=cmd.member,
        by=by,
        here=here,
    )
