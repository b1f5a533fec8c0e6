"""Scenes with something half hidden, doors into other worlds and reflections that lie."""

from __future__ import annotations

from tools.deckgen.elements import Canvas, fmt, linear_gradient
from tools.deckgen.model import H, Recipe, W
from tools.deckgen.scenery import SETTINGS, backdrop, ground
from tools.deckgen.second import kit
from tools.deckgen.second.scene import (
    ACTORS,
    BIG,
    BUILDINGS,
    DEEP,
    FLYERS,
    PREDATORS,
    SEA,
    SHADOWS,
    SMALL,
    THINGS,
    Scene,
)

WORLDS = ("moonsea", "cosmos", "aurora", "deep", "cloudland", "meadow", "desert", "sunsetsea")


def _world(c: Canvas) -> str:
    """Another setting than the card's, for what lies behind a door or under a hole."""
    options = [w for w in WORLDS if w != c.st.name]
    return options[c.rng.randrange(len(options))]


# ------------------------------------------------------------------ half hidden


def curtain(c: Canvas, r: Recipe) -> None:
    rng = c.rng
    floor = kit.room(c)
    c.add(f'<rect x="40" y="{fmt(floor - 40)}" width="320" height="40" fill="#5a2d1c"/>')
    kit.put(c, r.role("hidden"), rng.uniform(190, 230), floor - 30, 230)
    g = linear_gradient(c, ["#b3243a", "#6e0f22"], x2=1, y2=0)
    gap = rng.uniform(40, 70)
    for side in (-1, 1):
        x0 = 200 + side * gap / 2
        edge = 0 if side < 0 else W
        folds = "".join(
            f'<path d="M{fmt(x0 + side * i * 24)} 0V{fmt(floor - 40)}" />' for i in range(1, 8)
        )
        c.add(
            f'<path d="M{fmt(edge)} 0H{fmt(x0)}Q{fmt(x0 - side * 14)} {fmt(floor / 2)} '
            f'{fmt(x0)} {fmt(floor - 40)}H{fmt(edge)}Z" fill="url(#{g})"/>'
            f'<g stroke="#4a0a18" stroke-width="3" opacity=".35">{folds}</g>'
        )
    c.add(f'<rect width="{W}" height="40" fill="#7e1427"/>')
    kit.put(c, r.role("actor"), rng.choice((60, 340)), floor + 90, 90, shadow=0.3)


def iceberg(c: Canvas, r: Recipe) -> None:
    rng = c.rng
    hy = rng.uniform(220, 260)
    backdrop(c, hy)
    ground(c, hy)
    under = linear_gradient(c, ["#1d5a7a", "#06203a"])
    c.add(
        f'<rect y="{fmt(hy + 2)}" width="{W}" height="{fmt(H - hy)}" fill="url(#{under})" '
        f'opacity=".75"/>'
    )
    kit.put(
        c,
        r.role("deep"),
        rng.uniform(170, 230),
        hy + 320,
        330,
        color="#03111f",
        opacity=0.8,
        flip=rng.random() < 0.5,
    )
    kit.put(c, r.role("floater"), rng.uniform(160, 240), hy + 20, 80)
    c.add(f'<path d="M0 {fmt(hy + 1)}H{W}" stroke="#cfe9ff" stroke-width="2" opacity=".6"/>')


def keyhole(c: Canvas, r: Recipe) -> None:
    rng = c.rng
    wall = linear_gradient(c, ["#6b4631", "#3d2619"])
    c.add(f'<rect width="{W}" height="{H}" fill="url(#{wall})"/>')
    planks = "".join(f'<path d="M{x} 0V{H}"/>' for x in range(50, W, 60))
    c.add(f'<g stroke="#2a170d" stroke-width="3" opacity=".5">{planks}</g>')
    cx, cy = 200, rng.uniform(220, 250)
    shape = (
        f'<circle cx="{cx}" cy="{fmt(cy)}" r="95"/><path d="M{cx - 55} {fmt(cy + 50)}'
        f'L{cx - 95} {fmt(cy + 300)}H{cx + 95}L{cx + 55} {fmt(cy + 50)}Z"/>'
    )
    clip = kit.clip_path(c, shape)
    world = _world(c)
    kit.other_world(c, world, clip, hy=cy + 180)
    kit.group(c, clip=clip)
    kit.put(c, r.role("seen"), cx, cy + 40, 170, bottom=False)
    kit.end(c)
    c.add(f'<g fill="none" stroke="#c9a24a" stroke-width="8">{shape}</g>')
    kit.put(c, r.role("actor"), rng.choice((70, 330)), H - 20, 90)


def box(c: Canvas, r: Recipe) -> None:
    rng = c.rng
    hy = kit.land(c, 440, 470)
    bx = rng.uniform(210, 250)
    kit.put(c, r.role("hidden"), bx, hy + 10, 120, rot=rng.uniform(-10, 10))
    kit.put(c, "o-open-box", bx, hy + 110, 200, shadow=0.35)
    kit.put(c, r.role("actor"), bx - 150, hy + 110, 80, shadow=0.3)


def window(c: Canvas, r: Recipe) -> None:
    rng = c.rng
    hy = kit.land(c, 430, 470)
    hx = rng.uniform(210, 250)
    base = hy + 60
    c.add(
        f'<rect x="{fmt(hx - 100)}" y="{fmt(base - 330)}" width="200" height="330" fill="#4a3a4d"/>'
        f'<path d="M{fmt(hx - 120)} {fmt(base - 328)}L{fmt(hx)} {fmt(base - 420)}L{fmt(hx + 120)} '
        f'{fmt(base - 328)}Z" fill="#2d2230"/>'
    )
    wx, wy = hx - 60, base - 290
    kit.glow(c, hx, wy + 80, 180, "#ffd27a", 0.45)
    c.add(f'<rect x="{fmt(wx)}" y="{fmt(wy)}" width="120" height="160" fill="#ffd98a"/>')
    clip = kit.clip_path(c, f'<rect x="{fmt(wx)}" y="{fmt(wy)}" width="120" height="160"/>')
    kit.group(c, clip=clip)
    kit.put(c, r.role("shadow"), hx, wy + 165, 130, color="#3a2418", flip=rng.random() < 0.5)
    kit.end(c)
    c.add(
        f'<path d="M{fmt(hx)} {fmt(wy)}v160M{fmt(wx)} {fmt(wy + 70)}h120" stroke="#4a3a4d" '
        f'stroke-width="6"/>'
    )
    kit.put(c, r.role("actor"), hx - 150, hy + 120, 80, shadow=0.3)


# ------------------------------------------------------------------ doors


def field_door(c: Canvas, r: Recipe) -> None:
    rng = c.rng
    hy = kit.land(c, 430, 470)
    dx, dw, dh = rng.uniform(150, 190), 110, 220
    y = hy + 60
    c.add(
        f'<ellipse cx="{fmt(dx + dw / 2)}" cy="{fmt(y)}" rx="{dw}" ry="12" '
        f'fill="{c.st.shadow}" opacity=".35"/>'
    )
    kit.door(
        c,
        dx,
        y,
        dw,
        dh,
        _world(c),
        inside=lambda: kit.put(c, r.role("beyond"), dx + dw / 2, y - dh * 0.45, 120, bottom=False),
    )
    kit.put(c, r.role("actor"), dx - 50, y + 40, 80, shadow=0.3)


def book(c: Canvas, r: Recipe) -> None:
    rng = c.rng
    hy = kit.land(c, 440, 470)
    bx = rng.uniform(180, 220)
    kit.put(c, "open-book", bx, hy + 120, 300, shadow=0.35)
    kit.put(c, r.role("rising"), bx + rng.uniform(-20, 20), hy + 10, 190, filt=kit.lift(c))
    kit.sparkles(c, bx, hy - 40, 120, 10)
    kit.put(c, r.role("reader"), bx + 140, hy + 140, 70, shadow=0.3, flip=True)


def wardrobe(c: Canvas, r: Recipe) -> None:
    rng = c.rng
    floor = kit.room(c)
    wx, ww, wh = rng.uniform(110, 150), 170, 300
    top = floor + 20 - wh
    clip = kit.clip_path(c, f'<rect x="{fmt(wx)}" y="{fmt(top)}" width="{ww}" height="{wh}"/>')
    kit.other_world(c, "snow", clip, hy=top + wh * 0.7)
    kit.group(c, clip=clip)
    kit.put(c, "fir", wx + 40, top + wh * 0.72, 70)
    kit.put(c, "fir", wx + 130, top + wh * 0.74, 60)
    kit.end(c)
    c.add(
        f'<rect x="{fmt(wx - 12)}" y="{fmt(top - 20)}" width="{ww + 24}" height="{wh + 20}" '
        f'fill="none" stroke="#5a3320" stroke-width="16"/>'
        f'<path d="M{fmt(wx)} {fmt(top)}L{fmt(wx - 60)} {fmt(top + 20)}V{fmt(floor)}L{fmt(wx)} '
        f'{fmt(floor + 20)}Z" fill="#7a4b2c"/>'
    )
    kit.put(c, r.role("guest"), wx + ww / 2 + 20, floor + 40, 120, shadow=0.3)
    flakes = "".join(
        f'<circle cx="{fmt(wx + ww + rng.uniform(0, 120))}" cy="{fmt(rng.uniform(top, floor))}" '
        f'r="{fmt(rng.uniform(1.5, 3.5))}"/>'
        for _ in range(25)
    )
    c.add(f'<g fill="#ffffff" opacity=".85">{flakes}</g>')
    kit.put(c, r.role("actor"), 340, floor + 90, 80, shadow=0.3, flip=True)


def spill(c: Canvas, r: Recipe) -> None:
    rng = c.rng
    floor = kit.room(c)
    fx, fy, fw, fh = rng.uniform(70, 110), rng.uniform(100, 130), 220, 160
    clip = kit.clip_path(c, f'<rect x="{fmt(fx)}" y="{fmt(fy)}" width="{fw}" height="{fh}"/>')
    kit.other_world(c, rng.choice(("moonsea", "sunsetsea", "deep")), clip, hy=fy + 60)
    kit.frame(c, fx, fy, fw, fh, color="#c9a24a", width=10)
    g = linear_gradient(c, ["#5fb2e0", "#2a6f9e"])
    c.add(
        f'<path d="M{fmt(fx + 40)} {fmt(fy + fh)}C{fmt(fx + 40)} {fmt(fy + fh + 80)} '
        f"{fmt(fx - 20)} {fmt(floor - 40)} {fmt(fx - 60)} {fmt(floor + 20)}H{fmt(fx + 260)}"
        f"C{fmt(fx + 160)} {fmt(floor - 40)} {fmt(fx + 140)} {fmt(fy + fh + 60)} "
        f'{fmt(fx + 150)} {fmt(fy + fh)}Z" fill="url(#{g})" opacity=".85"/>'
    )
    c.add(
        f'<ellipse cx="{fmt(fx + 100)}" cy="{fmt(floor + 40)}" rx="200" ry="30" '
        f'fill="#2a6f9e" opacity=".75"/>'
    )
    kit.put(c, r.role("swimmer"), fx + 90, fy + fh + 90, 90, bottom=False, rot=30)
    kit.put(c, r.role("actor"), 330, floor + 90, 90, shadow=0.3, flip=True)
    kit.put(c, "bucket", 280, floor + 90, 50)


def hole(c: Canvas, r: Recipe) -> None:
    rng = c.rng
    hy = kit.land(c, 250, 290)
    cx, cy = rng.uniform(180, 220), rng.uniform(430, 460)
    shape = f'<ellipse cx="{fmt(cx)}" cy="{fmt(cy)}" rx="150" ry="80"/>'
    clip = kit.clip_path(c, shape)
    here = c.st
    c.st = SETTINGS["cosmos" if here.name != "cosmos" else "night"]
    kit.group(c, clip=clip)
    backdrop(c, H + 40, light=False)
    kit.put(
        c,
        r.role("below"),
        cx + rng.uniform(-40, 40),
        cy,
        90,
        bottom=False,
        rot=rng.uniform(-30, 30),
    )
    kit.end(c)
    c.st = here
    c.add(
        f'<ellipse cx="{fmt(cx)}" cy="{fmt(cy)}" rx="150" ry="80" fill="none" '
        f'stroke="{c.st.ground_colors[1]}" stroke-width="10"/>'
    )
    kit.put(c, r.role("actor"), cx + 110, cy - 60, 80, flip=True)
    _ = hy


def portal(c: Canvas, r: Recipe) -> None:
    rng = c.rng
    hy = kit.land(c, 440, 470)
    cx, cy, rad = rng.uniform(190, 230), hy - 70, 120
    clip = kit.clip_path(c, f'<circle cx="{fmt(cx)}" cy="{fmt(cy)}" r="{rad}"/>')
    kit.other_world(c, _world(c), clip, hy=cy + 60)
    c.add(
        f'<circle cx="{fmt(cx)}" cy="{fmt(cy)}" r="{rad}" fill="none" stroke="#fff1b8" '
        f'stroke-width="9" filter="url(#{kit.halo(c, "#ffe27a")})"/>'
    )
    kit.put(c, r.role("actor"), cx + 40, cy + rad - 4, 90)
    kit.put(c, r.role("thing"), cx + 70, cy + 10, 50, bottom=False)


def tv(c: Canvas, r: Recipe) -> None:
    rng = c.rng
    hy = kit.land(c, 440, 470)
    tx = rng.uniform(230, 260)
    box = kit.put(c, "o-tv", tx, hy + 90, 200, shadow=0.35)
    sx, sy, sw, sh = box[0] + box[2] * 0.12, box[1] + box[3] * 0.14, box[2] * 0.62, box[3] * 0.6
    clip = kit.clip_path(
        c, f'<rect x="{fmt(sx)}" y="{fmt(sy)}" width="{fmt(sw)}" height="{fmt(sh)}" rx="12"/>'
    )
    kit.other_world(c, _world(c), clip, hy=sy + sh * 0.7)
    kit.put(c, r.role("out"), sx + sw * 0.4, sy + sh * 0.2, 130, bottom=False, rot=-20)
    kit.put(c, r.role("viewer"), tx - 160, hy + 120, 80, shadow=0.3)


def tiny_door(c: Canvas, r: Recipe) -> None:
    rng = c.rng
    hy = kit.land(c, 440, 470)
    hx = rng.uniform(230, 270)
    box = kit.put(c, r.role("host"), hx, hy + 90, 260, shadow=0.35)
    dx, dy = hx - 12, box[1] + box[3] * 0.93
    c.add(
        f'<path d="{kit.door_shape(dx, dy, 24, 38)}" fill="#ffd98a" stroke="#5a3320" '
        f'stroke-width="3"/>'
    )
    kit.put(c, r.role("actor"), hx - 160, hy + 120, 70, shadow=0.3)
    kit.put(c, "key", hx - 110, hy + 60, 110, bottom=False, rot=-30)


# ------------------------------------------------------------------ reflections


def lake(c: Canvas, r: Recipe) -> None:
    rng = c.rng
    hy = rng.uniform(330, 360)
    backdrop(c, hy)
    ground(c, hy)
    water = linear_gradient(c, [c.st.sky[-1], c.st.sky[0]])
    c.add(
        f'<path d="M0 {fmt(hy + 60)}Q200 {fmt(hy + 40)} {W} {fmt(hy + 60)}V{H}H0Z" '
        f'fill="url(#{water})"/>'
    )
    ax = rng.uniform(150, 250)
    shore = hy + 62
    kit.put(c, r.role("actor"), ax, shore, 110)
    kit.group(c, filt=kit.ripple_filter(c), op=0.7)
    kit.put(c, r.role("reflection"), ax, shore, 150, bottom=False, flipv=True)
    kit.end(c)


def mirror(c: Canvas, r: Recipe) -> None:
    rng = c.rng
    floor = kit.room(c)
    mx, my, rx, ry = rng.uniform(230, 260), floor - 160, 85, 130
    clip = kit.clip_path(c, f'<ellipse cx="{fmt(mx)}" cy="{fmt(my)}" rx="{rx}" ry="{ry}"/>')
    kit.other_world(c, _world(c), clip, hy=my + 60)
    kit.group(c, clip=clip)
    kit.put(c, r.role("reflection"), mx, my + 110, 150, flip=True)
    kit.end(c)
    c.add(
        f'<ellipse cx="{fmt(mx)}" cy="{fmt(my)}" rx="{rx}" ry="{ry}" fill="#ffffff" '
        f'fill-opacity=".08" stroke="#c9a24a" stroke-width="12"/>'
        f'<path d="M{fmt(mx - 40)} {fmt(floor + 40)}L{fmt(mx)} {fmt(my + ry)}L{fmt(mx + 40)} '
        f'{fmt(floor + 40)}" fill="none" stroke="#8a5a2b" stroke-width="8"/>'
    )
    kit.put(c, r.role("actor"), mx - 150, floor + 80, 100, shadow=0.3)


def shadow(c: Canvas, r: Recipe) -> None:
    rng = c.rng
    floor = kit.room(c)
    ax = rng.uniform(250, 300)
    kit.glow(c, 380, floor + 40, 200, "#fff0c0", 0.4)
    kit.put(
        c, r.role("shadow"), ax - 120, floor + 10, 250, color="#1c1216", opacity=0.55, flip=True
    )
    kit.put(c, r.role("actor"), ax, floor + 80, 80, shadow=0.4)
    kit.put(c, "candle", 370, floor + 90, 50)


def puddle(c: Canvas, r: Recipe) -> None:
    rng = c.rng
    hy = kit.land(c, 300, 340)
    cx, cy = rng.uniform(180, 220), rng.uniform(470, 500)
    clip = kit.clip_path(c, f'<ellipse cx="{fmt(cx)}" cy="{fmt(cy)}" rx="160" ry="55"/>')
    here = c.st
    c.st = SETTINGS["night" if here.name not in ("night", "moonsea") else "dawn"]
    kit.group(c, clip=clip)
    backdrop(c, H + 40, light=True)
    kit.put(c, r.role("inside"), cx + rng.uniform(-50, 50), cy, 110, bottom=False, flipv=True)
    kit.end(c)
    c.st = here
    c.add(
        f'<ellipse cx="{fmt(cx)}" cy="{fmt(cy)}" rx="160" ry="55" fill="none" '
        f'stroke="#ffffff" stroke-opacity=".35" stroke-width="3"/>'
    )
    kit.put(c, r.role("actor"), cx - 110, cy - 30, 90)
    kit.put(c, "umbrella", cx - 95, cy - 110, 90, bottom=False, rot=-10)
    _ = hy


SCENES = (
    Scene(
        "curtain",
        "hidden",
        {"hidden": (*BIG, "octopus", "unicorn", "s-giant"), "actor": ACTORS},
        kit.ANY,
        {
            "en": "{actor} peeks behind the curtain, where {hidden} is hiding.",
            "ru": "{actor} заглядывает за занавес, где прячется {hidden}.",
            "it": "{actor.un} sbircia dietro il sipario, dove si nasconde {hidden.un}.",
        },
        curtain,
    ),
    Scene(
        "iceberg",
        "hidden",
        {
            "floater": ("duck", "swan", "penguin", "frog", "turtle", "seal", "sailboat", "otter"),
            "deep": DEEP,
        },
        kit.WATER,
        {
            "en": "{floater} floats on the water, and beneath it lurks {deep}.",
            "ru": "{floater} плывёт по воде, а под {floater?ним|ней|ним} в глубине "
            "{deep?притаился|притаилась|притаилось} {deep}.",
            "it": "{floater.un} galleggia sull'acqua, e sotto si nasconde {deep.un}.",
        },
        iceberg,
    ),
    Scene(
        "keyhole",
        "hidden",
        {"seen": BIG + SEA + ("planet", "saucer", "castle"), "actor": ACTORS},
        kit.ANY,
        {
            "en": "{actor} looks through the keyhole and sees {seen} in another world.",
            "ru": "{actor} заглядывает в замочную скважину и видит в другом мире {seen.acc}.",
            "it": "{actor.un} guarda dal buco della serratura e vede {seen.un} in un altro mondo.",
        },
        keyhole,
    ),
    Scene(
        "box",
        "hidden",
        {
            "hidden": (
                "octopus",
                "dragon",
                "ghost",
                "snake",
                "spider",
                "crocodile",
                "t-rex",
                "unicorn",
                "robot",
                "tiger",
            ),
            "actor": ACTORS,
        },
        kit.LAND,
        {
            "en": "{hidden} peeks out of a box, and {actor} does not dare to open it.",
            "ru": "Из коробки выглядывает {hidden}, и {actor} не решается её открыть.",
            "it": "Da una scatola sbuca {hidden.un}, e {actor.un} non osa aprirla.",
        },
        box,
    ),
    Scene(
        "window",
        "hidden",
        {"shadow": SHADOWS, "actor": ACTORS},
        (*kit.NIGHT, "storm", "fog"),
        {
            "en": "{actor} sees the shadow of {shadow} in a lit window.",
            "ru": "{actor} видит в светящемся окне тень {shadow.gen}.",
            "it": "{actor.un} vede nella finestra illuminata l'ombra {shadow.diun}.",
        },
        window,
    ),
    Scene(
        "door",
        "door",
        {"beyond": SEA + BIG + FLYERS, "actor": ACTORS},
        kit.LAND,
        {
            "en": "{actor} opens a door in the middle of nowhere, and behind it is {beyond}.",
            "ru": "{actor} открывает дверь посреди поля, а за ней — {beyond}.",
            "it": "{actor.un} apre una porta in mezzo al nulla, e dietro c'è {beyond.un}.",
        },
        field_door,
        count=8,
    ),
    Scene(
        "book",
        "door",
        {
            "rising": (*BUILDINGS, "tree", "o-rooted-tree", "dragon", "whale", "ship"),
            "reader": ACTORS,
        },
        kit.ANY,
        {
            "en": "{rising} rises from the pages of an open book, and {reader} looks on.",
            "ru": "Из раскрытой книги поднимается {rising}, а {reader} смотрит.",
            "it": "Dalle pagine di un libro aperto sorge {rising.un}, e {reader.un} guarda.",
        },
        book,
    ),
    Scene(
        "wardrobe",
        "door",
        {
            "guest": ("penguin", "polar-bear", "deer", "snowman", "wolf", "fox", "owl", "seal"),
            "actor": ACTORS,
        },
        kit.ANY,
        {
            "en": "{guest} steps out of the wardrobe with the snow, and {actor} stares.",
            "ru": "Из шкафа вместе со снегом выходит {guest}, а {actor} не верит глазам.",
            "it": "Dall'armadio esce {guest.un} insieme alla neve, e {actor.un} non crede ai "
            "suoi occhi.",
        },
        wardrobe,
    ),
    Scene(
        "spill",
        "door",
        {"swimmer": SEA, "actor": ACTORS},
        kit.ANY,
        {
            "en": "The sea and {swimmer} pour out of a painting, and {actor} holds a bucket.",
            "ru": "Из картины выливается море, а с ним выплывает {swimmer}; {actor} "
            "подставляет ведро.",
            "it": "Dal quadro si riversa il mare e ne esce {swimmer.un}; {actor.un} tiene pronto "
            "un secchio.",
        },
        spill,
    ),
    Scene(
        "hole",
        "door",
        {
            "below": (
                "planet",
                "saucer",
                "rocket",
                "whale",
                "astronaut",
                "star",
                "moon-face",
                "dragon",
                "phoenix",
            ),
            "actor": ACTORS,
        },
        kit.LAND,
        {
            "en": "{actor} looks into a hole in the ground and sees {below} in the starry sky "
            "below.",
            "ru": "{actor} заглядывает в яму, а там, внизу, звёздное небо и {below}.",
            "it": "{actor.un} guarda in una buca e laggiù vede il cielo stellato e {below.un}.",
        },
        hole,
    ),
    Scene(
        "portal",
        "door",
        {"actor": ACTORS, "thing": THINGS},
        kit.LAND,
        {
            "en": "{actor} steps through a ring of light into another world, carrying {thing}.",
            "ru": "{actor} шагает сквозь светящееся кольцо в другой мир и несёт {thing.acc}.",
            "it": "{actor.un} attraversa un anello di luce verso un altro mondo, portando "
            "{thing.un}.",
        },
        portal,
    ),
    Scene(
        "tv",
        "door",
        {"out": (*SEA, "dragon", "octopus", "giraffe", "elephant", "rocket"), "viewer": ACTORS},
        kit.LAND,
        {
            "en": "{out} climbs out of an old TV set towards {viewer}.",
            "ru": "Из старого телевизора к зрителю вылезает {out}, а {viewer} замирает.",
            "it": "{out.un} esce da un vecchio televisore, e {viewer.un} resta immobile.",
        },
        tv,
    ),
    Scene(
        "tiny-door",
        "door",
        {
            "host": (
                "tree",
                "o-rooted-tree",
                "whale",
                "moai",
                "cactus",
                "mushroom",
                "o-toadstool",
                "pumpkin",
                "elephant",
            ),
            "actor": ACTORS,
        },
        kit.LAND,
        {
            "en": "{actor} brings a huge key to a tiny door in {host}.",
            "ru": "{actor} несёт огромный ключ к крошечной двери {host.loc:в}.",
            "it": "{actor.un} porta una chiave enorme verso una porticina {host.in}.",
        },
        tiny_door,
    ),
    Scene(
        "lake",
        "mirror",
        {"actor": ACTORS + SMALL, "reflection": BIG + PREDATORS + ("unicorn",)},
        kit.LAND,
        {
            "en": "{actor} looks into the lake, and the lake shows {reflection}.",
            "ru": "{actor} смотрит в озеро, а отражается в нём {reflection}.",
            "it": "{actor.un} si specchia nel lago, ma il lago riflette {reflection.un}.",
        },
        lake,
        count=7,
    ),
    Scene(
        "mirror",
        "mirror",
        {"actor": ACTORS, "reflection": BIG + PREDATORS + ("unicorn", "phoenix")},
        kit.ANY,
        {
            "en": "{actor} looks in the mirror and sees {reflection}.",
            "ru": "{actor} смотрится в зеркало, а в зеркале — {reflection}.",
            "it": "{actor.un} si guarda allo specchio e vede {reflection.un}.",
        },
        mirror,
        count=7,
    ),
    Scene(
        "shadow",
        "mirror",
        {"actor": ACTORS + SMALL, "shadow": SHADOWS},
        kit.ANY,
        {
            "en": "{actor} casts the shadow of {shadow}.",
            "ru": "{actor} отбрасывает тень {shadow.gen}.",
            "it": "{actor.un} proietta l'ombra {shadow.diun}.",
        },
        shadow,
        count=7,
    ),
    Scene(
        "puddle",
        "mirror",
        {"actor": ACTORS, "inside": SEA + FLYERS + ("moon-face", "planet")},
        ("dawn", "desert", "fog", "meadow", "autumn", "storm"),
        {
            "en": "It is daytime, but the puddle at {actor.the}'s feet reflects the night and "
            "{inside}.",
            "ru": "Днём в луже у ног {actor.gen} отражаются ночное небо и {inside}.",
            "it": "È giorno, ma la pozzanghera ai piedi {actor.di} riflette la notte e "
            "{inside.un}.",
        },
        puddle,
    ),
)
