"""The data the generator passes between its steps: elements, backdrops, recipes, cards.

Everything here is frozen so a recipe or a library loaded once can be shared by every
card without one rendering changing what the next one sees.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

# Card size in SVG units; 2:3 like a printed Dixit card, the ratio the client lays out.
W = 400
H = 600
LANGS = ("en", "ru", "it")

#: Text per language code, for every string a player may read.
Labels = Mapping[str, str]


class DeckBuildError(Exception):
    """Raised when the source art, the catalog or a recipe cannot be used."""


@dataclass(frozen=True)
class Art:
    """One picture element of the library: an SVG body plus its labels."""

    key: str
    body: str
    width: int
    height: int
    tags: frozenset[str]
    label: Labels


@dataclass(frozen=True)
class Setting:
    """A backdrop: sky gradient, ground, light and the words that name it."""

    name: str
    sky: tuple[str, ...]
    ground: str
    ground_colors: tuple[str, str]
    light: str  # "moon", "sun", "none"
    light_color: str
    haze: str
    shadow: str
    cloud: str
    extras: tuple[str, ...]
    words: Labels  # en: adverbial phrase, ru/it: a short nominative title


@dataclass(frozen=True)
class Recipe:
    """A card's composition: layout, backdrop, elements by role, jitter seed."""

    layout: str
    setting: str
    roles: tuple[tuple[str, str], ...]
    variant: int
    caption: Labels | None = None
    origin: str = "generated"

    def composition_key(self) -> tuple[str, tuple[str, ...]]:
        """The normalised composition used to keep every card distinct."""
        return (self.layout, tuple(sorted({k for _, k in self.roles})))

    def role(self, name: str) -> str:
        """The element key that fills ``name``."""
        for r, k in self.roles:
            if r == name:
                return k
        raise DeckBuildError(f"recipe {self.layout} has no role {name!r}")

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict in the same shape the curated file uses."""
        out: dict[str, Any] = {
            "layout": self.layout,
            "setting": self.setting,
            "roles": dict(self.roles),
            "variant": self.variant,
        }
        if self.caption is not None:
            out["caption"] = dict(self.caption)
        return out


@dataclass(frozen=True)
class BuiltCard:
    """A rendered card: the SVG text and its hidden metadata."""

    svg: str
    elements: tuple[dict[str, Any], ...]
    caption: Labels
    recipe: Recipe
