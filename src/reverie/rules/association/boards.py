"""The boards the pieces move on, as data.

A piece's score is the number of steps it has taken from the start. Dixit's printed track
and Imaginarium's clouds are loops (a piece that passes the end goes round again);
Pictoric's track ends in the PICTORICBOX, which the first piece to reach wins.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from reverie.rules.association.clues import Restriction


@dataclass(frozen=True, slots=True)
class Board:
    """A track of ``length`` squares numbered from 1; ``loops`` if pieces go round again.

    ``specials`` maps square numbers to the clue restriction a storyteller standing there
    must follow (Imaginarium's special clouds).
    """

    name: str
    length: int
    loops: bool
    specials: Mapping[int, Restriction] = field(default_factory=dict)

    def square(self, score: int, length: int | None = None) -> int:
        """The square (1-based) a piece with this score stands on.

        >>> IMAGINARIUM_CLOUDS.square(0), IMAGINARIUM_CLOUDS.square(39)
        (1, 1)
        >>> PICTORIC_TRACK.square(55)
        41
        """
        size = length or self.length
        if self.loops:
            return score % size + 1
        return min(score, size) + 1

    def restriction_at(self, score: int) -> Restriction | None:
        """The restriction of the special square a piece with this score stands on."""
        return self.specials.get(self.square(score))


# The seed does not place Imaginarium's special clouds, so the project does: ten special
# clouds spread over the 39, each of the five kinds twice, none on the first clouds so the
# opening turns are free. docs/rules.md shows the same layout to players.
IMAGINARIUM_SPECIALS: Mapping[int, Restriction] = {
    4: Restriction.FOUR_WORDS,
    8: Restriction.QUESTION,
    12: Restriction.BRAND,
    16: Restriction.FILM,
    20: Restriction.STORY,
    24: Restriction.FOUR_WORDS,
    28: Restriction.QUESTION,
    31: Restriction.BRAND,
    34: Restriction.FILM,
    37: Restriction.STORY,
}

DIXIT_TRACK = Board("dixit-track", length=30, loops=True)
IMAGINARIUM_CLOUDS = Board(
    "imaginarium-clouds", length=39, loops=True, specials=IMAGINARIUM_SPECIALS
)
PICTORIC_TRACK = Board("pictoric-track", length=40, loops=False)
