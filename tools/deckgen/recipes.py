"""Recipes: the hand-written curated ones and the ones a seed invents.

Generation only reads ``random.Random`` seeded with strings, so a seed always plans the
same deck.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from tools.deckgen.layouts import LAYOUTS
from tools.deckgen.model import LANGS, Art, DeckBuildError, Recipe

GENERATED_COUNT = 300


def _pick(
    rng: random.Random,
    lib: Mapping[str, Art],
    req: tuple[frozenset[str], frozenset[str]],
    uses: Mapping[str, int],
    avoid: Iterable[str],
) -> str | None:
    """An element for a role needing tags ``req``, not in ``avoid``; None if there is none."""
    all_, any_ = req
    skip = set(avoid)
    pool = [
        k
        for k, art in sorted(lib.items())
        if all_ <= art.tags and (not any_ or any_ & art.tags) and k not in skip
    ]
    if not pool:
        return None
    low = min(uses.get(k, 0) for k in pool)
    # Prefer the least-used elements so the deck spreads over the whole library.
    fresh = [k for k in pool if uses.get(k, 0) <= low + 1]
    return rng.choice(fresh)


def generate_recipes(
    lib: Mapping[str, Art], seed: int, count: int, taken: Iterable[Recipe] = ()
) -> list[Recipe]:
    """Deterministically invent ``count`` distinct recipes not among ``taken``."""
    rng = random.Random(f"reverie-deck:{seed}")
    seen = {r.composition_key() for r in taken}
    uses: dict[str, int] = {}
    for r in taken:
        for _, k in r.roles:
            uses[k] = uses.get(k, 0) + 1
    names = sorted(LAYOUTS)
    out: list[Recipe] = []
    attempts = 0
    while len(out) < count:
        attempts += 1
        if attempts > count * 200:
            raise DeckBuildError("cannot find enough distinct compositions")
        name = names[len(out) % len(names)] if attempts % 7 else rng.choice(names)
        lay = LAYOUTS[name]
        roles: list[tuple[str, str]] = []
        ok = True
        for role, req in lay.roles.items():
            if role in lay.optional and rng.random() < 0.4:
                continue
            key = _pick(rng, lib, req, uses, (k for _, k in roles))
            if key is None:
                ok = False
                break
            roles.append((role, key))
        if not ok:
            continue
        setting = rng.choice(lay.settings)
        r = Recipe(name, setting, tuple(roles), rng.randrange(1_000_000))
        if r.composition_key() in seen:
            continue
        seen.add(r.composition_key())
        for _, k in roles:
            uses[k] = uses.get(k, 0) + 1
        out.append(r)
    return out


def recipe_from_json(obj: Mapping[str, Any], origin: str = "curated") -> Recipe:
    """Parse one recipe dict (as in ``recipes/curated.json``)."""
    try:
        roles = tuple((str(k), str(v)) for k, v in obj["roles"].items())
        cap_ = obj.get("caption")
        return Recipe(
            layout=str(obj["layout"]),
            setting=str(obj["setting"]),
            roles=roles,
            variant=int(obj["variant"]),
            caption={lang: str(cap_[lang]) for lang in LANGS} if cap_ else None,
            origin=origin,
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise DeckBuildError(f"malformed recipe {obj!r}: {exc}") from exc


def load_curated(deck_dir: Path) -> list[Recipe]:
    """The hand-written recipes of a deck folder."""
    path = deck_dir / "recipes" / "curated.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    return [recipe_from_json(o) for o in data["recipes"]]


def plan_deck(
    lib: Mapping[str, Art], curated: Sequence[Recipe], seed: int, generated: int = GENERATED_COUNT
) -> list[Recipe]:
    """Curated plus generated recipes, shuffled into the deck's card order."""
    gen = generate_recipes(lib, seed, generated, curated)
    deck = list(curated) + gen
    random.Random(f"order:{seed}").shuffle(deck)
    return deck
