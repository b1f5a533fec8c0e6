"""The element catalog of the second edition and the extraction of its art.

``recipes/catalog.json`` (hand-written, committed) says where each element comes from
(``fluent:<name>``, ``game-icons:<name>`` or ``openclipart:<path>``) and how to name it
in each language. :func:`extract_library` copies the SVG bodies out of the sources into
``elements/library.json``; only that step needs the npm packages and Debian's
``openclipart-svg``, so every later build and every test runs without them.
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tools.deckgen.model import Art, DeckBuildError

CATALOG_FILE = "recipes/catalog.json"
LIBRARY_FILE = "elements/library.json"
OPENCLIPART_DIR = Path("/usr/share/openclipart/svg")
FLUENT_PKG = "iconify-json-fluent-emoji-flat"
GAME_ICONS_PKG = "iconify-json-game-icons"

#: Where each source's art comes from, for the credits and the manifest.
SOURCES = {
    "fluent": "Fluent Emoji Flat (@iconify-json/fluent-emoji-flat 1.2.6), Microsoft, MIT",
    "game-icons": "game-icons.net (@iconify-json/game-icons 1.2.4), CC BY 3.0",
    "openclipart": "Openclipart (Debian openclipart-svg 0.18), public domain",
}


@dataclass(frozen=True)
class Words:
    """How to name an element: English with article, Russian cases, Italian article."""

    en_a: str  # "a fox", "an owl"
    en_pl: str
    ru: tuple[str, ...]  # nom, acc, gen, dat, ins, loc, nom plural
    ru_g: str  # m, f, n, p
    it_def: str  # "la volpe", "l'orso"
    it_pl: str
    it_g: str  # m, f


@dataclass(frozen=True)
class Element:
    """An element of the library: its art (for the canvas) and its words."""

    art: Art
    words: Words
    source: str  # "fluent:fox", "game-icons:wolf-howl", "openclipart:<path>"
    silhouette: bool  # one-colour art drawn in ``currentColor``
    author: str = ""  # Openclipart's artist, for the credits


def _words(key: str, e: Mapping[str, Any]) -> Words:
    try:
        ru = tuple(e["ru"]["forms"])
        if len(ru) != 7:
            raise ValueError("ru needs 7 forms")
        return Words(
            e["en"]["a"],
            e["en"]["pl"],
            ru,
            e["ru"]["g"],
            e["it"]["def"],
            e["it"]["pl"],
            e["it"]["g"],
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise DeckBuildError(f"catalog element {key!r} has bad words: {exc}") from exc


def load_catalog(deck_dir: Path) -> dict[str, Any]:
    """The raw catalog of a deck folder."""
    path = deck_dir / CATALOG_FILE
    try:
        data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise DeckBuildError(f"cannot read element catalog {path}: {exc}") from exc
    return data


def load_elements(deck_dir: Path) -> dict[str, Element]:
    """The committed element library joined with the catalog's words."""
    path = deck_dir / LIBRARY_FILE
    try:
        lib = json.loads(path.read_text(encoding="utf-8"))["elements"]
    except (OSError, ValueError, KeyError) as exc:
        raise DeckBuildError(f"cannot read element library {path}: {exc}") from exc
    out: dict[str, Element] = {}
    for key, e in load_catalog(deck_dir)["elements"].items():
        art = lib.get(key)
        if art is None:
            raise DeckBuildError(f"{key!r} is in the catalog but not in {path}: re-extract (--art)")
        w = _words(key, e)
        label = {"en": _bare_en(w.en_a), "ru": w.ru[0], "it": _bare_it(w.it_def)}
        out[key] = Element(
            Art(key, art["body"], art["width"], art["height"], frozenset(), label),
            w,
            e["src"],
            e["src"].startswith("game-icons:"),
            art.get("author", ""),
        )
    return out


def _bare_en(a: str) -> str:
    for art in ("a ", "an ", "the "):
        if a.startswith(art):
            return a[len(art) :]
    return a


def _bare_it(d: str) -> str:
    for art in ("il ", "lo ", "la ", "l'"):
        if d.startswith(art):
            return d[len(art) :]
    return d


# ------------------------------------------------------------------ extraction


def _find_package(art_dir: Path, name: str) -> Path:
    for cand in sorted(art_dir.glob(f"{name}*/package")) + sorted(
        art_dir.glob(f"node_modules/**/{name.split('-', 2)[-1]}")
    ):
        if (cand / "icons.json").is_file():
            return cand
    raise DeckBuildError(
        f"npm package {name} not found under {art_dir} (see content/decks/reverie2/README.md)"
    )


_SVG_NS = "http://www.w3.org/2000/svg"
_XLINK = "{http://www.w3.org/1999/xlink}href"
_KEEP = {
    "g", "path", "rect", "circle", "ellipse", "line", "polyline", "polygon", "defs",
    "linearGradient", "radialGradient", "stop", "clipPath", "use", "mask", "pattern",
}  # fmt: skip
_NUM_RE = re.compile(r"-?\d+\.\d{3,}")


def _short_numbers(text: str) -> str:
    """Round long decimals to two places: Openclipart paths carry six."""
    return _NUM_RE.sub(lambda m: f"{float(m.group(0)):.2f}".rstrip("0").rstrip("."), text)


def _clean(el: ET.Element) -> str:
    """Serialise an Openclipart SVG element without editor metadata or namespaces."""
    tag = el.tag.split("}", 1)[-1]
    if tag == "switch":  # Illustrator's export wraps the drawing in a <switch>
        tag = "g"
    if not el.tag.startswith("{" + _SVG_NS) or tag not in _KEEP:
        return ""
    attrs = []
    for k, v in el.attrib.items():
        if k == _XLINK:
            k = "href"
        elif k.startswith("{"):
            continue
        if k in ("d", "points", "transform", "style", "x", "y", "width", "height", "x1", "x2",
                 "y1", "y2", "cx", "cy", "r", "rx", "ry", "fx", "fy", "gradientTransform",
                 "offset"):  # fmt: skip
            v = _short_numbers(v)
        if k == "style":
            v = ";".join(
                p for p in v.split(";") if p.strip() and not p.strip().startswith("-inkscape")
            )
        attrs.append(f'{k}="{_escape(v)}"')
    inner = "".join(_clean(c) for c in el)
    head = " ".join([tag, *attrs])
    return f"<{head}>{inner}</{tag}>" if inner else f"<{head}/>"


def _escape(v: str) -> str:
    return v.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;")


def openclipart_body(path: Path) -> tuple[str, dict[str, str]]:
    """The drawable body of an Openclipart SVG and its title and author."""
    try:
        root = ET.parse(path).getroot()
    except (OSError, ET.ParseError) as exc:
        raise DeckBuildError(f"cannot read Openclipart file {path}: {exc}") from exc
    body = "".join(_clean(c) for c in root)
    dc = "{http://purl.org/dc/elements/1.1/}"
    cc = "{http://web.resource.org/cc/}"
    title = root.findtext(f".//{dc}title") or path.stem
    author = root.findtext(f".//{dc}creator/{cc}Agent/{dc}title") or "unknown"
    return body, {"title": title.strip(), "author": author.strip()}


def extract_library(
    art_dir: Path, catalog: Mapping[str, Any], openclipart: Path = OPENCLIPART_DIR
) -> dict[str, Any]:
    """Copy every catalogued element's art out of its source; returns the library."""
    elements = catalog["elements"]
    srcs = {e["src"].split(":", 1)[0] for e in elements.values()}
    icons: dict[str, dict[str, Any]] = {}
    for prefix, pkg in (("fluent", FLUENT_PKG), ("game-icons", GAME_ICONS_PKG)):
        if prefix in srcs:
            icons[prefix] = json.loads(
                (_find_package(art_dir, pkg) / "icons.json").read_text(encoding="utf-8")
            )
    if "openclipart" in srcs and not openclipart.is_dir():
        raise DeckBuildError(
            f"Openclipart art not found at {openclipart}: the Debian package openclipart-svg "
            "is missing (install it with `apt-get install openclipart-svg`; only the "
            "extraction step needs it)"
        )
    out: dict[str, Any] = {}
    for key in sorted(elements):
        e = elements[key]
        kind, name = e["src"].split(":", 1)
        if kind in icons:
            pack = icons[kind]
            icon = pack["icons"].get(name)
            if icon is None:
                raise DeckBuildError(f"catalog element {key!r}: {name!r} is not in {kind}")
            out[key] = {
                "body": icon["body"],
                "width": icon.get("width", pack.get("width", 16)),
                "height": icon.get("height", pack.get("height", 16)),
            }
        elif kind == "openclipart":
            body, info = openclipart_body(openclipart / name)
            x, y, w, h = e["box"]
            # The box crops the drawing to its ink so the element stands on its feet.
            out[key] = {
                "body": f'<g transform="translate({-x} {-y})">{body}</g>',
                "width": w,
                "height": h,
                "title": info["title"],
                "author": info["author"],
            }
        else:
            raise DeckBuildError(f"catalog element {key!r} has an unknown source {kind!r}")
        out[key]["source"] = e["src"]
    return {"sources": SOURCES, "elements": out}
