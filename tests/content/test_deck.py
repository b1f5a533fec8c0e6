"""Tests for the built-in picture decks (the default second edition and the first
edition): format, art, loader and browser page.

The generators that write them are tested in tests/tools/test_deckgen*.py.
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from reverie.content.decks import (
    CONTENT_ENV,
    DEFAULT_DECK,
    FIRST_EDITION,
    Deck,
    DeckError,
    deck_path,
    default_deck_path,
    list_decks,
    load_deck,
)
from tests.browser.conftest import shot

REPO = Path(__file__).resolve().parents[2]
STATIC = REPO / "src" / "reverie" / "web" / "static"


@pytest.fixture(scope="module", params=[DEFAULT_DECK, FIRST_EDITION])
def deck(request: pytest.FixtureRequest) -> Deck:
    return load_deck(deck_path(request.param))


@pytest.fixture(scope="module")
def default_deck() -> Deck:
    return load_deck(default_deck_path())


# ------------------------------------------------------------------ format


def test_manifest_loads_with_enough_cards(deck: Deck) -> None:
    assert deck.name in (DEFAULT_DECK, FIRST_EDITION)
    assert len(deck.cards) >= 300
    assert deck.count == len(deck.cards)
    assert deck.aspect == "2:3"
    assert all(deck.title[lang] for lang in ("en", "ru", "it"))
    assert len({c.id for c in deck.cards}) == len(deck.cards)


def test_every_card_has_captions_in_three_languages(deck: Deck) -> None:
    for i in range(len(deck.cards)):
        m = deck.meta(i)
        for lang in ("en", "ru", "it"):
            assert m.caption[lang].strip(), (deck.cards[i].id, lang)
            assert "{" not in m.caption[lang], m.caption[lang]
        assert m.elements, deck.cards[i].id


def test_no_two_cards_share_a_composition(deck: Deck) -> None:
    seen: dict[tuple[str, ...], str] = {}
    raw = json.loads((deck.path / "meta.json").read_text(encoding="utf-8"))["cards"]
    layouts = {cid: str(m.get("layout", "")) for cid, m in raw.items()}
    for i, card in enumerate(deck.cards):
        ids = tuple(sorted(e["id"] for e in deck.meta(i).elements if e["role"] != "scene"))
        # The second edition tells a scene: the same pair in two scenes is two stories.
        ids = (layouts.get(card.id, ""), *ids)
        key = (str(deck._meta[card.id].setting.get("id", "")), *ids)
        assert len(ids) >= 2, card.id
        assert ids not in seen, f"{card.id} repeats {seen.get(ids)}"
        seen[ids] = card.id
        assert key


# Every word that may appear in a card: SVG syntax only.  Anything else (an
# element name, a label, a source id) would give the hidden metadata away.
SVG_VOCABULARY = frozenset(
    re.findall(
        r"\w+",
        """SourceGraphic baseFrequency blend circle clip clipPath color defs ellipse evenodd
        feColorMatrix feComposite feDropShadow feFlood feTurbulence fill filter flood
        feDiffuseLighting feDistantLight feComponentTransfer feFuncR feFuncG feFuncB slope
        intercept linear arithmetic azimuth elevation surfaceScale diffuseConstant lighting
        interpolation sRGB result feDisplacementMap xChannelSelector yChannelSelector
        feGaussianBlur SourceAlpha linejoin miterlimit miter butt bevel dasharray nonzero
        polygon polyline points line matrix skewX skewY inherit currentColor spreadMethod
        pad reflect fx fy rx ry cx cy dx dy x1 x2 y1 y2 r k1 k2 k3 k4 in in2 open filters
        dashoffset black
        font size pattern patternTransform patternUnits
        fractalNoise gradientTransform gradientUnits height href http light linearGradient
        linecap mask mix mode none numOctaves offset opacity operator org overlay path
        radialGradient rect rotate round rule scale seed soft stdDeviation stitch stitchTiles
        stop stroke style svg symbol transform translate type url use userSpaceOnUse values
        viewBox width www xmlns""",
    )
)


def test_card_files_are_clean_portrait_svgs(deck: Deck) -> None:
    for i, card in enumerate(deck.cards):
        assert re.fullmatch(r"cards/c[0-9]{3}\.svg", card.image), card.image
        text = deck.image_path(i).read_text(encoding="utf-8")
        root = ET.fromstring(text)
        assert root.tag == "{http://www.w3.org/2000/svg}svg"
        w, h = (float(v) for v in root.attrib["viewBox"].split()[2:])
        assert abs(w / h - 2 / 3) < 1e-6, card.id
        for bad in ("<title", "<desc", "<text", "<!--", "<metadata", "aria-label"):
            assert bad not in text, (card.id, bad)
        words = {t for t in re.findall(r"[A-Za-z]{3,}", text) if not re.fullmatch(r"[a-f]+", t)}
        assert words <= SVG_VOCABULARY, f"{card.id} contains {sorted(words - SVG_VOCABULARY)}"
        for e in deck.meta(i).elements:
            assert e["id"].split(":", 1)[1] not in text, (card.id, e["id"])
        # Every internal reference resolves: a missing symbol or gradient would draw
        # nothing, silently, and the card would still "load".
        ids = set(re.findall(r'\bid="([^"]+)"', text))
        refs = set(re.findall(r'href="#([^"]+)"', text)) | set(re.findall(r"url\(#([^)]+)\)", text))
        assert refs <= ids, (card.id, sorted(refs - ids))


def test_loader_reports_missing_and_malformed_manifests(tmp_path: Path) -> None:
    with pytest.raises(DeckError, match="not found"):
        load_deck(tmp_path / "nope")
    (tmp_path / "d").mkdir()
    with pytest.raises(DeckError, match="manifest"):
        load_deck(tmp_path / "d")
    (tmp_path / "d" / "manifest.json").write_text("{not json", encoding="utf-8")
    with pytest.raises(DeckError, match="not valid JSON"):
        load_deck(tmp_path / "d")
    man = {"name": "d", "title": {"en": "D", "ru": "Д", "it": "D"}, "cards": [{"id": "a"}]}
    (tmp_path / "d" / "manifest.json").write_text(json.dumps(man), encoding="utf-8")
    with pytest.raises(DeckError, match="bad 'image'"):
        load_deck(tmp_path / "d")
    man["cards"] = [{"id": "a", "image": "../../etc/passwd.svg"}]
    (tmp_path / "d" / "manifest.json").write_text(json.dumps(man), encoding="utf-8")
    with pytest.raises(DeckError, match="bad 'image'"):
        load_deck(tmp_path / "d")


def test_content_dir_can_come_from_the_environment(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv(CONTENT_ENV, str(tmp_path))
    assert default_deck_path() == tmp_path / "decks" / DEFAULT_DECK
    monkeypatch.delenv(CONTENT_ENV)
    assert default_deck_path() == REPO / "content" / "decks" / DEFAULT_DECK
    assert [d.name for d in list_decks()] == [DEFAULT_DECK, FIRST_EDITION]


# ------------------------------------------------------------------ browser


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The real application (it serves the cards, the deck API and the deck page)."""
    from tests.web.harness import ServerThread

    srv = ServerThread(tmp_path_factory.mktemp("decks")).start()
    try:
        yield srv.base
    finally:
        srv.stop()


def _watch(page: Any) -> list[str]:
    failures: list[str] = []
    page.on("requestfailed", lambda r: failures.append(f"failed {r.url}"))

    def on_response(r: Any) -> None:
        if r.status >= 400:
            failures.append(f"{r.status} {r.url}")

    page.on("response", on_response)
    page.on("pageerror", lambda e: failures.append(f"js error {e}"))
    return failures


def test_every_card_renders_in_chromium(browser: Any, server: str, deck: Deck) -> None:
    page = browser.new_page()
    failures = _watch(page)
    page.goto(f"{server}/healthz")  # same origin as the cards
    imgs = "".join(
        f'<img src="{server}/decks/{deck.name}/{c.image}" width="40" height="60">'
        for c in deck.cards
    )
    # Every card at once: a bound for a busy machine (parallel workers), not a speed test.
    page.set_content(f"<!doctype html><body>{imgs}</body>", timeout=120_000)
    page.wait_for_function("Array.from(document.images).every(i => i.complete)", timeout=30_000)
    sizes = page.eval_on_selector_all(
        "img", "els => els.map(i => [i.naturalWidth, i.naturalHeight])"
    )
    assert len(sizes) == len(deck.cards)
    bad = [deck.cards[i].id for i, (w, h) in enumerate(sizes) if w <= 0 or h <= 0]
    assert not bad, bad
    # Painted, not blank: the spread of each card's luminance over a 40 x 60 thumbnail
    # (same origin, so the canvas may read it).
    spread = page.evaluate(
        """() => Array.from(document.images).map((img) => {
          const cv = document.createElement("canvas"); cv.width = 40; cv.height = 60;
          const cx = cv.getContext("2d"); cx.drawImage(img, 0, 0, 40, 60);
          const px = cx.getImageData(0, 0, 40, 60).data; const v = [];
          for (let i = 0; i < px.length; i += 4)
            v.push(px[i + 3] ? 0.299 * px[i] + 0.587 * px[i + 1] + 0.114 * px[i + 2] : -1);
          const m = v.reduce((a, b) => a + b, 0) / v.length;
          return [Math.min(...v), Math.sqrt(v.reduce((a, b) => a + (b - m) ** 2, 0) / v.length)];
        })"""
    )
    blank = [deck.cards[i].id for i, (low, sd) in enumerate(spread) if low < 0 or sd < 8]
    assert not blank, f"cards with transparent or flat pixels: {blank}"
    assert all(abs(w / h - 2 / 3) < 0.01 for w, h in sizes)
    assert not failures, failures
    page.close()


@pytest.mark.parametrize("width", [375, 1280])
def test_deck_browser_page(browser: Any, server: str, default_deck: Deck, width: int) -> None:
    deck = default_deck
    ctx = browser.new_context(viewport={"width": width, "height": 900}, locale="ru-RU")
    page = ctx.new_page()
    failures = _watch(page)
    page.goto(f"{server}/decks")
    page.wait_for_selector("#cards figure")
    assert page.locator("#cards figure").count() == len(deck.cards)
    first = page.locator("#cards figcaption").first
    expect(first).to_have_text(deck.meta(0).caption["ru"])
    page.select_option("select.lang-select", "it")  # the switch loads the dictionary
    expect(first).to_have_text(deck.meta(0).caption["it"])
    page.select_option("select.lang-select", "en")
    expect(first).to_have_text(deck.meta(0).caption["en"])
    assert page.locator("#decks button").first.text_content().startswith(deck.title["en"])
    page.wait_for_function(
        "Array.from(document.images).slice(0, 4).every(i => i.complete && i.naturalWidth > 0)"
    )
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"horizontal scroll at {width}px"
    shot(page, f"decks-{width}")
    assert not failures, failures
    ctx.close()


def test_the_credits_page_names_every_source_of_the_decks(browser: Any, server: str) -> None:
    """Each deck's credits.json (every element's source, author and license) reaches
    the app's credits page."""
    import httpx

    sources = httpx.get(f"{server}/api/credits").json()["sources"]
    page = browser.new_page(viewport={"width": 375, "height": 800})
    failures = _watch(page)
    page.goto(f"{server}/credits")
    content = page.locator("#content")
    expect(content.locator("article.credit").first).to_be_visible()
    for name in (DEFAULT_DECK, FIRST_EDITION):
        folder = deck_path(name)
        credits = json.loads((folder / "credits.json").read_text(encoding="utf-8"))["credits"]
        listed = [s for s in sources if s["used_for"] == f"decks/{folder.name}"]
        assert [s["source"] for s in listed] == [c["source"] for c in credits]
        for c in credits:
            assert next(s for s in listed if s["source"] == c["source"])["authors"] == c["authors"]
            expect(content.locator("article.credit", has_text=c["source"]).first).to_be_visible()
    text = content.inner_text()
    for author in ("Lorc", "Delapouite", "Gerald G.", "Microsoft Corporation"):
        assert author in text, author
    # Openclipart's file paths have no spaces: they must wrap, not widen the page.
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"horizontal scroll of {overflow}px at 375px"
    shot(page, "credits-375", full_page=True)
    assert not failures, failures
    page.close()
