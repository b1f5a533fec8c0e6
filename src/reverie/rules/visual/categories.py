"""The five categories of a drawing-game card and what a correct guess in each is worth.

The order is the order of the sectors on a card (and of ``Card.subjects``). The word
lists that fill them are content; which categories exist and their value are rules.
"""

from __future__ import annotations

from typing import Final, Literal, TypeGuard

Category = Literal["objects", "actions", "places", "luck", "proverbs"]

# Squares a team moves for a card guessed in each category, in sector order.
CATEGORY_POINTS: Final[dict[Category, int]] = {
    "objects": 3,
    "actions": 4,
    "places": 5,
    "luck": 6,
    "proverbs": 8,
}
CATEGORIES: Final[tuple[Category, ...]] = tuple(CATEGORY_POINTS)


def is_category(value: str) -> TypeGuard[Category]:
    """Return whether *value* is a card category name.

    >>> is_category("luck"), is_category("colours")
    (True, False)
    """
    return value in CATEGORY_POINTS
