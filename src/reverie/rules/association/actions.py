"""What players (and the room's clock) can do in an association game.

Actions are tagged structs, so a client message ``{"type": "vote", "seat": 2,
"position": 3}`` decodes straight into a validated :class:`Vote`. The seat is filled in
by the room from the player's seat token, never trusted from the client.
"""

from __future__ import annotations

import msgspec


class Clue(msgspec.Struct, frozen=True, tag="clue", forbid_unknown_fields=True):
    """The storyteller picks a card and says a clue.

    ``card`` is a card from the storyteller's hand (Dixit, Imaginarium), one of the six
    laid out (gallery), or ``None`` for Pictoric, where the card is the top of the deck.
    """

    seat: int
    text: str
    card: int | None = None


class Submit(msgspec.Struct, frozen=True, tag="submit", forbid_unknown_fields=True):
    """A non-storyteller adds a card from their hand, face down."""

    seat: int
    card: int


class Vote(msgspec.Struct, frozen=True, tag="vote", forbid_unknown_fields=True):
    """A non-storyteller votes for the position they think is the storyteller's card."""

    seat: int
    position: int


class Timeout(msgspec.Struct, frozen=True, tag="timeout", forbid_unknown_fields=True):
    """The room's timer ran out for the current phase (time enters only as an action)."""


Action = Clue | Submit | Vote | Timeout

_ACTION_DECODER: msgspec.json.Decoder[Action] = msgspec.json.Decoder(Action)


def encode_action(action: Action) -> bytes:
    """An action as JSON, for the event log."""
    return msgspec.json.encode(action)


def decode_action(data: bytes | str) -> Action:
    """An action from JSON; raises ``msgspec.ValidationError`` on anything malformed."""
    action: Action = _ACTION_DECODER.decode(data)
    return action
