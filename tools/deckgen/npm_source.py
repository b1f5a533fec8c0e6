"""Extraction of the element library from the unpacked npm packages.

Only this step needs the packages (``@iconify-json/fluent-emoji-flat`` for the art,
``emojibase-data`` for the labels); its output is committed next to the deck, so every
later build, and every test, runs without npm or network.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tools.deckgen.model import LANGS, DeckBuildError

# Folder names as `npm pack` writes them (scope and slash folded into dashes).
FLUENT_PKG = "iconify-json-fluent-emoji-flat"
EMOJIBASE_PKG = "emojibase-data"


def _find_package(art_dir: Path, name: str) -> Path:
    # Accept both `npm pack` tarballs unpacked into "<name>-<ver>/package"
    # and a node_modules layout, so either rebuild recipe works.
    for cand in sorted(art_dir.glob(f"{name}*/package")) + sorted(
        art_dir.glob(f"node_modules/**/{name.split('-', 2)[-1]}")
    ):
        if cand.is_dir():
            return cand
    raise DeckBuildError(f"package {name} not found under {art_dir}")


def _norm_hex(code: str) -> str:
    return "-".join(p for p in code.upper().split("-") if p != "FE0F")


def extract_library(art_dir: Path, catalog_path: Path) -> dict[str, Any]:
    """Copy the catalogued emoji bodies and labels out of the npm packages."""
    catalog = json.loads(catalog_path.read_text(encoding="utf-8"))["elements"]
    fluent = _find_package(art_dir, FLUENT_PKG)
    icons = json.loads((fluent / "icons.json").read_text(encoding="utf-8"))
    chars = json.loads((fluent / "chars.json").read_text(encoding="utf-8"))
    by_name: dict[str, str] = {}
    for code, name in sorted(chars.items()):
        by_name.setdefault(name, _norm_hex(code))
    base = _find_package(art_dir, EMOJIBASE_PKG)
    labels: dict[str, dict[str, str]] = {}
    for lang in LANGS:
        rows = json.loads((base / lang / "data.json").read_text(encoding="utf-8"))
        labels[lang] = {_norm_hex(r["hexcode"]): r["label"] for r in rows}
    out: dict[str, Any] = {}
    for key in sorted(catalog):
        entry = catalog[key]
        icon = icons["icons"].get(key)
        if icon is None or key not in by_name:
            raise DeckBuildError(f"catalog element {key!r} is not in {FLUENT_PKG}")
        hexcode = by_name[key]
        label = {}
        for lang in LANGS:
            text = entry.get(lang) or labels[lang].get(hexcode)
            if not text:
                raise DeckBuildError(f"no {lang} label for {key!r} ({hexcode})")
            label[lang] = text
        out[key] = {
            "body": icon["body"],
            "width": icon.get("width", icons.get("width", 32)),
            "height": icon.get("height", icons.get("height", 32)),
            "tags": entry["tags"],
            "hexcode": hexcode,
            "label": label,
        }
    return {
        "source": "Fluent Emoji Flat (@iconify-json/fluent-emoji-flat), Microsoft Corporation",
        "license": "MIT",
        "labels": "emojibase-data (Miles Johnson), MIT, with catalog overrides",
        "elements": out,
    }
