"""The five association variants as data (docs/specification.md §2), with a registry.

The engine in :mod:`.engine` plays every variant; what differs is only what is written
here: player counts, hand and deck sizes, where the storyteller's card comes from, how
hands are refilled, how the game ends, the board and the scoring function.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace

from reverie.rules.association.boards import (
    DIXIT_TRACK,
    IMAGINARIUM_CLOUDS,
    PICTORIC_TRACK,
    Board,
)
from reverie.rules.association.scoring import (
    RoundInput,
    score_dixit,
    score_imaginarium,
    score_imaginarium_harmony,
    score_pictoric,
    score_pictoric_gallery,
)
from reverie.rules.errors import SetupError


class StorySource(enum.StrEnum):
    """Where the storyteller's card comes from."""

    HAND = "hand"  # picked from the storyteller's own hand (Dixit, Imaginarium)
    DECK_TOP = "deck_top"  # the top card of the deck (Pictoric)
    GALLERY = "gallery"  # six fresh cards laid face up, one picked in secret


class Refill(enum.StrEnum):
    """How hands are topped up after a round."""

    TO_HAND_SIZE = "to_hand_size"  # everyone back to the hand size
    ONE_PLUS_FINDERS = "one_plus_finders"  # non-storytellers 1, finders 1 more (Pictoric)
    NONE = "none"


class EndRule(enum.StrEnum):
    """What ends the game (besides an optional target score)."""

    DECK_DRAWN = "deck_drawn"  # the refill that draws the last card ends it (Dixit)
    HANDS_EMPTY = "hands_empty"  # a turn cannot be played from the hands (Imaginarium)
    TRACK_END = "track_end"  # the first piece to reach the end of the track (Pictoric)


class FirstStoryteller(enum.StrEnum):
    """How the first storyteller is chosen."""

    CLAIM = "claim"  # the first player to give a clue (Dixit)
    RANDOM = "random"  # drawn at random (Imaginarium's voting cards)
    DICE = "dice"  # everyone rolls a die, highest starts, ties re-roll (Pictoric)


@dataclass(frozen=True, slots=True)
class Variant:
    """One association variant: everything the engine needs to play it."""

    name: str
    title: str
    min_players: int
    max_players: int
    hand_size: int
    story_source: StorySource
    refill: Refill
    end: EndRule
    board: Board
    first_storyteller: FirstStoryteller
    score: Callable[[RoundInput], list[int]]
    deck_sizes: Mapping[int, int] | None = None
    default_deck_size: int | None = None
    hand_cap: int | None = None
    reshuffle_discard: bool = False
    gallery_size: int = 0

    def deck_size(self, players: int, available: int) -> int:
        """How many cards of the full deck this game uses.

        Imaginarium's deck depends on the player count; other variants use a fixed size
        or, where they reshuffle the discard pile, every card available.
        """
        if self.deck_sizes is not None:
            return self.deck_sizes[players]
        if self.default_deck_size is not None:
            return self.default_deck_size
        return available


_IMAGINARIUM_DECKS = {3: 96, 4: 96, 5: 75, 6: 72, 7: 98, 8: 96}

DIXIT = Variant(
    name="dixit",
    title="Dixit",
    min_players=3,
    max_players=6,
    hand_size=6,
    story_source=StorySource.HAND,
    refill=Refill.TO_HAND_SIZE,
    end=EndRule.DECK_DRAWN,
    board=DIXIT_TRACK,
    first_storyteller=FirstStoryteller.CLAIM,
    score=score_dixit,
    default_deck_size=84,
)

IMAGINARIUM = Variant(
    name="imaginarium",
    title="Imaginarium",
    min_players=3,
    max_players=8,
    hand_size=6,
    story_source=StorySource.HAND,
    refill=Refill.TO_HAND_SIZE,
    end=EndRule.HANDS_EMPTY,
    board=IMAGINARIUM_CLOUDS,
    first_storyteller=FirstStoryteller.RANDOM,
    score=score_imaginarium,
    deck_sizes=_IMAGINARIUM_DECKS,
)

# Harmony: the same flow, hand, board, clouds and end as Imaginarium; only scoring differs.
IMAGINARIUM_HARMONY = replace(
    IMAGINARIUM,
    name="imaginarium-harmony",
    title="Imaginarium: Harmony",
    score=score_imaginarium_harmony,
)

PICTORIC = Variant(
    name="pictoric",
    title="Pictoric",
    min_players=3,
    max_players=6,
    hand_size=2,
    story_source=StorySource.DECK_TOP,
    refill=Refill.ONE_PLUS_FINDERS,
    end=EndRule.TRACK_END,
    board=PICTORIC_TRACK,
    first_storyteller=FirstStoryteller.DICE,
    score=score_pictoric,
    hand_cap=8,
    reshuffle_discard=True,
)

PICTORIC_GALLERY = Variant(
    name="pictoric-gallery",
    title="Pictoric: the storyteller's gallery",
    min_players=3,
    max_players=12,
    hand_size=0,
    story_source=StorySource.GALLERY,
    refill=Refill.NONE,
    end=EndRule.TRACK_END,
    board=PICTORIC_TRACK,
    first_storyteller=FirstStoryteller.DICE,
    score=score_pictoric_gallery,
    reshuffle_discard=True,
    gallery_size=6,
)

VARIANTS: Mapping[str, Variant] = {
    v.name: v for v in (DIXIT, IMAGINARIUM, IMAGINARIUM_HARMONY, PICTORIC, PICTORIC_GALLERY)
}


def find_variant(name: str) -> Variant:
    """The variant with this name, or a :class:`SetupError` listing the known ones.

    >>> find_variant("dixit").max_players
    6
    """
    try:
        return VARIANTS[name]
    except KeyError:
        known = ", ".join(VARIANTS)
        raise SetupError(f"Unknown variant {name!r}; choose one of: {known}.") from None
