"""What players (and the room's clock) can do in the drawing game.

Tagged structs: ``{"type": "guess", "seat": 3, "text": "albero"}`` decodes straight into
a :class:`Guess`. The seat is filled in by the room from the player's seat token. For a
team decision (:class:`Move`, :class:`Keep`, :class:`Steal`, :class:`Forfeit`) any member
of the deciding team may act; the first to send decides.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from reverie.rules.visual.categories import Category


class Choose(msgspec.Struct, frozen=True, tag="choose", forbid_unknown_fields=True):
    """The drawer chooses one of the first four categories; then the card is drawn."""

    seat: int
    category: Category


class Guess(msgspec.Struct, frozen=True, tag="guess", forbid_unknown_fields=True):
    """A guesser types a guess."""

    seat: int
    text: str


class Accept(msgspec.Struct, frozen=True, tag="accept", forbid_unknown_fields=True):
    """The drawer marks guess number ``index`` (0-based, in the turn's list) as correct."""

    seat: int
    index: int


class Synonym(msgspec.Struct, frozen=True, tag="synonym", forbid_unknown_fields=True):
    """The drawer marks guess number ``index`` as a synonym (a hint only)."""

    seat: int
    index: int


class Move(msgspec.Struct, frozen=True, tag="move", forbid_unknown_fields=True):
    """The team that guessed the proverb moves its pawn exactly ``steps`` (1–8) squares."""

    seat: int
    steps: int
    direction: Literal["forward", "backward"]


class Keep(msgspec.Struct, frozen=True, tag="keep", forbid_unknown_fields=True):
    """The team keeps the bonus token it landed on."""

    seat: int


class Steal(msgspec.Struct, frozen=True, tag="steal", forbid_unknown_fields=True):
    """The team gives up the bonus token and takes ``token`` from an opposing team."""

    seat: int
    token: int


class Forfeit(msgspec.Struct, frozen=True, tag="forfeit", forbid_unknown_fields=True):
    """The team that failed its turn gives up ``token``, one it holds."""

    seat: int
    token: int


class Declare(msgspec.Struct, frozen=True, tag="declare", forbid_unknown_fields=True):
    """A drawer says their team guessed the subject (a game drawn on paper: the guess is
    heard at the table, nothing is typed). The turn is solved as by an accepted guess."""

    seat: int


class GiveUp(msgspec.Struct, frozen=True, tag="give_up", forbid_unknown_fields=True):
    """The turn's drawer ends the drawing unsolved before its time is up (the table's own
    sand timer ran out, or the team gives up): as when the drawing time runs out."""

    seat: int


class TimeUp(msgspec.Struct, frozen=True, tag="time_up", forbid_unknown_fields=True):
    """The running timer (``Turn.timer``) ran out: time enters only as an action."""


Action = (
    Choose | Guess | Accept | Synonym | Declare | GiveUp | Move | Keep | Steal | Forfeit | TimeUp
)

_ACTION_DECODER: msgspec.json.Decoder[Action] = msgspec.json.Decoder(Action)


def encode_action(action: Action) -> bytes:
    """An action as JSON, for the event log."""
    return msgspec.json.encode(action)


def decode_action(data: bytes | str) -> Action:
    """An action from JSON; raises ``msgspec.ValidationError`` on anything malformed."""
    action: Action = _ACTION_DECODER.decode(data)
    return action
