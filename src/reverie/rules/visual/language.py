"""The languages of the drawing game and guess normalisation.

A typed guess and the card's subject are compared in a normal form (see
:func:`normalise`) so that case, accents, ``ё``/``е``, punctuation and the articles of
the game's language never decide a round.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Final, Literal, TypeGuard

Language = Literal["ru", "en", "it"]

LANGUAGES: Final[tuple[Language, ...]] = ("ru", "en", "it")


class UnknownLanguageError(ValueError):
    """The language code is not one of :data:`LANGUAGES`."""

    def __init__(self, lang: str) -> None:
        super().__init__(f"unknown language {lang!r}; expected one of {', '.join(LANGUAGES)}")
        self.lang = lang


def is_language(value: str) -> TypeGuard[Language]:
    """Return whether *value* is a supported language code.

    >>> is_language("it"), is_language("fr")
    (True, False)
    """
    return value in LANGUAGES


_ARTICLES: Final[dict[Language, frozenset[str]]] = {
    "en": frozenset({"a", "an", "the"}),
    # Only bare articles: articulated prepositions (del, nella, sull', ...)
    # carry meaning and must survive.
    "it": frozenset({"il", "lo", "la", "i", "gli", "le", "un", "uno", "una"}),
    "ru": frozenset(),
}

# Elided Italian articles ("l'albero", "un'ape").  The lookbehind keeps
# "dell'", "all'", "nell'" and other articulated prepositions intact.
_IT_ELIDED_ARTICLE: Final = re.compile(r"(?<![^\W\d_])(?:l|un)['’ʼ`´]")
_APOSTROPHES: Final = re.compile(r"['’ʼ`´]")
# Letters whose diacritic makes a different letter rather than an accent:
# stripping it would turn "чай" into "чаи".
_KEEP_MARKS: Final = frozenset({"й"})


def _strip_marks(text: str) -> str:
    out: list[str] = []
    for char in text:
        if char in _KEEP_MARKS:
            out.append(char)
            continue
        for part in unicodedata.normalize("NFD", char):
            if not unicodedata.combining(part):
                out.append(part)
    return "".join(out)


def normalise(text: str, lang: str) -> str:
    """Return *text* reduced to the form used to compare guesses with answers.

    Lowercases, maps ``ё`` to ``е``, strips accents and other diacritics
    (keeping ``й``), turns punctuation and symbols into spaces, drops the
    articles of *lang* (English *a/an/the*; Italian *il, lo, la, i, gli, le,
    l', un, uno, una, un'*) and collapses whitespace.  ``"L'Albero"`` and
    ``"albero"`` give the same result, as do ``"Ёлка"`` and ``"елка"``.

    >>> normalise("L'Albero", "it"), normalise("Ёлка!", "ru"), normalise("The End", "en")
    ('albero', 'елка', 'end')

    Raises:
        UnknownLanguageError: *lang* is not in :data:`LANGUAGES`.
    """
    if not is_language(lang):
        raise UnknownLanguageError(lang)
    folded = unicodedata.normalize("NFC", text).casefold().replace("ё", "е")
    if lang == "it":
        folded = _IT_ELIDED_ARTICLE.sub(" ", folded)
        folded = _APOSTROPHES.sub(" ", folded)
    else:
        # English contractions and possessives read as one word: "don't",
        # "Rubik's" must not leave a stray "t" or "s" token behind.
        folded = _APOSTROPHES.sub("", folded)
    folded = _strip_marks(folded)
    cleaned = "".join(" " if unicodedata.category(char)[0] in "PSZC" else char for char in folded)
    articles = _ARTICLES[lang]
    return " ".join(word for word in cleaned.split() if word not in articles)
