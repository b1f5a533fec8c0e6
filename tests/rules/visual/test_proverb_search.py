"""A "close" mark in the proverb round must not pay for a search (issue #24, item 7).

The review's attack: one guesser, who knows the game's public proverb list and the
matcher, packs into one guess just enough words of several proverbs for each to be
"close" and narrows down on the mark, word by word, then types the proverb. With close
marks for any guess holding 40% of the words and up to as many extra ones, it solved 38
of the 161 English proverbs within the 15 guesses a seat has (this search: 35), against
the 15 a blind walk down the list finds. A close mark now needs a guess about as long as the answer
(as few extra words as a correct one), so a guess can be close to one proverb only (or
to a few that share most words): the search finds hardly more than the blind walk.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable

import pytest

from reverie.content.words import load_words
from reverie.rules.visual.engine import MAX_PROVERB_GUESSES_PER_SEAT
from reverie.rules.visual.language import Language, normalise
from reverie.rules.visual.matching import Verdict, match_proverb

Match = Callable[[str, str], Verdict]


class Searcher:
    """The packing search, with a memo of verdicts: the guesses depend only on the
    verdicts so far, so the searches for different proverbs share most of their guesses."""

    def __init__(self, proverbs: list[str], match: Match, lang: Language) -> None:
        self.proverbs = proverbs
        self.lang = lang
        self.match = match
        self.memo: dict[tuple[str, str], Verdict] = {}
        self.plans: dict[tuple[tuple[str, Verdict], ...], str] = {}

    def verdict(self, guess: str, answer: str) -> Verdict:
        key = (guess, answer)
        if key not in self.memo:
            self.memo[key] = self.match(guess, answer)
        return self.memo[key]

    def _words(self, proverb: str) -> list[str]:
        """The fewest of the proverb's words (longest first) for which it is close."""
        words = sorted((w for w in normalise(proverb, self.lang).split() if len(w) >= 3), key=len)
        words.reverse()
        for k in range(1, len(words) + 1):
            if self.verdict(" ".join(words[:k]), proverb) is not Verdict.WRONG:
                return words[:k]
        return words

    def plan(self, candidates: list[str]) -> str:
        """The next guess: as many candidates' words as stay close for each of them,
        or the first candidate in full when no such guess tells the candidates apart."""
        words: list[str] = []
        group: list[str] = []
        for c in candidates:
            trial = words + [w for w in self._words(c) if w not in words]
            text = " ".join(trial)
            if all(self.verdict(text, g) is Verdict.CLOSE for g in (*group, c)):
                words, group = trial, [*group, c]
        packed = " ".join(words)
        if len(group) > 1 and len({self.verdict(packed, c) for c in candidates}) > 1:
            return packed
        return candidates[0]  # nothing to narrow down with: type one in full

    def solves(self, answer: str, tries: int) -> bool:
        """Whether the search types ``answer`` (or a correct guess) within ``tries``."""
        candidates = list(self.proverbs)
        history: tuple[tuple[str, Verdict], ...] = ()
        for _ in range(tries):
            if history not in self.plans:
                self.plans[history] = self.plan(candidates)
            guess = self.plans[history]
            got = self.verdict(guess, answer)
            if got is Verdict.CORRECT:
                return True
            candidates = [c for c in candidates if self.verdict(guess, c) is got]
            history = (*history, (guess, got))
            if not candidates:
                return False
        return False


def solved(match: Match, lang: Language) -> int:
    """How many of the language's proverbs the search finds within a seat's guesses."""
    proverbs = list(load_words(lang, "proverbs"))
    random.Random(24).shuffle(proverbs)  # no help from the list's order
    searcher = Searcher(proverbs, match, lang)
    return sum(searcher.solves(p, MAX_PROVERB_GUESSES_PER_SEAT) for p in proverbs)


@pytest.mark.parametrize("lang", ["en", "ru", "it"])
def test_close_marks_do_not_make_a_packed_word_search_pay(lang: Language) -> None:
    proverbs = load_words(lang, "proverbs")
    assert len(proverbs) >= 160
    tries = MAX_PROVERB_GUESSES_PER_SEAT

    def blind(guess: str, answer: str) -> Verdict:  # the same search with no close mark
        got = match_proverb(guess, answer, lang)
        return Verdict.WRONG if got is Verdict.CLOSE else got

    walk = solved(blind, lang)
    assert tries <= walk <= tries + 3  # a guess of one proverb rules out about one
    found = solved(lambda guess, answer: match_proverb(guess, answer, lang), lang)
    # The marks may help a little (proverbs sharing words); the old marks let this
    # search find 35, 31 and 36 (English, Russian, Italian; the review's own: 38).
    assert found <= walk + math.ceil(0.03 * len(proverbs)), (found, walk)
