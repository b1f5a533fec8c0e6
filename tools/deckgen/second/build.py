"""Rendering the second edition's recipes to cards and writing its deck folder.

:func:`deck_files` is pure (library and seed in, file bytes out), so a test can
compare it with the committed deck; :func:`build_deck` is the one step that writes.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from tools.deckgen.elements import Canvas, fmt
from tools.deckgen.model import LANGS, DeckBuildError, H, Recipe, W
from tools.deckgen.scenery import SETTINGS
from tools.deckgen.second import grammar
from tools.deckgen.second.finish import painterly
from tools.deckgen.second.library import (
    CATALOG_FILE,
    LIBRARY_FILE,
    SOURCES,
    Element,
    extract_library,
    load_catalog,
    load_elements,
)
from tools.deckgen.second.plan import plan_deck
from tools.deckgen.second.scene import Scene
from tools.deckgen.second.scenes_deeds import SCENES as DEEDS
from tools.deckgen.second.scenes_odd import SCENES as ODD
from tools.deckgen.second.scenes_worlds import SCENES as WORLDS

DEFAULT_SEED = 2
SCENES: tuple[Scene, ...] = DEEDS + ODD + WORLDS
BY_NAME = {s.name: s for s in SCENES}
CUTS_FILE = "recipes/cuts.json"


def draw(c: Canvas, r: Recipe) -> None:
    """Paint recipe ``r`` on ``c`` through a camera of its own, then the finish.

    The camera (a mirror image half the time, a zoom of up to 14 % around a point near
    the middle) moves every scene's fixed parts (a keyhole, an easel, a stage) so two
    cards of one scene do not share their outlines; it draws from its own generator so
    the painter's draws stay as they are.
    """
    scene = BY_NAME.get(r.layout)
    if scene is None:
        raise DeckBuildError(f"unknown scene {r.layout!r}")
    cam = random.Random(f"camera2:{r.layout}:{r.variant}")
    zoom = cam.uniform(1.0, 1.14)
    fx, fy = cam.uniform(0.3, 0.7) * W, cam.uniform(0.35, 0.75) * H
    tr = f"translate({fmt(fx)} {fmt(fy)}) scale({fmt3(zoom)}) translate({fmt(-fx)} {fmt(-fy)})"
    if cam.random() < 0.5:
        tr = f"translate({W} 0) scale(-1 1) " + tr
    c.add(f'<g transform="{tr}">')
    scene.paint(c, r)
    c.add("</g>")
    painterly(c)


def fmt3(v: float) -> str:
    """A scale factor with three decimals (other SVG numbers keep one).

    >>> fmt3(1.0), fmt3(1.12345)
    ('1', '1.123')
    """
    return f"{v:.3f}".rstrip("0").rstrip(".")


def render(
    r: Recipe, lib: Mapping[str, Element]
) -> tuple[str, list[dict[str, Any]], dict[str, str]]:
    """One card: its SVG text, its elements for the metadata, its captions."""
    arts = {k: e.art for k, e in lib.items()}
    c = Canvas(
        arts, SETTINGS[r.setting], random.Random(f"card2:{r.layout}:{r.setting}:{r.variant}")
    )
    draw(c, r)
    roles = dict(r.roles)
    elements: list[dict[str, Any]] = [
        {"id": lib[k].source, "role": role, "label": dict(lib[k].art.label)} for role, k in r.roles
    ]
    elements += [
        {"id": lib[k].source, "role": "scene", "label": dict(lib[k].art.label)}
        for k in c.used
        if k not in roles.values()
    ]
    words = {role: lib[k].words for role, k in r.roles}
    scene = BY_NAME[r.layout]
    captions = {lang: grammar.fill(scene.caption[lang], lang, words) for lang in LANGS}
    return c.render(), elements, captions


def card_id(index: int) -> str:
    """Card id for the card at ``index`` in manifest order.

    >>> card_id(0)
    'c001'
    """
    return f"c{index + 1:03d}"


def load_cuts(deck_dir: Path) -> dict[str, str]:
    """Cards cut after review: ``"scene/variant"`` -> why."""
    path = deck_dir / CUTS_FILE
    if not path.is_file():
        return {}
    data: dict[str, str] = json.loads(path.read_text(encoding="utf-8"))["cuts"]
    return data


def load_replacements(deck_dir: Path) -> dict[str, str]:
    """Cut cards whose place another card takes: ``"lake/0"`` -> ``"mirror/7"``."""
    path = deck_dir / CUTS_FILE
    if not path.is_file():
        return {}
    data: dict[str, str] = json.loads(path.read_text(encoding="utf-8")).get("replace", {})
    return data


def _key(r: Recipe) -> str:
    return f"{r.layout}/{r.variant}"


def recipes(
    lib: Mapping[str, Element],
    seed: int,
    cuts: Mapping[str, str],
    replace: Mapping[str, str] | None = None,
) -> list[Recipe]:
    """The deck's recipes without the cut cards.

    A room's log names its cards by their place in the deck, so a card cut after the
    deck was released leaves its place to a replacement (``replace``: cut -> an extra
    variant of a scene, planned after all the others); cards cut before simply go.
    Every other card keeps its cast and its place.
    """
    replace = replace or {}
    loose = sorted(k for k in replace if k not in cuts)
    if loose:
        raise DeckBuildError(f"replaced cards that are not cut: {loose}")
    extra = Counter(v.split("/", 1)[0] for v in replace.values())
    planned = plan_deck(SCENES, lib, seed, extra)
    by_key = {_key(r): r for r in planned}
    missing = sorted(v for v in replace.values() if v not in by_key)
    taken = set(replace.values())
    if missing or len(taken) != len(replace):
        raise DeckBuildError(f"replacements must be the next variants, once each: {missing}")
    out = []
    for r in planned:
        k = _key(r)
        if k in replace:
            out.append(by_key[replace[k]])
        elif k not in cuts and k not in taken:
            out.append(r)
    return out


def deck_recipes(deck_dir: Path, lib: Mapping[str, Element], seed: int) -> list[Recipe]:
    """The recipes of the deck in ``deck_dir``: its cuts and replacements applied."""
    return recipes(lib, seed, load_cuts(deck_dir), load_replacements(deck_dir))


def deck_files(lib: Mapping[str, Element], cards: Sequence[Recipe], seed: int) -> dict[str, bytes]:
    """All generated files of the deck, path relative to the deck folder -> bytes."""
    files: dict[str, bytes] = {}
    listing: list[dict[str, str]] = []
    meta: dict[str, Any] = {}
    for i, r in enumerate(cards):
        svg, elements, captions = render(r, lib)
        cid = card_id(i)
        name = f"cards/{cid}.svg"
        files[name] = svg.encode("utf-8")
        listing.append({"id": cid, "image": name})
        meta[cid] = {
            "caption": captions,
            "elements": elements,
            "setting": {"id": r.setting, **SETTINGS[r.setting].words},
            "layout": r.layout,
            "kind": BY_NAME[r.layout].kind,
            "recipe": f"{r.layout}/{r.variant}",
        }
    manifest = {
        "format": 1,
        "name": "reverie2",
        "title": {"en": "Reverie II", "ru": "Грёзы II", "it": "Fantasticheria II"},
        "description": {
            "en": "Second edition: painted scenes that tell a story.",
            "ru": "Второе издание: нарисованные сцены, в которых что-то происходит.",
            "it": "Seconda edizione: scene dipinte che raccontano una storia.",
        },
        "edition": 2,
        "count": len(listing),
        "aspect": "2:3",
        "size": {"width": W, "height": H},
        "seed": seed,
        "license": (
            "Cards combine Fluent Emoji Flat by Microsoft (MIT), game-icons.net icons by "
            "Lorc, Delapouite and contributors (CC BY 3.0) and Openclipart drawings (public "
            "domain). See LICENSES/ and credits.json."
        ),
        "cards": listing,
    }
    files["manifest.json"] = _dump(manifest)
    files["meta.json"] = _dump({"format": 1, "cards": meta})
    files["credits.json"] = _dump(credits(lib))
    return files


def credits(lib: Mapping[str, Element]) -> dict[str, Any]:
    """The credits page's entries for this deck, with every element's source."""
    by_src: dict[str, list[str]] = {"fluent": [], "game-icons": [], "openclipart": []}
    for e in lib.values():
        kind, name = e.source.split(":", 1)
        by_src[kind].append(name)
    oc = sorted(by_src["openclipart"])
    return {
        "deck": "reverie2",
        "credits": [
            {
                "source": SOURCES["fluent"],
                "authors": ["Microsoft Corporation"],
                "license": "MIT",
                "license_file": "LICENSES/fluent-emoji-MIT.txt",
                "description": "Animals, people, objects and buildings: "
                + ", ".join(sorted(by_src["fluent"])),
            },
            {
                "source": SOURCES["game-icons"],
                "authors": ["Lorc", "Delapouite", "and the game-icons.net contributors"],
                "license": "CC BY 3.0",
                "license_file": "LICENSES/game-icons-CC-BY-3.0.txt",
                "description": "Shadows and silhouettes: "
                + ", ".join(sorted(by_src["game-icons"])),
            },
            {
                "source": SOURCES["openclipart"],
                "authors": sorted({_oc_author(lib, n) for n in oc}),
                "license": "Public domain",
                "license_file": "LICENSES/openclipart-public-domain.txt",
                "description": "Drawings: " + ", ".join(oc),
            },
            {
                "source": "Reverie deck generator",
                "authors": ["Reverie contributors"],
                "license": "MIT",
                "license_file": "../../../LICENSE",
                "description": "Scenes, skies, rooms, doors, mirrors, the painterly finish and "
                "every caption are the project's own.",
            },
        ],
    }


def _oc_author(lib: Mapping[str, Element], name: str) -> str:
    for e in lib.values():
        if e.source == f"openclipart:{name}":
            return e.author
    return "unknown"


def _dump(obj: Any) -> bytes:
    return (json.dumps(obj, ensure_ascii=False, indent=1) + "\n").encode("utf-8")


def build_deck(deck_dir: Path, seed: int = DEFAULT_SEED, art_dir: Path | None = None) -> int:
    """(Re)write the second edition in ``deck_dir``; returns the number of cards.

    With ``art_dir`` the element library is first re-extracted from the npm packages
    (and Debian's openclipart-svg); without it the committed library is used.
    """
    if art_dir is not None:
        data = extract_library(art_dir, load_catalog(deck_dir))
        (deck_dir / "elements").mkdir(parents=True, exist_ok=True)
        (deck_dir / LIBRARY_FILE).write_bytes(_dump(data))
    lib = load_elements(deck_dir)
    cards = deck_recipes(deck_dir, lib, seed)
    files = deck_files(lib, cards, seed)
    cards_dir = deck_dir / "cards"
    cards_dir.mkdir(parents=True, exist_ok=True)
    for old in cards_dir.glob("*.svg"):
        if f"cards/{old.name}" not in files:
            old.unlink()
    for rel, data_ in files.items():
        path = deck_dir / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data_)
    return len(cards)


__all__ = [
    "CATALOG_FILE",
    "DEFAULT_SEED",
    "SCENES",
    "build_deck",
    "deck_files",
    "deck_recipes",
    "recipes",
]
