"""What people ask a room to do, and who may ask for what.

Commands are the client frames of docs/protocol.md (except ``hello``), decoded straight
into structs. :func:`decide` checks who is asking and turns a command into the event the
log will hold; :func:`reverie.rooms.state.evolve` then checks the event against the room.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Literal

import msgspec

from reverie.rooms.events import (
    Acted,
    BotAdded,
    BotSeat,
    Chatted,
    HostChanged,
    Left,
    OptionsSet,
    Reordered,
    RoomEvent,
    Started,
    TeamChosen,
    TeamsSet,
)
from reverie.rooms.state import PALETTE, RoomError, RoomState, game_seed
from reverie.rooms.teams import balanced
from reverie.rules.association import actions as rules
from reverie.rules.visual import actions as drawing
from reverie.rules.visual.cards import CHOOSABLE

BOT_NAMES = ("Luna", "Orion", "Iris", "Felix", "Nova", "Atlas", "Mira", "Rio", "Vega", "Juno")


class _Frame(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag_field="type"):
    id: int | None = None


class Hello(_Frame, frozen=True, tag="hello"):
    """The first frame: who is this (a seat token) and their language."""

    token: str | None = None
    lang: str = "en"


class Join(_Frame, frozen=True, tag="join"):
    """Take a free seat in the lobby."""

    name: str = ""
    color: str = ""


class Leave(_Frame, frozen=True, tag="leave"):
    """Leave the lobby."""


class Chat(_Frame, frozen=True, tag="chat"):
    """Say something in the room chat (``team``: to one's own team only)."""

    text: str = ""
    team: bool = False


class SetOptions(_Frame, frozen=True, tag="options"):
    """Host: change the table options and the number of seats."""

    options: dict[str, Any] = {}
    seats: int = 0


class Order(_Frame, frozen=True, tag="order"):
    """Host: reorder the seats."""

    order: tuple[int, ...] = ()


class AddBot(_Frame, frozen=True, tag="add_bot"):
    """Host: fill a free seat with a bot."""


class Kick(_Frame, frozen=True, tag="kick"):
    """Host: remove a player from the lobby."""

    seat: int = -1


class MakeHost(_Frame, frozen=True, tag="make_host"):
    """Host: hand the host role to another player."""

    seat: int = -1


class Start(_Frame, frozen=True, tag="start"):
    """Host: start the game."""


class Rematch(_Frame, frozen=True, tag="rematch"):
    """Host: a new game with the same seats after the end."""


class HandToBot(_Frame, frozen=True, tag="bot_seat"):
    """Host: let a bot play a gone player's seat, or stop it."""

    seat: int = -1
    on: bool = True


class Reclaim(_Frame, frozen=True, tag="reclaim"):
    """Take your seat back from the bot playing it."""


class ClueCmd(_Frame, frozen=True, tag="clue"):
    """Storyteller: lock a card and say the clue."""

    text: str = ""
    card: int | None = None
    version: int | None = None


class SubmitCmd(_Frame, frozen=True, tag="submit"):
    """Put a card face down."""

    card: int = -1
    version: int | None = None


class VoteCmd(_Frame, frozen=True, tag="vote"):
    """Vote for a position."""

    position: int = 0
    version: int | None = None


class TeamCmd(_Frame, frozen=True, tag="team"):
    """Join a team in the lobby (None: stand aside)."""

    team: int | None = None


class TeamsCmd(_Frame, frozen=True, tag="teams"):
    """Host: how many teams."""

    count: int = 2


class BalanceCmd(_Frame, frozen=True, tag="balance"):
    """Host: deal the players into the teams at random, evenly."""


class ChooseCmd(_Frame, frozen=True, tag="choose"):
    """Drawer: choose a category (then the card is drawn)."""

    category: str = ""
    version: int | None = None


class GuessCmd(_Frame, frozen=True, tag="guess"):
    """Guesser: a guess."""

    text: str = ""
    version: int | None = None


class AcceptCmd(_Frame, frozen=True, tag="accept"):
    """Drawer: this guess is right."""

    index: int = -1
    version: int | None = None


class SynonymCmd(_Frame, frozen=True, tag="synonym"):
    """Drawer: this guess is a synonym (a hint)."""

    index: int = -1
    version: int | None = None


class MoveCmd(_Frame, frozen=True, tag="move"):
    """The team that guessed the proverb: its move."""

    steps: int = 0
    direction: Literal["forward", "backward"] = "forward"
    version: int | None = None


class KeepCmd(_Frame, frozen=True, tag="keep"):
    """The team on a bonus token keeps it."""

    version: int | None = None


class StealCmd(_Frame, frozen=True, tag="steal"):
    """The team on a bonus token steals ``token`` instead."""

    token: int = -1
    version: int | None = None


class ForfeitCmd(_Frame, frozen=True, tag="forfeit"):
    """The team that failed gives up ``token``."""

    token: int = -1
    version: int | None = None


class DrawCmd(_Frame, frozen=True, tag="draw"):
    """Drawer: canvas operations (see ``reverie.rooms.canvas``); never logged."""

    ops: tuple[tuple[int, ...], ...] = ()


Command = (
    Hello
    | Join
    | Leave
    | Chat
    | SetOptions
    | Order
    | AddBot
    | Kick
    | MakeHost
    | Start
    | Rematch
    | HandToBot
    | Reclaim
    | ClueCmd
    | SubmitCmd
    | VoteCmd
    | TeamCmd
    | TeamsCmd
    | BalanceCmd
    | ChooseCmd
    | GuessCmd
    | AcceptCmd
    | SynonymCmd
    | MoveCmd
    | KeepCmd
    | StealCmd
    | ForfeitCmd
    | DrawCmd
)


#: Drawing-game commands that are one game action each, and the action they make.
def _choose(seat: int, cmd: ChooseCmd) -> drawing.Choose:
    category = cmd.category
    if category not in CHOOSABLE:  # checked here: the log must only hold valid actions
        raise RoomError("bad_category", f"Choose one of: {', '.join(CHOOSABLE)}.")
    return drawing.Choose(seat, category)


_DRAWING_ACTIONS: dict[type[_Frame], Callable[[int, Any], drawing.Action]] = {
    ChooseCmd: _choose,
    GuessCmd: lambda s, c: drawing.Guess(s, c.text),
    AcceptCmd: lambda s, c: drawing.Accept(s, c.index),
    SynonymCmd: lambda s, c: drawing.Synonym(s, c.index),
    MoveCmd: lambda s, c: drawing.Move(s, c.steps, c.direction),
    KeepCmd: lambda s, c: drawing.Keep(s),
    StealCmd: lambda s, c: drawing.Steal(s, c.token),
    ForfeitCmd: lambda s, c: drawing.Forfeit(s, c.token),
}

COMMAND_DECODER: msgspec.json.Decoder[Command] = msgspec.json.Decoder(Command)


def _started(room: RoomState) -> Started:
    """A new game, with the content it deals from outside the rules recorded."""
    return Started(cards=room.family.deal(room, game_seed(room.seed, room.games)))


def _seated(seat: int | None) -> int:
    if seat is None:
        raise RoomError("not_seated", "Join the table first; spectators can only watch.")
    return seat


def _host(room: RoomState, seat: int | None) -> None:
    if _seated(seat) != room.host:
        raise RoomError("not_host", "Only the host can do that.")


def _fresh(room: RoomState, version: int | None) -> None:
    if version is not None and not room.phase_version <= version <= room.version:
        raise RoomError("stale_version", "The table has moved on; look again and retry.")


def decide(
    room: RoomState,
    seat: int | None,
    cmd: Command,
    now: float,
    *,
    host_away: bool = False,
    rng: random.Random | None = None,
) -> RoomEvent:
    """The event for ``cmd`` from ``seat`` (``None``: a spectator), or a RoomError.

    ``Join`` and ``Hello`` are handled by the service (they involve tokens). While the
    host is away (no open connection), any seated person may take the host role, so a
    table is never stuck without someone to start, reorder or hand seats to bots.
    """
    if isinstance(cmd, VoteCmd):
        _fresh(room, cmd.version)
        return Acted(rules.Vote(_seated(seat), cmd.position))
    if isinstance(cmd, SubmitCmd):
        _fresh(room, cmd.version)
        return Acted(rules.Submit(_seated(seat), cmd.card))
    if isinstance(cmd, ClueCmd):
        _fresh(room, cmd.version)
        return Acted(rules.Clue(_seated(seat), cmd.text, cmd.card))
    make = _DRAWING_ACTIONS.get(type(cmd))
    if make is not None:
        _fresh(room, getattr(cmd, "version", None))
        return Acted(make(_seated(seat), cmd))
    if isinstance(cmd, Chat):
        s = _seated(seat)
        game = room.game
        if game is not None and room.status == "playing" and not room.family.may_chat(game, s):
            raise RoomError(
                "drawer_silent", "While you draw you may only mark guesses as synonyms."
            )
        team = room.team_of(s) if cmd.team else None
        if cmd.team and team is None:
            raise RoomError("bad_team", "Join a team first to talk to it.")
        return Chatted(s, cmd.text, now, team)
    if isinstance(cmd, TeamCmd):
        return TeamChosen(_seated(seat), cmd.team)
    if isinstance(cmd, DrawCmd):
        raise RoomError("bad_message", "Drawing goes to the canvas, not the log.")
    if isinstance(cmd, Leave):
        return Left(_seated(seat))
    if isinstance(cmd, Reclaim):
        s = _seated(seat)
        if not room.players[s].bot_playing:
            raise RoomError("bad_message", "Nobody else is playing your seat.")
        return BotSeat(s, on=False)
    if isinstance(cmd, MakeHost) and host_away and cmd.seat == _seated(seat):
        return HostChanged(cmd.seat)
    _host(room, seat)
    if isinstance(cmd, SetOptions):
        return OptionsSet(cmd.options, cmd.seats or room.seats)
    if isinstance(cmd, Order):
        return Reordered(cmd.order)
    if isinstance(cmd, AddBot):
        taken_names = {p.name for p in room.players}
        taken_colors = {p.color for p in room.players}
        name = next((f"{n} (bot)" for n in BOT_NAMES if f"{n} (bot)" not in taken_names), "Bot")
        color = next((c for c in PALETTE if c not in taken_colors), PALETTE[0])
        return BotAdded(name, color)
    if isinstance(cmd, Kick):
        if cmd.seat == seat:
            raise RoomError("bad_message", "You cannot kick yourself; use leave.")
        return Left(cmd.seat, kicked=True)
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
    if isinstance(cmd, BalanceCmd):
        teams = balanced(len(room.players), room.team_count, rng or random.Random())
        return TeamsSet(room.team_count, teams)
    if isinstance(cmd, HandToBot):
        return BotSeat(cmd.seat, on=cmd.on)
    raise RoomError("bad_message", "That message is not understood here.")
