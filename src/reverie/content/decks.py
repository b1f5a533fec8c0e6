"""Loading picture decks stored as ``content/decks/<name>/`` folders.

A deck folder holds ``manifest.json`` (public: what players may see) and
``meta.json`` (hidden: elements and captions per card, for bots and for the
reveal).  The game engine refers to cards by their index in manifest order.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from reverie.content import location

LANGS = ("en", "ru", "it")
CONTENT_ENV = location.CONTENT_DIR_ENV
#: The deck new rooms get: the second edition of the default deck.
DEFAULT_DECK = "reverie2"
#: The first edition keeps the name old rooms' logs give it (their ``Created`` event names
#: the deck and the game indexes its cards), so those rooms replay with the same pictures.
FIRST_EDITION = "default"
_NAME_RE = re.compile(r"^[a-z0-9][a-z0-9_-]{0,63}$")
_IMAGE_RE = re.compile(r"^[A-Za-z0-9_-]+(/[A-Za-z0-9_-]+)*\.(svg|png|jpg|jpeg|webp)$")


class DeckError(Exception):
    """A deck folder is missing, unreadable or does not follow the format."""


@dataclass(frozen=True)
class Card:
    """A card as players see it: an opaque id and the image path in the deck."""

    id: str
    image: str


@dataclass(frozen=True)
class CardMeta:
    """Hidden facts about a card, never sent to players before the reveal."""

    id: str
    caption: dict[str, str]
    elements: tuple[dict[str, Any], ...]
    setting: dict[str, str] = field(default_factory=dict)
    layout: str = ""  # the kind of scene (deck generator's layout), for bots' associations


@dataclass(frozen=True)
class Deck:
    """A loaded deck: the manifest's public fields plus access to metadata."""

    path: Path
    name: str
    title: dict[str, str]
    count: int
    aspect: str
    license: str
    cards: tuple[Card, ...]
    _meta: dict[str, CardMeta] = field(repr=False, compare=False)

    def meta(self, card_index: int) -> CardMeta:
        """Hidden metadata of the card at ``card_index`` in manifest order."""
        if not 0 <= card_index < len(self.cards):
            raise IndexError(f"deck {self.name!r} has no card {card_index}")
        cid = self.cards[card_index].id
        try:
            return self._meta[cid]
        except KeyError:
            raise DeckError(f"deck {self.name!r}: no metadata for card {cid!r}") from None

    def image_path(self, card_index: int) -> Path:
        """Absolute path of the image file of the card at ``card_index``."""
        return self.path / self.cards[card_index].image

    def summary(self) -> dict[str, Any]:
        """The public listing entry (``GET /api/decks``)."""
        return {"name": self.name, "title": dict(self.title), "count": self.count}

    def public_manifest(self) -> dict[str, Any]:
        """Manifest fields safe to send to anyone (no hidden metadata)."""
        return {
            "name": self.name,
            "title": dict(self.title),
            "count": self.count,
            "aspect": self.aspect,
            "license": self.license,
            "cards": [{"id": c.id, "image": c.image} for c in self.cards],
        }

    def browser_payload(self) -> dict[str, Any]:
        """Manifest plus captions, for the deck browser page (not for games)."""
        out = self.public_manifest()
        for i, card in enumerate(out["cards"]):
            card["caption"] = dict(self.meta(i).caption)
        return out


def _read_json(path: Path, what: str) -> Any:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise DeckError(f"{what} not found: {path}") from None
    except OSError as exc:
        raise DeckError(f"cannot read {what} {path}: {exc}") from exc
    try:
        return json.loads(text)
    except ValueError as exc:
        raise DeckError(f"{what} {path} is not valid JSON: {exc}") from exc


def _text_map(obj: Any, where: str) -> dict[str, str]:
    if not isinstance(obj, dict) or not all(
        isinstance(obj.get(lang), str) and obj[lang].strip() for lang in LANGS
    ):
        raise DeckError(f"{where} must give non-empty text for each of {', '.join(LANGS)}")
    return {str(k): str(v) for k, v in obj.items()}


def load_deck(path: str | os.PathLike[str]) -> Deck:
    """Load and validate the deck folder at ``path``.

    Raises :class:`DeckError` with a readable message when the manifest or the
    metadata is missing or malformed.
    """
    root = Path(path)
    if not root.is_dir():
        raise DeckError(f"deck folder not found: {root}")
    man = _read_json(root / "manifest.json", "deck manifest")
    where = f"deck manifest {root / 'manifest.json'}"
    if not isinstance(man, dict):
        raise DeckError(f"{where}: top level must be an object")
    name = man.get("name")
    if not isinstance(name, str) or not _NAME_RE.match(name):
        raise DeckError(f"{where}: 'name' must be a short lowercase identifier")
    raw_cards = man.get("cards")
    if not isinstance(raw_cards, list) or not raw_cards:
        raise DeckError(f"{where}: 'cards' must be a non-empty list")
    cards: list[Card] = []
    seen: set[str] = set()
    for i, c in enumerate(raw_cards):
        if not isinstance(c, dict) or not isinstance(c.get("id"), str) or not c["id"]:
            raise DeckError(f"{where}: card {i} needs a string 'id'")
        image = c.get("image")
        # Image names come from files others may upload later: keep them inside the folder.
        if not isinstance(image, str) or not _IMAGE_RE.match(image):
            raise DeckError(f"{where}: card {c['id']!r} has a bad 'image' {image!r}")
        if c["id"] in seen:
            raise DeckError(f"{where}: duplicate card id {c['id']!r}")
        seen.add(c["id"])
        cards.append(Card(id=c["id"], image=image))
    count = man.get("count", len(cards))
    if count != len(cards):
        raise DeckError(f"{where}: 'count' is {count} but there are {len(cards)} cards")
    title = _text_map(man.get("title"), f"{where}: 'title'")
    meta_raw = _read_json(root / "meta.json", "deck metadata")
    if not isinstance(meta_raw, dict) or not isinstance(meta_raw.get("cards"), dict):
        raise DeckError(f"deck metadata {root / 'meta.json'}: needs a 'cards' object")
    metas: dict[str, CardMeta] = {}
    for cid, m in meta_raw["cards"].items():
        mwhere = f"deck metadata {root / 'meta.json'}: card {cid!r}"
        if not isinstance(m, dict):
            raise DeckError(f"{mwhere} must be an object")
        elements = m.get("elements")
        if not isinstance(elements, list) or not all(isinstance(e, dict) for e in elements):
            raise DeckError(f"{mwhere}: 'elements' must be a list of objects")
        setting = m.get("setting", {})
        metas[cid] = CardMeta(
            id=cid,
            caption=_text_map(m.get("caption"), f"{mwhere}: 'caption'"),
            elements=tuple(elements),
            setting={str(k): str(v) for k, v in setting.items()}
            if isinstance(setting, dict)
            else {},
            layout=str(m.get("layout", "")),
        )
    missing = [c.id for c in cards if c.id not in metas]
    if missing:
        raise DeckError(f"deck {name!r}: no metadata for cards {', '.join(missing[:5])}")
    return Deck(
        path=root,
        name=name,
        title=title,
        count=len(cards),
        aspect=str(man.get("aspect", "2:3")),
        license=str(man.get("license", "")),
        cards=tuple(cards),
        _meta=metas,
    )


def content_dir() -> Path:
    """The content folder (:mod:`reverie.content.location`); :class:`DeckError` if none."""
    try:
        return location.content_dir()
    except location.ContentDirNotFoundError as exc:
        raise DeckError(str(exc)) from None


def deck_path(name: str) -> Path:
    """Folder of the built-in deck called ``name``."""
    return content_dir() / "decks" / name


def default_deck_path() -> Path:
    """Folder of the deck new rooms get (:data:`DEFAULT_DECK`)."""
    return deck_path(DEFAULT_DECK)


def list_decks(root: Path | None = None) -> list[Deck]:
    """Every loadable deck under ``content/decks`` (malformed ones raise), the default
    deck first so the deck browser opens on it."""
    base = (root or content_dir()) / "decks"
    decks = [load_deck(p) for p in sorted(base.iterdir()) if (p / "manifest.json").is_file()]
    return sorted(decks, key=lambda d: d.name != DEFAULT_DECK)
