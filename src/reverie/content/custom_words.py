"""A table's own words for the drawing game: checked, normalised, and held for dealing.

A host pastes words per category (one a line); :func:`parse_lists` keeps each entry
tidy (NFC, spaces collapsed, list bullets and numbers dropped, no control characters),
drops repeats (compared the way guesses are: :func:`reverie.rules.visual.language.normalise`)
and wants 10 to 2,000 entries per category given. A table then plays them ``instead`` of
the default list of those categories or ``beside`` it (:func:`combine`).

Lists live in the database (``reverie.store.decks``); rooms name them by id in their
options, and the dealing at a game's start reads them from :data:`SHELF` (the words
themselves never travel in a room's frames: guessers must not read them).
"""

from __future__ import annotations

import asyncio
import logging
import re
import unicodedata
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from reverie.content.textfilter import word_filter
from reverie.rules.visual.categories import CATEGORIES, Category, is_category
from reverie.rules.visual.language import Language, normalise

log = logging.getLogger("reverie.words")
MIN_WORDS, MAX_WORDS = 10, 2000
#: Longest entry, in characters: proverbs are sentences, the others a few words.
MAX_ENTRY = {"proverbs": 150}
MAX_WORD = 60
WordMode = Literal["beside", "instead"]
_BULLET = re.compile(r"^(?:[-*•·–—]+|\d{1,4}[.)])\s*")
_HIDDEN = frozenset({"Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp"})


@dataclass(frozen=True, slots=True)
class Problem:
    """Why a category's list was refused: ``code`` for the client's translations,
    ``params`` for its message (``line``: the first offending line, 1-based)."""

    category: str
    code: str
    message: str
    params: dict[str, int | str] = field(default_factory=dict)


class WordsRefused(ValueError):
    """The lists have problems; nothing was kept."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        super().__init__("; ".join(f"{p.category}: {p.message}" for p in problems))
        self.problems = tuple(problems)


def _entry(line: str) -> str:
    text = unicodedata.normalize("NFC", line)
    text = "".join(ch for ch in text if unicodedata.category(ch) not in _HIDDEN or ch == "\t")
    text = " ".join(text.split())
    return _BULLET.sub("", text).strip()


def parse_list(category: Category, text: str, language: Language) -> tuple[str, ...]:
    """One category's entries from pasted text; raises :class:`WordsRefused`."""
    longest = MAX_ENTRY.get(category, MAX_WORD)
    seen: set[str] = set()
    entries: list[str] = []
    for number, line in enumerate(text.splitlines(), start=1):
        entry = _entry(line)
        if not entry or entry.startswith("#"):
            continue
        if len(entry) > longest:
            raise WordsRefused(
                [
                    Problem(
                        category,
                        "word_too_long",
                        f"Line {number} is longer than {longest} characters.",
                        {"line": number, "max": longest},
                    )
                ]
            )
        if not any(ch.isalpha() for ch in entry):
            raise WordsRefused(
                [
                    Problem(
                        category,
                        "not_a_word",
                        f"Line {number} has no letters.",
                        {"line": number},
                    )
                ]
            )
        if not word_filter().allows(entry, "mild"):
            # Words a table deals reach every drawer and guesser: what the filter hides
            # at its public minimum is refused, not masked (nobody could draw asterisks).
            raise WordsRefused(
                [
                    Problem(
                        category,
                        "word_not_allowed",
                        f"Line {number} holds a word the text filter does not allow.",
                        {"line": number},
                    )
                ]
            )
        key = normalise(entry, language)
        if key in seen:
            continue
        seen.add(key)
        entries.append(entry)
    if not MIN_WORDS <= len(entries) <= MAX_WORDS:
        code = "too_few_words" if len(entries) < MIN_WORDS else "too_many_words"
        raise WordsRefused(
            [
                Problem(
                    category,
                    code,
                    f"Give {MIN_WORDS} to {MAX_WORDS} different entries; there are {len(entries)}.",
                    {"count": len(entries), "min": MIN_WORDS, "max": MAX_WORDS},
                )
            ]
        )
    return tuple(entries)


def parse_lists(texts: Mapping[str, str], language: Language) -> dict[Category, tuple[str, ...]]:
    """Every category given (blank ones left out), or :class:`WordsRefused` listing each
    category's problem."""
    problems: list[Problem] = []
    lists: dict[Category, tuple[str, ...]] = {}
    for name, text in texts.items():
        if not is_category(name):
            problems.append(
                Problem(name, "unknown_category", f"Categories are {', '.join(CATEGORIES)}.")
            )
            continue
        if not text.strip():
            continue
        try:
            lists[name] = parse_list(name, text, language)
        except WordsRefused as exc:
            problems += exc.problems
    if not lists and not problems:
        problems.append(Problem("", "no_words", "Give words for at least one category."))
    if problems:
        raise WordsRefused(problems)
    return lists


def combine(
    defaults: Mapping[Category, Sequence[str]],
    own: Mapping[Category, Sequence[str]],
    mode: WordMode,
    language: Language,
) -> dict[Category, tuple[str, ...]]:
    """The lists a table deals from: its own ``instead`` of the defaults of the same
    categories, or ``beside`` them (repeats dropped)."""
    out: dict[Category, tuple[str, ...]] = {}
    for category in CATEGORIES:
        mine = tuple(own.get(category, ()))
        base = tuple(defaults.get(category, ()))
        if not mine:
            out[category] = base
        elif mode == "instead":
            out[category] = mine
        else:
            known = {normalise(w, language) for w in mine}
            out[category] = mine + tuple(w for w in base if normalise(w, language) not in known)
    return out


@dataclass(frozen=True, slots=True)
class WordList:
    """A stored list: its language and entries per category."""

    language: Language
    lists: dict[Category, tuple[str, ...]]


Loader = Callable[[str], Awaitable[WordList | None]]


class WordShelf:
    """The word lists this process has read, by id (lists never change)."""

    def __init__(self) -> None:
        self._lists: dict[str, WordList] = {}
        self._loader: Loader | None = None
        self._tasks: set[asyncio.Task[None]] = set()

    def use(self, loader: Loader | None) -> None:
        """Where lists not yet held are read from (the server's database)."""
        self._loader = loader

    def keep(self, list_id: str, words: WordList) -> None:
        """Hold a list."""
        self._lists[list_id] = words

    def forget(self, list_ids: Sequence[str]) -> None:
        """Drop lists the database no longer holds (retention deleted them)."""
        for list_id in list_ids:
            self._lists.pop(list_id, None)

    def get(self, list_id: str) -> WordList | None:
        """The list, if held; otherwise None, and it is read in the background so that
        the next look finds it."""
        found = self._lists.get(list_id)
        if found is None:
            self._load_later(list_id)
        return found

    async def fetch(self, list_id: str) -> WordList | None:
        """The list, read from the database if needed."""
        found = self._lists.get(list_id)
        if found is None and self._loader is not None:
            found = await self._loader(list_id)
            if found is not None:
                self._lists[list_id] = found
        return found

    def _load_later(self, list_id: str) -> None:
        if self._loader is None:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return

        async def load() -> None:
            try:
                await self.fetch(list_id)
            except Exception:
                log.warning("word list %s could not be read", list_id, exc_info=True)

        task = loop.create_task(load())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)


#: The lists of this process (dealing is synchronous; reading the database is not).
SHELF = WordShelf()
