"""What the players of a companion game tap on their phones.

Tagged structs; the seat is filled in by the room from the player's seat token.
"""

from __future__ import annotations

import msgspec


class Roll(msgspec.Struct, frozen=True, tag="roll", forbid_unknown_fields=True):
    """Roll one's die for the first storyteller (the number comes from the game's seed)."""

    seat: int


class Tell(msgspec.Struct, frozen=True, tag="tell", forbid_unknown_fields=True):
    """The storyteller has said the clue aloud (``text``: typed for the log, or empty).
    While the first storyteller is open to a claim, whoever tells first takes the turn."""

    seat: int
    text: str = ""


class Count(msgspec.Struct, frozen=True, tag="count", forbid_unknown_fields=True):
    """The storyteller counted the cards lying face up on the table."""

    seat: int
    cards: int


class Place(msgspec.Struct, frozen=True, tag="place", forbid_unknown_fields=True):
    """The position of one's own card on the table (the gallery's storyteller: the
    position of the card they picked)."""

    seat: int
    position: int


class Vote(msgspec.Struct, frozen=True, tag="vote", forbid_unknown_fields=True):
    """A vote for the position one thinks is the storyteller's card."""

    seat: int
    position: int


class Undo(msgspec.Struct, frozen=True, tag="undo", forbid_unknown_fields=True):
    """The table agrees the last reveal was entered wrong: take it back and enter the
    round again."""

    seat: int


class Finish(msgspec.Struct, frozen=True, tag="finish", forbid_unknown_fields=True):
    """The table's cards ran out (Dixit's deck, Imaginarium's hands): the game ends."""

    seat: int


Action = Roll | Tell | Count | Place | Vote | Undo | Finish
