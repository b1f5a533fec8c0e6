"""Random legal play and card bookkeeping, for simulations and conformance tests.

:func:`random_action` is the random legal player that the simulator and the tests use to
play thousands of games: it reads the full state (like OpenSpiel's ``legal_actions``), so
it is a test driver, not a bot. Bots consume views only (see ``reverie.bots``).
"""

from __future__ import annotations

import random

from reverie.rules.association.actions import Action, Clue, Submit, Timeout, Vote
from reverie.rules.association.clues import Restriction
from reverie.rules.association.engine import waiting_for
from reverie.rules.association.state import GameState, Phase
from reverie.rules.association.variants import StorySource, find_variant

_CLUES = {
    Restriction.FOUR_WORDS: "a ship of dreams",
    Restriction.THREE_WORDS: "far from home",
    Restriction.QUESTION: "where does it lead?",
}


def random_action(state: GameState, rng: random.Random, timeout_rate: float = 0.0) -> Action:
    """A random legal action of one of the seats the table is waiting for.

    With probability ``timeout_rate`` the room's clock runs out instead.
    """
    if timeout_rate and rng.random() < timeout_rate:
        return Timeout()
    rnd = state.round
    pending = waiting_for(state)
    seat = pending[0] if len(pending) == 1 else rng.choice(pending)
    if state.phase is Phase.CLUE:
        v = find_variant(state.variant)
        restriction = rnd.restriction
        if rnd.storyteller is None and state.options.restrictions not in ("board", "off"):
            restriction = Restriction(state.options.restrictions)
        text = _CLUES.get(restriction, "dream") if restriction else "dream"
        if v.story_source is StorySource.HAND:
            return Clue(seat, text, rng.choice(state.hands[seat]))
        if v.story_source is StorySource.GALLERY:
            return Clue(seat, text, rng.choice(rnd.table))
        return Clue(seat, text)
    if state.phase is Phase.SUBMIT:
        return Submit(seat, rng.choice(state.hands[seat]))
    owners = rnd.owners
    while True:
        pos = rng.randrange(len(owners))
        if owners[pos] != seat:
            return Vote(seat, pos + 1)


def card_locations(state: GameState) -> list[int]:
    """Every card of the game wherever it is: deck, discard, hands and the table.

    Each card taken into the game appears exactly once; the conformance tests check it.
    """
    cards = list(state.deck) + list(state.discard)
    for hand in state.hands:
        cards.extend(hand)
    rnd = state.round
    phase = state.phase
    v = find_variant(state.variant)
    if phase is Phase.VOTE:
        cards.extend(rnd.table)
    elif phase is Phase.SUBMIT:
        if rnd.story_card is not None:
            cards.append(rnd.story_card)
        cards.extend(c for c in rnd.submissions if c is not None)
    elif phase is Phase.CLUE:
        if v.story_source is StorySource.DECK_TOP and rnd.story_card is not None:
            cards.append(rnd.story_card)
        elif v.story_source is StorySource.GALLERY:
            cards.extend(rnd.table)
    return cards


def invariant_violations(state: GameState) -> list[str]:
    """Everything wrong with a state that the rules should never produce (empty if fine)."""
    problems: list[str] = []
    cards = card_locations(state)
    if len(cards) != len(set(cards)):
        problems.append("a card is in two places at once")
    if len(cards) != state.in_play:
        problems.append(f"{state.in_play} cards in the game but {len(cards)} found")
    if any(not 0 <= c < state.card_count for c in cards):
        problems.append("a card that is not in the content deck")
    earned = [0] * len(state.players)
    for result in state.history:
        for seat, p in enumerate(result.points):
            earned[seat] += p
    if tuple(earned) != state.scores:
        problems.append("scores differ from the sum of the round results")
    if any(s < 0 for s in state.scores):
        problems.append("a score below the start of the track")
    v = find_variant(state.variant)
    if v.hand_cap is not None and any(len(h) > v.hand_cap for h in state.hands):
        problems.append("a hand over the hand limit")
    return problems
