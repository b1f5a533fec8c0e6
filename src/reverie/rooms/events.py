"""What the event log of a room holds, one struct per kind of event.

Events are facts that have been accepted. Folding them in order with
:func:`reverie.rooms.state.evolve` rebuilds a room exactly, so a restarted server
resumes every room from its log.

The game's part of an event (``Created``'s setup, ``Acted``'s action, ``Started``'s dealt
content) is typed by the room's game family: a log is decoded with :func:`decoder_for`
its family, which the first event, ``Created``, names.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from typing import Any, Generic, TypeVar

import msgspec

from reverie import games
from reverie.games import AnyFamily, union_of

A = TypeVar("A")
C = TypeVar("C")

#: Seconds a player may be gone in a game before a bot plays their seat, and a host
#: before the role passes on, unless the table chose otherwise.
DEFAULT_AWAY = 60
#: How many times longer than the game's own every timer runs (WCAG 2.2.1: a table
#: with players who need more time lengthens them all at once); 1 is the game's own.
TIME_FACTORS = (1, 2, 4)


class Created(msgspec.Struct, frozen=True, tag="created"):
    """A room was opened; the creator sits in seat 0 as host.

    ``setup``: the content the family took for the table (``GameFamily.prepare``: the
    association games' picture deck and its size), read by the family. None in a log
    from before setups, whose ``Created`` held those keys beside its own:
    :func:`decode_log` moves them into ``setup``.
    """

    code: str
    variant: str
    seats: int
    options: dict[str, Any]
    seed: int
    name: str
    color: str
    token_hash: str
    at: float
    lang: str = "en"
    away_seconds: int | None = DEFAULT_AWAY
    time_factor: int = 1
    # What the text filter hides (off, mild, strict); logs from before it have none.
    text_filter: str = "mild"
    # Listed on the open tables page (rooms made by a link are private).
    public: bool = False
    setup: dict[str, Any] | None = None
    # The creator's browser and address, hashed (reverie.web.browser_id): what a ban on
    # them holds. Logs from before bans have none.
    ids: tuple[str, ...] = ()
    # When a table play now opened starts by itself, bots in its empty seats (whichever
    # process holds it then); None: when its host starts it.
    starts_at: float | None = None


class Joined(msgspec.Struct, frozen=True, tag="joined"):
    """A person took a free seat in the lobby, or (``seat``) joined a team seat as one
    more of its members (rooms/members.py; logs from before team seats have none), or,
    while a public table plays, queued for a bot's seat, which they take at the next
    turn boundary (rooms/takeover.py). ``ids``: their browser and address, hashed, as
    on ``Created``."""

    name: str
    color: str
    token_hash: str
    seat: int | None = None
    ids: tuple[str, ...] = ()


class Left(msgspec.Struct, frozen=True, tag="left"):
    """A player left the lobby or was removed by the host."""

    seat: int
    kicked: bool = False
    # One member of a team seat left (the seat stays); None: the whole seat.
    member: int | None = None
    # The seat token hash of a person who left the queue for a seat at the next turn
    # (rooms/takeover.py; ``seat`` is -1 then). Logs from before the queue have none.
    waiting: str | None = None
    # Team seats in the lobby: the seats are made even again after (members.balanced);
    # older logs have none, and replay as they were played.
    balance: bool = False


class BotAdded(msgspec.Struct, frozen=True, tag="bot_added"):
    """The host filled a free seat with a bot of a ``level`` (logs from before levels
    have none: their bots were the easy ones)."""

    name: str
    color: str
    level: str = "easy"


class Reordered(msgspec.Struct, frozen=True, tag="reordered"):
    """The host changed the seating order (``order[i]`` is the old seat now at ``i``)."""

    order: tuple[int, ...]


class HostChanged(msgspec.Struct, frozen=True, tag="host_changed"):
    """The host role passed to another seat (``takeover``: taken from a host who was
    away, who gets it back on return)."""

    seat: int
    takeover: bool = False


class OptionsSet(msgspec.Struct, frozen=True, tag="options_set"):
    """The host changed the table options, the number of seats, how long a player may
    be gone before a bot plays for them (``away_seconds``; None: never), or how many
    times longer every timer runs (``time_factor``), or what the text filter hides
    (``text_filter``)."""

    options: dict[str, Any]
    seats: int
    away_seconds: int | None = DEFAULT_AWAY
    time_factor: int = 1
    text_filter: str = "mild"


class Started(msgspec.Struct, Generic[C], frozen=True, tag="started"):
    """A game began with the players in their current seats.

    ``content``: what the family dealt from outside the rules (the drawing game's word
    cards from the word lists of the day), so a replay deals the same even after the
    lists change; empty for most games. Logged as ``cards``, its first user's name.
    """

    content: tuple[C, ...] = msgspec.field(default=(), name="cards")


class Acted(msgspec.Struct, Generic[A], frozen=True, tag="acted"):
    """A game action was accepted (the seat is inside the action)."""

    action: A


class BotSeat(msgspec.Struct, frozen=True, tag="bot_seat"):
    """A bot took over a human's seat (``on``) or handed it back (``auto``: the room
    did, because the player had been gone for the table's ``away_seconds``, or, handing
    a team seat back, because its first member came back)."""

    seat: int
    on: bool
    auto: bool = False
    level: str = "easy"  # of the bot that plays the seat (older logs: the easy bot)


class BotLevelSet(msgspec.Struct, frozen=True, tag="bot_level_set"):
    """The host changed the level of the bot that plays a seat (a bot's seat, or a
    person's that a bot stands in for)."""

    seat: int
    level: str


class TokenRotated(msgspec.Struct, frozen=True, tag="token_rotated"):
    """A player replaced their seat link: the old token no longer opens the seat
    (``member``: the link of that member of a team seat; 0 is the seat's first)."""

    seat: int
    token_hash: str
    member: int = 0


class Chatted(msgspec.Struct, frozen=True, tag="chatted"):
    """A chat line (``team``: said to that team only; ``own``: said to the members of
    the speaker's own seat only, a team seat's chat; ``member``: which member of the
    seat said it, 0 its first)."""

    seat: int
    text: str
    at: float
    team: int | None = None
    own: bool = False
    member: int = 0


class Proposed(msgspec.Struct, frozen=True, tag="proposed"):
    """A member of a team seat chose a move for the seat (``move``: the move's frame
    without ``id`` and ``version``; None: the choice is withdrawn). ``firm``: confirmed,
    waiting for a second member to agree (the table's ``team_seats`` is "agree");
    otherwise only pointed at, for the teammates to see (rooms/team_moves.py)."""

    seat: int
    member: int
    move: dict[str, Any] | None
    firm: bool = False


class TeamChosen(msgspec.Struct, frozen=True, tag="team_chosen"):
    """A player joined a team in the lobby (``None``: stands aside)."""

    seat: int
    team: int | None


class Listed(msgspec.Struct, frozen=True, tag="listed"):
    """The host made the table public (listed for strangers) or private (link only)."""

    public: bool


class TeamsSet(msgspec.Struct, frozen=True, tag="teams_set"):
    """The host set the number of teams, and with it every seat's team."""

    count: int
    teams: tuple[int | None, ...]


class Dealt(msgspec.Struct, frozen=True, tag="dealt"):
    """The host dealt everyone at the table into team seats: each group of seat token
    hashes is one seat, its first person first (rooms/members.py); the bots keep seats
    of their own after them."""

    groups: tuple[tuple[str, ...], ...]


class Removed(msgspec.Struct, frozen=True, tag="removed"):
    """The host removed a person (``how``: ``host``); their browser and address may not
    take a seat in the room again. In the lobby the seat goes; in a game a bot plays it
    on, with its hand and score. ``member``: one member of a team seat removed (the seat
    plays on with the others; it goes, as above, only with its last member); None: the
    seat with everyone who plays it (logs from before: a team seat's members too)."""

    seat: int
    how: str = "host"
    member: int | None = None
    # Team seats in the lobby: the seats are made even again after (members.balanced);
    # older logs have none, and replay as they were played.
    balance: bool = False


class VoteStarted(msgspec.Struct, frozen=True, tag="vote_started"):
    """A person at a public table asked the people present to remove ``target``.

    ``voters``: the seat tokens (hashed) of the people present then, the target aside,
    who may vote (each member of a team seat on their own); the starter's yes is
    counted. The vote ends ``seconds`` after ``at``, and the next may start
    ``cooldown`` seconds after it ends (both as configured then, so a replay decides as
    the room did). ``member``: the target is that member of a team seat (0: its first
    person; None: the seat's first, as logs from before team seats read);
    ``by_member``: the starter's member number; ``balance``: a removal in the lobby
    makes team seats even again (as ``Removed.balance``)."""

    target: int
    by: int
    voters: tuple[str, ...]
    at: float
    seconds: float
    cooldown: float
    member: int | None = None
    by_member: int = 0
    balance: bool = False


class Voted(msgspec.Struct, frozen=True, tag="voted"):
    """A voter's ballot. The one that makes a majority of the voters removes the target
    (as ``Removed`` does); one that leaves no majority possible ends the vote.
    ``member``: which member of a team seat votes (0: its first person)."""

    seat: int
    yes: bool
    at: float
    member: int = 0


class VoteEnded(msgspec.Struct, frozen=True, tag="vote_ended"):
    """The vote's time ran out without a majority."""

    at: float


class Closed(msgspec.Struct, frozen=True, tag="closed"):
    """The site's operator closed the room (``reverie moderation close``): it takes no
    more events, its players are told, and it leaves every list."""

    reason: str = ""
    at: float = 0.0


#: The events every room has, whatever it plays.
ROOM_EVENTS: tuple[type[msgspec.Struct], ...] = (
    Created,
    Joined,
    Left,
    BotAdded,
    Reordered,
    HostChanged,
    OptionsSet,
    BotSeat,
    BotLevelSet,
    Chatted,
    TeamChosen,
    TeamsSet,
    TokenRotated,
    Listed,
    Proposed,
    Dealt,
    Removed,
    VoteStarted,
    Voted,
    VoteEnded,
    Closed,
)

RoomEvent = (
    Created
    | Joined
    | Left
    | BotAdded
    | Reordered
    | HostChanged
    | OptionsSet
    | Started[Any]
    | Acted[Any]
    | BotSeat
    | BotLevelSet
    | Chatted
    | TeamChosen
    | TeamsSet
    | TokenRotated
    | Listed
    | Proposed
    | Dealt
    | Removed
    | VoteStarted
    | Voted
    | VoteEnded
    | Closed
)

_CREATED: msgspec.json.Decoder[Created] = msgspec.json.Decoder(Created)
#: The keys of a ``Created`` that are its own (the rest of an older one is the setup).
_CREATED_KEYS = frozenset({*Created.__struct_fields__, "type"})


@cache
def decoder_for(family: AnyFamily) -> msgspec.json.Decoder[RoomEvent]:
    """The decoder of a log whose room plays ``family``'s games."""
    action: Any = family.action_type  # a type known at run time only
    content: Any = family.content_type
    kinds = (*ROOM_EVENTS, Acted[action], Started[content])
    return msgspec.json.Decoder(union_of(kinds))


games.on_change(decoder_for.cache_clear)


def encode_event(event: RoomEvent) -> bytes:
    """An event as JSON for the log."""
    return msgspec.json.encode(event)


def decode_event(data: bytes, family: AnyFamily) -> RoomEvent:
    """An event from the log of a room that plays ``family``'s games."""
    event: RoomEvent = decoder_for(family).decode(data)
    return event


def decode_created(data: bytes) -> Created:
    """A log's first event. One written before setups held the family's setup keys
    (the picture deck's ``deck`` and ``card_count``) beside its own: every key it has
    that ``Created`` does not know is its setup, so the family reads it as it reads a
    new one and the room folds as it did."""
    created = _CREATED.decode(data)
    if created.setup is not None:
        return created
    raw: dict[str, Any] = msgspec.json.decode(data, type=dict[str, Any])
    setup = {k: v for k, v in raw.items() if k not in _CREATED_KEYS}
    return msgspec.structs.replace(created, setup=setup)


def decode_log(payloads: Iterable[bytes]) -> list[RoomEvent]:
    """A room's whole log: the first event (``Created``) names the family that types the
    rest. Raises ``LookupError`` for a variant no family plays."""
    events: list[RoomEvent] = []
    family: AnyFamily | None = None
    for data in payloads:
        if family is None:
            created = decode_created(data)
            family = games.family_of(created.variant)
            events.append(created)
        else:
            events.append(decode_event(data, family))
    return events
