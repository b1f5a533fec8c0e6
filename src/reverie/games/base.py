"""The seam between the rooms and a family of games.

A family adapts one pure rules package (``reverie.rules.<family>``) to the rooms: it
says what content a room takes when it opens (its ``setup``: the association games'
picture deck), how a room starts a game, which client frames are its moves and which
action each becomes, how a move changes the game, who sees what (the rules' views, and
the audience of each side-channel frame), how a phase is timed and how, and how fast, a
bot moves. The rooms and web layers hold a family only as :class:`GameFamily` and never
name a game, a deck or a phase.

Everything most games share has a default here; a family overrides what it needs.
"""

from __future__ import annotations

import functools
import operator
import random
import typing
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, Protocol, TypeVar

import msgspec

from reverie.content.library import Library
from reverie.errors import RoomError

G = TypeVar("G")  # the family's immutable game state
A = TypeVar("A")  # the family's action structs (a union)
Opt = TypeVar("Opt")  # the family's table options struct
C = TypeVar("C")  # what the family deals from outside the rules at a start
S = TypeVar("S")  # a side channel's per-turn state
O_co = TypeVar("O_co", covariant=True)

#: A person's usual time over a move, in seconds (shortest, longest), where the family
#: says no better (:meth:`GameFamily.bot_pace`).
DEFAULT_PACE = (1.5, 4.0)


# ---------------------------------------------------------------------- client frames


class Frame(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag_field="type"):
    """A client frame (docs/protocol.md); ``id`` comes back as the reply's ``ref``."""

    id: int | None = None


@dataclass(frozen=True, slots=True)
class Limit:
    """A token bucket: ``rate`` frames a second, bursts of ``burst``."""

    rate: float
    burst: float


class GameCommand(Frame, frozen=True):
    """A move in the game; it becomes one logged action (:meth:`GameFamily.action_for`).

    ``version``: the ``state.version`` the client acted on (a move aimed at an older
    phase is refused as stale). ``limit``: an allowance of its own on top of the
    connection's general one (say, guesses), or None.
    """

    version: int | None = None
    limit: ClassVar[Limit | None] = None


class SideCommand(Frame, frozen=True):
    """A frame for a side channel (say, strokes on a canvas): never logged."""


# ---------------------------------------------------------------------- audiences


@dataclass(frozen=True, slots=True)
class Audience:
    """Who may receive a frame. ``seats``/``teams`` None means no restriction of that
    kind; spectators (no seat) receive it only when ``spectators`` is true.

    >>> EVERYONE.admits(None, None), team_only(1).admits(3, 1), team_only(1).admits(3, 0)
    (True, True, False)
    >>> seats_only(2).admits(2, None), seats_only(2).admits(None, None)
    (True, False)
    """

    seats: frozenset[int] | None = None
    teams: frozenset[int] | None = None
    spectators: bool = True

    def admits(self, seat: int | None, team: int | None) -> bool:
        """Whether a viewer in ``seat`` (None: a spectator) on ``team`` may receive it."""
        if seat is None:
            return self.spectators and self.seats is None and self.teams is None
        if self.seats is not None and seat not in self.seats:
            return False
        return self.teams is None or (team is not None and team in self.teams)


EVERYONE = Audience()


def team_only(team: int) -> Audience:
    """A team's members, nobody else."""
    return Audience(teams=frozenset({team}), spectators=False)


def seats_only(*seats: int) -> Audience:
    """These seats, nobody else."""
    return Audience(seats=frozenset(seats), spectators=False)


#: What a viewer may see: ``admits(audience)``. The rooms build one per connection.
Admits = Callable[[Audience], bool]


# ---------------------------------------------------------------------- lobby facts


@dataclass(frozen=True, slots=True)
class TeamSpec:
    """A team game's lobby: how many teams, how big, their colours (team ``t`` is shown
    in ``colors[t]``). ``host_aside``: the host's seat stays outside the teams (a shared
    device on the table that enters the table's moves and plays in no team)."""

    min_teams: int
    max_teams: int
    min_size: int
    colors: tuple[str, ...]
    host_aside: bool = False

    def as_dict(self) -> dict[str, object]:
        """The capability the client reads."""
        return {
            "min": self.min_teams,
            "max": self.max_teams,
            "min_size": self.min_size,
            "colors": list(self.colors),
            "host_aside": self.host_aside,
        }


@dataclass(frozen=True, slots=True)
class VariantInfo:
    """What the lobby and the home page show of a variant."""

    name: str
    title: str
    family: str
    min_players: int
    max_players: int
    details: dict[str, Any]
    #: What the client needs to choose and draw its screens (docs/protocol.md,
    #: "Capabilities"): ``client`` (which client module plays it), ``story_source``,
    #: ``board``, ``teams``, ``canvas``, ``bots``, ``restrictions``, ``categories`` and
    #: the table ``options`` the variant offers. The client never branches on names.
    capabilities: dict[str, Any] = field(default_factory=dict)


class RoomLike(Protocol[O_co]):
    """The parts of a room a family reads (``RoomState`` has them)."""

    @property
    def variant(self) -> str: ...
    @property
    def options(self) -> O_co: ...
    @property
    def setup(self) -> Any: ...
    @property
    def lang(self) -> str: ...


# ---------------------------------------------------------------------- side channels


class SideChannel(ABC, Generic[G, S]):
    """A stream beside the log (the drawing game's canvas): frames a seat sends that
    change memory only, fanned out to an audience, and replayed whole to a late joiner.

    Its state lives with the live room and starts afresh whenever :meth:`key` changes
    (a new turn). ``harmless``: refusals an honest client meets (the turn just ended),
    not counted as abuse. ``resync``: refusals after which the sender gets the replay,
    because its page already showed what was refused.
    """

    name: ClassVar[str]
    command: ClassVar[type[SideCommand]]
    limit: ClassVar[Limit]
    harmless: ClassVar[frozenset[str]] = frozenset()
    resync: ClassVar[frozenset[str]] = frozenset()

    def cost(self, cmd: SideCommand) -> float:
        """How much of the sender's allowance a frame spends (what it costs every
        viewer to show it); one by default."""
        return 1.0

    @abstractmethod
    def key(self, game: G, games: int) -> Hashable:
        """What the state belongs to (when it changes the state starts again)."""

    @abstractmethod
    def new_state(self) -> S:
        """The state at the start of a :meth:`key`."""

    @abstractmethod
    def accept(
        self, game: G, games: int, state: S, seat: int, cmd: SideCommand
    ) -> tuple[dict[str, Any], Audience]:
        """Check and apply ``cmd`` from ``seat`` (all or nothing; raises ``RoomError``);
        returns the frame for the others and who may see it."""

    @abstractmethod
    def replay(self, game: G, games: int, state: S, admits: Admits) -> dict[str, Any] | None:
        """The whole channel as one frame, holding only what ``admits`` lets through."""

    @abstractmethod
    def sample(self, game: G, seat: int, rng: random.Random) -> SideCommand | None:
        """A frame ``seat`` might send now, drawn with ``rng`` (None: it sends none
        now). The frame secrecy property (tests/games/test_frame_secrecy.py) sends them
        from random seats, so a new channel's audiences are checked by being
        registered."""


# ---------------------------------------------------------------------- the family


class GameFamily(ABC, Generic[G, A, Opt, C]):
    """How the rooms start, advance, time, show and bot-play one kind of game.

    Errors are the rules' ``IllegalAction``/``SetupError`` or a ``RoomError`` with a
    code and a readable message.
    """

    #: The family's name (also the client module that plays it).
    name: ClassVar[str]
    #: The union of the family's action structs: the log decodes ``Acted`` with it.
    action_type: ClassVar[Any]
    #: The type ``C`` of what :meth:`deal` returns, for the log's ``Started``.
    content_type: ClassVar[Any] = Any
    #: The types ``G`` and ``Opt``, to read a room's snapshot back (``None``: the family
    #: does not say, and its rooms always replay their whole log).
    game_type: ClassVar[Any] = None
    options_type: ClassVar[Any] = None
    #: The struct of a room's ``setup`` (what :meth:`prepare` chose when the room opened,
    #: recorded in its ``Created`` event); None: the family's rooms take none.
    setup_type: ClassVar[Any] = None
    #: Whether the family's tables play with a picture deck, which the host chooses when
    #: opening the room: the capability ``deck``.
    uses_deck: ClassVar[bool] = False
    #: The client frames that are moves of this game.
    commands: ClassVar[tuple[type[GameCommand], ...]] = ()
    #: Side channels (their commands are decoded too).
    channels: ClassVar[tuple[SideChannel[Any, Any], ...]] = ()
    #: Lobby teams, for team games.
    teams: ClassVar[TeamSpec | None] = None
    bots_allowed: ClassVar[bool] = True
    #: A person arriving while a game runs joins it as one more player (a game without
    #: bots: :meth:`add_player`) rather than taking a bot's seat (rooms/takeover.py).
    joins_mid_game: ClassVar[bool] = False
    #: The levels a host may choose for this family's bots (a subset of
    #: :data:`reverie.rooms.bot_levels.BOT_LEVELS`; empty: its bots play one way only, so
    #: the client offers no choice). The capability ``bot_levels``.
    bot_levels: ClassVar[tuple[str, ...]] = ()

    # ------------------------------------------------------------ variants

    @abstractmethod
    def variant_names(self) -> tuple[str, ...]:
        """The variants this family plays."""

    @abstractmethod
    def variant(self, name: str) -> VariantInfo:
        """One variant (``LookupError`` if not this family's)."""

    def variants(self) -> list[VariantInfo]:
        """Every variant of the family, for the lobby."""
        return [self.variant(n) for n in self.variant_names()]

    def parse_options(self, raw: Mapping[str, Any], lang: str) -> Opt:
        """Table options from a client's dict (``lang``: the room's language); the
        default converts ``raw`` to :attr:`options_type`, refusing what does not fit."""
        if self.options_type is None:
            raise NotImplementedError(f"{self.name} names no options_type")
        try:
            options: Opt = msgspec.convert(raw, self.options_type)
        except msgspec.ValidationError as exc:
            raise RoomError("bad_options", f"Invalid option: {exc}") from None
        return options

    # ------------------------------------------------------------ content

    async def check_content(self, options: Mapping[str, Any], library: Library) -> None:
        """Refuse table options (as the client sent them) that name content which is not
        there, reading it meanwhile (the drawing game's own word lists): called when a
        room opens and when its options change. Raises ``RoomError``."""

    async def prepare(self, choices: Mapping[str, Any], library: Library) -> dict[str, Any]:
        """The ``setup`` of a room being opened, as its log records it: the content the
        creator chose (``choices``, say ``{"deck": name}``) checked and loaded from
        ``library``. Raises ``RoomError``; ``{}`` when the family takes none."""
        return {}

    async def opened(self, code: str, setup: Any, library: Library) -> None:
        """Room ``code`` has opened with ``setup`` (the parsed one): note what it plays
        (a player's deck then outlives its deletion while the room is active)."""

    async def options_named(self, code: str, options: Mapping[str, Any], library: Library) -> None:
        """Room ``code`` opens with, or changes to, ``options`` (as the client sent them,
        checked by :meth:`check_content`): note the content they name (a table's own
        word list is then kept as long as the room)."""

    def parse_setup(self, raw: Mapping[str, Any]) -> Any:
        """A room's ``setup`` from its log (an older ``Created`` may hold keys the family
        no longer reads: they are ignored); None for a family without
        :attr:`setup_type`."""
        if self.setup_type is None:
            return None
        try:
            return msgspec.convert(raw, self.setup_type)
        except msgspec.ValidationError as exc:
            raise RoomError("bad_options", f"Invalid room setup: {exc}") from None

    def setup_facts(self, room: RoomLike[Opt]) -> dict[str, Any]:
        """What the room's ``state`` frame says of its setup (public facts only, say the
        ``deck``'s name, whose pictures the client shows); none by default."""
        return {}

    def deck_fit(self, room: RoomLike[Opt], seats: int) -> dict[str, Any] | None:
        """What the room's deck allows, for the lobby to tell before the start:
        ``{"cards", "max_players", "rounds"}`` (rounds at ``seats``; None: not bounded
        by the deck); None when the deck does not limit the table."""
        return None

    def check_setup(self, room: RoomLike[Opt], players: int) -> None:
        """Refuse options the rules would refuse at the start (checked in the lobby).

        The default sets up a game for ``players`` (at least the minimum) with no teams.
        """
        least = self.variant(room.variant).min_players
        names = [f"p{i}" for i in range(max(players, least))]
        self.new_game(room, names, [None] * len(names), 0, self.deal(room, 0))

    # ------------------------------------------------------------ playing

    def deal(self, room: RoomLike[Opt], seed: int) -> tuple[C, ...]:
        """Content a new game takes from outside the rules (the drawing game's word
        cards), recorded in the ``Started`` event; ``()`` if none."""
        return ()

    @abstractmethod
    def new_game(
        self,
        room: RoomLike[Opt],
        names: Sequence[str],
        teams: Sequence[int | None],
        seed: int,
        content: tuple[C, ...],
    ) -> G:
        """A fresh game for the seated players (``teams[s]``: seat ``s``'s team, if any)
        with the ``content`` that :meth:`deal` gave."""

    @abstractmethod
    def action_for(self, game: G, seat: int, cmd: GameCommand) -> A:
        """The action ``cmd`` from ``seat`` asks for (raises ``RoomError`` for a frame
        the log must not hold); the rules judge it afterwards."""

    def accepts(self, action: object) -> bool:
        """Whether ``action`` is one of this family's actions."""
        return isinstance(action, _classes(self.action_type))

    def acts_after_end(self, game: G, action: A) -> bool:
        """Whether ``action`` may still be taken once the game has ended: one that takes
        the end back (a companion table undoing the reveal that ended its game). The
        rules judge it; if the game is no longer over, the room plays on."""
        return False

    @abstractmethod
    def apply(self, game: G, action: A) -> G:
        """The game after ``action`` (raises ``IllegalAction``; ``game`` is unchanged)."""

    @abstractmethod
    def is_over(self, game: G) -> bool:
        """Whether the game has ended."""

    def progress(self, game: G) -> float:
        """How far the game has gone towards its end, from 0 to 1 (an estimate): the open
        tables seat nobody new in a game already decided (rooms/listing.py). A family
        that cannot tell says 0 (only a finished game counts as decided then)."""
        return 1.0 if self.is_over(game) else 0.0

    @abstractmethod
    def phase_key(self, game: G) -> tuple[int, str]:
        """The turn number and the phase (a move aimed at another one is stale)."""

    @abstractmethod
    def views(self, game: G, seats: Iterable[int | None]) -> Mapping[int | None, object]:
        """The rules' view of each seat (``None``: a spectator): the one redaction point
        of the game state."""

    def timer(self, game: G) -> tuple[str, float] | None:
        """The running timer's name and length in seconds, or None for no timer."""
        return None

    def add_player(self, game: G, name: str) -> tuple[G, int | None]:
        """The game with one more player, ``name``, in a new last seat, and their team: a
        person who arrived while it ran, seated at a turn boundary (a family whose
        :attr:`joins_mid_game`; rooms/takeover.py)."""
        raise NotImplementedError(f"{self.name} seats nobody new during a game")

    def timeout(self) -> A | None:
        """The action the room sends when the timer runs out."""
        return None

    def team_seats(self, options: Opt) -> str:
        """Whether the table takes team seats, several people playing one seat
        (reverie.rooms.members): "off" (the default: a game without the option), "one"
        (a member's confirm moves the seat) or "agree" (a second member must agree)."""
        mode = getattr(options, "team_seats", "off")
        return mode if isinstance(mode, str) else "off"

    def actor(self, action: A) -> int | None:
        """The seat that made ``action`` (None: the clock's, or the family does not
        say); a team seat's pending choices go once it has moved."""
        seat = getattr(action, "seat", None)
        return seat if isinstance(seat, int) else None

    def check_move(self, game: G, action: A) -> None:
        """Raise as :meth:`apply` would for ``action``, changing nothing (a team seat's
        confirm that waits for a second member is refused now if the rules would)."""
        self.apply(game, action)

    def check_chat(self, game: G, seat: int) -> None:
        """Raise ``RoomError`` if ``seat`` may not chat now (say, a drawer while the turn
        is drawn)."""

    # ------------------------------------------------------------ secrecy

    @abstractmethod
    def scramble(self, game: G, seat: int | None, rng: random.Random) -> G:
        """``game`` changed in everything ``seat`` (None: a spectator) may not know, and
        in nothing it may. This is what the game keeps secret, said as code: the seat's
        view of the scrambled game must equal its view of ``game``, which one property
        test checks for every registered game (tests/games/test_secrecy.py)."""

    @abstractmethod
    def random_action(self, game: G, rng: random.Random) -> A | None:
        """Some seat's move (or the clock's) chosen at random, for the property tests'
        playouts; the rules may refuse it (the test draws again). None: nothing is left
        to do."""

    # ------------------------------------------------------------ bots

    def bot_seats(self, game: G, bots: Sequence[bool]) -> list[int]:
        """Seats whose bot should move now (``bots[s]``: a bot plays seat ``s``)."""
        return []

    def bot_action(
        self,
        game: G,
        seat: int,
        rng: random.Random,
        room: RoomLike[Opt],
        library: Library,
        level: str = "easy",
    ) -> A | None:
        """A bot's move for ``seat``, or None (``room``: the table, its language and its
        setup; ``library``: the content its setup names; ``level``: the bot's, see
        :data:`reverie.rooms.bot_levels.BOT_LEVELS`). Run in a thread: it may take a while."""
        return None

    def bot_pace(self, game: G) -> tuple[float, float]:
        """How long a person usually takes over the game's current move, in seconds
        (shortest, longest): a bot seems to think that long (scaled by the server's
        ``bot_delay`` and kept within a share of the phase's timer by the rooms)."""
        return DEFAULT_PACE

    # ------------------------------------------------------------ side channels

    def channel_for(self, cmd: SideCommand) -> SideChannel[G, Any] | None:
        """The side channel a frame belongs to."""
        for channel in self.channels:
            if isinstance(cmd, channel.command):
                return channel
        return None


def _classes(union: object) -> tuple[type, ...]:
    """The classes of a union type (or the one class)."""
    args = typing.get_args(union)
    return tuple(a for a in args if isinstance(a, type)) if args else (union,)  # type: ignore[return-value]


def union_of(kinds: Iterable[object]) -> Any:
    """The union of ``kinds`` as a type a decoder takes (built at run time from the
    registry, so no static annotation can spell it)."""
    return functools.reduce(operator.or_, kinds)


#: A family with its types erased: what the registry and the rooms hold.
AnyFamily = GameFamily[Any, Any, Any, Any]
