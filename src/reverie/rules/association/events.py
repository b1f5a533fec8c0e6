"""What happened, as small public facts (safe for every seat: no cards, no owners).

The engine returns these with each new state so the room can log and announce moves
("Ann played a card") without inspecting the state. Anything secret is only ever shown
through :mod:`.views`.
"""

from __future__ import annotations

import msgspec


class StorytellerChosen(msgspec.Struct, frozen=True, tag="storyteller_chosen"):
    """The first storyteller has been chosen (``how`` is claim, random, dice or host)."""

    seat: int
    how: str


class ClueGiven(msgspec.Struct, frozen=True, tag="clue_given"):
    """The storyteller locked a card and said the clue."""

    seat: int
    clue: str


class CardPlayed(msgspec.Struct, frozen=True, tag="card_played"):
    """A player put a card face down."""

    seat: int


class TableLaidOut(msgspec.Struct, frozen=True, tag="table_laid_out"):
    """The cards are shuffled and face up; voting is open."""

    cards: int


class Voted(msgspec.Struct, frozen=True, tag="voted"):
    """A player locked a vote."""

    seat: int


class TimedOut(msgspec.Struct, frozen=True, tag="timed_out"):
    """Players ran out of time; ``handled`` says what the rules did for them."""

    seats: tuple[int, ...]
    handled: str


class RoundScored(msgspec.Struct, frozen=True, tag="round_scored"):
    """The round is revealed and scored (details in the views' ``last_round``)."""

    number: int


class TurnSkipped(msgspec.Struct, frozen=True, tag="turn_skipped"):
    """The storyteller ran out of time; the turn passes on with no points."""

    seat: int


class GameEnded(msgspec.Struct, frozen=True, tag="game_ended"):
    """The game is over."""

    winners: tuple[int, ...]


Event = (
    StorytellerChosen
    | ClueGiven
    | CardPlayed
    | TableLaidOut
    | Voted
    | TimedOut
    | RoundScored
    | TurnSkipped
    | GameEnded
)
