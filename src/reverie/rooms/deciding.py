"""Who may ask a room for what: :func:`decide` turns a client frame (rooms/commands.py)
from a seat into the one event the log will hold, or refuses it with a ``RoomError``;
:func:`reverie.rooms.state.evolve` then checks the event against the room. The game's
moves, chat, seats and the host's settings are decided here, the moderation commands
in rooms/moderating.py.
"""

from __future__ import annotations

import random
from typing import Any

import msgspec

from reverie.errors import RoomError
from reverie.games import Frame, GameCommand, SideCommand
from reverie.rooms import members as team_seats
from reverie.rooms import moderating, team_moves
from reverie.rooms.bot_levels import check_level
from reverie.rooms.commands import (
    AddBot,
    BalanceCmd,
    Ballot,
    Chat,
    Deal,
    HandToBot,
    Kick,
    Leave,
    MakeHost,
    Order,
    Point,
    Reclaim,
    Rematch,
    SetBotLevel,
    SetOptions,
    SetPublic,
    Start,
    TeamCmd,
    TeamsCmd,
    VoteKick,
    bot_name,
)
from reverie.rooms.events import (
    Acted,
    BotAdded,
    BotLevelSet,
    BotSeat,
    Chatted,
    Dealt,
    HostChanged,
    Left,
    Listed,
    OptionsSet,
    Reordered,
    RoomEvent,
    Started,
    TeamChosen,
    TeamsSet,
)
from reverie.rooms.state import PALETTE, RoomState, game_seed
from reverie.rooms.teams import balanced
from reverie.rooms.votes import VOTE_COOLDOWN, VOTE_SECONDS

__all__ = ["decide"]


def _started(room: RoomState) -> Started[Any]:
    """A new game, with the content it deals from outside the rules recorded."""
    return Started(room.family.deal(room, game_seed(room.seed, room.games)))


def _seated(seat: int | None) -> int:
    if seat is None:
        raise RoomError("not_seated", "Join the table first; spectators can only watch.")
    return seat


def _host(room: RoomState, seat: int | None) -> None:
    if _seated(seat) != room.host:
        raise RoomError("not_host", "Only the host can do that.")


def _is_bot(room: RoomState, seat: int) -> bool:
    return 0 <= seat < len(room.players) and room.players[seat].bot


def _fresh(room: RoomState, version: int | None) -> None:
    if version is not None and not room.phase_version <= version <= room.version:
        raise RoomError("stale_version", "The table has moved on; look again and retry.")


def decide(
    room: RoomState,
    seat: int | None,
    cmd: Frame,
    now: float,
    *,
    away: frozenset[int] = frozenset(),
    rng: random.Random | None = None,
    by: int = 0,
    present: int = 1,
    at_table: frozenset[int] = frozenset(),
    here: frozenset[str] | None = None,
    vote_seconds: float = VOTE_SECONDS,
    vote_cooldown: float = VOTE_COOLDOWN,
) -> RoomEvent:
    """The event for ``cmd`` from ``seat`` (``None``: a spectator), or a RoomError.

    ``Join`` and ``Hello`` are handled by the service (they involve tokens). ``away``:
    the seats whose player has been gone for the grace period. A bot may take only such
    a seat, and while the host is away any seated person may take the host role (it
    returns to them when they come back), so a table is never stuck without someone to
    start, reorder or hand seats to bots.

    ``by``: which member of a team seat asks (0: its first person, or a solo seat's);
    ``present``: how many of the seat's people have a socket open (a team seat's move
    may need a second member's agreement, rooms/team_moves.py). ``at_table``: the seats
    with an open socket (the voters of a vote), which lasts ``vote_seconds`` with
    ``vote_cooldown`` after; ``here``: the seat tokens with one (each member of a team
    seat votes on their own; None: every person of the ``at_table`` seats).
    """
    if isinstance(cmd, Point):
        return team_moves.point(room, _seated(seat), by, cmd.move)
    if isinstance(cmd, GameCommand):
        _fresh(room, cmd.version)
        s = _seated(seat)
        if room.game is None or room.status == "lobby":
            raise RoomError("wrong_phase", "No game is being played.")
        if room.status == "over":
            try:
                action = room.family.action_for(room.game, s, cmd)
            except RoomError:
                action = None
            if action is None or not room.family.acts_after_end(room.game, action):
                raise RoomError("wrong_phase", "No game is being played.")
            return Acted(action)
        return team_moves.decide_move(room, s, by, cmd, present)
    if isinstance(cmd, Chat):
        s = _seated(seat)
        if room.game is not None and room.status == "playing":
            room.family.check_chat(room.game, s)
        team = room.team_of(s) if cmd.team else None
        if cmd.team and team is None:
            raise RoomError("bad_team", "Join a team first to talk to it.")
        return Chatted(s, cmd.text, now, team, own=cmd.own, member=by)
    if isinstance(cmd, TeamCmd):
        return TeamChosen(_seated(seat), cmd.team)
    if isinstance(cmd, SideCommand):
        raise RoomError("bad_message", "That frame goes to its channel, not the log.")
    if isinstance(cmd, Leave):
        s = _seated(seat)
        # A team seat's member leaves the seat, which plays on with the others; in the
        # lobby of a table of team seats, the seats are made even again.
        balance = room.status == "lobby" and team_seats.mode(room) != "off"
        if room.players[s].members:
            return Left(s, member=by, balance=balance)
        return Left(s, balance=balance)
    if isinstance(cmd, VoteKick | Ballot):
        return moderating.vote(
            room, seat, cmd, now, by, at_table, here, vote_seconds, vote_cooldown
        )
    if isinstance(cmd, Reclaim):
        s = _seated(seat)
        if not room.players[s].bot_playing:
            raise RoomError("bad_message", "Nobody else is playing your seat.")
        return BotSeat(s, on=False)
    taking_over = isinstance(cmd, MakeHost) and cmd.seat == _seated(seat) != room.host
    if taking_over and room.host in away:
        return HostChanged(_seated(seat), takeover=True)
    _host(room, seat)
    if isinstance(cmd, SetOptions):
        wait = room.away_seconds if cmd.away_seconds is msgspec.UNSET else cmd.away_seconds
        factor = room.time_factor if cmd.time_factor is msgspec.UNSET else cmd.time_factor
        words = room.text_filter if cmd.text_filter is msgspec.UNSET else cmd.text_filter
        return OptionsSet(cmd.options, cmd.seats or room.seats, wait, factor, words)
    if isinstance(cmd, SetPublic):
        return Listed(cmd.public)
    if isinstance(cmd, Order):
        return Reordered(cmd.order)
    if isinstance(cmd, AddBot):
        taken_colors = {p.color for p in room.players}
        name = bot_name([p.name for p in room.players], room.lang)
        color = next((c for c in PALETTE if c not in taken_colors), PALETTE[0])
        return BotAdded(name, color, check_level(cmd.level))
    if isinstance(cmd, Kick):
        return moderating.kick(room, seat, cmd, by)
    if isinstance(cmd, MakeHost):
        return HostChanged(cmd.seat)
    if isinstance(cmd, Start):
        if room.status != "lobby":
            raise RoomError("not_in_lobby", "The game has already started.")
        return _started(room)
    if isinstance(cmd, Rematch):
        if room.status != "over":
            raise RoomError("wrong_phase", "A rematch is for when the game is over.")
        return _started(room)
    if isinstance(cmd, TeamsCmd):
        return TeamsSet(cmd.count, tuple(p.team for p in room.players))
    if isinstance(cmd, Deal):
        return Dealt(team_seats.dealt(room, cmd.seats, rng or random.Random()))
    if isinstance(cmd, BalanceCmd):
        teams = balanced(len(room.players), room.team_count, rng or random.Random(), room.aside())
        return TeamsSet(room.team_count, teams)
    if isinstance(cmd, HandToBot):
        if not 0 <= cmd.seat < len(room.players):  # not "player_present": nobody is
            raise RoomError("unknown_seat", "There is no such seat.")
        # Anyone may let a bot play their own seat; another's only once they are gone.
        others = cmd.seat != seat and not _is_bot(room, cmd.seat)
        if cmd.on and others and cmd.seat not in away:
            raise RoomError(
                "player_present",
                "That player is still at the table: a bot takes a seat only once its "
                "player has been away for a while.",
            )
        return BotSeat(cmd.seat, on=cmd.on, level=check_level(cmd.level))
    if isinstance(cmd, SetBotLevel):
        return BotLevelSet(cmd.seat, check_level(cmd.level))
    raise RoomError("bad_message", "That message is not understood here.")
