"""Scenes where an actor does something to something."""

from __future__ import annotations

from tools.deckgen.elements import Canvas, fmt
from tools.deckgen.model import Recipe
from tools.deckgen.second import kit
from tools.deckgen.second.scene import (
    ACTORS,
    BIG,
    BUILDINGS,
    FLYERS,
    FOOD,
    INSTRUMENTS,
    SEA,
    THINGS,
    Scene,
)


def water(c: Canvas, r: Recipe) -> None:
    rng = c.rng
    hy = kit.land(c, 440, 480)
    px = rng.uniform(220, 270)
    base = hy + 70
    kit.put(c, r.role("thing"), px, base - 58, rng.uniform(150, 190), shadow=0)
    c.add(
        f'<path d="M{fmt(px - 62)} {fmt(base - 62)}h124l-16 66h-92z" fill="#b5562f" '
        f'stroke="#6e2f17" stroke-width="3"/><rect x="{fmt(px - 68)}" y="{fmt(base - 70)}" '
        f'width="136" height="14" rx="4" fill="#c96a3d"/>'
    )
    ax = px - 150
    kit.put(c, r.role("actor"), ax, base + 6, 84, shadow=0.3)
    kit.put(c, "bucket", ax + 60, base - 62, 50, rot=-35, bottom=False)
    drops = "".join(
        f'<circle cx="{fmt(ax + 80 + i * 6)}" cy="{fmt(base - 70 + i * 5 + rng.uniform(-3, 3))}" '
        f'r="{fmt(rng.uniform(2, 3.5))}"/>'
        for i in range(8)
    )
    c.add(f'<g fill="#9fd8ff" opacity=".9">{drops}</g>')


def fishing(c: Canvas, r: Recipe) -> None:
    rng = c.rng
    kit.land(c, 470, 500)
    mx, my = rng.uniform(110, 170), rng.uniform(120, 170)
    kit.put(c, "moon-face", mx, my, 150, bottom=False, filt=kit.halo(c, "#fff2b0"))
    kit.put(c, r.role("actor"), mx + 20, my - 20, 64)
    tip_x, tip_y = mx + 130, my - 60
    c.add(
        f'<path d="M{fmt(mx + 40)} {fmt(my - 40)}L{fmt(tip_x)} {fmt(tip_y)}" stroke="#6b4a2b" '
        f'stroke-width="4" stroke-linecap="round"/>'
    )
    hook_y = rng.uniform(360, 420)
    kit.rope(c, tip_x, tip_y, tip_x + rng.uniform(-10, 10), hook_y, 0, color="#f4f1e8", width=1.4)
    kit.put(c, r.role("catch"), tip_x, hook_y + 8, 86, bottom=False, rot=rng.uniform(-15, 15))


def carry(c: Canvas, r: Recipe) -> None:
    rng = c.rng
    hy = kit.land(c, 430, 460)
    x = rng.uniform(150, 250)
    y = hy + 110
    kit.put(c, r.role("actor"), x, y, 78, shadow=0.35, flip=rng.random() < 0.5)
    big = rng.uniform(200, 240)
    kit.put(c, r.role("thing"), x, y - 64, big, rot=rng.uniform(-6, 6))
    kit.motion(c, x - 60, y - 30, 40, 3)


def balloons(c: Canvas, r: Recipe) -> None:
    rng = c.rng
    hy = kit.land(c, 460, 500)
    tx, ty = rng.uniform(170, 240), rng.uniform(250, 300)
    kit.put(c, r.role("thing"), tx, ty, 130, filt=kit.lift(c))
    for i in range(7):
        bx, by = tx + (i - 3) * 26 + rng.uniform(-8, 8), ty - 190 + abs(i - 3) * 16
        kit.rope(c, tx, ty - 110, bx, by + 20, 6, width=1.2)
        kit.put(c, "balloon", bx, by, 46, bottom=False, rot=rng.uniform(-10, 10))
    ax = rng.choice((80, 320))
    kit.put(c, r.role("actor"), ax, hy + 80, 80, shadow=0.3, flip=ax > 200)


def paint(c: Canvas, r: Recipe) -> None:
    rng = c.rng
    floor = kit.room(c)
    ex, ey, ew, eh = rng.uniform(150, 190), floor - 290, 190, 200
    c.add(
        f'<path d="M{fmt(ex + 30)} {fmt(floor + 30)}L{fmt(ex + ew / 2)} {fmt(ey - 30)}'
        f'L{fmt(ex + ew - 30)} {fmt(floor + 30)}" fill="none" stroke="#8a5a2b" stroke-width="8"/>'
    )
    c.add(f'<rect x="{fmt(ex)}" y="{fmt(ey)}" width="{ew}" height="{eh}" fill="#f5efe0"/>')
    kit.frame(c, ex, ey, ew, eh, color="#caa472", width=6)
    clip = kit.clip_path(
        c, f'<rect x="{fmt(ex)}" y="{fmt(ey - 200)}" width="{ew + 200}" height="{eh + 200}"/>'
    )
    kit.group(c, clip=clip)
    # Half in the picture, half out: the painted thing climbs over the frame.
    kit.put(c, r.role("thing"), ex + ew * 0.85, ey + eh * 0.45, 170, bottom=False, rot=-18)
    kit.end(c)
    kit.put(c, r.role("actor"), ex - 40, floor + 60, 96, shadow=0.3)
    kit.put(c, "paintbrush", ex + 10, floor - 20, 50, bottom=False, rot=40)


def feed(c: Canvas, r: Recipe) -> None:
    rng = c.rng
    hy = kit.land(c, 470, 500)
    mx, my = rng.uniform(230, 280), rng.uniform(150, 200)
    kit.put(c, "moon-face", mx, my, 190, bottom=False, filt=kit.halo(c, "#fff2b0"))
    ax = mx - 140
    c.add(
        f'<path d="M{fmt(ax - 20)} {fmt(hy + 60)}l30 -{fmt(hy - my + 10)}" stroke="#8a5a2b" '
        f'stroke-width="7"/><path d="M{fmt(ax + 20)} {fmt(hy + 60)}l30 -{fmt(hy - my + 10)}" '
        f'stroke="#8a5a2b" stroke-width="7"/>'
    )
    for i in range(1, 9):
        y = hy + 60 - i * (hy - my) / 9
        c.add(
            f'<path d="M{fmt(ax - 20 + i * 30 / 9 * 1.0)} {fmt(y)}h40" stroke="#8a5a2b" '
            f'stroke-width="5"/>'
        )
    kit.put(c, r.role("actor"), ax + 20, my + 60, 70)
    kit.put(c, "spoon", ax + 70, my + 10, 60, bottom=False, rot=-60)
    kit.put(c, r.role("food"), ax + 90, my - 2, 36, bottom=False)


def leash(c: Canvas, r: Recipe) -> None:
    rng = c.rng
    hy = kit.land(c, 440, 480)
    ax = rng.uniform(90, 140)
    ay = hy + 90
    kit.put(c, r.role("actor"), ax, ay, 90, shadow=0.35)
    tx, ty = rng.uniform(250, 310), rng.uniform(170, 260)
    kit.rope(c, ax + 25, ay - 55, tx, ty + 40, 40, color="#d94f4f", width=2.5)
    kit.put(c, r.role("pet"), tx, ty, 150, bottom=False, filt=kit.lift(c), flip=True)


def ladder(c: Canvas, r: Recipe) -> None:
    rng = c.rng
    hy = kit.land(c, 460, 500)
    lx = rng.uniform(150, 230)
    kit.put(c, "ladder", lx, hy + 70, 120, rot=0)
    kit.put(c, "ladder", lx + 8, hy - 80, 110)
    kit.put(c, "ladder", lx + 16, hy - 220, 100)
    kit.put(c, r.role("actor"), lx + 10, hy - 250, 60)
    sx, sy = lx + 70, hy - 330
    kit.rope(c, sx, 0, sx, sy - 30, 0, color="#f4f1e8", width=1.2)
    kit.put(c, r.role("thing"), sx, sy, 70, bottom=False, filt=kit.halo(c, "#fff3b0"))


def music(c: Canvas, r: Recipe) -> None:
    rng = c.rng
    hy = kit.land(c, 440, 480)
    ax = rng.uniform(100, 150)
    kit.put(c, r.role("actor"), ax, hy + 100, 100, shadow=0.35)
    kit.put(c, r.role("instrument"), ax + 55, hy + 60, 70, bottom=False, rot=-15)
    for i in range(6):
        t = i / 5
        x = ax + 90 + t * 200 + rng.uniform(-15, 15)
        y = hy - 20 - t * 300 + rng.uniform(-20, 20)
        if i < 3:
            kit.put(c, "note", x, y, 30 + i * 4, bottom=False, rot=rng.uniform(-20, 20))
        else:
            kit.put(c, r.role("flyer"), x, y, 38 + i * 6, bottom=False, flip=rng.random() < 0.5)


def dream(c: Canvas, r: Recipe) -> None:
    rng = c.rng
    floor = kit.room(c)
    bx = rng.uniform(110, 160)
    kit.put(c, "bed", bx, floor + 80, 200)
    kit.put(c, r.role("actor"), bx - 25, floor - 5, 80, rot=-80)
    cx, cy = rng.uniform(240, 270), rng.uniform(180, 220)
    kit.bubble(c, cx, cy, 120, 95, bx, floor - 40)
    kit.put(c, r.role("dream"), cx, cy, 120, bottom=False)
    kit.snore(c, bx + 40, floor - 80)


def cage(c: Canvas, r: Recipe) -> None:
    rng = c.rng
    hy = kit.land(c, 440, 480)
    cx, top = rng.uniform(180, 220), hy - 220
    kit.put(c, r.role("inside"), cx, top + 150, 110, bottom=False, filt=kit.halo(c, "#fff2b0"))
    bars = "".join(
        f'<path d="M{fmt(cx - 90 + i * 18)} {fmt(top + 40)}V{fmt(top + 250)}"/>' for i in range(11)
    )
    c.add(
        f'<g stroke="#d8b45a" stroke-width="4">{bars}</g><path d="M{fmt(cx - 92)} '
        f'{fmt(top + 42)}Q{fmt(cx)} {fmt(top - 50)} {fmt(cx + 92)} {fmt(top + 42)}" fill="none" '
        f'stroke="#d8b45a" stroke-width="6"/><rect x="{fmt(cx - 100)}" y="{fmt(top + 245)}" '
        f'width="200" height="16" rx="5" fill="#a8842f"/>'
    )
    kit.put(c, r.role("flyer"), cx + 70, top - 10, 70, flip=True)


def lantern(c: Canvas, r: Recipe) -> None:
    rng = c.rng
    hy = kit.land(c, 440, 480)
    ax = rng.uniform(140, 200)
    kit.put(c, r.role("actor"), ax, hy + 100, 110, shadow=0.35)
    lx, ly = ax + 85, hy - 20
    kit.glow(c, lx, ly + 30, 120, "#ffe9a8", 0.55)
    kit.rope(c, ax + 40, hy + 10, lx, ly - 40, -10, color="#3b2a1a", width=3)
    c.add(
        f'<rect x="{fmt(lx - 35)}" y="{fmt(ly - 40)}" width="70" height="95" rx="10" '
        f'fill="#fff4c8" fill-opacity=".35" stroke="#3b2a1a" stroke-width="5"/>'
    )
    kit.put(c, r.role("light"), lx, ly + 8, 52, bottom=False, filt=kit.halo(c, "#fff2b0"))


def shell(c: Canvas, r: Recipe) -> None:
    rng = c.rng
    hy = kit.land(c, 440, 470)
    ax = rng.uniform(100, 150)
    kit.put(c, r.role("actor"), ax, hy + 110, 110, shadow=0.35)
    sx, sy = ax + 70, hy + 10
    kit.put(c, "shell", sx, sy, 70, bottom=False, rot=-20)
    for i in range(3):
        c.add(
            f'<path d="M{fmt(sx + 40 + i * 16)} {fmt(sy - 30 - i * 12)}q30 -20 60 0" '
            f'fill="none" stroke="#bfe6ff" stroke-width="3" opacity=".7"/>'
        )
    kit.put(c, r.role("thing"), sx + 130, sy - 110, 140, bottom=False, filt=kit.lift(c))


SCENES = (
    Scene(
        "water",
        "deed",
        {"actor": ACTORS, "thing": (*BUILDINGS, "rocket", "teapot", "o-piano")},
        kit.LAND,
        {
            "en": "{actor} waters a flowerpot, and {thing} is sprouting from it.",
            "ru": "{actor} поливает цветочный горшок, а из него растёт {thing}.",
            "it": "{actor.un} innaffia un vaso da cui spunta {thing.un}.",
        },
        water,
    ),
    Scene(
        "fishing",
        "deed",
        {"actor": ACTORS, "catch": (*THINGS, "o-gramophone")},
        kit.LAND + kit.WATER,
        {
            "en": "{actor} fishes from the moon and pulls up {catch}.",
            "ru": "{actor} рыбачит с луны и вылавливает {catch.acc}.",
            "it": "{actor.un} pesca dalla luna e tira su {catch.un}.",
        },
        fishing,
    ),
    Scene(
        "carry",
        "deed",
        {
            "actor": (
                "mouse",
                "snail",
                "hedgehog",
                "frog",
                "chick",
                "ladybug",
                "hamster",
                "chipmunk",
                "duck",
                "turtle",
            ),
            "thing": (*BUILDINGS, "whale", "elephant", "o-piano", "anchor"),
        },
        kit.LAND,
        {
            "en": "{actor} carries {thing} on its back.",
            "ru": "{actor} несёт на спине {thing.acc}.",
            "it": "{actor.un} porta {thing.un} sulla schiena.",
        },
        carry,
    ),
    Scene(
        "balloons",
        "deed",
        {
            "thing": (
                "house",
                "whale",
                "o-piano",
                "elephant",
                "hippo",
                "o-pink-house",
                "castle",
                "bathtub",
                "o-tv",
                "ship",
            ),
            "actor": ACTORS,
        },
        kit.LAND,
        {
            "en": "Balloons carry {thing} away, and {actor} cannot catch up.",
            "ru": "Воздушные шарики уносят {thing.acc}, а {actor} не может их догнать.",
            "it": "I palloncini portano via {thing.un}, e {actor.un} non riesce a raggiungerli.",
        },
        balloons,
    ),
    Scene(
        "paint",
        "deed",
        {
            "actor": ACTORS,
            "thing": (*SEA, "dragon", "tiger", "lion", "unicorn", "giraffe", "crocodile"),
        },
        kit.ANY,
        {
            "en": "{actor} paints {thing}, and it climbs out of the canvas.",
            "ru": "{actor} рисует {thing.acc}, а {thing?он|она|оно} вылезает из картины.",
            "it": "{actor.un} dipinge {thing.un} che esce dalla tela.",
        },
        paint,
    ),
    Scene(
        "feed",
        "deed",
        {"actor": ACTORS, "food": FOOD},
        kit.LAND,
        {
            "en": "{actor} climbs a ladder to feed the moon {food}.",
            "ru": "{actor} забирается по лестнице, чтобы покормить луну: на ужин {food}.",
            "it": "{actor.un} sale su una scala per imboccare la luna: per cena c'è {food.un}.",
        },
        feed,
    ),
    Scene(
        "leash",
        "deed",
        {
            "actor": ACTORS,
            "pet": (*SEA, "o-piano", "teapot", "rocket", "saucer", "planet", "dragon", "globe"),
        },
        kit.ANY,
        {
            "en": "{actor} takes {pet} for a walk on a leash.",
            "ru": "{actor} выгуливает на поводке {pet.acc}.",
            "it": "{actor.un} porta a spasso {pet.un} al guinzaglio.",
        },
        leash,
    ),
    Scene(
        "ladder",
        "deed",
        {
            "actor": ACTORS,
            "thing": (
                "star",
                "light-bulb",
                "paper-lantern",
                "clock",
                "planet",
                "snowflake",
                "bell",
                "crystal-ball",
                "gem",
                "candle",
            ),
        },
        kit.NIGHT,
        {
            "en": "{actor} climbs up a ladder to hang {thing} in the sky.",
            "ru": "{actor} забирается по лестнице, чтобы повесить на небо {thing.acc}.",
            "it": "{actor.un} sale su una scala per appendere {thing.un} al cielo.",
        },
        ladder,
    ),
    Scene(
        "music",
        "deed",
        {"actor": ACTORS, "instrument": INSTRUMENTS, "flyer": FLYERS},
        kit.LAND + kit.WATER,
        {
            "en": "{actor} plays the {instrument.bare}, and the notes fly away as {flyer.pl}.",
            "ru": "{actor} играет {instrument.loc:на}, а из нот вылетают {flyer.npl}.",
            "it": "{actor.un} suona {instrument}, e le note volano via come {flyer.pl}.",
        },
        music,
    ),
    Scene(
        "dream",
        "deed",
        {"actor": ACTORS, "dream": BIG + SEA + BUILDINGS + ("rocket", "saucer")},
        kit.ANY,
        {
            "en": "{actor} is asleep and dreams of {dream}.",
            "ru": "{actor.dat} снится {dream}.",
            "it": "{actor.un} dorme e sogna {dream.un}.",
        },
        dream,
    ),
    Scene(
        "cage",
        "deed",
        {
            "inside": (
                "moon-face",
                "star",
                "light-bulb",
                "planet",
                "snowflake",
                "crystal-ball",
                "fish",
                "teapot",
                "clock",
                "apple",
            ),
            "flyer": FLYERS,
        },
        kit.LAND,
        {
            "en": "{flyer} sits on top of the cage, and inside it is {inside}.",
            "ru": "{flyer} сидит на клетке, а в клетке — {inside}.",
            "it": "{flyer.un} è sopra la gabbia, e dentro c'è {inside.un}.",
        },
        cage,
    ),
    Scene(
        "lantern",
        "deed",
        {
            "actor": ACTORS,
            "light": (
                "fish",
                "star",
                "moon-face",
                "butterfly",
                "jellyfish",
                "bee",
                "snowflake",
                "strawberry",
                "ring",
                "gem",
            ),
        },
        (*kit.NIGHT, "fog", "storm"),
        {
            "en": "{actor} lights the way with a lantern, and inside it is {light}.",
            "ru": "{actor} освещает дорогу фонарём, а в фонаре — {light}.",
            "it": "{actor.un} fa luce con una lanterna, e dentro c'è {light.un}.",
        },
        lantern,
    ),
    Scene(
        "shell",
        "deed",
        {
            "actor": ACTORS,
            "thing": (
                "ship",
                "sailboat",
                "whale",
                "dolphin",
                "o-lighthouse",
                "octopus",
                "seal",
                "jellyfish",
                "anchor",
            ),
        },
        kit.LAND + kit.WATER,
        {
            "en": "{actor} listens to a seashell, and {thing} comes out of it.",
            "ru": "{actor} слушает ракушку, а из неё выплывает {thing}.",
            "it": "{actor.un} ascolta una conchiglia, e ne esce {thing.un}.",
        },
        shell,
    ),
)
