"""The element library and the SVG toolkit that places its elements on a card.

The library (``elements/fluent-emoji-flat.json`` in a deck folder) holds the SVG bodies
and labels of the catalogued emoji; :class:`Canvas` turns them into ``<symbol>``s and
``<use>``s, and the helpers here add the gradients and filters every painter shares.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Mapping, Sequence
from pathlib import Path

from tools.deckgen.model import LANGS, Art, DeckBuildError, H, Setting, W

LIBRARY_FILE = "elements/fluent-emoji-flat.json"


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


def fmt(v: float) -> str:
    """Short decimal text for SVG numbers, stable across platforms.

    >>> fmt(12.0), fmt(3.14159), fmt(-0.01)
    ('12', '3.1', '0')
    """
    t = f"{v:.1f}"
    if t.endswith(".0"):
        t = t[:-2]
    return "0" if t == "-0" else t


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
        """Paint ``svg`` over everything added so far."""
        self.parts.append(svg)

    def prop(self, name: str) -> None:
        """Record that the card shows procedural prop ``name`` (for the hidden metadata)."""
        if name not in self.props:
            self.props.append(name)

    def symbol(self, key: str) -> tuple[str, Art]:
        """The ``<symbol>`` id of element ``key`` (defined on first use) and its art."""
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
        """A flat ground shadow ``w`` wide centred on (cx, y)."""
        self.add(
            f'<ellipse cx="{fmt(cx)}" cy="{fmt(y)}" rx="{fmt(w / 2)}" ry="{fmt(w / 9)}" '
            f'fill="{self.st.shadow}" opacity="{fmt(alpha)}"/>'
        )

    def haze(self, alpha: float) -> None:
        """Atmospheric perspective: wash what is already drawn with sky colour."""
        self.add(f'<rect width="{W}" height="{H}" fill="{self.st.haze}" opacity="{fmt(alpha)}"/>')

    def render(self) -> str:
        """The finished card as one SVG document (symbols only for elements used)."""
        defs = "".join(self.defs) + "".join(self.symbols[k] for k in self.used)
        return (
            f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}" '
            f'width="{W}" height="{H}"><defs>{defs}</defs>{"".join(self.parts)}</svg>\n'
        )


def linear_gradient(c: Canvas, stops: Sequence[str], x2: float = 0, y2: float = 1) -> str:
    """Define an evenly spaced gradient through ``stops`` (top to bottom by default).

    Returns its id, for ``fill="url(#id)"``.
    """
    gid = c.gid()
    n = len(stops) - 1
    s = "".join(
        f'<stop offset="{fmt(i / n * 100)}%" stop-color="{col}"/>' for i, col in enumerate(stops)
    )
    c.defs.append(
        f'<linearGradient id="{gid}" x1="0" y1="0" x2="{x2}" y2="{y2}">{s}</linearGradient>'
    )
    return gid


def radial_gradient(c: Canvas, color: str, inner: float, outer: float = 0.0) -> str:
    """Define a glow of ``color`` fading from opacity ``inner`` to ``outer``; returns its id."""
    gid = c.gid()
    c.defs.append(
        f'<radialGradient id="{gid}"><stop offset="0%" stop-color="{color}" '
        f'stop-opacity="{fmt(inner)}"/><stop offset="100%" stop-color="{color}" '
        f'stop-opacity="{fmt(outer)}"/></radialGradient>'
    )
    return gid


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
    """Halo of ``color`` around a thing that stands in for a light (a moon, a lamp)."""
    fid = c.gid()
    c.defs.append(
        f'<filter id="{fid}" x="-50%" y="-50%" width="200%" height="200%"><feDropShadow dx="0" '
        f'dy="0" stdDeviation="10" flood-color="{color}" flood-opacity=".8"/></filter>'
    )
    return fid
