"""Votes to remove someone from a public table.

Strangers meet at a public table, and its host may be the troll: so the people at the
table (not bots) may vote a person out, the host included. The rules:

* Only at a public table, and by a person seated there.
* One vote at a time; the next may start ``cooldown`` seconds after one ends.
* The voters are the people present when it starts (an open socket), the target aside,
  each member of a team seat on their own (a vote may be about one member, too);
  at least :data:`MIN_VOTERS` of them, so two people alone cannot vote each other out
  (the host can still remove; either may leave). The starter's yes counts.
* A majority of the voters removes the target at once (as the host's removal does: a
  bot plays on in a game, and the target's browser and address are banned); a vote that
  can no longer reach it ends then, and one still open ``seconds`` after it started
  ends without a removal.

Everything a vote needs is in its events (the voters, the times, the lengths as
configured then), so a replay folds it as the room decided it. The fold itself is in
:mod:`reverie.rooms.removal`; this module decides who may vote.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from reverie.errors import RoomError
from reverie.rooms import members as team_seats
from reverie.rooms.events import Voted, VoteStarted

if TYPE_CHECKING:
    from reverie.rooms.state import RoomState

__all__ = ["MIN_VOTERS", "VOTE_COOLDOWN", "VOTE_SECONDS", "Vote", "ballot", "start_vote"]

#: Seconds a vote runs, and must pass after one ends before the next may start (the
#: server's REVERIE_VOTE_SECONDS and REVERIE_VOTE_COOLDOWN).
VOTE_SECONDS = 60.0
VOTE_COOLDOWN = 120.0
#: The fewest voters (people present besides the target) a vote needs.
MIN_VOTERS = 2


@dataclass(frozen=True, slots=True)
class Vote:
    """A vote in progress (people by their seat token's hash: seats move in a lobby)."""

    target: str
    by: str
    voters: tuple[str, ...]
    yes: frozenset[str]
    no: frozenset[str]
    started: float
    deadline: float
    cooldown: float
    # The target's member number when the vote named one (VoteStarted ``member``): the
    # target goes alone from a team seat; None (logs from before): with the seat.
    member: int | None = None
    # A removal in the lobby makes team seats even again (VoteStarted ``balance``).
    balance: bool = False

    @property
    def needed(self) -> int:
        """Yes votes that remove: a majority of the voters.

        >>> Vote("t", "a", ("a", "b", "c"), frozenset(), frozenset(), 0, 60, 60).needed
        2
        """
        return len(self.voters) // 2 + 1

    def running(self, now: float) -> bool:
        """Whether ballots are still taken at ``now``."""
        return now < self.deadline

    def outcome(self) -> Literal["removed", "failed"] | None:
        """``removed`` once a majority said yes, ``failed`` once it no longer can, else
        None (the vote goes on)."""
        if len(self.yes) >= self.needed:
            return "removed"
        if len(self.voters) - len(self.no) < self.needed:
            return "failed"
        return None


def _person(room: RoomState, seat: int | None, member: int = 0) -> str:
    if seat is None or not 0 <= seat < len(room.players):
        raise RoomError("not_seated", "Join the table first; spectators can only watch.")
    token = team_seats.token_at(room.players[seat], member)
    if token is None:
        raise RoomError("not_seated", "Join the table first; spectators can only watch.")
    return token


def start_vote(
    room: RoomState,
    seat: int | None,
    target: int,
    now: float,
    *,
    present: frozenset[int],
    seconds: float,
    cooldown: float,
    member: int | None = None,
    by: int = 0,
    here: frozenset[str] | None = None,
) -> VoteStarted:
    """The event starting a vote by ``seat`` (``by``: which member of a team seat) to
    remove ``target`` (``member``: that member of a team seat; None: its first person),
    or a RoomError. ``present``: the seats with an open socket now; ``here``: the seat
    tokens with one (None: every person of those seats)."""
    starter = _person(room, seat, by)
    if not room.public:
        raise RoomError("not_public", "Votes are for public tables; here the host removes.")
    if not 0 <= target < len(room.players):
        raise RoomError("unknown_seat", "There is no such seat.")
    player = room.players[target]
    if not 0 <= (member or 0) <= len(player.members):
        raise RoomError("unknown_seat", "There is no such member.")
    aimed = team_seats.token_at(player, member or 0)
    if aimed is None or player.bot:
        raise RoomError("bad_message", "A bot is removed by the host, not by a vote.")
    if aimed == starter:
        raise RoomError("bad_message", "You cannot vote yourself out; use leave.")
    if room.vote is not None and room.vote.running(now):
        raise RoomError("vote_running", "One vote at a time: a vote is already running.")
    after = room.vote_after
    if room.vote is not None:  # ran out, with nobody to write its end: it ended then
        after = max(after, room.vote.deadline + room.vote.cooldown)
    if now < after:
        raise RoomError(
            "vote_cooldown",
            "A vote ended a moment ago; wait a little before the next.",
            {"seconds": int(after - now) + 1},
        )
    # Every person present votes, each member of a team seat on their own.
    voters = tuple(
        t
        for s, p in enumerate(room.players)
        if not p.bot
        for t in team_seats.tokens(p)
        if t != aimed and (t == starter or (s in present and (here is None or t in here)))
    )
    if len(voters) < MIN_VOTERS:
        raise RoomError(
            "vote_too_few",
            f"A vote needs at least {MIN_VOTERS} people at the table besides the one it is about.",
            {"count": MIN_VOTERS},
        )
    assert starter in voters
    return VoteStarted(
        target,
        _seat(seat),
        voters,
        now,
        seconds,
        cooldown,
        # Named only at a team seat: a solo seat's vote is written as before.
        member=(member or 0) if player.members else None,
        by_member=by,
        balance=team_seats.mode(room) != "off",
    )


def _seat(seat: int | None) -> int:
    assert seat is not None
    return seat


def ballot(room: RoomState, seat: int | None, yes: bool, now: float, by: int = 0) -> Voted:
    """The event of ``seat``'s ballot (``by``: which member of a team seat) in the
    running vote, or a RoomError."""
    voter = _person(room, seat, by)
    vote = room.vote
    if vote is None or not vote.running(now):
        raise RoomError("no_vote", "No vote is running.")
    if voter not in vote.voters:
        raise RoomError("not_voter", "Only the people at the table when the vote began vote.")
    if voter in vote.yes or voter in vote.no:
        raise RoomError("voted", "You have voted already.")
    return Voted(_seat(seat), yes, now, member=by)
