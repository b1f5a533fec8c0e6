"""Cards of the drawing game: five sectors, one per category, some with a blank.

A card holds one subject per category in the order of
:data:`reverie.rules.visual.categories.CATEGORIES` (objects 3, actions 4, places/professions/animals
5, luck 6, proverbs 8). A card may have a **blank** in one of the first four sectors:
choosing that category turns the turn into a proverb round for all teams.

The engine never reads files: :func:`build_deck` turns word lists given as arguments into
cards (the room passes ``load_words(lang, category)`` for each category; tests pass small
synthetic lists).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import msgspec

from reverie.rules.seeded import rng_for
from reverie.rules.visual.categories import CATEGORIES, CATEGORY_POINTS, Category

#: The categories a drawer may choose (the proverb is only reached through a blank).
CHOOSABLE: tuple[Category, ...] = CATEGORIES[:4]
PROVERB: Category = "proverbs"
#: Default share of cards with a blank sector.
DEFAULT_BLANK_SHARE = 0.15


def category_value(category: Category) -> int:
    """Squares a correct guess moves: 3, 4, 5, 6 or 8."""
    return CATEGORY_POINTS[category]


class Card(msgspec.Struct, frozen=True, gc=False):
    """One card: ``subjects`` in category order (five), ``blank`` the index (0–3) of the
    blank sector, or ``None``. A blank sector's subject is ignored (usually ``""``).

    Untracked by the garbage collector (``gc=False``: a card holds only strings, so it
    can be in no reference cycle): a server holds a deck per room, and fewer tracked
    objects make the collector's full passes shorter."""

    subjects: tuple[str, ...]
    blank: int | None = None

    def subject(self, category: Category) -> str | None:
        """The subject of a sector, ``None`` when it is the blank."""
        index = CATEGORIES.index(category)
        if index == self.blank:
            return None
        return self.subjects[index]

    @property
    def proverb(self) -> str:
        return self.subjects[CATEGORIES.index(PROVERB)]


def build_deck(
    words: Mapping[Category, Sequence[str]],
    seed: int,
    *,
    blank_share: float = DEFAULT_BLANK_SHARE,
    size: int | None = None,
) -> tuple[Card, ...]:
    """Cards dealt from word lists: each list shuffled (seeded), card ``i`` takes entry ``i``
    of each; ``blank_share`` of the cards (about) get a blank in one of the first four
    sectors. The deck is as long as the shortest list (or ``size``, if smaller).

    >>> words = {c: [f"{c}{i}" for i in range(5)] for c in CATEGORIES}
    >>> deck = build_deck(words, seed=1, blank_share=0.0)
    >>> len(deck), deck[0].blank, len(deck[0].subjects)
    (5, None, 5)
    """
    if not 0.0 <= blank_share <= 1.0:
        raise ValueError("blank_share must be between 0 and 1")
    missing = [c for c in CATEGORIES if not words.get(c)]
    if missing:
        raise ValueError(f"no words for {', '.join(missing)}")
    shuffled = {}
    for category in CATEGORIES:
        entries = list(words[category])
        rng_for(seed, "words", category).shuffle(entries)
        shuffled[category] = entries
    count = min(len(v) for v in shuffled.values())
    if size is not None:
        count = min(count, size)
    blanks = rng_for(seed, "blanks")
    cards = []
    for i in range(count):
        blank = blanks.randrange(len(CHOOSABLE)) if blanks.random() < blank_share else None
        subjects = tuple("" if blank == k else shuffled[c][i] for k, c in enumerate(CATEGORIES))
        cards.append(Card(subjects, blank))
    return tuple(cards)
