"""The layout painters: one composition per layout, and which elements may fill it.

Each layout is a painter (draws the scene of a recipe on a :class:`Canvas`), the roles
it needs with the element tags that may fill them, the settings it suits and the
caption templates in en, ru and it (filled in by :mod:`tools.deckgen.captions`).
Painters draw from ``c.rng`` in a fixed order: changing that order changes every card
built from the same seed.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from tools.deckgen.elements import (
    Canvas,
    fmt,
    glow_filter,
    lift_filter,
    linear_gradient,
    radial_gradient,
    silhouette_filter,
)
from tools.deckgen.model import H, Recipe, W
from tools.deckgen.scenery import (
    SETTINGS,
    WATER_GROUNDS,
    backdrop,
    cloud_shape,
    globe,
    ground,
    island,
)


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
    """A giant element drifting in the sky above a row of small things on the ground."""
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


def lay_globe(c: Canvas, r: Recipe) -> None:
    """An element inside a glass globe or a fishbowl, watched by a tiny figure."""
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
    inner = linear_gradient(
        c, ["#bfe9ff", "#3d8fc4"] if kind == "fishbowl" else list(reversed(c.st.sky))
    )
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
    """A plant (or a giant thing) growing out of a container."""
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
    """A staircase climbing into a cloud, something on top and a figure on the steps."""
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


def lay_island(c: Canvas, r: Recipe) -> None:
    """An island floating in the sky with things on it, silhouettes far below."""
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
    """A procession on a winding road toward a huge thing on the horizon."""
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
    """A door standing alone, another setting and a giant thing on the other side."""
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
    inner = linear_gradient(c, other.sky)
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
    """A thing on the shore whose reflection in the water is something else."""
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
    """A giant thing towering over a row of tiny ones."""
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
    """A thing carried into the sky on strings by a flock."""
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
    """A glowing element hanging where the moon should be."""
    rng = c.rng
    hy = rng.uniform(440, 480)
    backdrop(c, hy, light=False)
    mx, my = rng.uniform(130, 270), rng.uniform(150, 220)
    size = rng.uniform(140, 170)
    g = radial_gradient(c, c.st.light_color, 0.5)
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
    """A boat on the surface above a giant sleeping under the sea."""
    rng = c.rng
    sy = rng.uniform(170, 210)
    backdrop(c, sy)
    water = linear_gradient(c, ["#1b6f93", "#0a3656", "#03162b"])
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
    """A cloud raining small things on the ground below."""
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
    """A figure fishing from the crescent moon, something on the hook."""
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
    g = radial_gradient(c, c.st.light_color, 0.45)
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
    """A village standing on the back of a giant."""
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
