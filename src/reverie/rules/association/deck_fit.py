"""How many seats a deck of a given size can deal to, and about how many rounds it lasts.

A player's own deck may be small: the lobby tells the host before the start what the deck
allows (the rules refuse a table it cannot deal, and a deck that barely deals gives a game
of a round or two). Counted as the engine deals and refills: every hand dealt in full,
one card a seat played each round, hands topped up from the pile.
"""

from __future__ import annotations

from reverie.rules.association.variants import EndRule, Refill, Variant


def cards_needed(v: Variant, players: int) -> int:
    """The fewest cards ``players`` can be dealt: every hand, and one round's cards.

    >>> from reverie.rules.association.variants import DIXIT
    >>> cards_needed(DIXIT, 6)
    42
    """
    return players * v.hand_size + max(players, v.gallery_size)


def deck_used(v: Variant, players: int, card_count: int) -> int:
    """The cards a game of ``players`` deals from a deck of ``card_count`` (a smaller deck
    than the variant's is played whole)."""
    return min(v.deck_size(players, card_count), card_count)


def most_players(v: Variant, card_count: int) -> int:
    """The most seats a deck of ``card_count`` cards can deal to (0: not even the fewest).

    >>> from reverie.rules.association.variants import DIXIT
    >>> most_players(DIXIT, 32), most_players(DIXIT, 84), most_players(DIXIT, 20)
    (4, 6, 0)
    """
    fits = [
        n
        for n in range(v.min_players, v.max_players + 1)
        if deck_used(v, n, card_count) >= cards_needed(v, n)
    ]
    return max(fits, default=0)


def rounds_with(v: Variant, players: int, card_count: int) -> int | None:
    """About how many rounds a game of ``players`` lasts before the deck ends it (0: it
    cannot be dealt; ``None``: the deck does not end it, the discards are reshuffled).
    A target score may end it earlier.

    >>> from reverie.rules.association.variants import DIXIT, PICTORIC
    >>> rounds_with(DIXIT, 4, 32), rounds_with(DIXIT, 3, 84), rounds_with(PICTORIC, 4, 30)
    (2, 22, None)
    """
    if deck_used(v, players, card_count) < cards_needed(v, players):
        return 0
    if v.end is EndRule.TRACK_END or v.refill is not Refill.TO_HAND_SIZE:
        return None
    pile = deck_used(v, players, card_count) - players * v.hand_size
    hands = [v.hand_size] * players
    rounds = 0
    while all(hands):
        rounds += 1
        short = False
        for seat in range(players):
            want = v.hand_size - (hands[seat] - 1)
            took = min(want, pile)
            hands[seat] += took - 1
            pile -= took
            short = short or took < want
        if v.end is EndRule.DECK_DRAWN and (short or pile == 0):
            break
    return rounds
