"""The second edition's pictures in Chromium: every card renders, and no two cards are
the same picture in another palette.

The perceptual measure compares where two thumbnails (40 x 60) have edges: the Sobel
magnitude, log-scaled and standardised per card, correlated between cards. Outlines
of actors, props and frames stay where they are when a card is recoloured, so such a
pair correlates highly. The threshold comes from a control run in the same test: a few
cards re-drawn with another setting's colours must count as duplicates (and distinct
control cards must not), so the check can fail.

What it does not see: the same card over another background. Re-drawn with another
setting (other sky, hills, clouds, stars), sixteen cards correlated 0.17 to 0.81 with
themselves while the deck's closest distinct pair reaches 0.73 (measured when the deck
was audited; a row-median residual instead of edges did no better). Those twins are
ruled out where they would come from, by the recipes: no two cards share a scene and
its cast, whatever their settings
(tests/tools/test_deckgen_second.py::test_every_card_has_two_meaningful_elements_and_a_unique_story).
"""

from __future__ import annotations

import base64
import dataclasses
import itertools
import random
from pathlib import Path
from typing import Any

from reverie.content.decks import DEFAULT_DECK, deck_path, load_deck
from tools.deckgen.elements import Canvas
from tools.deckgen.scenery import SETTINGS
from tools.deckgen.second.build import draw, load_cuts, recipes
from tools.deckgen.second.library import load_elements

FOLDER = deck_path(DEFAULT_DECK)
GRID_W, GRID_H = 40, 60
MARGIN = 0.03

EDGE_JS = """
async ([gw, gh]) => {
  const feats = [];
  for (const img of Array.from(document.images)) {
    const cv = document.createElement("canvas");
    cv.width = gw; cv.height = gh;
    const cx = cv.getContext("2d");
    cx.drawImage(img, 0, 0, gw, gh);
    const px = cx.getImageData(0, 0, gw, gh).data;
    const lum = (x, y) => {
      const i = 4 * (Math.min(gh - 1, Math.max(0, y)) * gw + Math.min(gw - 1, Math.max(0, x)));
      return 0.299 * px[i] + 0.587 * px[i + 1] + 0.114 * px[i + 2];
    };
    const f = new Float64Array(gw * gh);
    for (let y = 0; y < gh; y++) for (let x = 0; x < gw; x++) {
      const gx = lum(x + 1, y - 1) + 2 * lum(x + 1, y) + lum(x + 1, y + 1)
               - lum(x - 1, y - 1) - 2 * lum(x - 1, y) - lum(x - 1, y + 1);
      const gy = lum(x - 1, y + 1) + 2 * lum(x, y + 1) + lum(x + 1, y + 1)
               - lum(x - 1, y - 1) - 2 * lum(x, y - 1) - lum(x + 1, y - 1);
      f[y * gw + x] = Math.log1p(Math.hypot(gx, gy));
    }
    const mean = f.reduce((a, b) => a + b, 0) / f.length;
    const sd = Math.sqrt(f.reduce((a, b) => a + (b - mean) ** 2, 0) / f.length) || 1;
    feats.push(f.map((v) => (v - mean) / sd));
  }
  // Correlation of every pair (upper triangle, row by row).
  const out = [];
  for (let i = 0; i < feats.length; i++) {
    const row = [];
    for (let j = i + 1; j < feats.length; j++) {
      let s = 0;
      const a = feats[i], b = feats[j];
      for (let k = 0; k < a.length; k++) s += a[k] * b[k];
      row.push(s / a.length);
    }
    out.push(row);
  }
  return out;
}
"""


def _similarity(browser: Any, files: list[Path]) -> list[list[float]]:
    """Edge correlation of every pair: ``sim[i][j - i - 1]`` for ``i < j``."""
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    # Data URLs keep the canvas readable (file URLs would taint it); the cards as the
    # server sends them are loaded in tests/content/test_deck.py.
    imgs = "".join(
        f'<img src="data:image/svg+xml;base64,{base64.b64encode(f.read_bytes()).decode()}" '
        f'width="400" height="600">'
        for f in files
    )
    page.set_content(f"<!doctype html><body>{imgs}</body>")
    page.wait_for_function("Array.from(document.images).every(i => i.complete)", timeout=60_000)
    sizes = page.eval_on_selector_all("img", "els => els.map(i => i.naturalWidth)")
    broken = [f.name for f, w in zip(files, sizes, strict=True) if w <= 0]
    assert not broken, f"cards that do not render: {broken}"
    sim: list[list[float]] = page.evaluate(EDGE_JS, [GRID_W, GRID_H])
    page.close()
    assert not errors, errors
    return sim


def _recoloured(tmp: Path) -> list[Path]:
    """Four cards each drawn twice: as in the deck, and with another setting's colours
    (same drawing, same jitter): the duplicates the check must catch."""
    lib = load_elements(FOLDER)
    arts = {k: e.art for k, e in lib.items()}
    cards = recipes(lib, 2, load_cuts(FOLDER))[:4]
    out = []
    palettes = list(SETTINGS.values())
    for n, r in enumerate(cards):
        st = SETTINGS[r.setting]
        other = palettes[(palettes.index(st) + 5) % len(palettes)]
        for k, setting in enumerate(
            (
                st,
                dataclasses.replace(
                    st, sky=other.sky, ground_colors=other.ground_colors, haze=other.haze,
                    shadow=other.shadow, cloud=other.cloud, light_color=other.light_color,
                ),
            )
        ):  # fmt: skip
            c = Canvas(arts, setting, random.Random(f"card2:{r.layout}:{r.setting}:{r.variant}"))
            draw(c, r)
            path = tmp / f"control{n}-{k}.svg"
            path.write_text(c.render(), encoding="utf-8")
            out.append(path)
    return out


def test_every_card_renders_and_no_two_are_one_picture_recoloured(
    browser: Any, tmp_path: Path
) -> None:
    deck = load_deck(FOLDER)
    files = [deck.image_path(i) for i in range(deck.count)]
    control = _recoloured(tmp_path)
    sim = _similarity(browser, files + control)

    def pair(i: int, j: int) -> float:
        return sim[min(i, j)][max(i, j) - min(i, j) - 1]

    n = len(files)
    ctrl = range(n, n + len(control), 2)
    same = [pair(i, i + 1) for i in ctrl]
    apart = [pair(i, j) for i, j in itertools.combinations(ctrl, 2)]
    # The measure sees a recoloured card as the same picture, other cards as others.
    threshold = min(same) - MARGIN
    assert max(apart) < threshold, (same, apart)
    close = [
        (deck.cards[i].id, deck.cards[j].id, round(pair(i, j), 3))
        for i, j in itertools.combinations(range(n), 2)
        if pair(i, j) >= threshold
    ]
    assert not close, f"cards that differ only in background or palette: {close}"
