"""Immutable state of a companion game: an association game played with a real box.

The cards, hands and deck stay on the table; the app keeps what a box keeps badly: whose
turn it is, the clue restriction, the secret positions and votes until everyone is in,
the scores and the pieces on the board. The state holds secrets (each seat's claimed
position and vote before the reveal) and never leaves the server: clients get
:func:`reverie.rules.companion.views.view`.
"""

from __future__ import annotations

import enum
from typing import Annotated, Literal

import msgspec
from msgspec import Meta

from reverie.rules.association.clues import Restriction
from reverie.rules.association.state import RestrictionSetting


class Phase(enum.StrEnum):
    """Where the current turn is."""

    DICE = "dice"  # rolling for the first storyteller (Pictoric), ties roll again
    CLUE = "clue"  # waiting for the storyteller to tell the clue
    COUNT = "count"  # cards go face down; the storyteller counts those on the table
    SECRET = "secret"  # each seat enters its card's position and its vote, in secret
    OVER = "over"  # the game has ended


class Options(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Table options of a companion game (the association options that mean something
    with real cards; timers and decks belong to the box).

    ``first_storyteller``: ``"default"`` follows the variant's rule book (claim, random
    or dice), or a seat number. ``restrictions``: as in the online game (Imaginarium's
    special clouds by default). ``target_score``: end the game after a round in which
    someone reaches it. ``track_length``: steps to Pictoric's PICTORICBOX.
    """

    first_storyteller: Literal["default", "claim", "random", "dice"] | int = "default"
    restrictions: RestrictionSetting = "board"
    target_score: Annotated[int, Meta(ge=1, le=1_000_000)] | None = None
    track_length: Annotated[int, Meta(ge=1, le=100_000)] = 40
    # Team seats (several people playing one seat, each from their own phone): "off" or
    # "one" (a member's entry moves the seat; "agree" is read as "one": the team sits
    # together at the box, games/companion.py). The rooms read it
    # (reverie.rooms.members); to the rules a team seat is one player.
    team_seats: Literal["off", "one", "agree"] = "off"


class Round(msgspec.Struct, frozen=True):
    """The turn in progress.

    ``claims[s]``: the position seat ``s`` says its card lies at (in the gallery only the
    storyteller claims: the position of the card they picked). ``votes[s]``: the position
    seat ``s`` voted for. ``clashes``: how many times this round two seats claimed one
    position once all were in (each time everyone enters again; nobody is named).
    """

    number: int
    storyteller: int | None
    restriction: Restriction | None = None
    told: bool = False
    clue: str = ""
    count: int | None = None
    claims: tuple[int | None, ...] = ()
    votes: tuple[int | None, ...] = ()
    clashes: int = 0


class Revealed(msgspec.Struct, frozen=True):
    """A revealed round: public once it is over. ``owners[i]`` is the seat whose card
    lay at position ``i + 1``; ``points`` what each seat moved."""

    number: int
    storyteller: int
    clue: str
    restriction: Restriction | None
    owners: tuple[int, ...]
    story_position: int
    votes: tuple[int | None, ...]
    points: tuple[int, ...]


class Undone(msgspec.Struct, frozen=True):
    """A reveal the table took back (entered wrong): who asked, and what it had said."""

    seat: int
    round: Revealed


class GameState(msgspec.Struct, frozen=True):
    """A whole companion game at one moment.

    ``rolls``: the dice rolled for the first storyteller, one row per roll (0: that seat
    did not roll in this row); ``contenders``: who rolls in the current row.
    ``ended_by``: ``"score"`` when a score ended the game, ``"table"`` when the table
    said its cards ran out.
    """

    variant: str
    players: tuple[str, ...]
    seed: int
    options: Options
    phase: Phase
    round: Round
    scores: tuple[int, ...]
    history: tuple[Revealed, ...] = ()
    rolls: tuple[tuple[int, ...], ...] = ()
    contenders: tuple[int, ...] = ()
    undone: tuple[Undone, ...] = ()
    winners: tuple[int, ...] = ()
    ended_by: Literal["score", "table"] | None = None
    version: int = 0
