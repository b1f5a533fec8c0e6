"""Word cards of the team drawing game ``visual`` and guess normalisation.

The word lists are plain text files committed under
``content/words/visual/<lang>/<category>.txt`` (one entry per line, ``#``
comment lines allowed).  Nothing is fetched at run time.
"""

from __future__ import annotations

import functools
import os
import re
import unicodedata
from pathlib import Path
from typing import Final, Literal, TypeGuard

__all__ = [
    "CATEGORIES",
    "CATEGORY_POINTS",
    "CONTENT_DIR_ENV",
    "GAME",
    "LANGUAGES",
    "Category",
    "ContentDirNotFoundError",
    "Language",
    "UnknownCategoryError",
    "UnknownLanguageError",
    "WordListNotFoundError",
    "WordsError",
    "content_dir",
    "is_category",
    "is_language",
    "load_words",
    "normalise",
    "word_list_path",
]

Language = Literal["ru", "en", "it"]
Category = Literal["objects", "actions", "places", "luck", "proverbs"]

LANGUAGES: Final[tuple[Language, ...]] = ("ru", "en", "it")

# Points a team scores for a card guessed in each category; the order is the
# order the sectors appear on a card.
CATEGORY_POINTS: Final[dict[Category, int]] = {
    "objects": 3,
    "actions": 4,
    "places": 5,
    "luck": 6,
    "proverbs": 8,
}
CATEGORIES: Final[tuple[Category, ...]] = tuple(CATEGORY_POINTS)

GAME: Final = "visual"
CONTENT_DIR_ENV: Final = "REVERIE_CONTENT_DIR"


class WordsError(Exception):
    """Base class of every error raised by this module."""


class UnknownLanguageError(WordsError, ValueError):
    """The language code is not one of :data:`LANGUAGES`."""

    def __init__(self, lang: str) -> None:
        super().__init__(f"unknown language {lang!r}; expected one of {', '.join(LANGUAGES)}")
        self.lang = lang


class UnknownCategoryError(WordsError, ValueError):
    """The category is not one of :data:`CATEGORIES`."""

    def __init__(self, category: str) -> None:
        super().__init__(f"unknown category {category!r}; expected one of {', '.join(CATEGORIES)}")
        self.category = category


class ContentDirNotFoundError(WordsError, FileNotFoundError):
    """No ``content/`` directory could be located."""


class WordListNotFoundError(WordsError, FileNotFoundError):
    """A word list file that should exist is missing."""

    def __init__(self, path: Path) -> None:
        super().__init__(f"word list not found: {path}")
        self.path = path


def is_language(value: str) -> TypeGuard[Language]:
    """Return whether *value* is a supported language code."""
    return value in LANGUAGES


def is_category(value: str) -> TypeGuard[Category]:
    """Return whether *value* is a card category name."""
    return value in CATEGORY_POINTS


def _check_language(lang: str) -> Language:
    if not is_language(lang):
        raise UnknownLanguageError(lang)
    return lang


def _check_category(category: str) -> Category:
    if not is_category(category):
        raise UnknownCategoryError(category)
    return category


def content_dir() -> Path:
    """Return the directory holding the game content.

    ``$REVERIE_CONTENT_DIR`` wins when set, so an installed package (whose
    source tree has no ``content/``) or a test can point elsewhere.  Otherwise
    the repository checkout this module lives in is searched upwards for a
    ``content/words/visual`` directory.

    Raises:
        ContentDirNotFoundError: neither source gives an existing directory.
    """
    override = os.environ.get(CONTENT_DIR_ENV)
    if override:
        path = Path(override)
        if not path.is_dir():
            raise ContentDirNotFoundError(f"{CONTENT_DIR_ENV}={override!r} is not a directory")
        return path
    for parent in Path(__file__).resolve().parents:
        candidate = parent / "content"
        # Require the game folder, not just "content/": this package is itself
        # called "content" and must never be mistaken for the data directory.
        if (candidate / "words" / GAME).is_dir():
            return candidate
    raise ContentDirNotFoundError(
        f"no content/words/{GAME} directory above {Path(__file__).resolve()}; set {CONTENT_DIR_ENV}"
    )


def word_list_path(lang: str, category: str) -> Path:
    """Return the path of the word list for *lang* and *category*.

    Raises:
        UnknownLanguageError: *lang* is not in :data:`LANGUAGES`.
        UnknownCategoryError: *category* is not in :data:`CATEGORIES`.
        ContentDirNotFoundError: the content directory cannot be found.
    """
    checked_lang = _check_language(lang)
    checked_category = _check_category(category)
    return content_dir() / "words" / GAME / checked_lang / f"{checked_category}.txt"


@functools.cache
def _read_list(path: Path) -> tuple[str, ...]:
    # Cached per path (not per language) so that changing REVERIE_CONTENT_DIR
    # never serves a list read from another directory.
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError as exc:
        raise WordListNotFoundError(path) from exc
    entries: list[str] = []
    for line in text.splitlines():
        entry = line.strip()
        if entry and not entry.startswith("#"):
            entries.append(entry)
    return tuple(entries)


def load_words(lang: str, category: str) -> tuple[str, ...]:
    """Return the entries of one word list, in file order.

    Comment lines (starting with ``#``) and blank lines are skipped.

    Raises:
        UnknownLanguageError: *lang* is not in :data:`LANGUAGES`.
        UnknownCategoryError: *category* is not in :data:`CATEGORIES`.
        ContentDirNotFoundError: the content directory cannot be found.
        WordListNotFoundError: the list file does not exist.
    """
    return _read_list(word_list_path(lang, category))


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

    Raises:
        UnknownLanguageError: *lang* is not in :data:`LANGUAGES`.
    """
    checked = _check_language(lang)
    folded = unicodedata.normalize("NFC", text).casefold().replace("ё", "е")
    if checked == "it":
        folded = _IT_ELIDED_ARTICLE.sub(" ", folded)
        folded = _APOSTROPHES.sub(" ", folded)
    else:
        # English contractions and possessives read as one word: "don't",
        # "Rubik's" must not leave a stray "t" or "s" token behind.
        folded = _APOSTROPHES.sub("", folded)
    folded = _strip_marks(folded)
    cleaned = "".join(" " if unicodedata.category(char)[0] in "PSZC" else char for char in folded)
    articles = _ARTICLES[checked]
    return " ".join(word for word in cleaned.split() if word not in articles)
