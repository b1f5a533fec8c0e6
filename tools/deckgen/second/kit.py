"""Drawing helpers the scenes share: placing elements, open land, rooms, frames, ropes.

Every helper draws on a :class:`~tools.deckgen.elements.Canvas` in paint order and
takes its jitter from ``c.rng`` so a card is a pure function of its recipe.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from tools.deckgen.elements import Canvas, fmt, linear_gradient, radial_gradient
from tools.deckgen.model import H, W
from tools.deckgen.scenery import SETTINGS, backdrop, ground

Box = tuple[float, float, float, float]  # x, y (top left), width, height

LAND = ("dusk", "night", "dawn", "desert", "fog", "aurora", "storm", "snow", "meadow", "autumn")
WATER = ("moonsea", "sunsetsea", "rosedream")
NIGHT = ("night", "moonsea", "aurora", "cosmos", "rosedream", "snow", "dusk")
ANY = LAND + WATER + ("cloudland", "cosmos")


def put(
    c: Canvas,
    key: str,
    cx: float,
    y: float,
    size: float,
    *,
    bottom: bool = True,
    flip: bool = False,
    flipv: bool = False,
    rot: float = 0.0,
    color: str = "",
    opacity: float = 1.0,
    filt: str = "",
    shadow: float = 0.0,
) -> Box:
    """Place element ``key`` ``size`` wide, standing on ``y`` (or centred with
    ``bottom=False``); ``color`` paints a one-colour silhouette. Returns its box."""
    sid, art = c.symbol(key)
    h = size * art.height / art.width
    top = y - h if bottom else y - h / 2
    x = cx - size / 2
    if shadow:
        base = top + h
        c.add(
            f'<ellipse cx="{fmt(cx)}" cy="{fmt(base - 2)}" rx="{fmt(size * 0.42)}" '
            f'ry="{fmt(size * 0.07)}" fill="{c.st.shadow}" opacity="{fmt(shadow)}"/>'
        )
    tr = []
    if rot:
        tr.append(f"rotate({fmt(rot)} {fmt(cx)} {fmt(top + h / 2)})")
    if flip or flipv:
        cy = top + h / 2
        tr.append(
            f"translate({fmt(cx)} {fmt(cy)}) scale({-1 if flip else 1} {-1 if flipv else 1}) "
            f"translate({fmt(-cx)} {fmt(-cy)})"
        )
    attrs = f'href="#{sid}" x="{fmt(x)}" y="{fmt(top)}" width="{fmt(size)}" height="{fmt(h)}"'
    if tr:
        attrs += f' transform="{" ".join(tr)}"'
    if color:
        attrs += f' color="{color}" fill="{color}"'
    if opacity < 1:
        attrs += f' opacity="{fmt(opacity)}"'
    if filt:
        attrs += f' filter="url(#{filt})"'
    c.add(f"<use {attrs}/>")
    return (x, top, size, h)


def land(c: Canvas, lo: float = 430, hi: float = 480) -> float:
    """Sky and ground of the card's setting; returns the horizon's height."""
    hy = c.rng.uniform(lo, hi)
    backdrop(c, hy)
    ground(c, hy)
    return hy


def sky_only(c: Canvas) -> None:
    """Only the sky of the setting (for scenes that draw their own ground)."""
    backdrop(c, H * 0.8)


def group(c: Canvas, *, clip: str = "", filt: str = "", transform: str = "", op: float = 1) -> None:
    """Open a ``<g>``; close it with :func:`end`."""
    attrs = ""
    if clip:
        attrs += f' clip-path="url(#{clip})"'
    if filt:
        attrs += f' filter="url(#{filt})"'
    if transform:
        attrs += f' transform="{transform}"'
    if op < 1:
        attrs += f' opacity="{fmt(op)}"'
    c.add(f"<g{attrs}>")


def end(c: Canvas) -> None:
    """Close the last :func:`group`."""
    c.add("</g>")


def clip_path(c: Canvas, shape: str) -> str:
    """Define a clip path from raw SVG ``shape``; returns its id."""
    cid = c.gid()
    c.defs.append(f'<clipPath id="{cid}">{shape}</clipPath>')
    return cid


def other_world(c: Canvas, setting: str, clip: str, hy: float | None = None) -> None:
    """Paint another setting's sky and ground inside ``clip`` (a door, a mirror, a hole)."""
    here = c.st
    c.st = SETTINGS[setting]
    group(c, clip=clip)
    y = hy if hy is not None else c.rng.uniform(420, 470)
    backdrop(c, y)
    ground(c, y)
    end(c)
    c.st = here


def room(c: Canvas) -> float:
    """An indoor scene in the setting's colours: papered wall, a window onto the
    setting's sky, a wooden floor. Returns the floor line."""
    rng, st = c.rng, c.st
    floor = rng.uniform(430, 470)
    wall = linear_gradient(c, [st.ground_colors[1], st.ground_colors[0]])
    c.add(f'<rect width="{W}" height="{fmt(floor)}" fill="url(#{wall})"/>')
    stripes = "".join(
        f'<rect x="{x}" y="0" width="14" height="{fmt(floor)}"/>' for x in range(8, W, 40)
    )
    c.add(f'<g fill="#ffffff" opacity=".06">{stripes}</g>')
    wx, wy = rng.choice((40, 250)), rng.uniform(70, 110)
    win = clip_path(c, f'<rect x="{fmt(wx)}" y="{fmt(wy)}" width="110" height="150" rx="55"/>')
    group(c, clip=win)
    backdrop(c, wy + 120)
    ground(c, wy + 120)
    end(c)
    c.add(
        f'<rect x="{fmt(wx)}" y="{fmt(wy)}" width="110" height="150" rx="55" fill="none" '
        f'stroke="#5a3b2a" stroke-width="7"/>'
        f'<path d="M{fmt(wx + 55)} {fmt(wy)}v150M{fmt(wx)} {fmt(wy + 80)}h110" '
        f'stroke="#5a3b2a" stroke-width="4"/>'
    )
    c.add(f'<rect y="{fmt(floor)}" width="{W}" height="{fmt(H - floor)}" fill="#6b4631"/>')
    boards = "".join(
        f'<path d="M0 {fmt(floor + d)}H{W}"/>' for d in (14, 34, 62, 100, 150) if floor + d < H
    )
    c.add(f'<g stroke="#3d2619" stroke-width="2" opacity=".45">{boards}</g>')
    c.add(f'<rect y="{fmt(floor - 6)}" width="{W}" height="8" fill="#3d2619" opacity=".6"/>')
    return floor


def rope(
    c: Canvas,
    x1: float,
    y1: float,
    x2: float,
    y2: float,
    sag: float = 0,
    *,
    color: str = "#e8dcc0",
    width: float = 2.2,
) -> None:
    """A rope or string from (x1, y1) to (x2, y2) sagging by ``sag``."""
    mx, my = (x1 + x2) / 2, (y1 + y2) / 2 + sag
    c.add(
        f'<path d="M{fmt(x1)} {fmt(y1)}Q{fmt(mx)} {fmt(my)} {fmt(x2)} {fmt(y2)}" fill="none" '
        f'stroke="{color}" stroke-width="{fmt(width)}" stroke-linecap="round"/>'
    )


def frame(
    c: Canvas, x: float, y: float, w: float, h: float, *, color: str = "#8a5a2b", width: float = 9
) -> None:
    """A picture frame's moulding around a rectangle."""
    c.add(
        f'<rect x="{fmt(x)}" y="{fmt(y)}" width="{fmt(w)}" height="{fmt(h)}" fill="none" '
        f'stroke="{color}" stroke-width="{fmt(width)}"/><rect x="{fmt(x - width / 2)}" '
        f'y="{fmt(y - width / 2)}" width="{fmt(w + width)}" height="{fmt(h + width)}" '
        f'fill="none" stroke="#000" stroke-opacity=".25" stroke-width="1.5"/>'
    )


def glow(c: Canvas, cx: float, cy: float, r: float, color: str, alpha: float = 0.6) -> None:
    """A soft round light."""
    g = radial_gradient(c, color, alpha)
    c.add(f'<circle cx="{fmt(cx)}" cy="{fmt(cy)}" r="{fmt(r)}" fill="url(#{g})"/>')


def ripple_filter(c: Canvas, scale: float = 6) -> str:
    """Water's wobble for reflections: horizontal displacement by low noise."""
    fid = c.gid()
    c.defs.append(
        f'<filter id="{fid}" x="-5%" y="-5%" width="110%" height="110%">'
        f'<feTurbulence type="fractalNoise" baseFrequency=".01 .09" numOctaves="2" '
        f'seed="{c.rng.randint(1, 99)}"/><feDisplacementMap in="SourceGraphic" '
        f'scale="{fmt(scale)}" xChannelSelector="R" yChannelSelector="G"/></filter>'
    )
    return fid


def soft_filter(c: Canvas, blur: float = 2.5) -> str:
    """A gentle blur for things seen through water, mist or glass."""
    fid = c.gid()
    c.defs.append(f'<filter id="{fid}"><feGaussianBlur stdDeviation="{fmt(blur)}"/></filter>')
    return fid


def lift(c: Canvas) -> str:
    """Drop shadow that lifts a thing off the picture (it floats, it flies)."""
    fid = c.gid()
    c.defs.append(
        f'<filter id="{fid}" x="-20%" y="-20%" width="140%" height="150%"><feDropShadow dx="0" '
        f'dy="7" stdDeviation="6" flood-color="{c.st.shadow}" flood-opacity=".45"/></filter>'
    )
    return fid


def halo(c: Canvas, color: str) -> str:
    """A glow around a thing that gives light."""
    fid = c.gid()
    c.defs.append(
        f'<filter id="{fid}" x="-50%" y="-50%" width="200%" height="200%"><feDropShadow dx="0" '
        f'dy="0" stdDeviation="9" flood-color="{color}" flood-opacity=".85"/></filter>'
    )
    return fid


def sparkles(
    c: Canvas, cx: float, cy: float, spread: float, n: int, color: str = "#fff6c8"
) -> None:
    """Little four-pointed glints around (cx, cy)."""
    rng = c.rng
    out = []
    for _ in range(n):
        x, y = cx + rng.uniform(-spread, spread), cy + rng.uniform(-spread, spread)
        s = rng.uniform(3, 7)
        out.append(
            f'<path d="M{fmt(x)} {fmt(y - s)}Q{fmt(x)} {fmt(y)} {fmt(x + s)} {fmt(y)}'
            f"Q{fmt(x)} {fmt(y)} {fmt(x)} {fmt(y + s)}Q{fmt(x)} {fmt(y)} {fmt(x - s)} {fmt(y)}"
            f'Q{fmt(x)} {fmt(y)} {fmt(x)} {fmt(y - s)}Z"/>'
        )
    c.add(f'<g fill="{color}" opacity=".9">{"".join(out)}</g>')


def motion(
    c: Canvas, x: float, y: float, length: float, n: int = 3, color: str = "#ffffff"
) -> None:
    """Speed lines trailing to the left of (x, y) (mirror with a negative length)."""
    lines = "".join(
        f'<path d="M{fmt(x)} {fmt(y + i * 9 - n * 4)}h{fmt(-length * (1 - 0.2 * i))}"/>'
        for i in range(n)
    )
    c.add(f'<g stroke="{color}" stroke-width="3" stroke-linecap="round" opacity=".55">{lines}</g>')


def bubble(c: Canvas, cx: float, cy: float, rx: float, ry: float, tx: float, ty: float) -> None:
    """A dream or thought bubble at (cx, cy) with small puffs trailing to (tx, ty)."""
    c.add(
        f'<ellipse cx="{fmt(cx)}" cy="{fmt(cy)}" rx="{fmt(rx)}" ry="{fmt(ry)}" fill="#fffaf0" '
        f'opacity=".92" stroke="#d9cdb5" stroke-width="3"/>'
    )
    for i, r in enumerate((11, 7, 4)):
        t = (i + 1) / 4
        c.add(
            f'<circle cx="{fmt(cx + (tx - cx) * (0.55 + t * 0.4))}" '
            f'cy="{fmt(cy + ry * 0.8 + (ty - cy - ry) * t)}" r="{r}" fill="#fffaf0" opacity=".92"/>'
        )


def door_shape(x: float, y: float, w: float, h: float) -> str:
    """The path of an arched door opening standing on y."""
    r = w / 2
    return (
        f"M{fmt(x)} {fmt(y)}V{fmt(y - h + r)}A{fmt(r)} {fmt(r)} 0 0 1 {fmt(x + w)} "
        f"{fmt(y - h + r)}V{fmt(y)}Z"
    )


def door(
    c: Canvas,
    x: float,
    y: float,
    w: float,
    h: float,
    world: str,
    *,
    leaf: str = "#7a4b2c",
    inside: Callable[[], object] | None = None,
) -> None:
    """A free-standing open door: another setting inside, the leaf swung open."""
    shape = door_shape(x, y, w, h)
    clip = clip_path(c, f'<path d="{shape}"/>')
    other_world(c, world, clip, hy=y - h * 0.25)
    if inside is not None:
        group(c, clip=clip)
        inside()
        end(c)
    c.add(f'<path d="{shape}" fill="none" stroke="#efe2c4" stroke-width="7"/>')
    c.add(
        f'<path d="M{fmt(x + w)} {fmt(y)}L{fmt(x + w + w * 0.45)} {fmt(y + 8)}'
        f'L{fmt(x + w + w * 0.45)} {fmt(y - h * 0.92)}L{fmt(x + w)} {fmt(y - h + w * 0.3)}Z" '
        f'fill="{leaf}" stroke="#3b2414" stroke-width="2"/>'
    )
    c.add(f'<circle cx="{fmt(x + w + w * 0.36)}" cy="{fmt(y - h * 0.45)}" r="3.5" fill="#f2c14e"/>')


def spiral(c: Canvas, cx: float, cy: float, r: float, color: str, turns: float = 3) -> None:
    """A hand-drawn spiral (portals, dizziness, magic)."""
    pts = []
    n = int(turns * 24)
    for i in range(n + 1):
        a = i / 24 * 2 * math.pi
        rr = r * i / n
        pts.append(f"{fmt(cx + rr * math.cos(a))} {fmt(cy + rr * math.sin(a))}")
    c.add(
        f'<path d="M{"L".join(pts)}" fill="none" stroke="{color}" stroke-width="3" '
        f'stroke-linecap="round" opacity=".8"/>'
    )


def snore(c: Canvas, x: float, y: float) -> None:
    """Three drawn Zs rising from a sleeper (drawn, not text: cards carry no words)."""
    zs = "".join(
        f'<path d="M{fmt(x + i * 18)} {fmt(y - i * 16)}h{s}l-{s} {s}h{s}"/>'
        for i, s in enumerate((10, 13, 16))
    )
    c.add(
        f'<g fill="none" stroke="#fffaf0" stroke-width="3" stroke-linejoin="round" '
        f'opacity=".85">{zs}</g>'
    )
