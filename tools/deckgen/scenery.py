"""Backdrops (the settings a card can be set in) and the props drawn without emoji.

A setting is data (sky stops, ground, light, weather, the words that name it); the
painters here turn it into sky, light, ground and the finishing wash of every card, and
draw the procedural props (clouds, glass globe, floating island) the layouts ask for.
"""

from __future__ import annotations

import itertools
import math
import random

from tools.deckgen.elements import Canvas, fmt, linear_gradient, radial_gradient
from tools.deckgen.model import H, Labels, Setting, W

# Props the painters draw themselves rather than take from the emoji set; the metadata
# and the captions name them with these labels.
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
    sky = linear_gradient(c, st.sky)
    c.add(f'<rect width="{W}" height="{H}" fill="url(#{sky})"/>')
    if "nebula" in st.extras:
        for col in ("#ff6fb5", "#4fd1c5", "#8a6bff"):
            g = radial_gradient(c, col, 0.45)
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
            g = linear_gradient(c, [col, col + "00"])
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
        glow = radial_gradient(c, st.light_color, 0.55)
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
        grad = linear_gradient(c, [far, near])
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


def globe(c: Canvas, cx: float, cy: float, rad: float, kind: str) -> None:
    """Glass globe or fishbowl highlight, drawn over whatever is inside it."""
    st = c.st
    rim = radial_gradient(c, "#ffffff", 0.0, 0.35)
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
