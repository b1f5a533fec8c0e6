"""Clue restrictions (Imaginarium's special clouds) and the checks a machine can make.

Two restrictions are checked by the server: a clue of an exact number of words and a
clue in the form of a question. The others (a brand, a film or show, a story) are shown
to the whole table as the requirement and judged by the players, as at a real table.
"""

from __future__ import annotations

import enum
import re

from reverie.rules.errors import IllegalAction

MAX_CLUE_LENGTH = 200


class Restriction(enum.StrEnum):
    """A requirement on the storyteller's clue."""

    FOUR_WORDS = "four_words"
    THREE_WORDS = "three_words"
    QUESTION = "question"
    BRAND = "brand"
    FILM = "film"
    STORY = "story"

    @property
    def checked(self) -> bool:
        """Whether the server enforces this restriction (the rest are judged by people)."""
        return self in _CHECKED

    @property
    def describe(self) -> str:
        """The requirement in English, as shown to the table."""
        return _DESCRIPTIONS[self]


_CHECKED = frozenset({Restriction.FOUR_WORDS, Restriction.THREE_WORDS, Restriction.QUESTION})

_DESCRIPTIONS = {
    Restriction.FOUR_WORDS: "The clue must be exactly four words.",
    Restriction.THREE_WORDS: "The clue must be exactly three words.",
    Restriction.QUESTION: "The clue must be a question.",
    Restriction.BRAND: "The clue must be linked to a well-known brand (a slogan, an advert…).",
    Restriction.FILM: "The clue must come from a film, cartoon, series or TV show.",
    Restriction.STORY: "The clue must be told as a story.",
}

_WORD_COUNTS = {Restriction.FOUR_WORDS: 4, Restriction.THREE_WORDS: 3}

# A word is a run of letters or digits, apostrophes and hyphens joining its parts, so
# "l'amore", "rock-n-roll" and "по-моему" each count once and lone dashes count never.
_WORD = re.compile(r"[^\W_]+(?:['’\-][^\W_]+)*")
_TRAILING_CLOSERS = " \t\n\"'»”’)]…."


def count_words(text: str) -> int:
    """Number of words in a clue.

    >>> count_words("The sun — a quiet l'amore!")
    5
    """
    return len(_WORD.findall(text))


def is_question(text: str) -> bool:
    """Whether a clue is phrased as a question (ends with a question mark).

    >>> is_question("Who is there?»"), is_question("Nobody.")
    (True, False)
    """
    stripped = text.rstrip(_TRAILING_CLOSERS)
    return stripped.endswith(("?", "？", "¿"))


def clean_clue(text: str, restriction: Restriction | None) -> str:
    """Normalise a clue's white space and check it, or raise :class:`IllegalAction`.

    >>> clean_clue("  a   long  road  home ", Restriction.FOUR_WORDS)
    'a long road home'
    """
    clue = " ".join(text.split())
    if not clue:
        raise IllegalAction("empty_clue", "Say something: the clue cannot be empty.")
    if len(clue) > MAX_CLUE_LENGTH:
        raise IllegalAction(
            "clue_too_long", f"The clue is too long: at most {MAX_CLUE_LENGTH} characters."
        )
    if restriction in _WORD_COUNTS:
        want = _WORD_COUNTS[restriction]
        got = count_words(clue)
        if got != want:
            raise IllegalAction(
                "clue_restriction",
                f"This clue must be exactly {want} words; yours has {got}.",
            )
    elif restriction is Restriction.QUESTION and not is_question(clue):
        raise IllegalAction(
            "clue_restriction", "This clue must be a question: end it with a question mark."
        )
    return clue
