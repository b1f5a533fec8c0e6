"""What people ask a room to do, and who may ask for what.

Commands are the client frames of docs/protocol.md, decoded straight into structs: the
frames every room understands are here, a game's moves and side-channel frames belong
to its family (:mod:`reverie.games`), and :func:`decoder_for` joins the two for a room.
:func:`decide` checks who is asking and turns a command into the event the log will
hold; :func:`reverie.rooms.state.evolve` then checks the event against the room.
"""

from __future__ import annotations

import random
from functools import cache
from typing import Any, get_args

import msgspec

from reverie import games
from reverie.errors import RoomError
from reverie.games import AnyFamily, Frame, GameCommand, SideCommand, union_of
from reverie.rooms import members as team_seats
from reverie.rooms import team_moves
from reverie.rooms.bot_levels import DEFAULT_BOT_LEVEL, check_level
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
    Removed,
    Reordered,
    RoomEvent,
    Started,
    TeamChosen,
    TeamsSet,
)
from reverie.rooms.state import PALETTE, RoomState, game_seed
from reverie.rooms.teams import balanced
from reverie.rooms.texts import name_key
from reverie.rooms.votes import VOTE_COOLDOWN, VOTE_SECONDS, ballot, start_vote

BOT_NAMES = ("Luna", "Orion", "Iris", "Felix", "Nova", "Atlas", "Mira", "Rio", "Vega", "Juno")
# A bot at a Russian or Italian table takes a name of the table's language, as a person
# there would have: English names written in Latin letters stood out at such a table.
BOT_NAMES_BY_LANG: dict[str, tuple[str, ...]] = {
    "en": BOT_NAMES,
    "ru": ("Алиса", "Борис", "Вера", "Глеб", "Дина", "Егор", "Зоя", "Илья", "Лада", "Роман"),
    "it": (
        "Giulia",
        "Luca",
        "Sofia",
        "Marco",
        "Elena",
        "Paolo",
        "Chiara",
        "Dario",
        "Marta",
        "Enzo",
    ),
}


def bot_name(taken: list[str], lang: str = "en") -> str:
    """The next bot's name in the table's language (English for any other): the first of
    its list nobody at the table has (names compared as people's are), then "Luna 2" and
    so on. A plain name: the page tags a bot as one in the reader's language, so the
    name does not say it again (in English, on every screen) as "Luna (bot)" once did.

    >>> bot_name(["Ann", "luna"])
    'Orion'
    >>> bot_name(list(BOT_NAMES))
    'Luna 2'
    >>> bot_name([], "ru"), bot_name(["Giulia"], "it")
    ('Алиса', 'Luca')
    """
    names = BOT_NAMES_BY_LANG.get(lang, BOT_NAMES)
    keys = {name_key(n) for n in taken}
    n = 1
    while True:
        for base in names:
            name = base if n == 1 else f"{base} {n}"
            if name_key(name) not in keys:
                return name
        n += 1


class Hello(Frame, frozen=True, tag="hello"):
    """The first frame: who is this (a seat token) and their language."""

    token: str | None = None
    lang: str = "en"


class Join(Frame, frozen=True, tag="join"):
    """Take a free seat in the lobby, or (``seat``) join a team seat as a member."""

    name: str = ""
    color: str = ""
    seat: int | None = None


class Leave(Frame, frozen=True, tag="leave"):
    """Leave the lobby (a team seat's member: leave the seat to the others, in a game
    too)."""


class Chat(Frame, frozen=True, tag="chat"):
    """Say something in the room chat (``team``: to one's own team only; ``own``: to
    the other members of one's team seat only)."""

    text: str = ""
    team: bool = False
    own: bool = False


class Point(Frame, frozen=True, tag="point"):
    """A team seat's member points at a move for the seat (a move frame without ``id``
    and ``version``; None: at nothing): the teammates see it, nobody else does."""

    move: dict[str, Any] | None = None


class Deal(Frame, frozen=True, tag="deal"):
    """Host: deal everyone at the table at random into ``seats`` team seats, evenly."""

    seats: int = 2


class SetOptions(Frame, frozen=True, tag="options"):
    """Host: change the table options and the number of seats."""

    options: dict[str, Any] = msgspec.field(default_factory=dict)
    seats: int = 0
    #: Seconds away before a bot stands in (null: never); left out: unchanged.
    away_seconds: int | msgspec.UnsetType | None = msgspec.UNSET
    #: How many times longer every timer runs (1, 2, 4); left out: unchanged.
    time_factor: int | msgspec.UnsetType = msgspec.UNSET
    #: What the text filter hides: off, mild, strict; left out: unchanged.
    text_filter: str | msgspec.UnsetType = msgspec.UNSET


class SetPublic(Frame, frozen=True, tag="public"):
    """Host: list the table for strangers (public) or keep it link only (private)."""

    public: bool = False


class Order(Frame, frozen=True, tag="order"):
    """Host: reorder the seats."""

    order: tuple[int, ...] = ()


class AddBot(Frame, frozen=True, tag="add_bot"):
    """Host: fill a free seat with a bot of a level (easy, normal, clever)."""

    level: str = DEFAULT_BOT_LEVEL


class Kick(Frame, frozen=True, tag="kick"):
    """Host: remove a player at any time (a person's browser and address may not sit
    again; in a game a bot plays the seat on), or a bot from the lobby. ``member``: the
    member of a team seat removed (0 or left out: its first person); the seat plays on
    with the others."""

    seat: int = -1
    member: int = 0


class VoteKick(Frame, frozen=True, tag="vote_kick"):
    """Public tables: ask the people present to remove the player in ``seat``
    (``member``: that member of a team seat; 0 or left out: its first person)."""

    seat: int = -1
    member: int = 0


class Ballot(Frame, frozen=True, tag="ballot"):
    """A ballot in the running vote (``yes``: remove)."""

    yes: bool = False


class MakeHost(Frame, frozen=True, tag="make_host"):
    """Host: hand the host role to another player."""

    seat: int = -1


class Start(Frame, frozen=True, tag="start"):
    """Host: start the game."""


class Rematch(Frame, frozen=True, tag="rematch"):
    """Host: a new game with the same seats after the end."""


class HandToBot(Frame, frozen=True, tag="bot_seat"):
    """Host: let a bot play a gone player's seat, or stop it."""

    seat: int = -1
    on: bool = True
    level: str = DEFAULT_BOT_LEVEL


class SetBotLevel(Frame, frozen=True, tag="bot_level"):
    """Host: change the level of the bot that plays a seat."""

    seat: int = -1
    level: str = DEFAULT_BOT_LEVEL


class NewLink(Frame, frozen=True, tag="new_link"):
    """Replace your seat link: the old one stops working (answered with ``welcome``)."""


class Reclaim(Frame, frozen=True, tag="reclaim"):
    """Take your seat back from the bot playing it."""


class TeamCmd(Frame, frozen=True, tag="team"):
    """Join a team in the lobby (None: stand aside)."""

    team: int | None = None


class TeamsCmd(Frame, frozen=True, tag="teams"):
    """Host: how many teams."""

    count: int = 2


class BalanceCmd(Frame, frozen=True, tag="balance"):
    """Host: deal the players into the teams at random, evenly."""


class ReportCmd(Frame, frozen=True, tag="report"):
    """Report a player (``seat``; ``member``: that member of a team seat) or the whole
    table (``seat`` null) to the operator, with a reason from a list and a few words
    (docs/moderation.md). Handled by the web layer: a report is no event of the room."""

    seat: int | None = None
    member: int = 0
    reason: str = ""
    text: str = ""


Command = (
    Hello
    | Join
    | Leave
    | Chat
    | SetOptions
    | SetPublic
    | Order
    | AddBot
    | Kick
    | MakeHost
    | Start
    | Rematch
    | HandToBot
    | SetBotLevel
    | Reclaim
    | NewLink
    | TeamCmd
    | TeamsCmd
    | BalanceCmd
    | Point
    | Deal
    | VoteKick
    | Ballot
    | ReportCmd
)


#: The frames every room understands, whatever it plays.
ROOM_COMMANDS: tuple[type[Frame], ...] = get_args(Command)


@cache
def decoder_for(family: AnyFamily) -> msgspec.json.Decoder[Frame]:
    """The decoder of client frames in a room that plays ``family``'s games: the room's
    frames, the family's moves and its side channels' frames."""
    kinds = (*ROOM_COMMANDS, *family.commands, *(c.command for c in family.channels))
    return msgspec.json.Decoder(union_of(kinds))


games.on_change(decoder_for.cache_clear)

#: Only ``hello`` is read before the room is known.
HELLO_DECODER: msgspec.json.Decoder[Hello] = msgspec.json.Decoder(Hello)


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
    if isinstance(cmd, VoteKick):
        return start_vote(
            room,
            seat,
            cmd.seat,
            now,
            present=at_table,
            seconds=vote_seconds,
            cooldown=vote_cooldown,
            member=cmd.member,
            by=by,
            here=here,
        )
    if isinstance(cmd, Ballot):
        return ballot(room, seat, cmd.yes, now, by)
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
