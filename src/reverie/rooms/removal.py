"""The fold of removals and of votes to remove: who goes (a seat, or one member of a team
seat), whose browsers and addresses are banned, who is host after, and how a vote's
ballots end it (rooms/votes.py decides who may vote; this module folds the events).

Part of the pure fold (:func:`reverie.rooms.state.evolve` calls it): no IO, no clock.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from reverie.errors import RoomError
from reverie.rooms import members as team_seats
from reverie.rooms.bot_levels import stand_in_level
from reverie.rooms.events import Removed, Voted, VoteEnded, VoteStarted
from reverie.rooms.fold_checks import player_at
from reverie.rooms.votes import Vote

if TYPE_CHECKING:
    from reverie.rooms.state import Player, RoomState

__all__ = ["removed", "vote_ended", "vote_started", "voted", "without_target"]


def removed(room: RoomState, e: Removed) -> RoomState:
    """The room after the host's ``Removed``: a person, never a bot."""
    player = player_at(room, e.seat)
    if player.bot or player.token_hash is None:
        raise RoomError("bad_message", "A bot is not removed; the host takes its seat away.")
    return _removed(room, e.seat, e.member, balance=e.balance)


def vote_ended(room: RoomState, e: VoteEnded) -> RoomState:
    """The room once a vote ran out undecided: nobody goes, the cooldown starts."""
    vote = room.vote
    if vote is None or vote.running(e.at):
        raise RoomError("bad_message", "No vote has run out.")
    return replace(room, vote=None, vote_after=vote.deadline + vote.cooldown)


def without_target(vote: Vote | None, player: Player) -> Vote | None:
    """``vote``, unless it is about ``player`` (or a member of their seat)."""
    # A vote about someone who is gone (left, removed; a team seat's member with the
    # seat) has nothing left to decide.
    return None if vote is not None and vote.target in team_seats.tokens(player) else vote


def _removed(
    room: RoomState, seat: int, member: int | None = None, *, balance: bool = False
) -> RoomState:
    """The room without ``seat``'s person (``member``: that member of a team seat;
    None: everyone who plays the seat), whose browser and address are banned. A team
    seat plays on with its other members; a seat whose last person goes leaves the
    lobby, and in a game (or after it, for a rematch) a bot plays it on, with its hand
    and score, as a stand-in does. The host role passes on as when a host leaves; a
    vote about them ends. ``balance``: in the lobby, team seats are made even again."""
    player = room.players[seat]
    if member is not None and player.members:
        # One member of a team seat: only they go, as a member who leaves does.
        if not 0 <= member <= len(player.members):
            raise RoomError("unknown_seat", "There is no such member.")
        gone = player.ids if member == 0 else player.members[member - 1].ids
        target = team_seats.token_at(player, member)
        vote = None if room.vote is not None and room.vote.target == target else room.vote
        left = replace(
            team_seats.leave_seat(room, seat, member),
            bans=room.bans | {i for i in gone if i},
            vote=vote,
        )
        return team_seats.balanced(left) if balance and room.status == "lobby" else left
    if member not in (None, 0):
        raise RoomError("unknown_seat", "There is no such member.")
    removed = _removed_seat(room, seat)
    return team_seats.balanced(removed) if balance and room.status == "lobby" else removed


def _removed_seat(room: RoomState, seat: int) -> RoomState:
    """The room without ``seat`` and everyone who plays it, all of them banned."""
    player = room.players[seat]
    # The seat goes with everyone who plays it (a team seat's members too).
    everyone = [*player.ids, *(i for m in player.members for i in m.ids)]
    bans = room.bans | {i for i in everyone if i}
    vote = without_target(room.vote, player)
    home = None if room.home_host in team_seats.tokens(player) else room.home_host
    if room.status == "lobby":
        players = room.players[:seat] + room.players[seat + 1 :]
        host = room.host - 1 if seat < room.host else room.host
    else:
        bot = replace(
            player,
            token_hash=None,
            bot=True,
            bot_playing=False,
            bot_level=stand_in_level(room),
            ids=(),
            members=(),
        )
        players = (*room.players[:seat], bot, *room.players[seat + 1 :])
        host = room.host
    if seat == room.host:
        people = [s for s, p in enumerate(players) if not p.bot]
        if not people:
            raise RoomError("bad_message", "The last person cannot be removed; close the room.")
        # The next person after the removed seat, as a leaving host's role passes on.
        host = min(people, key=lambda s: (s < seat, s))
    return replace(room, players=players, host=host, bans=frozenset(bans), vote=vote,
                   home_host=home)  # fmt: skip


def vote_started(room: RoomState, e: VoteStarted) -> RoomState:
    """The room once a vote to remove someone starts (the starter's yes counted)."""
    if not room.public:
        raise RoomError("not_public", "Votes are for public tables.")
    target = team_seats.token_at(player_at(room, e.target), e.member or 0)
    starter = team_seats.token_at(player_at(room, e.by), e.by_member)
    if target is None or starter is None or starter not in e.voters or target in e.voters:
        raise RoomError("bad_message", "That vote does not fit the table.")
    after = room.vote_after
    if room.vote is not None:
        if room.vote.running(e.at):
            raise RoomError("vote_running", "One vote at a time: a vote is already running.")
        # One that ran out with nobody to say so (its process stopped) ended then.
        after = max(after, room.vote.deadline + room.vote.cooldown)
    if e.at < after:
        raise RoomError("vote_cooldown", "A vote ended a moment ago; wait a little.")
    vote = Vote(
        target=target,
        by=starter,
        voters=e.voters,
        yes=frozenset({starter}),
        no=frozenset(),
        started=e.at,
        deadline=e.at + e.seconds,
        cooldown=e.cooldown,
        member=e.member,
        balance=e.balance,
    )
    return _decided(replace(room, vote=vote, vote_after=after), vote, e.at)


def voted(room: RoomState, e: Voted) -> RoomState:
    """The room once a ballot is cast (a majority removes at once)."""
    vote = room.vote
    voter = team_seats.token_at(player_at(room, e.seat), e.member)
    if vote is None or not vote.running(e.at):
        raise RoomError("no_vote", "No vote is running.")
    if voter is None or voter not in vote.voters or voter in vote.yes | vote.no:
        raise RoomError("bad_message", "That ballot does not fit the vote.")
    yes, no = (vote.yes | {voter}, vote.no) if e.yes else (vote.yes, vote.no | {voter})
    vote = replace(vote, yes=yes, no=no)
    return _decided(replace(room, vote=vote), vote, e.at)


def _decided(room: RoomState, vote: Vote, at: float) -> RoomState:
    """The room once ``vote`` took a ballot: removed by a majority, ended once none is
    possible, else still voting."""
    outcome = vote.outcome()
    if outcome is None:
        return room
    ended = replace(room, vote=None, vote_after=at + vote.cooldown)
    if outcome == "failed":
        return ended
    found = team_seats.member_of(room, vote.target)
    if found is None:  # gone meanwhile (a Left clears the vote; kept for safety)
        return ended
    seat, member = found
    # A team seat's member goes alone (a vote from before that aimed at a team seat's
    # first person took the whole seat, and replays so).
    alone = member if vote.member is not None else None
    return replace(_removed(ended, seat, alone, balance=vote.balance), vote=None)
