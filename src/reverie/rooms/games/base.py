"""The interface between rooms and a family of games."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from reverie.content.decks import Deck


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
    capabilities: dict[str, Any]


class RoomLike(Protocol):
    """The parts of a room a family reads (``RoomState`` has them)."""

    @property
    def variant(self) -> str: ...
    @property
    def options(self) -> Any: ...
    @property
    def card_count(self) -> int: ...
    @property
    def lang(self) -> str: ...


class GameFamily(Protocol):
    """How the rooms start, advance, time, show and bot-play one kind of game.

    ``game`` arguments are the family's own immutable game state; ``action`` its own
    action structs. Errors are the rules' ``IllegalAction``/``SetupError`` or a
    ``RoomError`` with a code and a readable message.
    """

    name: str
    bots_allowed: bool
    has_teams: bool

    def variant_names(self) -> tuple[str, ...]:
        """The variants this family plays."""
        ...

    def variants(self) -> list[VariantInfo]:
        """Every variant of the family, for the lobby."""
        ...

    def variant(self, name: str) -> VariantInfo:
        """One variant."""
        ...

    def parse_options(self, raw: dict[str, Any], lang: str) -> Any:
        """Table options from a client's dict (``lang``: the room's language)."""
        ...

    def check_setup(self, room: RoomLike, players: int) -> None:
        """Refuse options the rules would refuse at the start (checked in the lobby)."""
        ...

    def deal(self, room: RoomLike, seed: int) -> tuple[Any, ...]:
        """Content a new game takes from outside the rules (the drawing game's word
        cards), to be recorded in the ``Started`` event; ``()`` if none."""
        ...

    def new_game(
        self,
        room: RoomLike,
        names: Sequence[str],
        teams: Sequence[int | None],
        seed: int,
        content: tuple[Any, ...],
    ) -> Any:
        """A fresh game for the seated players (``teams[s]``: seat ``s``'s team, if any)
        with the ``content`` that :meth:`deal` gave."""
        ...

    def accepts(self, action: object) -> bool:
        """Whether ``action`` is one of this family's actions."""
        ...

    def apply(self, game: Any, action: Any) -> Any:
        """The game after ``action`` (raises ``IllegalAction``; ``game`` is unchanged)."""
        ...

    def is_over(self, game: Any) -> bool:
        """Whether the game has ended."""
        ...

    def phase_key(self, game: Any) -> tuple[int, str]:
        """The turn number and the phase (an action aimed at another one is stale)."""
        ...

    def views(self, game: Any, seats: Iterable[int | None]) -> dict[int | None, Any]:
        """The rules' view of each seat (``None``: a spectator): the one redaction point."""
        ...

    def timer(self, game: Any) -> tuple[str, float] | None:
        """The running timer's name and length in seconds, or None for no timer."""
        ...

    def timeout(self) -> Any:
        """The action the room sends when the timer runs out."""
        ...

    def may_chat(self, game: Any, seat: int) -> bool:
        """Whether a seat may chat now (a drawer may not while the turn is drawn)."""
        ...

    def team_of(self, game: Any, seat: int) -> int | None:
        """A seat's team in the game, if the game has teams."""
        ...

    def bot_seats(self, game: Any, bots: Sequence[bool]) -> list[int]:
        """Seats whose bot should move now (``bots[s]``: a bot plays seat ``s``)."""
        ...

    def bot_action(
        self, game: Any, seat: int, rng: random.Random, deck: Deck | None, lang: str
    ) -> Any | None:
        """A bot's move for ``seat``, or None."""
        ...
