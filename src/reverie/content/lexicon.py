"""The association lexicon: what a player might say about what a card shows.

The files under ``associations/`` (one per language) give, for every element the deck
generator draws, every backdrop and every kind of scene, associations that do not name
what is drawn. A card's associations are those of its parts, less any that share a word
with the card's caption, so a clue taken from here never names the picture.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

LANGS = ("en", "ru", "it")
_DIR = Path(__file__).with_name("associations")
_WORD = re.compile(r"[^\W\d_]+", re.UNICODE)


def _set(words: str) -> frozenset[str]:
    return frozenset(words.split())


# Short function words never count as naming a picture ("the", "в", "di").
_STOP = {
    "en": _set(
        "a an the of in on at to and or is it its for with by from up out over under "
        "into onto off as be are was not no all one some their his her our your my"
    ),
    "ru": _set(
        "и в во на с со к ко о об от до за из по у не ни а но же ли бы это то как так "
        "для при над под про без что где кто вот там тут мой твой свой"
    ),
    "it": _set(
        "il lo la i gli le un uno una di a da in con su per tra fra e o ma che non del "
        "della dei degli delle al alla ai agli alle dal dalla nel nella sul sulla col "
        "è si ci mi ti"
    ),
}
_ENDINGS = {
    "en": ("ies", "es", "s", "ing", "ed", "ly", "y", "e"),
    "ru": (
        "ами",
        "ями",
        "ого",
        "его",
        "ому",
        "ему",
        "ыми",
        "ими",
        "ой",
        "ей",
        "ый",
        "ий",
        "ая",
        "яя",
        "ое",
        "ее",
        "ые",
        "ие",
        "ов",
        "ев",
        "ам",
        "ям",
        "ах",
        "ях",
        "ом",
        "ем",
        "а",
        "я",
        "о",
        "е",
        "ы",
        "и",
        "у",
        "ю",
        "ь",
        "й",
    ),
    "it": ("i", "e", "a", "o"),
}


def stem(word: str, lang: str) -> str:
    """A crude stem of ``word`` (lower case, common endings off, at most six letters), so
    that inflected forms of one word meet.

    >>> stem("Keys", "en"), stem("ключом", "ru"), stem("chiavi", "it")
    ('key', 'ключ', 'chiav')
    """
    w = word.lower().replace("ё", "е")
    for end in _ENDINGS.get(lang, ()):
        if w.endswith(end) and len(w) - len(end) >= 3:
            w = w[: -len(end)]
            break
    return w[:6]


def content_stems(text: str, lang: str) -> set[str]:
    """Stems of the words of ``text`` that carry meaning (no function words).

    >>> sorted(content_stems("A key inside a fishbowl", "en"))
    ['fishbo', 'insid', 'key']
    """
    stop = _STOP.get(lang, frozenset())
    return {stem(w, lang) for w in _WORD.findall(text.lower()) if w not in stop and len(w) > 1}


def names_any(text: str, stems: set[str], lang: str) -> bool:
    """Whether ``text`` has a word whose stem starts like one of ``stems`` (or the
    other way round), i.e. names something those words name.

    >>> names_any("the keyhole", {"key"}, "en"), names_any("a secret", {"key"}, "en")
    (True, False)
    """
    for s in content_stems(text, lang):
        for t in stems:
            short, long_ = (s, t) if len(s) <= len(t) else (t, s)
            if len(short) >= 3 and long_.startswith(short):
                return True
            if short == long_:
                return True
    return False


@dataclass(frozen=True)
class Lexicon:
    """Associations per key (``emoji:key``, ``prop:moon``, ``setting:fog``,
    ``layout:door``) and language."""

    entries: Mapping[str, Mapping[str, tuple[str, ...]]]

    def get(self, key: str, lang: str) -> tuple[str, ...]:
        """The associations of ``key`` in ``lang`` (empty if none)."""
        return self.entries.get(lang, {}).get(key, ())

    def keys(self, lang: str) -> frozenset[str]:
        """Every key with associations in ``lang``."""
        return frozenset(self.entries.get(lang, {}))


def parse(text: str, where: str = "lexicon") -> dict[str, tuple[str, ...]]:
    """Read one language's file: ``key: a; b; c`` lines, ``#`` comments.

    >>> parse("# c\\nemoji:key: a secret; home\\n")
    {'emoji:key': ('a secret', 'home')}
    """
    out: dict[str, tuple[str, ...]] = {}
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        key, sep, rest = line.partition(": ")
        if not sep or not key or " " in key:
            raise ValueError(f"{where}:{n}: expected 'key: association; ...'")
        items = tuple(a.strip() for a in rest.split(";") if a.strip())
        if key in out:
            raise ValueError(f"{where}:{n}: {key} appears twice")
        out[key] = items
    return out


@functools.cache
def load_lexicon() -> Lexicon:
    """The lexicon shipped with the package (read once per process)."""
    entries = {
        lang: parse((_DIR / f"{lang}.txt").read_text(encoding="utf-8"), f"{lang}.txt")
        for lang in LANGS
    }
    return Lexicon(entries)


# Element ids whose source has two names: the first edition calls Fluent Emoji Flat
# ``emoji:<name>``, the second ``fluent:<name>`` (same icon set, same names), so one
# lexicon line serves both.
_SAME_SOURCE = {"fluent": "emoji"}


def element_key(element_id: str) -> str:
    """The lexicon key of an element as a deck's metadata names it (``emoji:fox``,
    ``fluent:fox``, ``game-icons:werewolf``, ``openclipart:<path>``, ``prop:moon``).

    >>> element_key("fluent:old-key"), element_key("game-icons:raven")
    ('emoji:old-key', 'game-icons:raven')
    """
    source, sep, name = element_id.partition(":")
    return f"{_SAME_SOURCE[source]}:{name}" if sep and source in _SAME_SOURCE else element_id


def card_keys(elements: Iterable[Mapping[str, Any]], setting: str, layout: str) -> list[str]:
    """The lexicon keys of a card: its scene first (what the picture is about), then its
    elements in the deck's order, then its backdrop.

    Both editions' metadata name these the same way: ``layout`` is the scene (the first
    edition's layout, the second's scene template), ``setting`` the backdrop's id, and
    each element's ``id`` its source and name (see :func:`element_key`)."""
    keys = [f"layout:{layout}"] if layout else []
    keys += [element_key(e["id"]) for e in elements if isinstance(e.get("id"), str)]
    if setting:
        keys.append(f"setting:{setting}")
    return list(dict.fromkeys(keys))


def card_associations(
    lexicon: Lexicon, keys: Iterable[str], caption: str, lang: str, labels: Iterable[str] = ()
) -> list[tuple[str, str]]:
    """``(key, association)`` pairs for a card, without any that share a word with its
    caption or with what its elements are called."""
    banned = content_stems(caption, lang)
    for label in labels:
        banned |= content_stems(label, lang)
    seen: set[str] = set()
    out: list[tuple[str, str]] = []
    for key in keys:
        for a in lexicon.get(key, lang):
            low = a.lower()
            if low in seen or names_any(a, banned, lang):
                continue
            seen.add(low)
            out.append((key, a))
    return out
