"""Rendering recipes to cards and writing a deck folder: manifest, meta, card SVGs.

:func:`deck_files` is pure (recipes in, file bytes out), so tests compare it with the
committed deck; :func:`build_deck` is the one step that writes.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from tools.deckgen.captions import caption
from tools.deckgen.elements import LIBRARY_FILE, Canvas, load_library
from tools.deckgen.layouts import LAYOUTS
from tools.deckgen.model import Art, BuiltCard, DeckBuildError, H, Recipe, W
from tools.deckgen.npm_source import extract_library
from tools.deckgen.recipes import load_curated, plan_deck
from tools.deckgen.scenery import PROPS, SETTINGS, finish

DEFAULT_SEED = 4


def render_card(r: Recipe, lib: Mapping[str, Art]) -> BuiltCard:
    """Render one recipe to SVG text plus its hidden metadata (pure)."""
    if r.layout not in LAYOUTS:
        raise DeckBuildError(f"unknown layout {r.layout!r}")
    if r.setting not in SETTINGS:
        raise DeckBuildError(f"unknown setting {r.setting!r}")
    for _, key in r.roles:
        if key not in lib:
            raise DeckBuildError(f"recipe uses unknown element {key!r}")
    rng = random.Random(f"card:{r.layout}:{r.setting}:{r.variant}")
    c = Canvas(lib, SETTINGS[r.setting], rng)
    LAYOUTS[r.layout].draw(c, r)
    finish(c)
    elements: list[dict[str, Any]] = [
        {"id": f"emoji:{k}", "role": role, "label": dict(lib[k].label)} for role, k in r.roles
    ]
    elements += [{"id": f"prop:{p}", "role": "scene", "label": dict(PROPS[p])} for p in c.props]
    return BuiltCard(c.render(), tuple(elements), caption(r, lib, c.props), r)


def card_id(index: int) -> str:
    """Opaque card id for the card at ``index`` in manifest order.

    >>> card_id(0), card_id(325)
    ('c001', 'c326')
    """
    return f"c{index + 1:03d}"


def deck_files(
    lib: Mapping[str, Art],
    recipes: Sequence[Recipe],
    seed: int,
    licenses: Mapping[str, str] | None = None,
) -> dict[str, bytes]:
    """All generated files of a deck, path relative to the deck folder -> bytes."""
    files: dict[str, bytes] = {}
    cards: list[dict[str, str]] = []
    meta: dict[str, Any] = {}
    for i, r in enumerate(recipes):
        built = render_card(r, lib)
        cid = card_id(i)
        name = f"cards/{cid}.svg"
        files[name] = built.svg.encode("utf-8")
        cards.append({"id": cid, "image": name})
        meta[cid] = {
            "caption": dict(built.caption),
            "elements": list(built.elements),
            "setting": {"id": r.setting, **{k: v for k, v in SETTINGS[r.setting].words.items()}},
            "layout": r.layout,
            "origin": r.origin,
        }
    manifest = {
        "format": 1,
        "name": "default",
        "title": {"en": "Reverie", "ru": "Грёзы", "it": "Fantasticheria"},
        "description": {
            "en": "Dreamlike scenes built from Fluent Emoji art.",
            "ru": "Сказочные сцены из рисунков Fluent Emoji.",
            "it": "Scene oniriche composte con le immagini di Fluent Emoji.",
        },
        "count": len(cards),
        "aspect": "2:3",
        "size": {"width": W, "height": H},
        "seed": seed,
        "license": (
            "Card images combine Fluent Emoji Flat by Microsoft Corporation (MIT); captions "
            "use labels from emojibase-data by Miles Johnson (MIT). See LICENSES/ and credits.json."
        ),
        "cards": cards,
    }
    files["manifest.json"] = _dump(manifest)
    files["meta.json"] = _dump({"format": 1, "cards": meta})
    files["recipes/generated.json"] = _dump(
        {"seed": seed, "recipes": [r.to_json() for r in recipes if r.origin == "generated"]}
    )
    return files


def _dump(obj: Any) -> bytes:
    return (json.dumps(obj, ensure_ascii=False, indent=1, sort_keys=False) + "\n").encode("utf-8")


def build_deck(deck_dir: Path, seed: int = DEFAULT_SEED, art_dir: Path | None = None) -> int:
    """(Re)write the deck in ``deck_dir``; returns the number of cards.

    With ``art_dir`` the element library is first re-extracted from the npm
    packages; without it the committed library is used as is.
    """
    if art_dir is not None:
        data = extract_library(art_dir, deck_dir / "recipes" / "catalog.json")
        (deck_dir / "elements").mkdir(parents=True, exist_ok=True)
        (deck_dir / LIBRARY_FILE).write_bytes(_dump(data))
    lib = load_library(deck_dir)
    recipes = plan_deck(lib, load_curated(deck_dir), seed)
    files = deck_files(lib, recipes, seed)
    cards_dir = deck_dir / "cards"
    cards_dir.mkdir(parents=True, exist_ok=True)
    for old in cards_dir.glob("*.svg"):
        if f"cards/{old.name}" not in files:
            old.unlink()
    for rel, data_ in files.items():
        path = deck_dir / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data_)
    return len(recipes)
