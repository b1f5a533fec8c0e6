"""Random legal play and card bookkeeping, for simulations and conformance tests.

:func:`random_action` is the random legal player that the simulator and the tests use to
play thousands of games: it reads the full state (like OpenSpiel's ``legal_actions``), so
it is a test driver, not a bot. Bots consume views only (see ``reverie.bots``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from reverie.rules.association.actions import Action, Clue, Submit, Timeout, Vote
from reverie.rules.association.clues import Restriction
from reverie.rules.association.engine import waiting_for
from reverie.rules.association.state import GameState, Phase
from reverie.rules.association.variants import StorySource, find_variant
from reverie.rules.association.views import views

T = TypeVar("T")

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
    pick = _picker(rng)
    seat = pending[0] if len(pending) == 1 else pick(pending)
    if state.phase is Phase.CLUE:
        v = find_variant(state.variant)
        restriction = rnd.restriction
        if rnd.storyteller is None and state.options.restrictions not in ("board", "off"):
            restriction = Restriction(state.options.restrictions)
        text = _CLUES.get(restriction, "dream") if restriction else "dream"
        if v.story_source is StorySource.HAND:
            return Clue(seat, text, pick(state.hands[seat]))
        if v.story_source is StorySource.GALLERY:
            return Clue(seat, text, pick(rnd.table))
        return Clue(seat, text)
    if state.phase is Phase.SUBMIT:
        return Submit(seat, pick(state.hands[seat]))
    positions = [p for p, owner in enumerate(rnd.owners, 1) if owner != seat]
    return Vote(seat, pick(positions))


def _picker(rng: random.Random) -> Callable[[Sequence[T]], T]:
    """A uniform choice from a float draw: ``random.choice`` spends most of a random
    player's time in its bit-by-bit rejection loop, and simulations make millions."""
    draw = rng.random

    def pick(seq: Sequence[T]) -> T:
        return seq[int(draw() * len(seq))]

    return pick


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


def visible_cards(state: GameState, seat: int | None) -> set[int]:
    """The cards ``seat`` (None: a spectator) has seen: its own hand and card, the
    storyteller's own pick, the table once face up, and every revealed round."""
    rnd = state.round
    v = find_variant(state.variant)
    seen: set[int] = set()
    for r in state.history:
        seen.update(r.table)
    if state.phase is Phase.VOTE or (
        state.phase is Phase.CLUE and v.story_source is StorySource.GALLERY
    ):
        seen.update(rnd.table)
    if seat is not None:
        seen.update(state.hands[seat])
        if state.phase is not Phase.OVER:
            mine = rnd.submissions[seat] if rnd.submissions else None
            if mine is not None:
                seen.add(mine)
            if seat == rnd.storyteller and rnd.story_card is not None:
                seen.add(rnd.story_card)
    return seen


def view_cards(shown: dict[str, Any]) -> set[int]:
    """Every card a view shows, wherever the protocol puts cards."""
    cards: set[int] = set(shown["hand"] or [])
    cards.update(t["card"] for t in shown["table"])
    for key in ("story_card", "my_card"):
        if shown[key] is not None:
            cards.add(shown[key])
    last = shown["last_round"]
    if last:
        cards.update(t["card"] for t in last["table"])
        if last["story_card"] is not None:
            cards.add(last["story_card"])
    return cards


def view_leaks(state: GameState) -> list[str]:
    """Views (every seat and a spectator) that show a card the seat may not see."""
    seats: list[int | None] = [*range(len(state.players)), None]
    problems = []
    for seat, shown in views(state, seats).items():
        extra = view_cards(shown) - visible_cards(state, seat)
        if extra:
            who = "a spectator" if seat is None else f"seat {seat}"
            problems.append(f"the view of {who} shows cards it may not see: {sorted(extra)}")
    return problems


def invariant_violations(state: GameState, *, check_views: bool = False) -> list[str]:
    """Everything wrong with a state that the rules should never produce (empty if fine).

    With ``check_views``, also that no view shows a card its seat may not see.
    """
    problems: list[str] = view_leaks(state) if check_views else []
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
