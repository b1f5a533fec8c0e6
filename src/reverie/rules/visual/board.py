"""The 40-square board and the point tokens dealt onto it.

Pawns start on square 1; a team that reaches exactly square :data:`LAST_SQUARE` ends the
game. One token lies on each of squares 2–40 at the start, dealt at random from the seed.

**Default token set** (docs/specification.md §3.1 leaves the values to the project): 36 tokens with
visible values — eight each of 1, 2 and 3 points, six each of 4 and 5 points — and
:data:`DEFAULT_BONUS_TOKENS` = 3 **bonus** tokens worth :data:`DEFAULT_BONUS_VALUE` = 2
points each: 39 tokens, one per square. Both are options (``Options.token_values``,
``Options.bonus_tokens``, ``Options.bonus_value``); with fewer tokens than squares some
squares stay empty, more tokens than squares is a setup error.

Token ids are their index in ``GameState.tokens``: plain tokens first, bonus tokens last.
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from reverie.rules.seeded import rng_for

FIRST_SQUARE = 1
LAST_SQUARE = 40
TOKEN_SQUARES = LAST_SQUARE - FIRST_SQUARE  # squares 2..40

DEFAULT_TOKEN_VALUES: tuple[int, ...] = (1,) * 8 + (2,) * 8 + (3,) * 8 + (4,) * 6 + (5,) * 6
DEFAULT_BONUS_TOKENS = 3
DEFAULT_BONUS_VALUE = 2


class Token(msgspec.Struct, frozen=True):
    """A point token: its id, its visible value, and whether it is a bonus token."""

    id: int
    value: int
    bonus: bool = False


def make_tokens(values: Sequence[int], bonus_count: int, bonus_value: int) -> tuple[Token, ...]:
    """The token set: one token per value, then ``bonus_count`` bonus tokens.

    >>> [(t.value, t.bonus) for t in make_tokens([1, 5], 1, 2)]
    [(1, False), (5, False), (2, True)]
    """
    plain = [Token(i, v) for i, v in enumerate(values)]
    bonus = [Token(len(plain) + i, bonus_value, True) for i in range(bonus_count)]
    return (*plain, *bonus)


def deal_tokens(token_count: int, seed: int) -> tuple[int | None, ...]:
    """Squares 1..40 as a tuple (index 0 is square 1): the token id on each, or ``None``.

    Square 1 stays empty; the tokens go one per square onto random squares of 2–40.

    >>> squares = deal_tokens(39, seed=3)
    >>> len(squares), squares[0], sorted(t for t in squares if t is not None) == list(range(39))
    (40, None, True)
    """
    if token_count > TOKEN_SQUARES:
        raise ValueError(f"at most {TOKEN_SQUARES} tokens fit on the board")
    places = rng_for(seed, "tokens").sample(range(FIRST_SQUARE + 1, LAST_SQUARE + 1), token_count)
    squares: list[int | None] = [None] * LAST_SQUARE
    for token, square in enumerate(places):
        squares[square - 1] = token
    return tuple(squares)


def advance(square: int, steps: int, *, bounce: bool) -> int:
    """Where a pawn on ``square`` ends after moving ``steps`` forward.

    Past square 40 it bounces back by the excess (``bounce``), or does not move at all.

    >>> advance(35, 5, bounce=True), advance(38, 5, bounce=True), advance(38, 5, bounce=False)
    (40, 37, 38)
    """
    target = square + steps
    if target <= LAST_SQUARE:
        return target
    if not bounce:
        return square
    return max(FIRST_SQUARE, LAST_SQUARE - (target - LAST_SQUARE))
