"""Which cards the second edition holds: a scene, a setting and the roles' elements.

Each scene gets ``scene.count`` cards. Roles are filled with the least-used fitting
elements (ties broken by a seeded draw), so the deck spreads over the whole library
instead of repeating favourites; no element plays two roles on one card and no two
cards of one scene share their first role's element. Settings rotate within a scene.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence

from tools.deckgen.model import DeckBuildError, Recipe
from tools.deckgen.second.library import Element
from tools.deckgen.second.scene import Scene


def _pick(
    rng: random.Random, candidates: Sequence[str], used: Counter[str], avoid: set[str]
) -> str:
    pool = [k for k in dict.fromkeys(candidates) if k not in avoid]
    if not pool:
        raise DeckBuildError("a role has no element left to fill it")
    low = min(used[k] for k in pool)
    best = [k for k in pool if used[k] <= low + 1]
    return best[rng.randrange(len(best))]


def plan_scene(
    scene: Scene,
    lib: Mapping[str, Element],
    seed: int,
    used: Counter[str],
    *,
    start: int = 0,
    count: int | None = None,
    firsts: set[str] | None = None,
) -> list[Recipe]:
    """The cards of one scene (``used`` counts elements over the whole deck): variants
    ``start`` to ``start + count`` (the scene's own count from 0), their first role
    never one of ``firsts``."""
    for role, keys in scene.roles.items():
        missing = [k for k in keys if k not in lib]
        if missing:
            raise DeckBuildError(f"scene {scene.name!r} role {role!r}: unknown {missing}")
    rng = random.Random(f"plan2:{seed}:{scene.name}" + (f":{start}" if start else ""))
    settings = list(scene.settings)
    rng.shuffle(settings)
    first = next(iter(scene.roles))
    firsts = set(firsts or ())
    out = []
    for i in range(start, start + (scene.count if count is None else count)):
        chosen: dict[str, str] = {}
        for role, keys in scene.roles.items():
            avoid = set(chosen.values()) | (firsts if role == first else set())
            chosen[role] = _pick(rng, keys, used, avoid)
        firsts.add(chosen[first])
        used.update(chosen.values())
        out.append(
            Recipe(
                layout=scene.name,
                setting=settings[i % len(settings)],
                roles=tuple(chosen.items()),
                variant=i,
                origin="second",
            )
        )
    return out


def plan_deck(
    scenes: Sequence[Scene],
    lib: Mapping[str, Element],
    seed: int,
    extra: Mapping[str, int] | None = None,
) -> list[Recipe]:
    """Every card of the deck, shuffled so neighbours in the manifest differ; then
    ``extra[name]`` more cards of those scenes (their variants after the scene's own),
    in scene order at the end. Extras replace cards cut after the deck was first
    built: planned last, they change no other card's cast or place."""
    used: Counter[str] = Counter()
    cards = [r for s in scenes for r in plan_scene(s, lib, seed, used)]
    random.Random(f"order2:{seed}").shuffle(cards)
    for s in scenes:
        n = (extra or {}).get(s.name, 0)
        if n:
            first = next(iter(s.roles))
            firsts = {dict(r.roles)[first] for r in cards if r.layout == s.name}
            cards += plan_scene(s, lib, seed, used, start=s.count, count=n, firsts=firsts)
    return cards
