"""Scenes of impossible scale or physics, and of two things in tension."""

from __future__ import annotations

from tools.deckgen.elements import Canvas, fmt, linear_gradient
from tools.deckgen.model import H, Recipe, W
from tools.deckgen.second import kit
from tools.deckgen.second.scene import (
    ACTORS,
    BIG,
    BUILDINGS,
    FLYERS,
    FOOD,
    PLANTS,
    PREDATORS,
    SEA,
    SMALL,
    THINGS,
    Scene,
)

LAND_BIG = (
    "elephant", "hippo", "giraffe", "t-rex", "sauropod", "dragon", "mammoth", "polar-bear",
    "camel", "wolf", "lion", "tiger", "crocodile", "bear",
)  # fmt: skip

# ------------------------------------------------------------------ scale and physics


def teacup(c: Canvas, r: Recipe) -> None:
    rng = c.rng
    floor = kit.room(c)
    cx = rng.uniform(170, 230)
    kit.put(c, "cup", cx, floor + 60, 260, shadow=0.35)
    kit.put(
        c, r.role("swimmer"), cx + rng.uniform(-20, 20), floor - 110, 120, flip=rng.random() < 0.5
    )
    c.add(
        f'<ellipse cx="{fmt(cx)}" cy="{fmt(floor - 112)}" rx="112" ry="16" fill="#c98b4a" '
        f'opacity=".55"/>'
    )
    kit.put(c, r.role("actor"), cx + 150, floor + 70, 70, shadow=0.3, flip=True)


def town(c: Canvas, r: Recipe) -> None:
    rng = c.rng
    hy = kit.land(c, 470, 500)
    cx, cy = rng.uniform(180, 220), hy - 40
    box = kit.put(c, r.role("carrier"), cx, hy + 70, 330, flip=rng.random() < 0.5)
    top = box[1] + box[3] * 0.22
    for i, dx in enumerate((-70, -20, 35, 80)):
        kit.put(c, r.role("building"), cx + dx, top + abs(dx) * 0.25, 54 - i * 4)
    kit.put(c, "fir", cx - 100, top + 25, 40)
    _ = cy


def peek(c: Canvas, r: Recipe) -> None:
    rng = c.rng
    hy = rng.uniform(400, 440)
    from tools.deckgen.scenery import backdrop, ground

    backdrop(c, hy)
    gx = rng.uniform(160, 240)
    kit.put(c, r.role("giant"), gx, hy + 150, 380)
    ground(c, hy)
    kit.put(c, r.role("small"), rng.uniform(120, 280), hy + 120, 60, shadow=0.35)


def bulb(c: Canvas, r: Recipe) -> None:
    rng = c.rng
    floor = kit.room(c)
    cx, cy, rad = rng.uniform(180, 220), floor - 170, 120
    clip = kit.clip_path(c, f'<circle cx="{fmt(cx)}" cy="{fmt(cy)}" r="{rad - 4}"/>')
    kit.group(c, clip=clip)
    g = linear_gradient(c, list(c.st.sky))
    c.add(
        f'<rect x="{fmt(cx - rad)}" y="{fmt(cy - rad)}" width="{rad * 2}" height="{rad * 2}" '
        f'fill="url(#{g})"/>'
    )
    c.add(
        f'<ellipse cx="{fmt(cx)}" cy="{fmt(cy + 90)}" rx="130" ry="40" '
        f'fill="{c.st.ground_colors[0]}"/>'
    )
    kit.put(c, r.role("plant"), cx - 20, cy + 70, 130)
    kit.put(c, r.role("actor"), cx + 50, cy + 80, 56)
    kit.end(c)
    c.add(
        f'<circle cx="{fmt(cx)}" cy="{fmt(cy)}" r="{rad}" fill="#fff8d8" fill-opacity=".12" '
        f'stroke="#fff6d0" stroke-width="4" stroke-opacity=".7"/>'
        f'<rect x="{fmt(cx - 50)}" y="{fmt(cy + rad - 8)}" width="100" height="70" rx="8" '
        f'fill="#9aa3ad"/><path d="M{fmt(cx - 50)} {fmt(cy + rad + 14)}h100M{fmt(cx - 50)} '
        f'{fmt(cy + rad + 34)}h100" stroke="#6d747c" stroke-width="5"/>'
    )
    kit.glow(c, cx, cy, rad * 1.6, "#fff3c0", 0.35)


def upfall(c: Canvas, r: Recipe) -> None:
    rng = c.rng
    hy = kit.land(c, 430, 470)
    wx = rng.uniform(170, 230)
    g = linear_gradient(c, ["#e6f7ff", "#7fc8f0"])
    c.add(
        f'<path d="M{fmt(wx - 60)} {fmt(hy + 40)}C{fmt(wx - 40)} {fmt(hy - 200)} {fmt(wx - 20)} '
        f"-20 {fmt(wx - 10)} -20H{fmt(wx + 40)}C{fmt(wx + 40)} 100 {fmt(wx + 60)} "
        f'{fmt(hy - 150)} {fmt(wx + 70)} {fmt(hy + 40)}Z" fill="url(#{g})" opacity=".75"/>'
    )
    kit.put(
        c,
        r.role("thing"),
        wx + 5,
        rng.uniform(190, 260),
        100,
        bottom=False,
        rot=rng.uniform(-20, 20),
    )
    kit.put(c, r.role("actor"), wx + rng.choice((-120, 130)), hy + 110, 80, shadow=0.35)


def bottle(c: Canvas, r: Recipe) -> None:
    rng = c.rng
    hy = kit.land(c, 360, 400)
    bx, by = rng.uniform(170, 230), hy + 60
    c.add(
        f'<path d="M{fmt(bx - 130)} {fmt(by)}Q{fmt(bx - 130)} {fmt(by - 80)} {fmt(bx - 60)} '
        f"{fmt(by - 80)}H{fmt(bx + 90)}L{fmt(bx + 120)} {fmt(by - 55)}H{fmt(bx + 150)}V"
        f"{fmt(by - 25)}H{fmt(bx + 120)}L{fmt(bx + 90)} {fmt(by + 2)}H{fmt(bx - 60)}Q"
        f'{fmt(bx - 130)} {fmt(by + 2)} {fmt(bx - 130)} {fmt(by)}Z" fill="#bfeee0" '
        f'fill-opacity=".3" stroke="#e8fff6" stroke-width="3"/>'
    )
    kit.put(c, r.role("thing"), bx - 20, by - 4, 110)
    c.add(
        f'<rect x="{fmt(bx + 145)}" y="{fmt(by - 52)}" width="22" height="24" rx="4" '
        f'fill="#b07a45"/>'
    )
    kit.put(c, r.role("flyer"), bx + 150, by - 52, 48, flip=True)


def fruit_house(c: Canvas, r: Recipe) -> None:
    rng = c.rng
    hy = kit.land(c, 440, 480)
    fx = rng.uniform(170, 230)
    box = kit.put(c, r.role("home"), fx, hy + 70, 230, shadow=0.35)
    dx, dy = fx - 10, box[1] + box[3] * 0.86
    c.add(
        f'<path d="{kit.door_shape(dx - 18, dy, 36, 56)}" fill="#5a3320" stroke="#2e1a10" '
        f'stroke-width="2"/><circle cx="{fmt(dx + 40)}" cy="{fmt(dy - 80)}" r="16" '
        f'fill="#ffe9a0" stroke="#5a3320" stroke-width="4"/>'
    )
    c.add(
        f'<rect x="{fmt(fx + 40)}" y="{fmt(box[1] - 10)}" width="14" height="30" fill="#6d4a3a"/>'
        f'<circle cx="{fmt(fx + 52)}" cy="{fmt(box[1] - 30)}" r="10" fill="#eee" opacity=".5"/>'
        f'<circle cx="{fmt(fx + 62)}" cy="{fmt(box[1] - 52)}" r="13" fill="#eee" opacity=".35"/>'
    )
    kit.put(c, r.role("actor"), dx + 70, hy + 100, 66, shadow=0.3)


def swing(c: Canvas, r: Recipe) -> None:
    rng = c.rng
    kit.land(c, 480, 520)
    mx, my = rng.uniform(180, 220), rng.uniform(110, 140)
    kit.put(c, "moon-face", mx, my, 170, bottom=False, filt=kit.halo(c, "#fff2b0"))
    sy = rng.uniform(380, 420)
    ang = rng.uniform(-14, 14)
    c.add(f'<g transform="rotate({fmt(ang)} {fmt(mx)} {fmt(my)})">')
    kit.rope(c, mx - 40, my + 50, mx - 40, sy, 0, width=2)
    kit.rope(c, mx + 40, my + 50, mx + 40, sy, 0, width=2)
    c.add(f'<rect x="{fmt(mx - 55)}" y="{fmt(sy)}" width="110" height="10" rx="3" fill="#8a5a2b"/>')
    kit.put(c, r.role("actor"), mx, sy + 6, 80)
    c.add("</g>")
    kit.put(
        c,
        r.role("flyer"),
        rng.choice((70, 330)),
        rng.uniform(250, 320),
        50,
        bottom=False,
        flip=rng.random() < 0.5,
    )


def stack(c: Canvas, r: Recipe) -> None:
    rng = c.rng
    hy = kit.land(c, 450, 480)
    x = rng.uniform(180, 220)
    y = hy + 110
    kit.put(c, r.role("actor"), x, y, 110, shadow=0.35)
    kit.put(c, r.role("small"), x + 5, y - 100, 60, rot=rng.uniform(-8, 8))
    kit.put(c, r.role("big"), x + 10, y - 150, 210, rot=rng.uniform(-10, 10))
    kit.motion(c, x - 120, y - 250, -20, 2)


def kite(c: Canvas, r: Recipe) -> None:
    rng = c.rng
    hy = kit.land(c, 440, 480)
    ax = rng.uniform(70, 120)
    kit.put(c, r.role("actor"), ax, hy + 110, 90, shadow=0.35)
    kx, ky = rng.uniform(260, 320), rng.uniform(120, 180)
    kit.rope(c, ax + 30, hy + 50, kx - 20, ky + 40, 80, width=1.4)
    kit.put(
        c, r.role("thing"), kx, ky, 140, bottom=False, rot=rng.uniform(-25, 25), filt=kit.lift(c)
    )
    for i in range(4):
        c.add(
            f'<path d="M{fmt(kx - 10 + i * 6)} {fmt(ky + 60 + i * 26)}l10 8l-10 8" fill="none" '
            f'stroke="#ffd166" stroke-width="4"/>'
        )


def hourglass(c: Canvas, r: Recipe) -> None:
    rng = c.rng
    kit.land(c, 500, 530)
    cx = rng.uniform(185, 215)
    top, mid, bot = 70.0, 300.0, 530.0
    glass = (
        f"M{fmt(cx - 130)} {top}H{fmt(cx + 130)}C{fmt(cx + 130)} 200 {fmt(cx + 20)} 260 "
        f"{fmt(cx + 14)} {mid}C{fmt(cx + 20)} 340 {fmt(cx + 130)} 400 {fmt(cx + 130)} {bot}"
        f"H{fmt(cx - 130)}C{fmt(cx - 130)} 400 {fmt(cx - 20)} 340 {fmt(cx - 14)} {mid}"
        f"C{fmt(cx - 20)} 260 {fmt(cx - 130)} 200 {fmt(cx - 130)} {top}Z"
    )
    clip = kit.clip_path(c, f'<path d="{glass}"/>')
    kit.group(c, clip=clip)
    c.add(f'<path d="M0 190Q{fmt(cx)} 150 {W} 190V300H0Z" fill="#e7b872"/>')
    c.add(f'<path d="M0 {bot}V460Q{fmt(cx)} 400 {W} 460V{bot}Z" fill="#e7b872"/>')
    c.add(f'<rect x="{fmt(cx - 2)}" y="{mid}" width="4" height="170" fill="#e7b872"/>')
    kit.put(c, r.role("a"), cx - 40, 185, 70)
    kit.put(c, r.role("b"), cx + 20, 455, 90)
    kit.end(c)
    c.add(
        f'<path d="{glass}" fill="#dff4ff" fill-opacity=".12" stroke="#f3fbff" '
        f'stroke-width="4" stroke-opacity=".8"/>'
        f'<rect x="{fmt(cx - 150)}" y="{top - 22}" width="300" height="24" rx="6" fill="#7a4b2c"/>'
        f'<rect x="{fmt(cx - 150)}" y="{bot - 2}" width="300" height="24" rx="6" fill="#7a4b2c"/>'
    )


def swap(c: Canvas, r: Recipe) -> None:
    rng = c.rng
    floor = kit.room(c)
    bx = rng.uniform(100, 130)
    c.add(
        f'<circle cx="{fmt(bx)}" cy="{fmt(floor - 80)}" r="75" fill="#bfe9ff" fill-opacity=".35" '
        f'stroke="#ffffff" stroke-width="3" stroke-opacity=".7"/>'
    )
    kit.put(c, r.role("flyer"), bx, floor - 80, 80, bottom=False)
    cx = bx + 180
    kit.put(c, r.role("fish"), cx, floor - 80, 80, bottom=False)
    bars = "".join(
        f'<path d="M{fmt(cx - 70 + i * 14)} {fmt(floor - 190)}V{fmt(floor - 5)}"/>'
        for i in range(11)
    )
    c.add(
        f'<g stroke="#d8b45a" stroke-width="3.5">{bars}</g><path d="M{fmt(cx - 72)} '
        f'{fmt(floor - 190)}Q{fmt(cx)} {fmt(floor - 270)} {fmt(cx + 72)} {fmt(floor - 190)}" '
        f'fill="none" stroke="#d8b45a" stroke-width="5"/><rect x="{fmt(cx - 80)}" '
        f'y="{fmt(floor - 8)}" width="160" height="14" rx="4" fill="#a8842f"/>'
    )


# ------------------------------------------------------------------ tension


def tug(c: Canvas, r: Recipe) -> None:
    rng = c.rng
    hy = kit.land(c, 440, 470)
    y = hy + 110
    kit.put(c, r.role("a"), 70, y, 100, shadow=0.35)
    kit.put(c, r.role("b"), 330, y, 100, shadow=0.35, flip=True)
    kit.rope(c, 105, y - 45, 295, y - 45, 10, color="#caa26a", width=5)
    c.add(f'<rect x="195" y="{fmt(y - 50)}" width="10" height="22" fill="#d94f4f"/>')
    kit.motion(c, 40, y - 50, 25, 2)
    _ = rng


def seesaw(c: Canvas, r: Recipe) -> None:
    rng = c.rng
    hy = kit.land(c, 440, 470)
    px, py = rng.uniform(185, 215), hy + 70
    ang = 14.0  # the big one's end up in the air: the small one outweighs it
    c.add(
        f'<path d="M{fmt(px - 30)} {fmt(py + 30)}L{fmt(px)} {fmt(py - 10)}L{fmt(px + 30)} '
        f'{fmt(py + 30)}Z" fill="#7a4b2c"/>'
    )
    c.add(f'<g transform="rotate({fmt(ang)} {fmt(px)} {fmt(py - 10)})">')
    c.add(
        f'<rect x="{fmt(px - 170)}" y="{fmt(py - 20)}" width="340" height="12" rx="4" '
        f'fill="#b07a45"/>'
    )
    kit.put(c, r.role("small"), px + 140, py - 20, 44)
    kit.put(c, r.role("big"), px - 120, py - 20, 150)
    c.add("</g>")


def tightrope(c: Canvas, r: Recipe) -> None:
    rng = c.rng
    hy = kit.land(c, 480, 520)
    lh, rh = rng.uniform(230, 270), rng.uniform(200, 240)
    c.add(
        f'<rect x="10" y="{fmt(lh)}" width="40" height="{fmt(H - lh)}" fill="#5d4a5e"/>'
        f'<rect x="350" y="{fmt(rh)}" width="40" height="{fmt(H - rh)}" fill="#5d4a5e"/>'
    )
    kit.rope(c, 30, lh, 370, rh, 30, color="#efe6d0", width=2)
    mx = rng.uniform(170, 230)
    my = (lh + rh) / 2 + 28
    kit.put(c, r.role("actor"), mx, my + 2, 76)
    c.add(
        f'<path d="M{fmt(mx - 80)} {fmt(my - 30)}L{fmt(mx + 80)} {fmt(my - 44)}" '
        f'stroke="#3b2a1a" stroke-width="3"/>'
    )
    kit.put(c, r.role("thing"), mx + 6, my - 70, 56)
    _ = hy


def steal(c: Canvas, r: Recipe) -> None:
    rng = c.rng
    hy = kit.land(c, 440, 470)
    px = rng.uniform(220, 260)
    kit.put(c, r.role("sleeper"), px, hy + 120, 210, shadow=0.4, rot=-8)
    kit.snore(c, px + 40, hy - 80)
    kit.put(c, r.role("thief"), px - 150, hy + 120, 60, shadow=0.3)
    kit.put(c, r.role("thing"), px - 120, hy + 40, 40, bottom=False, filt=kit.halo(c, "#fff0a0"))


def last_piece(c: Canvas, r: Recipe) -> None:
    rng = c.rng
    floor = kit.room(c)
    ty = floor + 10
    c.add(
        f'<ellipse cx="200" cy="{fmt(ty)}" rx="120" ry="22" fill="#8a5a2b"/>'
        f'<rect x="190" y="{fmt(ty)}" width="20" height="90" fill="#6b4631"/>'
    )
    c.add(f'<ellipse cx="200" cy="{fmt(ty - 8)}" rx="40" ry="8" fill="#f4efe6"/>')
    kit.put(c, r.role("food"), 200, ty - 8, 56)
    kit.put(c, r.role("a"), 70, floor + 80, 100, shadow=0.3)
    kit.put(c, r.role("b"), 330, floor + 80, 100, shadow=0.3, flip=True)
    _ = rng


def standoff(c: Canvas, r: Recipe) -> None:
    rng = c.rng
    kit.sky_only(c)
    cl, cr = rng.uniform(360, 400), rng.uniform(360, 400)
    col = c.st.ground_colors[1]
    c.add(
        f'<path d="M0 {fmt(cl)}H150L130 {H}H0Z" fill="{col}"/>'
        f'<path d="M{W} {fmt(cr)}H250L270 {H}H{W}Z" fill="{col}"/>'
    )
    for i in range(4):
        c.add(
            f'<rect x="{150 + i * 14}" y="{fmt(cl + 4 + i * 10)}" width="11" height="5" '
            f'fill="#8a5a2b" transform="rotate({25 + i * 8} {150 + i * 14} {fmt(cl + i * 10)})"/>'
        )
        c.add(
            f'<rect x="{240 - i * 14}" y="{fmt(cr + 4 + i * 10)}" width="11" height="5" '
            f'fill="#8a5a2b" transform="rotate({-25 - i * 8} {240 - i * 14} {fmt(cr + i * 10)})"/>'
        )
    kit.put(c, r.role("a"), 80, cl + 2, 100)
    kit.put(c, r.role("b"), 320, cr + 2, 100, flip=True)


def knock(c: Canvas, r: Recipe) -> None:
    rng = c.rng
    hy = kit.land(c, 450, 480)
    hx = rng.uniform(220, 260)
    base = hy + 100
    c.add(
        f'<rect x="{fmt(hx - 110)}" y="{fmt(base - 260)}" width="220" height="260" '
        f'fill="#c98b5a"/><path d="M{fmt(hx - 130)} {fmt(base - 258)}L{fmt(hx)} '
        f'{fmt(base - 360)}L{fmt(hx + 130)} {fmt(base - 258)}Z" fill="#8c3b2b"/>'
    )
    c.add(
        f'<rect x="{fmt(hx - 90)}" y="{fmt(base - 170)}" width="60" height="170" '
        f'fill="#6b3f22"/><circle cx="{fmt(hx - 42)}" cy="{fmt(base - 85)}" r="4" '
        f'fill="#f2c14e"/>'
    )
    c.add(f'<rect x="{fmt(hx + 5)}" y="{fmt(base - 200)}" width="85" height="85" fill="#ffe5a0"/>')
    kit.put(c, r.role("lurker"), hx + 48, base - 115, 80, color="#2a1d1a")
    c.add(
        f'<path d="M{fmt(hx + 47)} {fmt(base - 200)}v85M{fmt(hx + 5)} {fmt(base - 157)}h85" '
        f'stroke="#6b3f22" stroke-width="5"/>'
    )
    kit.put(c, r.role("guest"), hx - 150, base + 10, 80, shadow=0.3)


def chase(c: Canvas, r: Recipe) -> None:
    rng = c.rng
    hy = kit.land(c, 440, 470)
    y = hy + 110
    bx = rng.uniform(260, 300)
    kit.put(c, r.role("big"), bx, y, 170, shadow=0.35, flip=True)
    kit.motion(c, bx - 90, y - 70, -40, 3)
    sx = bx - 190
    kit.put(c, r.role("small"), sx, y + 5, 60, shadow=0.3, flip=True)
    kit.motion(c, sx - 30, y - 25, 30, 3)


SCENES = (
    Scene(
        "teacup",
        "scale",
        {"swimmer": (*SEA, "ship", "sailboat", "swan", "duck"), "actor": ACTORS},
        kit.ANY,
        {
            "en": "{actor} watches {swimmer} swim in a cup of tea.",
            "ru": "{actor} смотрит, как в чашке чая плавает {swimmer}.",
            "it": "{actor.un} guarda {swimmer.un} che nuota in una tazza di tè.",
        },
        teacup,
    ),
    Scene(
        "town",
        "scale",
        {
            "carrier": (
                "whale",
                "turtle",
                "elephant",
                "sauropod",
                "camel",
                "mammoth",
                "hippo",
                "snail",
            ),
            "building": ("house", "hut", "church", "o-pink-house", "tent", "pagoda", "castle"),
        },
        kit.LAND + kit.WATER,
        {
            "en": "{building.pl} stand on the back of {carrier}: a whole village.",
            "ru": "На спине у {carrier.gen} стоят {building.npl} — целая деревня.",
            "it": "Sul dorso {carrier.diun} sorgono {building.pl}: un intero villaggio.",
        },
        town,
    ),
    Scene(
        "peek",
        "scale",
        {
            "giant": (
                "elephant",
                "giraffe",
                "t-rex",
                "sauropod",
                "dragon",
                "mammoth",
                "polar-bear",
                "cat",
                "rabbit",
                "owl",
                "fox",
                "bear",
                "ghost",
                "robot",
                "snowman",
            ),
            "small": (*SMALL, "house", "tent", "astronaut"),
        },
        kit.LAND,
        {
            "en": "{giant} peeks over the hills at {small}.",
            "ru": "Из-за холмов выглядывает {giant} и смотрит на {small.acc}.",
            "it": "{giant.un} sbircia da dietro le colline e guarda {small.un}.",
        },
        peek,
    ),
    Scene(
        "bulb",
        "scale",
        {"plant": PLANTS, "actor": ACTORS},
        kit.ANY,
        {
            "en": "Inside a light bulb, {actor} sits under {plant}.",
            "ru": "Внутри лампочки {actor} сидит под {plant.ins}.",
            "it": "Dentro una lampadina {actor.un} siede sotto {plant.un}.",
        },
        bulb,
    ),
    Scene(
        "upfall",
        "scale",
        {"thing": (*SEA, "ship", "sailboat", "boot", "umbrella", "teapot"), "actor": ACTORS},
        kit.LAND,
        {
            "en": "A waterfall flows up into the sky and carries {thing} with it; {actor} watches.",
            "ru": "Водопад течёт вверх и уносит в небо {thing.acc}, а {actor} смотрит.",
            "it": "Una cascata sale verso il cielo e porta con sé {thing.un}; {actor.un} guarda.",
        },
        upfall,
    ),
    Scene(
        "bottle",
        "scale",
        {
            "thing": (*BUILDINGS, "ship", "whale", "tree", "palm"),
            "flyer": ("bird", "dove", "parrot", "swan", "owl", "eagle"),
        },
        kit.WATER,
        {
            "en": "{thing} drifts across the sea in a bottle, and {flyer} rides on the cork.",
            "ru": "{thing} плывёт по морю в бутылке, а на пробке сидит {flyer}.",
            "it": "{thing.un} va alla deriva in una bottiglia, e sul tappo siede {flyer.un}.",
        },
        bottle,
    ),
    Scene(
        "fruit-house",
        "scale",
        {
            "home": (
                "watermelon",
                "pumpkin",
                "apple",
                "pear",
                "pineapple",
                "teapot",
                "boot",
                "mushroom",
                "lemon",
                "o-toadstool",
                "peach",
            ),
            "actor": ACTORS,
        },
        kit.LAND,
        {
            "en": "{actor} lives in {home}.",
            "ru": "{actor} живёт {home.loc:в}.",
            "it": "{actor.un} abita dentro {home.un}.",
        },
        fruit_house,
    ),
    Scene(
        "swing",
        "physics",
        {"actor": ACTORS, "flyer": FLYERS},
        kit.LAND + kit.WATER,
        {
            "en": "{actor} swings on a swing hung from the moon; {flyer} flies past.",
            "ru": "{actor} качается на качелях, подвешенных к луне, а мимо летит {flyer}.",
            "it": "{actor.un} si dondola su un'altalena appesa alla luna, e passa in volo "
            "{flyer.un}.",
        },
        swing,
    ),
    Scene(
        "stack",
        "physics",
        {
            "actor": ACTORS,
            "small": ("egg", "die", "cup", "apple", "puzzle", "ring", "top-hat", "bell"),
            "big": (*BIG, "house", "o-piano", "castle"),
        },
        kit.LAND,
        {
            "en": "{actor} balances {small} on its head, and {big} on top of it.",
            "ru": "{actor} держит на голове {small.acc}, а сверху ещё и {big.acc}.",
            "it": "{actor.un} tiene in equilibrio sulla testa {small.un}, e sopra {big.un}.",
        },
        stack,
    ),
    Scene(
        "kite",
        "physics",
        {
            "actor": ACTORS,
            "thing": (*SEA, "teapot", "boot", "o-piano", "umbrella", "book", "dragon"),
        },
        kit.LAND,
        {
            "en": "{actor} flies {thing} like a kite.",
            "ru": "{actor} запускает {thing.acc} вместо воздушного змея.",
            "it": "{actor.un} fa volare {thing.un} come un aquilone.",
        },
        kite,
    ),
    Scene(
        "hourglass",
        "physics",
        {
            "a": ACTORS,
            "b": ("camel", "sailboat", "palm", "cactus", "turtle", "crab", "tent", "snail"),
        },
        kit.LAND,
        {
            "en": "In an hourglass, {a} waits at the top while the sand buries {b} below.",
            "ru": "В песочных часах {a} ждёт наверху, а внизу песок засыпает {b.acc}.",
            "it": "In una clessidra {a.un} aspetta in alto, mentre in basso la sabbia "
            "copre {b.un}.",
        },
        hourglass,
        count=5,
    ),
    Scene(
        "swap",
        "physics",
        {
            "flyer": ("bird", "parrot", "owl", "dove", "bat", "eagle", "flamingo", "butterfly"),
            "fish": (
                "fish",
                "tropical-fish",
                "blowfish",
                "octopus",
                "jellyfish",
                "crab",
                "squid",
                "dolphin",
            ),
        },
        kit.ANY,
        {
            "en": "{flyer} lives in the fishbowl, and {fish} lives in the birdcage.",
            "ru": "{flyer} живёт в аквариуме, а {fish} — в птичьей клетке.",
            "it": "{flyer.un} vive nella boccia dei pesci, e {fish.un} nella gabbia.",
        },
        swap,
    ),
    Scene(
        "tug",
        "tension",
        {"a": SMALL, "b": LAND_BIG},
        kit.LAND,
        {
            "en": "{a} and {b} pull the same rope in opposite directions.",
            "ru": "{a} и {b} тянут канат в разные стороны.",
            "it": "{a.un} e {b.un} tirano la stessa corda in direzioni opposte.",
        },
        tug,
    ),
    Scene(
        "seesaw",
        "tension",
        {
            "small": (
                "snail",
                "ladybug",
                "bee",
                "mouse",
                "chick",
                "butterfly",
                "snowflake",
                "egg",
                "key",
            ),
            "big": BIG,
        },
        kit.LAND,
        {
            "en": "On the seesaw, {small} outweighs {big}.",
            "ru": "На качелях {small} перевешивает {big.acc}.",
            "it": "Sull'altalena {small.un} pesa più {big.diun}.",
        },
        seesaw,
    ),
    Scene(
        "tightrope",
        "tension",
        {"actor": ACTORS, "thing": THINGS},
        (*kit.LAND, "cloudland"),
        {
            "en": "{actor} walks a tightrope high above the ground, carrying {thing}.",
            "ru": "{actor} идёт по канату высоко над землёй и несёт {thing.acc}.",
            "it": "{actor.un} cammina su una fune sospesa, portando {thing.un}.",
        },
        tightrope,
    ),
    Scene(
        "steal",
        "tension",
        {
            "sleeper": ("wolf", "lion", "tiger", "crocodile", "dragon", "bear", "t-rex", "cat"),
            "thief": SMALL,
            "thing": ("key", "crown", "gem", "ring", "cheese", "honey", "egg", "compass"),
        },
        kit.LAND,
        {
            "en": "{thief} steals {thing} from the sleeping {sleeper.bare}.",
            "ru": "{thief} крадёт {thing.acc} у {sleeper?спящего|спящей} {sleeper.gen}.",
            "it": "{thief.un} ruba {thing.un} {sleeper.a} che dorme.",
        },
        steal,
    ),
    Scene(
        "last-piece",
        "tension",
        {"a": ACTORS, "b": ACTORS, "food": FOOD},
        kit.ANY,
        {
            "en": "{a} and {b} both reach for the last {food.bare}.",
            "ru": "{a} и {b} тянутся к последн{food?ему|ей|ему} {food.dat}.",
            "it": "{a.un} e {b.un} allungano la zampa verso l'ultim{food?o|a} {food.bare}.",
        },
        last_piece,
    ),
    Scene(
        "standoff",
        "tension",
        {"a": ACTORS, "b": PREDATORS + BIG},
        (*kit.LAND, "cloudland"),
        {
            "en": "{a} and {b} stare at each other across a broken bridge.",
            "ru": "{a} и {b} смотрят друг на друга через сломанный мост.",
            "it": "{a.un} e {b.un} si fissano dai due capi di un ponte spezzato.",
        },
        standoff,
    ),
    Scene(
        "knock",
        "tension",
        {
            "guest": ACTORS,
            "lurker": (
                "s-werewolf",
                "s-giant",
                "s-witch",
                "s-wyvern",
                "s-gorilla",
                "s-cat",
                "s-fox",
                "s-raven",
            ),
        },
        kit.NIGHT,
        {
            "en": "{guest} knocks at the door, and the window shows the shadow of {lurker}.",
            "ru": "{guest} стучится в дверь, а в окне видна тень {lurker.gen}.",
            "it": "{guest.un} bussa alla porta, e alla finestra si vede l'ombra {lurker.diun}.",
        },
        knock,
    ),
    Scene(
        "chase",
        "tension",
        {"small": SMALL, "big": LAND_BIG},
        kit.LAND,
        {
            "en": "{small} chases {big}, and {big.the} runs for its life.",
            "ru": "{small} гонится за {big.ins}, а {big} удирает со всех ног.",
            "it": "{small.un} insegue {big.un}, che scappa a gambe levate.",
        },
        chase,
    ),
)
