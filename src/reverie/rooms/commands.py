"""What people ask a room to do: the client frames every room understands.

Commands are the client frames of docs/protocol.md, decoded straight into structs: the
frames every room understands are here, a game's moves and side-channel frames belong
to its family (:mod:`reverie.games`), and :func:`decoder_for` joins the two for a room.
:func:`reverie.rooms.deciding.decide` checks who is asking and turns a command into the
event the log will hold; :func:`reverie.rooms.state.evolve` then checks the event
against the room.
"""

from __future__ import annotations

from functools import cache
from typing import Any, get_args

import msgspec

from reverie import games
from reverie.games import AnyFamily, Frame, union_of
from reverie.rooms.bot_levels import DEFAULT_BOT_LEVEL
from reverie.rooms.texts import name_key

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
