"""Matching a typed guess with the subject of the card.

Both texts go through :func:`reverie.rules.visual.language.normalise` (case, accents, ё/е,
punctuation, articles of the game's language); then:

* **words** (objects, actions, places, luck): equal normal forms, or equal once spaces
  are removed (``"ice cream"`` = ``"icecream"``), are :attr:`Verdict.CORRECT`. A small
  typo gives :attr:`Verdict.CLOSE` (a hint for the guesser, not a point): edit distance
  (Levenshtein) at most 1 for answers of 4–7 letters, at most 2 for 8 letters or more;
  answers of 1–3 letters have no "close".
* **proverbs**: the significant words of a text are its words of 3 letters or more
  (all its words if none is that long). A guess is correct when it contains at least
  :data:`PROVERB_SHARE` (70%) of the proverb's significant words, each guess word
  counting once, a word matching exactly or, for words of 5 letters or more, with one
  typo, **and** has few significant words besides: at most 30% of the proverb's count
  (at least one). It is close from :data:`PROVERB_CLOSE_SHARE` (40%) on, with no more
  extra words than a correct guess may have. The bound on extra words keeps a long guess
  stuffed with common words from "containing" every proverb of the language, and keeps
  a guess packed with a few words of each of several proverbs from being "close" to all
  of them (the mark would then tell a search which one it is): a guess must be about as
  long as the answer, for a point and for a mark alike.
"""

from __future__ import annotations

import enum

from reverie.rules.visual.language import Language, normalise

PROVERB_SHARE = 0.7
PROVERB_CLOSE_SHARE = 0.4
#: A close mark needs at least this many of the proverb's words: one word of a short
#: proverb next to one of another would be close to both.
PROVERB_CLOSE_WORDS = 2


class Verdict(enum.StrEnum):
    CORRECT = "correct"
    CLOSE = "close"
    WRONG = "wrong"


def edit_distance(a: str, b: str, limit: int | None = None) -> int:
    """Levenshtein distance; stops early past ``limit`` (returns ``limit + 1``).

    >>> edit_distance("kitten", "sitting"), edit_distance("abc", "abc")
    (3, 0)
    """
    if limit is not None and abs(len(a) - len(b)) > limit:
        return limit + 1
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i]
        for j, cb in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        if limit is not None and min(current) > limit:
            return limit + 1
        previous = current
    return previous[-1]


def typo_allowance(length: int) -> int:
    """Typos that still count as "close" for an answer of ``length`` letters."""
    if length >= 8:
        return 2
    if length >= 4:
        return 1
    return 0


def match_word(guess: str, answer: str, lang: Language) -> Verdict:
    """A guess for a word sector.

    >>> match_word("L'Àlbero", "albero", "it"), match_word("ёлка", "Елка", "ru")
    (<Verdict.CORRECT: 'correct'>, <Verdict.CORRECT: 'correct'>)
    >>> match_word("elefant", "elephant", "en"), match_word("dog", "cat", "en")
    (<Verdict.CLOSE: 'close'>, <Verdict.WRONG: 'wrong'>)
    """
    g, a = normalise(guess, lang), normalise(answer, lang)
    if not g:
        # Only an answer made of articles (Italian "La", a note) matches an empty form.
        same = not a and guess.casefold().split() == answer.casefold().split()
        return Verdict.CORRECT if same else Verdict.WRONG
    if g == a or g.replace(" ", "") == a.replace(" ", ""):
        return Verdict.CORRECT
    allowed = typo_allowance(len(a.replace(" ", "")))
    if allowed and edit_distance(g, a, allowed) <= allowed:
        return Verdict.CLOSE
    return Verdict.WRONG


def _same_word(guess_word: str, word: str) -> bool:
    if guess_word == word:
        return True
    return len(word) >= 5 and edit_distance(guess_word, word, 1) <= 1


def _significant(words: list[str]) -> list[str]:
    return [w for w in words if len(w) >= 3] or words


def proverb_overlap(guess: str, answer: str, lang: Language) -> tuple[int, int, int]:
    """How many of the proverb's significant words the guess has, how many the proverb
    has, and how many significant words the guess has besides.

    >>> proverb_overlap("chi dorme non piglia pesci", "Chi dorme non piglia pesci", "it")
    (5, 5, 0)
    >>> proverb_overlap("chi dorme gatto cane topo", "Chi dorme non piglia pesci", "it")
    (2, 5, 3)
    """
    significant = _significant(normalise(answer, lang).split())
    pool = _significant(normalise(guess, lang).split())
    found = 0
    for word in significant:
        for k, candidate in enumerate(pool):
            if _same_word(candidate, word):
                found += 1
                del pool[k]
                break
    return (found, len(significant), len(pool))


def match_proverb(guess: str, answer: str, lang: Language) -> Verdict:
    """A guess for a proverb, by the share of its significant words.

    >>> p = "Chi dorme non piglia pesci"
    >>> match_proverb("chi dorme non prende pesci", p, "it").value
    'correct'
    >>> match_proverb("chi dorme", p, "it").value, match_proverb("pesci", p, "it").value
    ('close', 'wrong')
    >>> match_proverb("chi dorme non piglia pesci gatto cane topo lupo", p, "it").value
    'wrong'
    """
    if match_word(guess, answer, lang) is Verdict.CORRECT:
        return Verdict.CORRECT
    found, total, extra = proverb_overlap(guess, answer, lang)
    if not total:
        return Verdict.WRONG
    if extra > max(1, int(total * (1 - PROVERB_SHARE))):
        # Too long to be this proverb, and too long to be called close: a guess packed
        # with words of several proverbs would otherwise be "close" to each of them at
        # once, and the mark would tell a search which (issue #24).
        return Verdict.WRONG
    share = found / total
    if share >= PROVERB_SHARE:
        return Verdict.CORRECT
    if share >= PROVERB_CLOSE_SHARE and found >= PROVERB_CLOSE_WORDS:
        return Verdict.CLOSE
    return Verdict.WRONG


def match_guess(guess: str, answer: str, lang: Language, *, proverb: bool) -> Verdict:
    """A guess for a word or (``proverb``) a proverb."""
    return match_proverb(guess, answer, lang) if proverb else match_word(guess, answer, lang)
