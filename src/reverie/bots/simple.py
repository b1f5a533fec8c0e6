"""A simple association bot.

It reads only its seat's view, plus what the pictures it can see show (the deck's
element labels for cards in its hand or face up on the table, as a person would see the
pictures). It tells a clue from an element of its card, plays the hand card that best
matches the clue's words, and votes for the table card that best matches, never its own.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from typing import Any

from reverie.rules.association.actions import Action, Clue, Submit, Vote

Describe = Callable[[int], list[str]]
"""Words for what a card's picture shows (element labels in the room's language)."""

# Words a bot pads a word-count clue with, and its question, in the room's language.
_FILLER = {
    "en": ("dream", "of", "the", "night", "far", "away"),
    "ru": ("сон", "о", "тёмной", "ночи", "где-то", "далеко"),
    "it": ("sogno", "di", "una", "notte", "molto", "lontano"),
}
_QUESTION = {"en": "Where is the {}?", "ru": "Где же {}?", "it": "Dov'è {}?"}


def _words(texts: Iterable[str]) -> set[str]:
    return {w.strip(".,!?;:").lower() for t in texts for w in t.split() if w}


def _clue_for(
    labels: list[str], restriction: str | None, rng: random.Random, lang: str = "en"
) -> str:
    label = rng.choice(labels) if labels else "a dream"
    if restriction in ("four_words", "three_words"):
        want = 4 if restriction == "four_words" else 3
        words = label.split()[:want]
        fill = list(_FILLER.get(lang, _FILLER["en"]))
        while len(words) < want:
            words.append(fill.pop(0))
        return " ".join(words)
    if restriction == "question":
        return _QUESTION.get(lang, _QUESTION["en"]).format(label)
    return label


def _best(cards: list[int], clue: str, describe: Describe, rng: random.Random) -> int:
    target = _words([clue])
    scored = [(len(target & _words(describe(c))), rng.random(), c) for c in cards]
    return max(scored)[2]


def choose_action(
    view: dict[str, Any], describe: Describe, rng: random.Random, lang: str = "en"
) -> Action | None:
    """The bot's move for its seat's view, or ``None`` if it has nothing to do now.

    ``describe`` names what a card shows in ``lang``, the language its clues are in.
    """
    me = view["you"]
    if me is None or me not in view["waiting_for"]:
        return None
    phase = view["phase"]
    if phase == "clue":
        if view["table"]:  # the gallery: pick one of the six face up
            card = rng.choice([t["card"] for t in view["table"]])
            return Clue(me, _clue_for(describe(card), view["restriction"], rng, lang), card)
        if view["story_card"] is not None:  # Pictoric: the card drawn from the deck
            text = _clue_for(describe(view["story_card"]), view["restriction"], rng, lang)
            return Clue(me, text, None)
        card = rng.choice(view["hand"])
        return Clue(me, _clue_for(describe(card), view["restriction"], rng, lang), card)
    if phase == "submit":
        return Submit(me, _best(list(view["hand"]), view["clue"] or "", describe, rng))
    if phase == "vote":
        own = view["my_position"]
        choices = [t["card"] for t in view["table"] if t["position"] != own]
        card = _best(choices, view["clue"] or "", describe, rng)
        position = next(t["position"] for t in view["table"] if t["card"] == card)
        return Vote(me, position)
    return None


def to_frame(action: Action, version: int | None = None) -> dict[str, Any]:
    """The WebSocket frame (docs/protocol.md) that makes ``action`` for a bot driving a
    real socket; the server fills in the seat from the socket's token."""
    frame: dict[str, Any]
    if isinstance(action, Clue):
        frame = {"type": "clue", "text": action.text, "card": action.card}
    elif isinstance(action, Submit):
        frame = {"type": "submit", "card": action.card}
    elif isinstance(action, Vote):
        frame = {"type": "vote", "position": action.position}
    else:
        raise TypeError(f"{type(action).__name__} is not a player's move")
    if version is not None:
        frame["version"] = version
    return frame
