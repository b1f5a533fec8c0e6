"""Immutable game state of an association game.

Everything is a frozen ``msgspec.Struct``: cheap to copy with ``replace``, impossible to
mutate by accident, and serialisable to JSON and back without hand-written code. Cards
are integers: indexes into the content deck the room plays with. Seats are integers
``0..n-1`` in table order (the storyteller role passes to the next seat).

The state holds secrets (hands, the storyteller's pick, the owners of table cards, the
seed). It never leaves the server: clients get :func:`reverie.rules.association.view`.
"""

from __future__ import annotations

import enum
from typing import Annotated, Literal

import msgspec
from msgspec import Meta

from reverie.rules.association.clues import Restriction


class Phase(enum.StrEnum):
    """Where the current turn is."""

    CLUE = "clue"  # waiting for the storyteller's card and clue
    SUBMIT = "submit"  # the others each add a card face down
    VOTE = "vote"  # cards are face up at positions; the others vote
    OVER = "over"  # the game has ended


RestrictionSetting = Literal[
    "board", "off", "four_words", "three_words", "question", "brand", "film", "story"
]


#: A timer's length, at most a day (null or 0: no timer). Bounded so that no value can
#: overflow the clock arithmetic of the room's timers.
Seconds = Annotated[int, Meta(ge=0, le=86_400)]


class Options(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Table options a host can choose (docs/specification.md §2.6).

    ``first_storyteller``: ``"default"`` follows the variant's rule book; ``"claim"``,
    ``"random"``, ``"dice"``, or a seat number when the host picks.
    ``restrictions``: ``"board"`` uses the special squares of the variant's board (only
    Imaginarium has them), ``"off"`` ignores them, or one restriction for the whole game.
    ``on_timeout``: what a player who runs out of time does: ``"random"`` plays a random
    card / casts a random vote for them, ``"skip"`` leaves them out of the round.
    ``target_score``: end the game after the round in which someone reaches it.
    ``track_length``: steps to Pictoric's PICTORICBOX.
    ``deck_size``: override the number of cards the game uses.
    """

    first_storyteller: Literal["default", "claim", "random", "dice"] | int = "default"
    restrictions: RestrictionSetting = "board"
    on_timeout: Literal["random", "skip"] = "random"
    target_score: Annotated[int, Meta(ge=1, le=1_000_000)] | None = None
    track_length: Annotated[int, Meta(ge=1, le=100_000)] = 40
    deck_size: Annotated[int, Meta(ge=1, le=1_000_000)] | None = None
    clue_seconds: Seconds | None = None
    card_seconds: Seconds | None = None
    vote_seconds: Seconds | None = None
    # Team seats (several people playing one seat, each from their own device): "off",
    # "one" (a member's confirm moves the seat) or "agree" (a second member must agree).
    # The rooms read it (reverie.rooms.members); to the rules a team seat is one player.
    team_seats: Literal["off", "one", "agree"] = "off"


class Round(msgspec.Struct, frozen=True):
    """The turn in progress.

    ``submissions[s]`` is the card seat ``s`` put face down (``None`` until they do; the
    storyteller's entry stays ``None``, their card is ``story_card``). ``table`` lists the
    cards in position order once they are laid out and ``owners`` the seat of each.
    ``votes[s]`` is the 1-based position seat ``s`` voted for. ``salt`` stays secret
    until the reveal; ``commitment`` = sha256 of the storyteller's card and the salt.
    ``waiting`` lists the seats whose move the phase still needs (kept with each action
    rather than recomputed, because every action and every view asks for it).
    """

    number: int
    storyteller: int | None
    restriction: Restriction | None = None
    clue: str | None = None
    story_card: int | None = None
    commitment: str | None = None
    salt: str = ""
    submissions: tuple[int | None, ...] = ()
    sat_out: tuple[int, ...] = ()
    table: tuple[int, ...] = ()
    owners: tuple[int, ...] = ()
    votes: tuple[int | None, ...] = ()
    waiting: tuple[int, ...] = ()


class RoundResult(msgspec.Struct, frozen=True):
    """A finished (revealed) round: public to everyone once it is over."""

    number: int
    storyteller: int
    clue: str | None
    restriction: Restriction | None
    table: tuple[int, ...]
    owners: tuple[int, ...]
    story_position: int | None
    votes: tuple[int | None, ...]
    points: tuple[int, ...]
    commitment: str | None
    salt: str
    story_card: int | None
    skipped: bool = False


class GameState(msgspec.Struct, frozen=True):
    """A whole association game at one moment."""

    variant: str
    players: tuple[str, ...]
    seed: int
    card_count: int
    options: Options
    phase: Phase
    round: Round
    hands: tuple[tuple[int, ...], ...]
    deck: tuple[int, ...]
    discard: tuple[int, ...]
    scores: tuple[int, ...]
    history: tuple[RoundResult, ...] = ()
    first_rolls: tuple[tuple[int, ...], ...] = ()
    winners: tuple[int, ...] = ()
    version: int = 0
    # Cards taken into this game from the content deck, for the conservation check.
    in_play: int = 0

    def to_json(self) -> bytes:
        """The whole state as JSON (secrets included: for storage, never for clients)."""
        return msgspec.json.encode(self)

    @staticmethod
    def from_json(data: bytes | str) -> GameState:
        """Rebuild a state from :meth:`to_json`."""
        return msgspec.json.decode(data, type=GameState)
