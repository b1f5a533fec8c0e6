"""Word cards of the team drawing game ``visual``: loading the word lists.

The word lists are plain text files committed under
``content/words/visual/<lang>/<category>.txt`` (one entry per line, ``#``
comment lines allowed).  Nothing is fetched at run time.

The categories, their points, the languages and guess normalisation are rules
(:mod:`reverie.rules.visual.categories`, :mod:`reverie.rules.visual.language`);
they are re-exported here for the callers that load words and normalise them together.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Final

from reverie.content import location
from reverie.rules.visual.categories import CATEGORIES, CATEGORY_POINTS, Category, is_category
from reverie.rules.visual.language import LANGUAGES, Language, is_language, normalise
from reverie.rules.visual.language import UnknownLanguageError as _RulesUnknownLanguageError

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

GAME: Final = "visual"
CONTENT_DIR_ENV: Final = location.CONTENT_DIR_ENV


class WordsError(Exception):
    """Base class of every error the loaders of this module raise."""


class UnknownLanguageError(WordsError, _RulesUnknownLanguageError):
    """The language code is not one of :data:`LANGUAGES` (raised by the loaders).

    A subclass of the error :func:`normalise` raises, so catching
    ``reverie.rules.visual.language.UnknownLanguageError`` catches both.
    """


class UnknownCategoryError(WordsError, ValueError):
    """The category is not one of :data:`CATEGORIES`."""

    def __init__(self, category: str) -> None:
        super().__init__(f"unknown category {category!r}; expected one of {', '.join(CATEGORIES)}")
        self.category = category


class ContentDirNotFoundError(WordsError, location.ContentDirNotFoundError):
    """No ``content/`` directory could be located."""


class WordListNotFoundError(WordsError, FileNotFoundError):
    """A word list file that should exist is missing."""

    def __init__(self, path: Path) -> None:
        super().__init__(f"word list not found: {path}")
        self.path = path


def _check_language(lang: str) -> Language:
    if not is_language(lang):
        raise UnknownLanguageError(lang)
    return lang


def _check_category(category: str) -> Category:
    if not is_category(category):
        raise UnknownCategoryError(category)
    return category


def content_dir() -> Path:
    """Return the directory holding the game content (:mod:`reverie.content.location`).

    Raises:
        ContentDirNotFoundError: no content folder can be located.
    """
    try:
        return location.content_dir()
    except location.ContentDirNotFoundError as exc:
        raise ContentDirNotFoundError(str(exc)) from None


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
