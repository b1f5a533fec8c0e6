"""The painterly finish laid over every card of the second edition.

Four layers, all SVG so a card stays sharp at any size and a few kilobytes heavy:

* a wash in the setting's colours (soft light) that pulls the emoji's flat colours
  and the clip art into one palette;
* light and shade: a warm glow from the upper side the light comes from, the lower
  edge darkened;
* canvas texture: long brush strokes and paper grain from two noise fields, lit by a
  distant light so they read as relief rather than dirt (one filter, one rectangle);
* a vignette.

Weather in front (snow, rain, leaves) stays with the first edition's ``finish``.
"""

from __future__ import annotations

from tools.deckgen.elements import Canvas, fmt
from tools.deckgen.model import H, W


def painterly(c: Canvas) -> None:
    """Lay the finish over everything drawn so far."""
    st, rng = c.st, c.rng
    wash = c.gid()
    c.defs.append(
        f'<linearGradient id="{wash}" x1="0" y1="0" x2="0" y2="1">'
        f'<stop offset="0" stop-color="{st.sky[0]}"/><stop offset="1" '
        f'stop-color="{st.ground_colors[1]}"/></linearGradient>'
    )
    c.add(
        f'<rect width="{W}" height="{H}" fill="url(#{wash})" opacity=".32" '
        f'style="mix-blend-mode:soft-light"/>'
    )
    light = c.gid()
    lx = rng.choice((0.2, 0.8))
    c.defs.append(
        f'<radialGradient id="{light}" cx="{lx}" cy=".12" r=".9">'
        f'<stop offset="0" stop-color="{st.light_color}" stop-opacity=".45"/>'
        f'<stop offset=".6" stop-color="{st.light_color}" stop-opacity="0"/>'
        f'<stop offset="1" stop-color="#000" stop-opacity=".35"/></radialGradient>'
    )
    c.add(
        f'<rect width="{W}" height="{H}" fill="url(#{light})" style="mix-blend-mode:soft-light"/>'
    )
    tex = c.gid()
    seed = rng.randint(1, 999)
    c.defs.append(
        f'<filter id="{tex}" x="0" y="0" width="100%" height="100%" '
        f'color-interpolation-filters="sRGB">'
        f'<feTurbulence type="fractalNoise" baseFrequency=".006 .05" numOctaves="3" '
        f'seed="{seed}" result="n1"/>'
        f'<feTurbulence type="fractalNoise" baseFrequency=".75" numOctaves="2" '
        f'seed="{seed + 1}" stitchTiles="stitch" result="n2"/>'
        f'<feComposite in="n1" in2="n2" operator="arithmetic" k2=".6" k3=".55" '
        f'result="n3"/>'
        f'<feDiffuseLighting in="n3" surfaceScale="2.2" diffuseConstant="1" '
        f'lighting-color="#fff"><feDistantLight azimuth="{fmt(225 if lx < 0.5 else 315)}" '
        f'elevation="52"/></feDiffuseLighting>'
        # A flat lit surface comes out at sin(52°) = .79: bring it back to mid grey,
        # which the overlay blend leaves unchanged, so only the relief shows.
        f'<feComponentTransfer><feFuncR type="linear" slope="1.2" intercept="-.45"/>'
        f'<feFuncG type="linear" slope="1.2" intercept="-.45"/>'
        f'<feFuncB type="linear" slope="1.2" intercept="-.47"/></feComponentTransfer>'
        "</filter>"
    )
    c.add(
        f'<rect width="{W}" height="{H}" filter="url(#{tex})" opacity=".5" '
        f'style="mix-blend-mode:overlay"/>'
    )
    vig = c.gid()
    c.defs.append(
        f'<radialGradient id="{vig}" cx=".5" cy=".46" r=".78"><stop offset=".6" '
        f'stop-color="#000" stop-opacity="0"/><stop offset="1" stop-color="#000" '
        f'stop-opacity=".42"/></radialGradient>'
    )
    c.add(f'<rect width="{W}" height="{H}" fill="url(#{vig})"/>')
