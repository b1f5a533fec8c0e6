"""The text filter: rude words in names, chat, clues and guesses, in Russian, English and
Italian, at a table's level (off, mild, strict).

The words are the LDNOOBW lists (``content/textfilter/ldnoobw``, CC BY 4.0); which of them
each level hides, and the roots that catch other endings, are in ``curation.txt`` beside
them. A word is found through the usual evasions: case, letters spaced out
(``f u c k``), letters repeated (``fuuuck``), digits and signs for letters (``sh1t``,
``@ss``), and Latin letters standing for Cyrillic ones or the other way round (``xуй``,
``fuсk`` with a Cyrillic ``с``). Only whole words are read (with a root, a word's
beginning), so a clean word that contains a rude one (*Scunthorpe*, *cazzuola*, *хлеб*)
passes.

Pure functions over a loaded :class:`WordFilter`; reading the files is the only IO.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Literal

from confusable_homoglyphs import confusables

from reverie.content.location import content_dir

Level = Literal["off", "mild", "strict"]
LEVELS: tuple[Level, ...] = ("off", "mild", "strict")
DEFAULT_LEVEL: Level = "mild"
LANGS = ("en", "ru", "it")

# Digits and signs written for letters. A digit means a Latin letter in a Latin word and a
# Cyrillic one in a Cyrillic word (3 is з, 6 is б, 0 is о, 4 is ч).
_LEET_LATIN = {"0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "8": "b", "9": "g",
               "@": "a", "$": "s", "!": "i", "|": "l"}  # fmt: skip
_LEET_CYRILLIC = {"0": "о", "3": "з", "4": "ч", "6": "б", "@": "а"}
# Latin letters that look like Cyrillic ones, as a word that mixes them is read in Cyrillic.
_LATIN_AS_CYRILLIC = {"a": "а", "b": "в", "c": "с", "e": "е", "h": "н", "k": "к", "m": "м",
                      "o": "о", "p": "р", "t": "т", "x": "х", "y": "у"}  # fmt: skip
# Signs a troll puts between the letters of one word (a comma ends a run: "f u c k, a").
_GLUE = re.compile(r"[\s.\-_*+~'`\"]{1,3}")
# A word: letters and digits, with signs inside or in front (sh!t, @ss) and $ or @ at the
# end (a$$); a sign that only ends a word (shit!) is punctuation.
_TOKEN = re.compile(r"[@$!|]*[^\W_](?:[^\W_]|[@$!|]+(?=[^\W_]))*[@$]*")


@dataclass(frozen=True)
class Found:
    """A stretch of the text the filter hides: ``text[start:end]``."""

    start: int
    end: int
    level: Level


@dataclass(frozen=True)
class WordFilter:
    """The words of every language, read once: entries by the level that hides them."""

    words: dict[str, Level]  # a normalised entry (words joined by one space) → its level
    stems: re.Pattern[str]  # a word's beginning (a root after one of its prefixes)
    symbols: frozenset[str]  # entries with no letter (an emoji), found anywhere
    longest: int  # the most words in one entry

    def find(self, text: str, level: Level) -> list[Found]:
        """Every stretch of ``text`` the ``level`` hides, in order, not overlapping."""
        if level == "off" or not text:
            return []
        found: list[Found] = []
        tokens = _tokens(text)
        # Each word's readings once: Latin and Cyrillic, and with long runs shortened.
        readings = [_readings(t[2]) for t in tokens]
        taken = [False] * len(tokens)
        # Longest phrases first, so that "testa di cazzo" is one stretch.
        for n in range(min(self.longest, len(tokens)), 0, -1):
            for i in range(len(tokens) - n + 1):
                if any(taken[i : i + n]):
                    continue
                hit = self._match(readings[i : i + n])
                if hit is not None and _hides(level, hit):
                    found.append(Found(tokens[i][0], tokens[i + n - 1][1], hit))
                    for k in range(i, i + n):
                        taken[k] = True
        for symbol in self.symbols:
            for m in re.finditer(re.escape(symbol), text):
                found.append(Found(m.start(), m.end(), "mild"))
        return sorted(found, key=lambda f: f.start)

    def _match(self, window: list[tuple[str, ...]]) -> Level | None:
        levels: set[Level] = set()
        if len(window) == 1:
            forms: Iterable[str] = window[0]
        else:
            # A phrase in one script at a time, each word as written and shortened alike.
            forms = {" ".join(w[k] for w in window) for k in range(len(window[0]))}
        for form in forms:
            level = self.words.get(form)
            if level is None and len(window) == 1 and self.stems.match(form):
                level = "mild"
            if level is not None:
                levels.add(level)
        return "mild" if "mild" in levels else ("strict" if levels else None)

    def mask(self, text: str, level: Level) -> str:
        """``text`` with what ``level`` hides written as asterisks (spaces kept)."""
        chars = list(text)
        for f in self.find(text, level):
            for k in range(f.start, f.end):
                if not chars[k].isspace():
                    chars[k] = "*"
        return "".join(chars)

    def allows(self, text: str, level: Level) -> bool:
        """Whether ``level`` hides nothing in ``text``."""
        return not self.find(text, level)


def _hides(level: Level, entry: Level) -> bool:
    return level == "strict" or entry == "mild"


def _plain(text: str) -> str:
    """Case, accents and width folded: ``Pipì`` and ``ＰＩＰＩ`` read ``pipi``, ``ё`` reads
    ``е`` and ``й`` reads ``и`` (in the lists as in the text)."""
    text = unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", text).casefold())
    return "".join(c for c in text if not unicodedata.combining(c))


def _tokens(text: str) -> list[tuple[int, int, str]]:
    """The words of ``text`` with their spans; a run of single letters with signs or
    spaces between them (``f u c k``, ``f.u.c.k``) is one word."""
    raw = [(m.start(), m.end(), _plain(m.group())) for m in _TOKEN.finditer(text)]
    merged: list[tuple[int, int, str]] = []
    k = 0
    while k < len(raw):
        start, end, word = raw[k]
        j = k
        while (
            raw[j][2].isalpha()
            and len(raw[j][2]) == 1
            and j + 1 < len(raw)
            and raw[j + 1][2].isalpha()
            and len(raw[j + 1][2]) == 1
            and _GLUE.fullmatch(text[raw[j][1] : raw[j + 1][0]])
        ):
            j += 1
        if j > k:
            word = "".join(t[2] for t in raw[k : j + 1])
            end = raw[j][1]
        merged.append((start, end, word))
        k = j + 1
    return merged


def _readings(word: str) -> tuple[str, ...]:
    """A word's readings to look up: Latin, Cyrillic, and each with runs of three or more
    of one letter cut to one and to two (``fuuuck`` → ``fuck``, ``asssss`` → ``ass``; a
    double letter stays: ``ass`` is not ``as``). Always six, in that order, so that the
    words of a phrase are joined reading by reading."""
    out: list[str] = []
    for read in (_latin(word), _cyrillic(word)):
        out += [read, re.sub(r"(.)\1{2,}", r"\1", read), re.sub(r"(.)\1{2,}", r"\1\1", read)]
    return tuple(out)


@cache
def _latin_letter(char: str) -> str:
    """A character that looks like a Latin letter, as that letter (Unicode's confusables:
    Cyrillic ``с``, ``о``, Greek ``ο``…); anything else as it is."""
    if char.isascii():
        return char
    for entry in confusables.is_confusable(char, preferred_aliases=["latin"], greedy=True) or []:
        for glyph in entry["homoglyphs"]:
            c = str(glyph["c"])
            if len(c) == 1 and c.isascii() and c.isalpha():
                return c
    return char


def _leet(word: str) -> bool:
    """Whether digits and signs in ``word`` stand for letters: in a word of two letters or
    more (``sh1t``), or with a sign (``a$$``), never in ``455`` or ``5m``."""
    letters = sum(c.isalpha() for c in word)
    return letters >= 2 or (letters >= 1 and any(c in "@$!|" for c in word))


def _latin(word: str) -> str:
    leet = _LEET_LATIN if _leet(word) else {}
    return "".join(leet.get(c) or _latin_letter(c) for c in word).casefold()


def _cyrillic(word: str) -> str:
    if not any("а" <= c <= "я" for c in word):
        return word  # a word with no Cyrillic letter is read in Latin only
    leet = _LEET_CYRILLIC if _leet(word) else {}
    return "".join(leet.get(c) or _LATIN_AS_CYRILLIC.get(c, c) for c in word)


def _entry_key(entry: str) -> str:
    words = [t[2] for t in _tokens(entry)]
    read = [_cyrillic(w) if any("а" <= c <= "я" for c in w) else _latin(w) for w in words]
    return " ".join(read)


def _sections(text: str) -> Iterator[tuple[str, str, str]]:
    """``(kind, lang, entry)`` for every entry of curation.txt."""
    kind = lang = ""
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        if line.startswith("[") and line.endswith("]"):
            kind, lang = line[1:-1].split()
            continue
        if not kind:
            raise ValueError(f"curation.txt: {line!r} before any [section]")
        yield kind, lang, line


def load(folder: Path) -> WordFilter:
    """Read the lists and their curation from ``folder`` (``content/textfilter``).

    An entry the curation names that is not in its language's list is an error: a list
    updated without its curation must say so, not silently hide a clean word.
    """
    words: dict[str, Level] = {}
    symbols: set[str] = set()
    lists = {lang: _lines(folder / "ldnoobw" / f"{lang}.txt") for lang in LANGS}
    allow: set[str] = set()
    strict: set[str] = set()
    stems: dict[str, list[str]] = {}
    prefixes: dict[str, tuple[str, ...]] = {}
    rows = list(_sections((folder / "curation.txt").read_text(encoding="utf-8")))
    for kind, lang, entry in rows:
        if kind == "prefixes":
            prefixes[lang] = (*prefixes.get(lang, ()), _plain(entry))
    for kind, lang, entry in rows:
        if kind in ("allow", "strict"):
            if entry not in lists[lang]:
                raise ValueError(f"curation.txt: {entry!r} is not in the {lang} list")
            (allow if kind == "allow" else strict).add(_entry_key(entry))
        elif kind == "forms":
            words[_entry_key(entry)] = "mild"
        elif kind == "stems":
            stems.setdefault(_entry_key(entry), []).extend(prefixes.get(lang, ()))
        elif kind != "prefixes":
            raise ValueError(f"curation.txt: unknown section [{kind} {lang}]")
    for entries in lists.values():
        for entry in entries:
            key = _entry_key(entry)
            if not key:
                symbols.add(entry)
                continue
            # One word written with an apostrophe or a hyphen (dolboy'eb, g-spot) is also
            # looked up as one word.
            keys = {key} if " " in entry else {key, key.replace(" ", "")}
            for k in keys - allow:
                words[k] = "strict" if key in strict and words.get(k) != "mild" else "mild"
    by_prefixes: dict[tuple[str, ...], list[str]] = {}
    for root, before in stems.items():
        by_prefixes.setdefault(tuple(sorted(set(before))), []).append(root)
    pattern = "|".join(
        f"(?:{'|'.join(map(re.escape, before))})?(?:{'|'.join(map(re.escape, roots))})"
        if before
        else f"(?:{'|'.join(map(re.escape, roots))})"
        for before, roots in by_prefixes.items()
    )
    longest = max((k.count(" ") + 1 for k in words), default=1)
    return WordFilter(words, re.compile(pattern or "(?!)"), frozenset(symbols), longest)


@cache
def word_filter() -> WordFilter:
    """The filter of ``content/textfilter``, read at its first use."""
    return load(content_dir() / "textfilter")


def _lines(path: Path) -> set[str]:
    return {line.strip() for line in path.read_text(encoding="utf-8").splitlines() if line.strip()}


def skeleton(name: str) -> str:
    """What a name looks like: case, accents, spaces and look-alike letters folded, so that
    ``Аnn`` (a Cyrillic ``А``) and ``ann`` read the same."""
    # Look-alikes before case: a Greek capital Ν looks like N, its small ν like v.
    chars = (_latin_letter(c) for c in unicodedata.normalize("NFKC", name) if c.isalnum())
    return _plain("".join(chars))


def lookalike(name: str, others: Iterable[str]) -> str | None:
    """Another name at the table that ``name`` only looks like (it differs as written but
    reads the same), or None."""
    mine = skeleton(name)
    for other in others:
        if other != name and mine and skeleton(other) == mine:
            return other
    return None
