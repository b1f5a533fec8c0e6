"""Reproducible generator for the default picture deck.

The deck is built in two steps.  ``extract_library`` copies the SVG bodies and
the ru/en/it labels of the catalogued emoji out of the unpacked npm packages
into a small element library that is committed next to the deck.  ``build_deck``
then turns that library, the hand-written curated recipes and a seed into card
SVGs, a manifest and the hidden metadata.  Everything after extraction is pure
string work driven by ``random.Random`` seeded with strings, so the same seed
always gives byte-identical files and tests can rebuild any card without npm.
"""

from __future__ import annotations

import itertools
import json
import math
import random
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

W = 400
H = 600
LANGS = ("en", "ru", "it")
DEFAULT_SEED = 4
GENERATED_COUNT = 300
LIBRARY_FILE = "elements/fluent-emoji-flat.json"
FLUENT_PKG = "iconify-json-fluent-emoji-flat"
EMOJIBASE_PKG = "emojibase-data"

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


# Procedural props drawn by this module rather than taken from the emoji set.
PROPS: dict[str, Labels] = {
    "moon": {"en": "moon", "ru": "луна", "it": "luna"},
    "sun": {"en": "sun", "ru": "солнце", "it": "sole"},
    "stars": {"en": "stars", "ru": "звёзды", "it": "stelle"},
    "aurora": {"en": "northern lights", "ru": "северное сияние", "it": "aurora boreale"},
    "glass-globe": {"en": "glass globe", "ru": "стеклянный шар", "it": "sfera di vetro"},
    "fishbowl": {"en": "fishbowl", "ru": "аквариум", "it": "boccia di vetro"},
    "staircase": {"en": "staircase", "ru": "лестница", "it": "scala"},
    "floating-island": {"en": "floating island", "ru": "летающий остров", "it": "isola volante"},
    "doorway": {"en": "doorway", "ru": "дверной проём", "it": "porta"},
    "crescent-moon": {"en": "crescent moon", "ru": "полумесяц", "it": "falce di luna"},
    "rain-cloud": {"en": "cloud", "ru": "туча", "it": "nuvola"},
    "road": {"en": "winding road", "ru": "дорога", "it": "strada"},
    "clouds": {"en": "clouds", "ru": "облака", "it": "nuvole"},
}


# Two lines per backdrop.  First: name|sky stops|ground|ground colours|light|
# light colour|haze|shadow|cloud colour.  Second: extras|en phrase|ru title|it title.
_SETTINGS_TABLE = """
dusk|#1d1842 #55336e #c0607a #f4a261|hills|#3b2452 #1f1431|sun|#ffd6a0|#e98a7a|#2a1838|#f6b8a8
    stars|at dusk|Сумерки|Crepuscolo
night|#050918 #0f1c44 #2a3d73|hills|#17234a #0b1430|moon|#f4efd2|#2c4277|#0a1126|#6d7fb0
    stars|on a starry night|Звёздная ночь|Notte stellata
dawn|#8fb1e3 #e9b9c9 #ffdcb4|hills|#8ba894 #5f8070|sun|#fff1d6|#f7dcd0|#4d6b60|#ffffff
    clouds|at dawn|Рассвет|Alba
moonsea|#040a22 #10275a #2b4c86|sea|#0d2149 #06122e|moon|#f6f1d9|#274680|#06102a|#7088bb
    stars|on a moonlit sea|Лунное море|Mare al chiaro di luna
sunsetsea|#2a1d4e #9c4f7d #ef7f6e #ffc46b|sea|#45306a #221a45|sun|#ffe3a3|#f08e78|#2b1c44|#ffc2a8
    -|over the sea at sunset|Закат над морем|Tramonto sul mare
desert|#4a72b0 #e8b08e #ffd79c|dunes|#e0a15f #b8743f|sun|#fff4d0|#f7c99a|#6b3d22|#fff4e6
    -|in the desert|Пустыня|Deserto
fog|#a9bcc6 #cbd7da #e8ecea|mist|#90a5ae #6c828e|sun|#ffffff|#e3e9e8|#56697a|#ffffff
    -|in the fog|Туман|Nebbia
aurora|#020d1c #0a2538 #124457|snow|#d5e6f0 #9dbdd2|none|#ffffff|#1d4a60|#0b2233|#a6c3d6
    stars aurora|under the northern lights|Северное сияние|Aurora boreale
deep|#0f7188 #0a4566 #04203a|sand|#c7b07a #9c8656|none|#ffffff|#0e5a78|#03182a|#8fd3e0
    rays bubbles|deep under the sea|Морская глубина|Abissi marini
cloudland|#5c9ae6 #a9d0f7 #eaf5ff|cloudsea|#ffffff #dbe9f8|sun|#fffbe6|#dcecfb|#5b7fa6|#ffffff
    -|high above the clouds|Над облаками|Sopra le nuvole
storm|#151c26 #2f3d4f #5d6d80|hills|#27323d #151c24|none|#ffffff|#4a5a6c|#10161d|#48566a
    rain lightning|in a thunderstorm|Гроза|Temporale
snow|#262e5c #6e5389 #e3a0a6|snow|#e8eef7 #c1cde2|moon|#fff6e8|#b48aa6|#3a3360|#f2dde6
    snowfall|on a snowy evening|Снежный вечер|Sera di neve
meadow|#f29e5c #f9c784 #fdedc0|hills|#9aab52 #62803a|sun|#fff3cf|#f7d3a0|#3f5224|#fff6e0
    -|in a golden meadow|Золотой луг|Prato dorato
cosmos|#07031a #1a0c3a #3b1d5e|planet|#4e2d73 #24133e|none|#ffffff|#3a1f5c|#0b0620|#b197d6
    stars nebula|in outer space|Космос|Spazio profondo
autumn|#f3d39b #e79a5a #c2553a|hills|#8c3a2b #5a2520|sun|#fff0c8|#e9a06a|#3e1a16|#fbe0c4
    leaves|on an autumn evening|Осень|Autunno
rosedream|#2b1642 #8a4486 #f0a6c4|water|#63306c #3a1c48|moon|#fff0f6|#c37aa6|#2a1236|#ffd6e8
    stars|in a pink dream|Розовый сон|Sogno rosa
"""


def _parse_settings(table: str) -> dict[str, Setting]:
    lines = table.strip().splitlines()
    out: dict[str, Setting] = {}
    for look, words in zip(lines[::2], lines[1::2], strict=True):
        f = look.split("|")
        extra, en, ru, it = (w.strip() for w in words.split("|"))
        gc = f[3].split()
        extras = tuple(extra.split()) if extra != "-" else ()
        out[f[0]] = Setting(
            f[0],
            tuple(f[1].split()),
            f[2],
            (gc[0], gc[1]),
            f[4],
            f[5],
            f[6],
            f[7],
            f[8],
            extras,
            {"en": en, "ru": ru, "it": it},
        )
    return out


SETTINGS: dict[str, Setting] = _parse_settings(_SETTINGS_TABLE)

WATER_GROUNDS = frozenset({"sea", "water"})


def fmt(v: float) -> str:
    """Short decimal text for SVG numbers, stable across platforms."""
    t = f"{v:.1f}"
    if t.endswith(".0"):
        t = t[:-2]
    return "0" if t == "-0" else t


def article(word: str) -> str:
    """English indefinite article for a label."""
    return "an" if word[:1].lower() in "aeiou" else "a"


_MASS_NOUNS = frozenset(
    {"bubbles", "cherries", "grapes", "pancakes", "logs", "shoes", "dolls", "swords"}
    | {"keys", "bread", "cheese", "ice cream"}
)


def a(word: str) -> str:
    """``word`` with its indefinite article ("a whale", "an owl", "some grapes")."""
    last = word.split()[-1]
    if word in _MASS_NOUNS or last in _MASS_NOUNS:
        return f"some {word}"
    return f"{article(word)} {word}"


_PLURAL_EXCEPTIONS = {
    "mouse": "mice",
    "sheep": "sheep",
    "fish": "fish",
    "jellyfish": "jellyfish",
    "blowfish": "blowfish",
    "tropical fish": "tropical fish",
    "goose": "geese",
    "leaf": "leaves",
    "maple leaf": "maple leaves",
    "fallen leaf": "fallen leaves",
    "bubbles": "bubbles",
    "cherries": "cherries",
    "grapes": "grapes",
    "pancakes": "pancakes",
    "ballet shoes": "pairs of ballet shoes",
    "logs": "logs",
    "bow and arrow": "bows and arrows",
    "crossed swords": "crossed swords",
    "nesting dolls": "nesting dolls",
    "stack of books": "stacks of books",
    "ball of yarn": "balls of yarn",
    "spool of thread": "spools of thread",
    "piano keys": "pianos",
    "house with a garden": "houses with gardens",
    "jack-o'-lantern": "jack-o'-lanterns",
}


def plural(word: str) -> str:
    """Rough English plural, good enough for the catalogue's nouns."""
    if word in _PLURAL_EXCEPTIONS:
        return _PLURAL_EXCEPTIONS[word]
    if word.endswith(("s", "x", "ch", "sh")):
        return word + "es"
    if word.endswith("y") and word[-2:-1] not in ("a", "e", "o", "u"):
        return word[:-1] + "ies"
    if word.endswith("f"):
        return word[:-1] + "ves"
    return word + "s"


def cap(text: str) -> str:
    """Upper-case the first letter only (labels may hold proper nouns)."""
    return text[:1].upper() + text[1:]


# ---------------------------------------------------------------- library


def load_library(deck_dir: Path) -> dict[str, Art]:
    """Read the committed element library of a deck folder."""
    path = deck_dir / LIBRARY_FILE
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise DeckBuildError(f"cannot read element library {path}: {exc}") from exc
    return {
        key: Art(
            key=key,
            body=e["body"],
            width=int(e["width"]),
            height=int(e["height"]),
            tags=frozenset(e["tags"]),
            label={lang: e["label"][lang] for lang in LANGS},
        )
        for key, e in data["elements"].items()
    }


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


# ---------------------------------------------------------------- canvas


_ID_RE = re.compile(r'\bid="([^"]+)"')


class Canvas:
    """Accumulates one card's SVG: defs, symbols and drawing in paint order."""

    def __init__(self, lib: Mapping[str, Art], setting: Setting, rng: random.Random) -> None:
        self.lib = lib
        self.st = setting
        self.rng = rng
        self.defs: list[str] = []
        self.parts: list[str] = []
        self.symbols: dict[str, str] = {}
        self.props: list[str] = []
        self.used: list[str] = []
        self._n = 0

    def gid(self) -> str:
        """A fresh id, opaque so nothing in the file names what it shows."""
        self._n += 1
        return f"d{self._n}"

    def add(self, svg: str) -> None:
        self.parts.append(svg)

    def prop(self, name: str) -> None:
        if name not in self.props:
            self.props.append(name)

    def symbol(self, key: str) -> tuple[str, Art]:
        art = self.lib.get(key)
        if art is None:
            raise DeckBuildError(f"unknown element {key!r}")
        if key not in self.symbols:
            sid = f"s{len(self.symbols)}"
            body = art.body
            # Ids inside bodies (gradients, masks) must not collide between
            # symbols of one card, and must not carry the source's names.
            for i, old in enumerate(dict.fromkeys(_ID_RE.findall(body))):
                new = f"{sid}i{i}"
                body = body.replace(f'id="{old}"', f'id="{new}"')
                body = body.replace(f"url(#{old})", f"url(#{new})")
                body = body.replace(f'href="#{old}"', f'href="#{new}"')
            self.symbols[key] = (
                f'<symbol id="{sid}" viewBox="0 0 {art.width} {art.height}">{body}</symbol>'
            )
            self.used.append(key)
        return self.symbols[key][len('<symbol id="') :].split('"', 1)[0], art

    def use(
        self,
        key: str,
        cx: float,
        cy: float,
        size: float,
        *,
        bottom: bool = False,
        flip: bool = False,
        rot: float = 0.0,
        opacity: float = 1.0,
        filt: str = "",
        flipv: bool = False,
    ) -> None:
        """Place element ``key`` ``size`` px wide centred on (cx, cy).

        With ``bottom`` the y coordinate is where the element stands.
        """
        sid, art = self.symbol(key)
        h = size * art.height / art.width
        if bottom:
            cy -= h / 2
        x, y = cx - size / 2, cy - h / 2
        tr = []
        if rot:
            tr.append(f"rotate({fmt(rot)} {fmt(cx)} {fmt(cy)})")
        if flip or flipv:
            sx, sy = (-1 if flip else 1), (-1 if flipv else 1)
            tr.append(
                f"translate({fmt(cx)} {fmt(cy)}) scale({sx} {sy}) translate({fmt(-cx)} {fmt(-cy)})"
            )
        attrs = f'href="#{sid}" x="{fmt(x)}" y="{fmt(y)}" width="{fmt(size)}" height="{fmt(h)}"'
        if tr:
            attrs += f' transform="{" ".join(tr)}"'
        if opacity < 1:
            attrs += f' opacity="{fmt(opacity)}"'
        if filt:
            attrs += f' filter="url(#{filt})"'
        self.add(f"<use {attrs}/>")

    def shadow(self, cx: float, y: float, w: float, alpha: float = 0.35) -> None:
        self.add(
            f'<ellipse cx="{fmt(cx)}" cy="{fmt(y)}" rx="{fmt(w / 2)}" ry="{fmt(w / 9)}" '
            f'fill="{self.st.shadow}" opacity="{fmt(alpha)}"/>'
        )

    def haze(self, alpha: float) -> None:
        """Atmospheric perspective: wash what is already drawn with sky colour."""
        self.add(f'<rect width="{W}" height="{H}" fill="{self.st.haze}" opacity="{fmt(alpha)}"/>')

    def render(self) -> str:
        defs = "".join(self.defs) + "".join(self.symbols[k] for k in self.used)
        return (
            f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}" '
            f'width="{W}" height="{H}"><defs>{defs}</defs>{"".join(self.parts)}</svg>\n'
        )


# ---------------------------------------------------------------- backdrop


def _grad(c: Canvas, stops: Sequence[str], x2: float = 0, y2: float = 1) -> str:
    gid = c.gid()
    n = len(stops) - 1
    s = "".join(
        f'<stop offset="{fmt(i / n * 100)}%" stop-color="{col}"/>' for i, col in enumerate(stops)
    )
    c.defs.append(
        f'<linearGradient id="{gid}" x1="0" y1="0" x2="{x2}" y2="{y2}">{s}</linearGradient>'
    )
    return gid


def _radial(c: Canvas, color: str, inner: float, outer: float = 0.0) -> str:
    gid = c.gid()
    c.defs.append(
        f'<radialGradient id="{gid}"><stop offset="0%" stop-color="{color}" '
        f'stop-opacity="{fmt(inner)}"/><stop offset="100%" stop-color="{color}" '
        f'stop-opacity="{fmt(outer)}"/></radialGradient>'
    )
    return gid


def _ridge(rng: random.Random, y: float, amp: float, step: float = 50) -> str:
    """A smooth closed hill path whose top wanders around ``y``."""
    pts = []
    x = -20.0
    while x <= W + 60:
        pts.append((x, y + rng.uniform(-amp, amp)))
        x += step * rng.uniform(0.7, 1.3)
    d = f"M-20 {fmt(H + 10)}L{fmt(pts[0][0])} {fmt(pts[0][1])}"
    for (x0, y0), (x1, y1) in itertools.pairwise(pts):
        d += f"Q{fmt(x0)} {fmt(y0)} {fmt((x0 + x1) / 2)} {fmt((y0 + y1) / 2)}"
    d += f"L{fmt(W + 60)} {fmt(H + 10)}Z"
    return d


def cloud_shape(c: Canvas, cx: float, cy: float, w: float, color: str, alpha: float) -> None:
    """A soft cumulus built from overlapping ellipses."""
    rng = c.rng
    n = max(3, int(w / 40))
    parts = [
        f'<ellipse cx="{fmt(cx)}" cy="{fmt(cy + w * 0.06)}" rx="{fmt(w / 2)}" '
        f'ry="{fmt(w * 0.11)}"/>'
    ]
    for i in range(n):
        px = cx - w * 0.38 + w * 0.76 * i / max(1, n - 1) + rng.uniform(-6, 6)
        r = w * rng.uniform(0.13, 0.22) * (1.25 if 0 < i < n - 1 else 0.9)
        parts.append(f'<circle cx="{fmt(px)}" cy="{fmt(cy - r * 0.35)}" r="{fmt(r)}"/>')
    c.add(f'<g fill="{color}" opacity="{fmt(alpha)}">{"".join(parts)}</g>')


def backdrop(c: Canvas, hy: float, *, light: bool = True) -> None:
    """Sky, light, weather and far ground for setting ``c.st`` with horizon ``hy``."""
    st, rng = c.st, c.rng
    sky = _grad(c, st.sky)
    c.add(f'<rect width="{W}" height="{H}" fill="url(#{sky})"/>')
    if "nebula" in st.extras:
        for col in ("#ff6fb5", "#4fd1c5", "#8a6bff"):
            g = _radial(c, col, 0.45)
            c.add(
                f'<ellipse cx="{fmt(rng.uniform(40, 360))}" cy="{fmt(rng.uniform(60, 360))}" '
                f'rx="{fmt(rng.uniform(120, 200))}" ry="{fmt(rng.uniform(70, 130))}" '
                f'fill="url(#{g})"/>'
            )
    if "stars" in st.extras or "nebula" in st.extras:
        c.prop("stars")
        dots = []
        for _ in range(rng.randint(45, 80)):
            dots.append(
                f'<circle cx="{fmt(rng.uniform(0, W))}" cy="{fmt(rng.uniform(0, hy * 0.8))}" '
                f'r="{fmt(rng.choice((0.6, 0.8, 1.0, 1.3, 1.8)))}" '
                f'opacity="{fmt(rng.uniform(0.35, 1))}"/>'
            )
        c.add(f'<g fill="#fffbe8">{"".join(dots)}</g>')
    if "aurora" in st.extras:
        c.prop("aurora")
        for col, dy in (("#3df2a0", 0), ("#7b6cff", 40), ("#2fd4c4", 80)):
            g = _grad(c, [col, col + "00"])
            y0 = rng.uniform(60, 140) + dy
            d = f"M-20 {fmt(y0)}"
            for i in range(5):
                x = 90 * (i + 1)
                cy1, cy2 = y0 + rng.uniform(-70, 70), y0 + rng.uniform(-30, 30)
                d += f"Q{fmt(x - 45)} {fmt(cy1)} {fmt(x)} {fmt(cy2)}"
            d += f"L440 {fmt(y0 + 160)}L-20 {fmt(y0 + 160)}Z"
            c.add(f'<path d="{d}" fill="url(#{g})" opacity=".55"/>')
    if light and st.light != "none":
        lx, ly = rng.uniform(70, 330), rng.uniform(70, 170)
        if st.light == "sun" and st.ground not in ("mist",) and rng.random() < 0.5:
            ly = hy - rng.uniform(10, 40)
        glow = _radial(c, st.light_color, 0.55)
        r = rng.uniform(26, 42)
        c.add(f'<circle cx="{fmt(lx)}" cy="{fmt(ly)}" r="{fmt(r * 3.2)}" fill="url(#{glow})"/>')
        if st.light == "moon":
            c.prop("moon")
            c.add(
                f'<circle cx="{fmt(lx)}" cy="{fmt(ly)}" r="{fmt(r * 0.8)}" '
                f'fill="{st.light_color}"/>'
            )
            c.add(
                f'<circle cx="{fmt(lx - r * 0.25)}" cy="{fmt(ly - r * 0.15)}" r="{fmt(r * 0.17)}" '
                f'fill="#000" opacity=".07"/><circle cx="{fmt(lx + r * 0.3)}" '
                f'cy="{fmt(ly + r * 0.25)}" r="{fmt(r * 0.11)}" fill="#000" opacity=".06"/>'
            )
        else:
            c.prop("sun")
            c.add(f'<circle cx="{fmt(lx)}" cy="{fmt(ly)}" r="{fmt(r)}" fill="{st.light_color}"/>')
        if st.ground in WATER_GROUNDS:
            # The light's path on the water sells the horizon.
            bars = "".join(
                f'<rect x="{fmt(lx - w / 2)}" y="{fmt(hy + 6 + i * 9)}" width="{fmt(w)}" '
                f'height="2.4" rx="1.2"/>'
                for i, w in enumerate(
                    rng.uniform(18, 70) * (1 + j * 0.12) for j in range(int((H - hy) / 9))
                )
            )
            c.add(f'<g fill="{st.light_color}" opacity=".35">{bars}</g>')
    if "clouds" in st.extras or st.ground == "cloudsea" or rng.random() < 0.35:
        for _ in range(rng.randint(1, 3)):
            cloud_shape(
                c,
                rng.uniform(30, 370),
                rng.uniform(60, hy - 80),
                rng.uniform(80, 170),
                st.cloud,
                rng.uniform(0.25, 0.55),
            )
    if "rays" in st.extras:
        for _ in range(4):
            rx = rng.uniform(0, W)
            c.add(
                f'<path d="M{fmt(rx)} -10L{fmt(rx + 40)} -10L{fmt(rx + 160)} {H}'
                f'L{fmt(rx + 60)} {H}Z" '
                f'fill="#dff8ff" opacity=".07"/>'
            )


def ground(c: Canvas, hy: float) -> None:
    """The land, sea or cloud bank below the horizon, far band then near band."""
    st, rng = c.st, c.rng
    far, near = st.ground_colors
    g = st.ground
    if g in WATER_GROUNDS:
        # Water keeps a perfectly level horizon; a few ripples give it depth.
        grad = _grad(c, [far, near])
        c.add(f'<rect y="{fmt(hy)}" width="{W}" height="{fmt(H - hy)}" fill="url(#{grad})"/>')
        ripples = "".join(
            f'<path d="M{fmt(x)} {fmt(y)}q10 -4 20 0" />'
            for x, y in ((rng.uniform(0, W - 20), rng.uniform(hy + 10, H - 10)) for _ in range(18))
        )
        c.add(f'<g fill="none" stroke="{st.cloud}" stroke-width="1.4" opacity=".3">{ripples}</g>')
        return
    if g == "cloudsea":
        c.prop("clouds")
        for row in range(3):
            y = hy + row * 45
            for i in range(6):
                cloud_shape(
                    c,
                    -20 + i * 85 + rng.uniform(-15, 15) + row * 30,
                    y,
                    rng.uniform(140, 200),
                    far if row < 2 else near,
                    0.92,
                )
        return
    if g == "planet":
        c.add(
            f'<ellipse cx="200" cy="{fmt(hy + 420)}" rx="520" ry="440" fill="{far}"/>'
            f'<ellipse cx="200" cy="{fmt(hy + 440)}" rx="480" ry="420" fill="{near}"/>'
        )
        for _ in range(6):
            c.add(
                f'<ellipse cx="{fmt(rng.uniform(20, 380))}" '
                f'cy="{fmt(rng.uniform(hy + 30, H - 20))}" '
                f'rx="{fmt(rng.uniform(10, 26))}" ry="{fmt(rng.uniform(3, 7))}" fill="#000" '
                f'opacity=".18"/>'
            )
        return
    amp = {"dunes": 22, "mist": 30, "snow": 14, "sand": 10}.get(g, 18)
    if g == "mist":
        for i, y in enumerate((hy - 60, hy - 25)):
            c.add(
                f'<path d="{_ridge(rng, y, amp, 70)}" fill="{far}" opacity="{fmt(0.3 + i * 0.2)}"/>'
            )
    c.add(f'<path d="{_ridge(rng, hy, amp)}" fill="{far}"/>')
    c.haze(0.18)
    c.add(f'<path d="{_ridge(rng, hy + 45, amp * 0.8, 70)}" fill="{near}"/>')


def finish(c: Canvas) -> None:
    """Weather in front, a palette wash, vignette and film grain."""
    st, rng = c.st, c.rng
    if "snowfall" in st.extras:
        flakes = "".join(
            f'<circle cx="{fmt(rng.uniform(0, W))}" cy="{fmt(rng.uniform(0, H))}" '
            f'r="{fmt(rng.uniform(0.8, 2.4))}"/>'
            for _ in range(70)
        )
        c.add(f'<g fill="#ffffff" opacity=".75">{flakes}</g>')
    if "rain" in st.extras:
        drops = "".join(
            f'<path d="M{fmt(x)} {fmt(y)}l-6 18"/>'
            for x, y in ((rng.uniform(0, W + 40), rng.uniform(-20, H)) for _ in range(80))
        )
        c.add(f'<g stroke="#b9c8d8" stroke-width="1.1" opacity=".35">{drops}</g>')
    if "lightning" in st.extras:
        x = rng.uniform(40, 360)
        c.add(
            f'<path d="M{fmt(x)} 0l-18 70l14 -2l-22 80l40 -100l-14 2l16 -50z" fill="#fff7c2" '
            f'opacity=".8"/>'
        )
    if "bubbles" in st.extras:
        bub = "".join(
            f'<circle cx="{fmt(rng.uniform(0, W))}" cy="{fmt(rng.uniform(0, H * 0.8))}" '
            f'r="{fmt(rng.uniform(2, 7))}"/>'
            for _ in range(22)
        )
        c.add(f'<g fill="none" stroke="#d9f6ff" stroke-width="1.2" opacity=".45">{bub}</g>')
    if "leaves" in st.extras:
        for _ in range(9):
            x, y = rng.uniform(0, W), rng.uniform(0, H * 0.85)
            c.add(
                f'<ellipse cx="{fmt(x)}" cy="{fmt(y)}" rx="5" ry="2.4" '
                f'transform="rotate({fmt(rng.uniform(0, 180))} {fmt(x)} {fmt(y)})" '
                f'fill="{rng.choice(("#d9622b", "#f2a541", "#b23a2a"))}" opacity=".8"/>'
            )
    wash = c.gid()
    c.defs.append(
        f'<linearGradient id="{wash}" x1="0" y1="0" x2="0" y2="1">'
        f'<stop offset="0" stop-color="{st.sky[0]}"/><stop offset="1" stop-color="{st.sky[-1]}"/>'
        f"</linearGradient>"
    )
    # Soft-light wash pulls the emoji's bright flat colours into the card's palette.
    c.add(
        f'<rect width="{W}" height="{H}" fill="url(#{wash})" opacity=".38" '
        f'style="mix-blend-mode:soft-light"/>'
    )
    vig = c.gid()
    c.defs.append(
        f'<radialGradient id="{vig}" cx=".5" cy=".45" r=".75"><stop offset=".55" '
        f'stop-color="#000" stop-opacity="0"/><stop offset="1" stop-color="#000" '
        f'stop-opacity=".5"/></radialGradient>'
    )
    c.add(f'<rect width="{W}" height="{H}" fill="url(#{vig})"/>')
    grain = c.gid()
    c.defs.append(
        f'<filter id="{grain}" x="0" y="0" width="100%" height="100%"><feTurbulence '
        f'type="fractalNoise" baseFrequency=".85" numOctaves="2" seed="{rng.randint(1, 999)}" '
        f'stitchTiles="stitch"/><feColorMatrix values="0 0 0 0 .5 0 0 0 0 .5 0 0 0 0 .5 '
        f'0 0 0 .9 0"/></filter>'
    )
    c.add(
        f'<rect width="{W}" height="{H}" filter="url(#{grain})" opacity=".12" '
        f'style="mix-blend-mode:overlay"/>'
    )


def lift_filter(c: Canvas) -> str:
    """Drop shadow for floating things, so they read as hovering in front."""
    fid = c.gid()
    c.defs.append(
        f'<filter id="{fid}" x="-20%" y="-20%" width="140%" height="150%"><feDropShadow dx="0" '
        f'dy="8" stdDeviation="7" flood-color="{c.st.shadow}" flood-opacity=".45"/></filter>'
    )
    return fid


def silhouette_filter(c: Canvas) -> str:
    """Flat dark silhouette for far-away things against a bright sky."""
    fid = c.gid()
    c.defs.append(
        f'<filter id="{fid}"><feFlood flood-color="{c.st.shadow}"/>'
        f'<feComposite in2="SourceGraphic" operator="in"/></filter>'
    )
    return fid


def glow_filter(c: Canvas, color: str) -> str:
    fid = c.gid()
    c.defs.append(
        f'<filter id="{fid}" x="-50%" y="-50%" width="200%" height="200%"><feDropShadow dx="0" '
        f'dy="0" stdDeviation="10" flood-color="{color}" flood-opacity=".8"/></filter>'
    )
    return fid


# ---------------------------------------------------------------- layouts


def _row(
    c: Canvas, key: str, n: int, y: float, size: float, x0: float, x1: float, filt: str = ""
) -> None:
    rng = c.rng
    for i in range(n):
        x = x0 + (x1 - x0) * (i + 0.5) / n + rng.uniform(-8, 8)
        s = size * rng.uniform(0.8, 1.15)
        c.use(key, x, y + rng.uniform(-4, 4), s, bottom=True, flip=rng.random() < 0.5, filt=filt)


def _flock(
    c: Canvas, key: str, n: int, cx: float, cy: float, spread: float, size: float, rot: float = 15
) -> None:
    rng = c.rng
    flip = rng.random() < 0.5
    for i in range(n):
        ang = i * 2.4
        r = spread * math.sqrt((i + 0.5) / n)
        c.use(
            key,
            cx + r * math.cos(ang),
            cy + r * math.sin(ang) * 0.6,
            size * rng.uniform(0.65, 1.1),
            flip=flip,
            rot=rng.uniform(-rot, rot),
        )


def _sky_flock(
    c: Canvas,
    r: Recipe,
    count: tuple[int, int],
    x: tuple[float, float],
    y: tuple[float, float],
    spread: float,
    size: float,
) -> None:
    """A flock in the sky if the recipe has one (its random draws in the usual order)."""
    if "flock" in dict(r.roles):
        rng = c.rng
        _flock(
            c,
            r.role("flock"),
            rng.randint(*count),
            rng.uniform(*x),
            rng.uniform(*y),
            spread,
            size,
        )


def lay_sky_giant(c: Canvas, r: Recipe) -> None:
    rng = c.rng
    hy = rng.uniform(440, 480)
    backdrop(c, hy)
    giant = r.role("giant")
    gx, gy = rng.uniform(160, 240), rng.uniform(210, 280)
    size = rng.uniform(210, 270)
    ground(c, hy)
    if c.st.ground not in WATER_GROUNDS | {"cloudsea"}:
        c.shadow(gx, hy + 40, size * 0.5, 0.25)
    _row(c, r.role("ground"), rng.randint(3, 5), hy + 35, rng.uniform(40, 56), 30, 370)
    c.use(
        giant, gx, gy, size, flip=rng.random() < 0.5, rot=rng.uniform(-12, 12), filt=lift_filter(c)
    )
    _sky_flock(c, r, (4, 7), (80, 320), (80, 130), 60, 22)


def globe(c: Canvas, cx: float, cy: float, rad: float, kind: str) -> None:
    """Glass globe or fishbowl highlight, drawn over whatever is inside it."""
    st = c.st
    rim = _radial(c, "#ffffff", 0.0, 0.35)
    c.add(
        f'<circle cx="{fmt(cx)}" cy="{fmt(cy)}" r="{fmt(rad)}" fill="url(#{rim})" '
        f'stroke="#ffffff" stroke-opacity=".55" stroke-width="2.5"/>'
    )
    c.add(
        f'<path d="M{fmt(cx - rad * 0.7)} {fmt(cy - rad * 0.35)}A{fmt(rad * 0.8)} {fmt(rad * 0.8)} '
        f'0 0 1 {fmt(cx - rad * 0.1)} {fmt(cy - rad * 0.78)}" fill="none" stroke="#ffffff" '
        f'stroke-width="7" stroke-linecap="round" opacity=".55"/>'
    )
    if kind == "fishbowl":
        c.add(
            f'<ellipse cx="{fmt(cx)}" cy="{fmt(cy - rad * 0.86)}" rx="{fmt(rad * 0.5)}" '
            f'ry="{fmt(rad * 0.09)}" fill="none" stroke="#ffffff" stroke-width="3" '
            f'opacity=".7"/>'
        )
    else:
        c.add(
            f'<path d="M{fmt(cx - rad * 0.75)} {fmt(cy + rad * 0.66)}L{fmt(cx + rad * 0.75)} '
            f"{fmt(cy + rad * 0.66)}L{fmt(cx + rad * 0.9)} {fmt(cy + rad * 1.02)}L"
            f'{fmt(cx - rad * 0.9)} {fmt(cy + rad * 1.02)}Z" fill="{st.shadow}"/>'
        )


def lay_globe(c: Canvas, r: Recipe) -> None:
    rng = c.rng
    hy = rng.uniform(430, 470)
    backdrop(c, hy)
    ground(c, hy)
    kind = "fishbowl" if r.variant % 3 == 0 else "glass-globe"
    c.prop(kind)
    rad = rng.uniform(118, 140)
    cx, cy = rng.uniform(180, 220), hy + 40 - rad * 1.02
    c.shadow(cx, hy + 44, rad * 2.1, 0.4)
    clip = c.gid()
    c.defs.append(
        f'<clipPath id="{clip}"><circle cx="{fmt(cx)}" cy="{fmt(cy)}" '
        f'r="{fmt(rad - 2)}"/></clipPath>'
    )
    inner = _grad(c, ["#bfe9ff", "#3d8fc4"] if kind == "fishbowl" else list(reversed(c.st.sky)))
    c.add(
        f'<g clip-path="url(#{clip})"><rect x="{fmt(cx - rad)}" y="{fmt(cy - rad)}" '
        f'width="{fmt(rad * 2)}" height="{fmt(rad * 2)}" fill="url(#{inner})" opacity=".85"/>'
    )
    if kind == "fishbowl":
        c.add(
            f'<rect x="{fmt(cx - rad)}" y="{fmt(cy - rad)}" width="{fmt(rad * 2)}" '
            f'height="{fmt(rad * 0.35)}" fill="{c.st.sky[-1]}"/>'
        )
    else:
        c.add(
            f'<ellipse cx="{fmt(cx)}" cy="{fmt(cy + rad * 0.75)}" rx="{fmt(rad)}" '
            f'ry="{fmt(rad * 0.3)}" fill="{c.st.ground_colors[1]}"/>'
        )
    c.use(
        r.role("inside"),
        cx,
        cy + rad * 0.05,
        rad * 1.05,
        flip=rng.random() < 0.5,
        rot=rng.uniform(-10, 10),
    )
    c.add("</g>")
    globe(c, cx, cy, rad, kind)
    fx = cx + rad * rng.choice((-1.25, 1.25))
    c.use(r.role("figure"), fx, hy + 48, 50, bottom=True, flip=fx > cx)
    _sky_flock(c, r, (3, 5), (90, 310), (70, 110), 55, 22)


def lay_grow(c: Canvas, r: Recipe) -> None:
    rng = c.rng
    hy = rng.uniform(440, 480)
    backdrop(c, hy)
    ground(c, hy)
    cx = rng.uniform(170, 230)
    size = rng.uniform(180, 220)
    base = hy + 70
    c.shadow(cx, base - 4, size * 0.9, 0.4)
    plant = r.role("plant")
    psize = size * rng.uniform(1.0, 1.25)
    c.use(
        plant,
        cx + rng.uniform(-10, 10),
        base - size * 0.62,
        psize,
        bottom=True,
        flip=rng.random() < 0.5,
    )
    c.use(r.role("container"), cx, base, size, bottom=True, flip=rng.random() < 0.5)
    if "flock" in dict(r.roles):
        _flock(
            c,
            r.role("flock"),
            rng.randint(3, 6),
            cx + rng.uniform(-60, 60),
            base - size * 1.6,
            70,
            24,
        )
    if "figure" in dict(r.roles):
        c.use(r.role("figure"), rng.choice((60, 340)), hy + 40, 48, bottom=True)


def lay_stairs(c: Canvas, r: Recipe) -> None:
    rng = c.rng
    hy = rng.uniform(450, 490)
    backdrop(c, hy)
    ground(c, hy)
    c.prop("staircase")
    c.prop("clouds")
    top_x, top_y = rng.uniform(230, 290), rng.uniform(150, 190)
    x, y = rng.uniform(60, 110), hy + 60
    steps = 18
    dx, dy = (top_x - 40 - x) / steps, (top_y + 30 - y) / steps
    col = c.st.cloud
    treads, risers = "", ""
    for i in range(steps):
        sx, sy = x + dx * i, y + dy * i
        treads += f"M{fmt(sx)} {fmt(sy)}h{fmt(dx + 34)}v5h{fmt(-dx - 34)}z"
        risers += f"M{fmt(sx)} {fmt(sy + 5)}h{fmt(dx + 34)}v{fmt(-dy)}h{fmt(-dx - 34)}z"
    c.add(f'<path d="{risers}" fill="{c.st.shadow}" opacity=".75"/>')
    c.add(f'<path d="{treads}" fill="{col}"/>')
    c.use(r.role("top"), top_x, top_y + 8, rng.uniform(100, 130), bottom=True)
    cloud_shape(c, top_x, top_y + 22, 190, "#ffffff", 0.95)
    fi = rng.randint(3, 7)
    c.use(r.role("figure"), x + dx * fi + 12, y + dy * fi, 26, bottom=True)
    _sky_flock(c, r, (3, 5), (80, 300), (300, 360), 50, 18)


def island(c: Canvas, cx: float, cy: float, w: float) -> None:
    """A chunk of land floating in the air: grassy top, rocky underside."""
    rng = c.rng
    c.prop("floating-island")
    far, near = c.st.ground_colors
    pts = [f"{fmt(cx - w / 2)} {fmt(cy)}"]
    for i in range(1, 6):
        px = cx - w / 2 + w * i / 6
        depth = w * 0.55 * math.sin(math.pi * i / 6) * rng.uniform(0.7, 1.1)
        pts.append(f"{fmt(px)} {fmt(cy + depth)}")
    pts.append(f"{fmt(cx + w / 2)} {fmt(cy)}")
    c.add(f'<path d="M{"L".join(pts)}Z" fill="{near}"/>')
    c.add(f'<path d="M{"L".join(pts)}Z" fill="#000" opacity=".25"/>')
    c.add(
        f'<ellipse cx="{fmt(cx)}" cy="{fmt(cy)}" rx="{fmt(w / 2 + 4)}" ry="{fmt(w * 0.09)}" '
        f'fill="{far}"/>'
    )
    if rng.random() < 0.5:
        fx = cx + rng.uniform(-w / 4, w / 4)
        c.add(
            f'<path d="M{fmt(fx)} {fmt(cy + 4)}v{fmt(H - cy)}" stroke="#dff3ff" '
            f'stroke-width="5" opacity=".5"/>'
        )


def lay_island(c: Canvas, r: Recipe) -> None:
    rng = c.rng
    hy = rng.uniform(480, 520)
    backdrop(c, hy)
    ground(c, hy)
    _row(c, r.role("below"), rng.randint(3, 5), hy + 30, 26, 20, 380, filt=silhouette_filter(c))
    c.haze(0.25)
    cx, cy, w = rng.uniform(170, 230), rng.uniform(280, 330), rng.uniform(230, 270)
    island(c, cx, cy, w)
    c.use(r.role("on"), cx - w * 0.12, cy + 6, w * 0.5, bottom=True)
    c.use(r.role("plant"), cx + w * 0.27, cy + 6, w * 0.28, bottom=True)
    _sky_flock(c, r, (3, 6), (90, 310), (80, 140), 60, 20)


def lay_procession(c: Canvas, r: Recipe) -> None:
    rng = c.rng
    hy = rng.uniform(330, 380)
    backdrop(c, hy)
    big = r.role("giant")
    bx = rng.uniform(150, 250)
    c.use(big, bx, hy + 12, rng.uniform(190, 240), bottom=True, flip=rng.random() < 0.5)
    ground(c, hy)
    c.prop("road")
    road = (
        f"M{fmt(bx - 6)} {fmt(hy + 6)}Q{fmt(bx + 40)} {fmt(hy + 80)} 200 {fmt(hy + 140)}"
        f"T120 {H}L300 {H}T{fmt(bx + 8)} {fmt(hy + 6)}Z"
    )
    c.add(f'<path d="{road}" fill="{c.st.cloud}" opacity=".45"/>')
    key = r.role("flock")
    n = rng.randint(5, 8)
    for i in range(n):
        t = (i + 0.5) / n
        y = hy + 14 + (H - hy - 30) * t**1.4
        x = bx + (200 - bx) * t + 30 * math.sin(t * 5)
        c.use(key, x, y, 16 + 80 * t**1.5, bottom=True, flip=rng.random() < 0.3)


def lay_door(c: Canvas, r: Recipe) -> None:
    rng = c.rng
    hy = rng.uniform(420, 460)
    backdrop(c, hy)
    ground(c, hy)
    c.prop("doorway")
    other = SETTINGS[rng.choice([s for s in SETTINGS if s != c.st.name and s != "deep"])]
    dw, dh = rng.uniform(120, 150), rng.uniform(230, 260)
    dx, dy = rng.uniform(130, 270) - dw / 2, hy + 40 - dh
    c.shadow(dx + dw / 2 + 40, hy + 44, dw * 1.6, 0.4)
    clip = c.gid()
    c.defs.append(
        f'<clipPath id="{clip}"><rect x="{fmt(dx)}" y="{fmt(dy)}" width="{fmt(dw)}" '
        f'height="{fmt(dh)}"/></clipPath>'
    )
    inner = _grad(c, other.sky)
    c.add(
        f'<g clip-path="url(#{clip})"><rect x="{fmt(dx)}" y="{fmt(dy)}" width="{fmt(dw)}" '
        f'height="{fmt(dh)}" fill="url(#{inner})"/>'
    )
    c.add(
        f'<rect x="{fmt(dx)}" y="{fmt(dy + dh * 0.78)}" width="{fmt(dw)}" height="{fmt(dh)}" '
        f'fill="{other.ground_colors[0]}"/>'
    )
    c.use(r.role("beyond"), dx + dw / 2, dy + dh * 0.45, dw * 0.85, flip=rng.random() < 0.5)
    c.add("</g>")
    c.add(
        f'<rect x="{fmt(dx - 7)}" y="{fmt(dy - 7)}" width="{fmt(dw + 14)}" height="{fmt(dh + 7)}" '
        f'fill="none" stroke="{c.st.shadow}" stroke-width="12"/>'
    )
    c.add(
        f'<path d="M{fmt(dx + dw)} {fmt(dy)}l{fmt(dw * 0.45)} {fmt(dh * 0.08)}v{fmt(dh * 0.86)}'
        f'l{fmt(-dw * 0.45)} {fmt(dh * 0.06)}z" fill="{c.st.ground_colors[1]}" '
        f'stroke="{c.st.shadow}" '
        f'stroke-width="3"/>'
    )
    c.use(r.role("figure"), dx - 34, hy + 48, 50, bottom=True)


def lay_reflection(c: Canvas, r: Recipe) -> None:
    rng = c.rng
    hy = rng.uniform(330, 360)
    backdrop(c, hy)
    ground(c, hy)
    size = rng.uniform(150, 180)
    cx = rng.uniform(170, 230)
    flip = rng.random() < 0.5
    c.use(r.role("thing"), cx, hy + 4, size, bottom=True, flip=flip)
    clip = c.gid()
    c.defs.append(
        f'<clipPath id="{clip}"><rect y="{fmt(hy)}" width="{W}" height="{H}"/></clipPath>'
    )
    c.add(f'<g clip-path="url(#{clip})" opacity=".55">')
    c.use(r.role("reflection"), cx, hy + size * 0.52, size, flip=flip, flipv=True)
    c.add("</g>")
    lines = "".join(
        f'<path d="M{fmt(cx - size / 2 + rng.uniform(0, size))} {fmt(hy + 10 + i * 14)}'
        f'h{fmt(rng.uniform(20, 60))}"/>'
        for i in range(12)
    )
    c.add(f'<g stroke="{c.st.haze}" stroke-width="2.2" opacity=".55">{lines}</g>')


def lay_towering(c: Canvas, r: Recipe) -> None:
    rng = c.rng
    hy = rng.uniform(430, 470)
    backdrop(c, hy)
    size = rng.uniform(280, 330)
    cx = rng.uniform(170, 230)
    c.use(r.role("giant"), cx, hy + 15, size, bottom=True, flip=rng.random() < 0.5)
    c.haze(0.22)
    ground(c, hy)
    _row(c, r.role("tiny"), rng.randint(3, 5), hy + 38, 32, 40, 360)
    _sky_flock(c, r, (4, 6), (80, 320), (70, 110), 55, 18)


def lay_lifted(c: Canvas, r: Recipe) -> None:
    rng = c.rng
    hy = rng.uniform(470, 510)
    backdrop(c, hy)
    ground(c, hy)
    cx, cy = rng.uniform(160, 240), rng.uniform(330, 380)
    size = rng.uniform(120, 150)
    n = rng.randint(6, 10)
    tops = []
    for i in range(n):
        ang = math.pi * (0.15 + 0.7 * i / (n - 1))
        tops.append(
            (
                cx - math.cos(ang) * rng.uniform(70, 110),
                cy - 120 - math.sin(ang) * rng.uniform(40, 90),
            )
        )
    strings = "".join(
        f'<path d="M{fmt(cx)} {fmt(cy - size * 0.35)}L{fmt(x)} {fmt(y + 14)}"/>' for x, y in tops
    )
    c.add(f'<g stroke="{c.st.cloud}" stroke-width="1.2" opacity=".8">{strings}</g>')
    key = r.role("carriers")
    for x, y in tops:
        c.use(key, x, y, rng.uniform(34, 46), rot=rng.uniform(-12, 12))
    c.shadow(cx, hy + 50, size * 0.5, 0.25)
    c.use(r.role("lifted"), cx, cy, size, rot=rng.uniform(-8, 8), filt=lift_filter(c))
    if "figure" in dict(r.roles):
        c.use(r.role("figure"), rng.uniform(60, 340), hy + 45, 46, bottom=True)


def lay_moon_swap(c: Canvas, r: Recipe) -> None:
    rng = c.rng
    hy = rng.uniform(440, 480)
    backdrop(c, hy, light=False)
    mx, my = rng.uniform(130, 270), rng.uniform(150, 220)
    size = rng.uniform(140, 170)
    g = _radial(c, c.st.light_color, 0.5)
    c.add(f'<circle cx="{fmt(mx)}" cy="{fmt(my)}" r="{fmt(size * 1.2)}" fill="url(#{g})"/>')
    c.use(
        r.role("moon"),
        mx,
        my,
        size,
        rot=rng.uniform(-15, 15),
        filt=glow_filter(c, c.st.light_color),
    )
    ground(c, hy)
    below = r.role("below")
    if below in c.lib and "boat" in c.lib[below].tags and c.st.ground in WATER_GROUNDS:
        c.use(below, rng.uniform(120, 280), hy + 30, 70, bottom=True)
    else:
        _row(c, below, rng.randint(2, 4), hy + 40, 44, 40, 360)
    if "figure" in dict(r.roles):
        c.use(r.role("figure"), rng.uniform(80, 320), hy + 70, 48, bottom=True)


def lay_undersea(c: Canvas, r: Recipe) -> None:
    rng = c.rng
    sy = rng.uniform(170, 210)
    backdrop(c, sy)
    water = _grad(c, ["#1b6f93", "#0a3656", "#03162b"])
    c.add(f'<rect y="{fmt(sy)}" width="{W}" height="{fmt(H - sy)}" fill="url(#{water})"/>')
    for _ in range(3):
        x = rng.uniform(0, W)
        c.add(
            f'<path d="M{fmt(x)} {fmt(sy)}L{fmt(x + 50)} {fmt(sy)}'
            f'L{fmt(x + 150)} {H}L{fmt(x + 60)} {H}Z" '
            f'fill="#cdefff" opacity=".06"/>'
        )
    c.use(
        r.role("giant"),
        rng.uniform(170, 230),
        rng.uniform(390, 440),
        rng.uniform(260, 320),
        flip=rng.random() < 0.5,
        rot=rng.uniform(-6, 6),
        opacity=0.85,
    )
    c.add(f'<rect y="{fmt(sy)}" width="{W}" height="{fmt(H - sy)}" fill="#04263f" opacity=".3"/>')
    c.use(
        r.role("boat"),
        rng.uniform(120, 280),
        sy + 12,
        rng.uniform(80, 100),
        bottom=True,
        flip=rng.random() < 0.5,
    )
    c.add(f'<path d="M0 {fmt(sy)}H{W}" stroke="#dff6ff" stroke-width="2" opacity=".6"/>')
    if "sinking" in dict(r.roles):
        c.use(
            r.role("sinking"),
            rng.uniform(60, 340),
            rng.uniform(260, 320),
            40,
            rot=rng.uniform(-30, 30),
        )
    bub = "".join(
        f'<circle cx="{fmt(rng.uniform(0, W))}" cy="{fmt(rng.uniform(sy + 20, H))}" '
        f'r="{fmt(rng.uniform(2, 6))}"/>'
        for _ in range(16)
    )
    c.add(f'<g fill="none" stroke="#d9f6ff" stroke-width="1.2" opacity=".5">{bub}</g>')


def lay_rain(c: Canvas, r: Recipe) -> None:
    rng = c.rng
    hy = rng.uniform(450, 490)
    backdrop(c, hy, light=False)
    ground(c, hy)
    c.prop("rain-cloud")
    cx = rng.uniform(170, 230)
    key = r.role("falling")
    for i in range(rng.randint(9, 14)):
        x = cx + rng.uniform(-130, 130)
        y = 170 + (hy - 190) * ((i * 0.618) % 1)
        c.use(key, x, y, rng.uniform(22, 32), rot=rng.uniform(-25, 25))
    cloud_shape(c, cx, 120, 300, c.st.cloud, 1.0)
    cloud_shape(c, cx + 20, 135, 250, c.st.haze, 0.6)
    _row(c, r.role("below"), rng.randint(1, 3), hy + 40, 60, 70, 330)
    if "figure" in dict(r.roles):
        c.use(r.role("figure"), rng.uniform(60, 340), hy + 70, 48, bottom=True)


def lay_fishing(c: Canvas, r: Recipe) -> None:
    rng = c.rng
    hy = rng.uniform(470, 510)
    backdrop(c, hy, light=False)
    ground(c, hy)
    c.prop("crescent-moon")
    mx, my, mr = rng.uniform(140, 220), rng.uniform(170, 210), rng.uniform(85, 100)
    mask = c.gid()
    c.defs.append(
        f'<mask id="{mask}"><rect width="{W}" height="{H}" fill="#fff"/>'
        f'<circle cx="{fmt(mx + mr * 0.45)}" '
        f'cy="{fmt(my - mr * 0.3)}" r="{fmt(mr * 0.9)}" fill="#000"/></mask>'
    )
    g = _radial(c, c.st.light_color, 0.45)
    c.add(f'<circle cx="{fmt(mx)}" cy="{fmt(my)}" r="{fmt(mr * 1.8)}" fill="url(#{g})"/>')
    c.add(
        f'<circle cx="{fmt(mx)}" cy="{fmt(my)}" r="{fmt(mr)}" fill="#ffe9a8" mask="url(#{mask})"/>'
    )
    fx, fy = mx + mr * 0.55, my + mr * 0.78
    c.use(r.role("figure"), fx, fy, 50, bottom=True)
    lx, ly = fx + rng.uniform(60, 100), rng.uniform(360, hy - 20)
    c.add(
        f'<path d="M{fmt(fx + 14)} {fmt(fy - 30)}Q{fmt(fx + 60)} {fmt(fy - 70)} '
        f"{fmt(lx)} {fmt(fy - 40)}"
        f'L{fmt(lx)} {fmt(ly)}" fill="none" stroke="{c.st.cloud}" stroke-width="1.3"/>'
    )
    c.use(r.role("catch"), lx, ly + 24, rng.uniform(44, 60), rot=rng.uniform(-15, 15))
    _row(c, r.role("below"), rng.randint(3, 5), hy + 40, 34, 20, 380)


def lay_tiny_world(c: Canvas, r: Recipe) -> None:
    rng = c.rng
    hy = rng.uniform(440, 480)
    backdrop(c, hy)
    ground(c, hy)
    size = rng.uniform(300, 340)
    cx = rng.uniform(185, 215)
    c.shadow(cx, hy + 70, size * 0.8, 0.35)
    base = hy + 75
    c.use(r.role("giant"), cx, base, size, bottom=True, flip=rng.random() < 0.5)
    top = base - size * 0.68
    key = r.role("village")
    for i in range(rng.randint(3, 4)):
        c.use(
            key,
            cx - 70 + i * 45 + rng.uniform(-6, 6),
            top + 12 + abs(i - 1.5) * 12,
            rng.uniform(34, 44),
            bottom=True,
        )
    if "plant" in dict(r.roles):
        c.use(r.role("plant"), cx + 90, top + 30, 40, bottom=True)
    _sky_flock(c, r, (3, 6), (90, 310), (70, 110), 55, 18)


@dataclass(frozen=True)
class Layout:
    """How a layout draws, which elements fill its roles, and its captions."""

    draw: Callable[[Canvas, Recipe], None]
    roles: Mapping[str, tuple[frozenset[str], frozenset[str]]]  # role -> (all tags, any tags)
    optional: frozenset[str]
    settings: tuple[str, ...]
    en: str
    ru: str
    it: str


def _req(all_: str = "", any_: str = "") -> tuple[frozenset[str], frozenset[str]]:
    return frozenset(all_.split()), frozenset(any_.split())


_LAND = ("dusk", "night", "dawn", "desert", "fog", "aurora", "storm", "snow", "meadow", "autumn")
_ALL = (*_LAND, "moonsea", "sunsetsea", "cloudland", "cosmos", "rosedream", "deep")

LAYOUTS: dict[str, Layout] = {
    "sky_giant": Layout(
        lay_sky_giant,
        {"giant": _req("giant sky"), "ground": _req("ground flock"), "flock": _req("sky flock")},
        frozenset({"flock"}),
        ("dusk", "night", "dawn", "desert", "fog", "aurora", "snow", "meadow", "autumn", "storm"),
        "{A_giant} drifting above a row of {ground_pl} {at}",
        "{S}. В небе — {giant}, внизу — {ground}.",
        "{S}. In cielo: {giant}; sotto: {ground}.",
    ),
    "globe": Layout(
        lay_globe,
        {"inside": _req("small", "giant"), "figure": _req("figure"), "flock": _req("sky flock")},
        frozenset({"flock"}),
        (*_LAND, "cloudland", "rosedream"),
        "{A_inside} inside a {prop}, watched by a tiny {figure}, {at}",
        "{S}. {Prop}, а внутри — {inside}; рядом — {figure}.",
        "{S}. {Prop} e dentro: {inside}; accanto: {figure}.",
    ),
    "grow": Layout(
        lay_grow,
        {
            "container": _req("container"),
            "plant": _req("plant", "giant ground"),
            "flock": _req("flock small"),
            "figure": _req("figure"),
        },
        frozenset({"flock", "figure"}),
        _ALL,
        "{A_plant} growing out of {a_container} {at}",
        "{S}. {Container}, а оттуда растёт: {plant}.",
        "{S}. {Container}, e da lì cresce: {plant}.",
    ),
    "stairs": Layout(
        lay_stairs,
        {
            "top": _req("giant", "ground small"),
            "figure": _req("figure"),
            "flock": _req("sky flock"),
        },
        frozenset({"flock"}),
        (
            "dusk",
            "night",
            "dawn",
            "desert",
            "fog",
            "meadow",
            "snow",
            "rosedream",
            "moonsea",
            "sunsetsea",
        ),
        "A staircase climbing into the clouds toward {a_top}, a tiny {figure} on the steps, {at}",
        "{S}. Лестница ведёт в облака, наверху — {top}; на ступенях — {figure}.",
        "{S}. Una scala sale tra le nuvole; in cima: {top}; sui gradini: {figure}.",
    ),
    "island": Layout(
        lay_island,
        {
            "on": _req("ground"),
            "plant": _req("plant"),
            "below": _req("ground flock"),
            "flock": _req("sky flock"),
        },
        frozenset({"flock"}),
        (
            "dusk",
            "night",
            "dawn",
            "fog",
            "meadow",
            "cloudland",
            "autumn",
            "sunsetsea",
            "moonsea",
            "cosmos",
        ),
        "{A_on} and {a_plant} on an island floating in the sky {at}",
        "{S}. Летающий остров, на нём — {on} и {plant}.",
        "{S}. Un'isola volante; sopra: {on} e {plant}.",
    ),
    "procession": Layout(
        lay_procession,
        {"giant": _req("giant"), "flock": _req("flock")},
        frozenset(),
        _LAND,
        "A procession of {flock_pl} on the road toward a huge {giant} {at}",
        "{S}. По дороге идёт вереница: {flock}; впереди — {giant}.",
        "{S}. Una fila sulla strada: {flock}; in fondo: {giant}.",
    ),
    "door": Layout(
        lay_door,
        {"beyond": _req("giant"), "figure": _req("figure")},
        frozenset(),
        (
            "dusk",
            "night",
            "dawn",
            "desert",
            "fog",
            "snow",
            "meadow",
            "cloudland",
            "aurora",
            "cosmos",
        ),
        "A door standing alone {at}, {a_beyond} on the other side, {a_figure} hesitating",
        "{S}. Дверь посреди пустоты, за ней — {beyond}; рядом — {figure}.",
        "{S}. Una porta nel nulla; oltre: {beyond}; accanto: {figure}.",
    ),
    "reflection": Layout(
        lay_reflection,
        {"thing": _req("giant"), "reflection": _req("giant")},
        frozenset(),
        ("moonsea", "sunsetsea", "rosedream"),
        "{A_thing} whose reflection in the water is {a_reflection}, {at}",
        "{S}. {Thing}, а в отражении — {reflection}.",
        "{S}. {Thing}, ma il riflesso è: {reflection}.",
    ),
    "towering": Layout(
        lay_towering,
        {"giant": _req("giant small"), "tiny": _req("ground flock"), "flock": _req("sky flock")},
        frozenset({"flock"}),
        (*_LAND, "cloudland", "cosmos"),
        "A giant {giant} towering over tiny {tiny_pl} {at}",
        "{S}. Огромный предмет: {giant}; у подножия — {tiny}.",
        "{S}. Un gigante: {giant}; ai suoi piedi: {tiny}.",
    ),
    "lifted": Layout(
        lay_lifted,
        {
            "lifted": _req("giant", "ground small"),
            "carriers": _req("sky flock"),
            "figure": _req("figure"),
        },
        frozenset({"figure"}),
        ("dusk", "dawn", "desert", "meadow", "autumn", "fog", "snow", "night", "sunsetsea"),
        "{A_lifted} carried into the sky by {carriers_pl} {at}",
        "{S}. В небо поднимается: {lifted}; несут — {carriers}.",
        "{S}. Sale in cielo: {lifted}, portato da: {carriers}.",
    ),
    "moon_swap": Layout(
        lay_moon_swap,
        {"moon": _req("moon"), "below": _req("ground flock", "boat"), "figure": _req("figure")},
        frozenset({"figure"}),
        ("night", "moonsea", "snow", "aurora", "rosedream", "dusk", "cosmos"),
        "{A_moon} hanging in the sky like the moon over {below_pl} {at}",
        "{S}. Вместо луны — {moon}; внизу — {below}.",
        "{S}. Al posto della luna: {moon}; sotto: {below}.",
    ),
    "undersea": Layout(
        lay_undersea,
        {"boat": _req("boat"), "giant": _req("giant", "sea giant"), "sinking": _req("small")},
        frozenset({"sinking"}),
        ("dusk", "night", "dawn", "sunsetsea", "moonsea", "storm", "fog"),
        "{A_boat} sailing over a sleeping {giant} {at}",
        "{S}. Наверху — {boat}, а в глубине спит {giant}.",
        "{S}. In superficie: {boat}; negli abissi dorme: {giant}.",
    ),
    "rain": Layout(
        lay_rain,
        {"falling": _req("small", "flock"), "below": _req("ground"), "figure": _req("figure")},
        frozenset({"figure"}),
        ("storm", "dusk", "fog", "dawn", "meadow", "autumn", "night", "desert"),
        "A cloud raining {falling_pl} on {a_below} {at}",
        "{S}. Из тучи сыплется дождь: {falling}; внизу — {below}.",
        "{S}. Dalla nuvola piovono: {falling}; sotto: {below}.",
    ),
    "fishing": Layout(
        lay_fishing,
        {"figure": _req("figure"), "catch": _req("small"), "below": _req("ground flock", "boat")},
        frozenset(),
        ("night", "moonsea", "snow", "aurora", "rosedream", "dusk", "cosmos"),
        "{A_figure} on the crescent moon fishing for {a_catch} above {below_pl} {at}",
        "{S}. На полумесяце — {figure} с удочкой, на крючке — {catch}.",
        "{S}. Sulla falce di luna: {figure} che pesca; all'amo: {catch}.",
    ),
    "tiny_world": Layout(
        lay_tiny_world,
        {
            "giant": _req("back"),
            "village": _req("ground flock"),
            "plant": _req("plant ground"),
            "flock": _req("sky flock"),
        },
        frozenset({"plant", "flock"}),
        _ALL[:-1],
        "A village of {village_pl} on the back of a giant {giant} {at}",
        "{S}. {Giant}, а на спине — деревня: {village}.",
        "{S}. {Giant} con un villaggio sulla schiena: {village}.",
    ),
}


# ---------------------------------------------------------------- captions


def caption(r: Recipe, lib: Mapping[str, Art], props: Sequence[str]) -> dict[str, str]:
    """Caption a recipe in ru, en and it from its element labels and setting."""
    if r.caption is not None:
        return {lang: r.caption[lang] for lang in LANGS}
    lay = LAYOUTS[r.layout]
    st = SETTINGS[r.setting]
    out: dict[str, str] = {}
    prop = "fishbowl" if "fishbowl" in props else "glass-globe"
    for lang in LANGS:
        vals: dict[str, str] = {"at": st.words["en"], "S": st.words[lang]}
        vals["prop"] = PROPS[prop][lang]
        vals["Prop"] = cap(PROPS[prop][lang])
        for role, key in r.roles:
            word = lib[key].label[lang]
            vals[role] = word
            vals[role.capitalize()] = cap(word)
            if lang == "en":
                vals[f"a_{role}"] = a(word)
                vals[f"A_{role}"] = cap(a(word))
                vals[f"{role}_pl"] = plural(word)
        template = getattr(lay, lang)
        # Optional roles that were not filled leave no trace in the template.
        for role in lay.roles:
            if role not in vals:
                template = re.sub(r"[;,]? [^;,.]*\{[a-zA-Z_]*" + role + r"[a-z_]*\}", "", template)
        text = template.format(**vals)
        text = re.sub(r"\s+", " ", text).replace(" ,", ",").strip()
        out[lang] = cap(text)
    return out


# ---------------------------------------------------------------- cards


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


def _pick(
    rng: random.Random,
    lib: Mapping[str, Art],
    req: tuple[frozenset[str], frozenset[str]],
    uses: Mapping[str, int],
    avoid: Iterable[str],
) -> str | None:
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


def card_id(index: int) -> str:
    """Opaque card id for the card at ``index`` in manifest order."""
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
