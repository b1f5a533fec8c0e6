"""Tests for the second edition's generator (tools/deckgen/second) and the deck it wrote:
reproducible build, scene shares, elements per card, captions, extraction errors."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from reverie.content.decks import DEFAULT_DECK, deck_path, load_deck
from tools.deckgen.model import LANGS, DeckBuildError
from tools.deckgen.second.build import (
    SCENES,
    deck_files,
    deck_recipes,
    load_cuts,
    load_replacements,
    recipes,
)
from tools.deckgen.second.grammar import fill
from tools.deckgen.second.library import extract_library, load_catalog, load_elements

FOLDER = deck_path(DEFAULT_DECK)


@pytest.fixture(scope="module")
def lib() -> Any:
    return load_elements(FOLDER)


@pytest.fixture(scope="module")
def meta() -> dict[str, Any]:
    cards: dict[str, Any] = json.loads((FOLDER / "meta.json").read_text(encoding="utf-8"))["cards"]
    return cards


def test_the_committed_deck_is_exactly_what_the_build_writes(lib: Any) -> None:
    seed = json.loads((FOLDER / "manifest.json").read_text(encoding="utf-8"))["seed"]
    files = deck_files(lib, deck_recipes(FOLDER, lib, seed), seed)
    for rel, data in files.items():
        assert (FOLDER / rel).read_bytes() == data, f"{rel} is stale: run `make deck`"
    on_disk = {f"cards/{p.name}" for p in (FOLDER / "cards").iterdir()}
    assert on_disk == {k for k in files if k.startswith("cards/")}


def test_the_same_seed_gives_the_same_bytes_and_another_seed_other_cards(lib: Any) -> None:
    first = deck_files(lib, recipes(lib, 11, {})[:12], 11)
    again = deck_files(lib, recipes(lib, 11, {})[:12], 11)
    other = deck_files(lib, recipes(lib, 12, {})[:12], 12)
    assert first == again
    cards = [k for k in first if k.startswith("cards/")]
    assert len(cards) == 12
    assert sum(first[k] != other.get(k) for k in cards) >= 10


def test_at_least_forty_scenes_and_none_over_eight_percent(meta: dict[str, Any]) -> None:
    shares = Counter(m["layout"] for m in meta.values())
    assert len(SCENES) >= 40 and len(shares) >= 40, sorted(shares)
    worst, n = shares.most_common(1)[0]
    assert n <= 0.08 * len(meta), f"{worst} has {n} of {len(meta)} cards"
    kinds = Counter(m["kind"] for m in meta.values())
    assert set(kinds) >= {"deed", "scale", "physics", "tension", "hidden", "door", "mirror"}


def test_every_card_has_two_meaningful_elements_and_a_unique_story(meta: dict[str, Any]) -> None:
    stories: dict[tuple[str, ...], str] = {}
    for cid, m in meta.items():
        roles = [e for e in m["elements"] if e["role"] != "scene"]
        assert len(roles) >= 2, cid
        assert len({e["id"] for e in roles}) == len(roles), f"{cid} casts one element twice"
        key = (m["layout"], *sorted(e["id"] for e in roles))
        assert key not in stories, f"{cid} tells the story of {stories.get(key)} again"
        stories[key] = cid


def test_the_library_mixes_sources_and_credits_each(lib: Any) -> None:
    sources = Counter(e.source.split(":", 1)[0] for e in lib.values())
    assert sources["fluent"] >= 100 and sources["game-icons"] >= 15
    assert sources["openclipart"] >= 10
    credits = json.loads((FOLDER / "credits.json").read_text(encoding="utf-8"))["credits"]
    text = json.dumps(credits, ensure_ascii=False)
    for e in lib.values():
        assert e.source.split(":", 1)[1] in text, e.source
    for entry in credits:
        if not entry["license_file"].startswith(".."):
            assert (FOLDER / entry["license_file"]).is_file(), entry["license_file"]


# Grammar lints: each pattern is an error a template or a word list could make.
EN_WRONG = [r"\ba [aeio]\w", r"\ban (?!hour|honest|heir)[^aeiou\W]\w", r"\bthe the\b", r"\ba an?\b"]
IT_WRONG = [
    r"\b(la|una) [aeiou]",  # l'/un' before a vowel
    r"\bil [aeiou]",  # l' before a vowel
    r"\b(il|un) (s[bcdfghlmnpqrtvz]|z|gn|ps|pn)",  # lo/uno
    r"\b(di|a|da|in|su) (il|lo|la|l'|i|gli|le)\b",  # joined articles
    r"\b(una|di una) luna\b",  # there is one moon: "la luna", as English says "the moon"
]
RU_WRONG = [r"\bеж\b", r"\bежик", r"\bзвезды\b", r"\bв в", r"\bс с[бвгджзклмнпрстфхцчшщ]"]


def test_captions_are_sentences_in_three_languages(meta: dict[str, Any]) -> None:
    seen: dict[str, set[str]] = {lang: set() for lang in LANGS}
    for cid, m in meta.items():
        for lang in LANGS:
            text = m["caption"][lang]
            assert text[0].isupper() and text.endswith("."), (cid, lang, text)
            assert "{" not in text and "  " not in text and "?" not in text, (cid, text)
            assert text not in seen[lang], f"{cid}: caption repeats: {text}"
            seen[lang].add(text)
        assert re.search("[а-яё]", m["caption"]["ru"]) and not re.search(
            "[a-z]", m["caption"]["ru"]
        ), cid
        for pat in EN_WRONG:
            assert not re.search(pat, m["caption"]["en"].lower()), (cid, pat, m["caption"]["en"])
        for pat in IT_WRONG:
            assert not re.search(pat, m["caption"]["it"].lower()), (cid, pat, m["caption"]["it"])
        for pat in RU_WRONG:
            assert not re.search(pat, m["caption"]["ru"].lower()), (cid, pat, m["caption"]["ru"])
    # "a unicorn" is right although it starts with a vowel letter: the lint allows "u".
    assert all(len(s) == len(meta) for s in seen.values())


def test_a_thing_there_is_one_of_keeps_its_definite_article_in_italian(lib: Any) -> None:
    moon, fox = lib["moon-face"].words, lib["fox"].words
    assert fill("{a.un} e {b.un}; {a.diun}, {b.diun}", "it", {"a": moon, "b": fox}) == (
        "La luna e una volpe; della luna, di una volpe"
    )


def test_every_cut_names_a_card_of_the_plan_and_says_why(lib: Any) -> None:
    seed = json.loads((FOLDER / "manifest.json").read_text(encoding="utf-8"))["seed"]
    planned = {f"{r.layout}/{r.variant}" for r in recipes(lib, seed, {})}
    cuts = load_cuts(FOLDER)
    assert cuts and set(cuts) <= planned, sorted(set(cuts) - planned)
    assert all(len(why) > 20 for why in cuts.values())
    kept = {m["recipe"] for m in json.loads((FOLDER / "meta.json").read_text())["cards"].values()}
    assert not kept & set(cuts)


def test_a_card_cut_after_release_leaves_its_place_to_its_replacement(lib: Any) -> None:
    """Rooms name cards by their place in the deck: replacing cut cards changes those
    places only, and no other card's cast."""
    seed = json.loads((FOLDER / "manifest.json").read_text(encoding="utf-8"))["seed"]
    cuts, replace = load_cuts(FOLDER), load_replacements(FOLDER)
    assert replace and set(replace) <= set(cuts)
    before = recipes(lib, seed, {k: v for k, v in cuts.items() if k not in replace})
    after = deck_recipes(FOLDER, lib, seed)
    assert len(before) == len(after)
    changed = {
        f"{b.layout}/{b.variant}": f"{a.layout}/{a.variant}"
        for b, a in zip(before, after, strict=True)
        if b != a
    }
    assert changed == replace
    with pytest.raises(DeckBuildError, match="not cut"):
        recipes(lib, seed, {}, {"lake/0": "mirror/7"})
    with pytest.raises(DeckBuildError, match="next variants"):
        recipes(lib, seed, cuts, {"lake/0": "mirror/9"})


def test_cards_stay_light_for_a_phone() -> None:
    """The finish is SVG filters, not pixels: a card stays a few kilobytes (a hand of
    six loads like one photo)."""
    sizes = [p.stat().st_size for p in (FOLDER / "cards").glob("*.svg")]
    assert len(sizes) >= 300
    assert max(sizes) <= 40_000 and sum(sizes) / len(sizes) <= 15_000, (max(sizes), sum(sizes))


def test_captions_stay_out_of_the_card_files(meta: dict[str, Any]) -> None:
    deck = load_deck(FOLDER)
    for i, card in enumerate(deck.cards):
        text = deck.image_path(i).read_text(encoding="utf-8")
        for lang in LANGS:
            words = [w for w in re.findall(r"\w{5,}", meta[card.id]["caption"][lang])]
            assert not any(w in text for w in words if not w.isascii()), card.id


def test_extraction_says_clearly_when_openclipart_is_missing(tmp_path: Path) -> None:
    catalog = load_catalog(FOLDER)
    only_oc = {k: v for k, v in catalog["elements"].items() if k.startswith("o-")}
    with pytest.raises(DeckBuildError, match="openclipart-svg is missing"):
        extract_library(tmp_path, {"elements": only_oc}, openclipart=tmp_path / "nope")
    with pytest.raises(DeckBuildError, match="npm package iconify-json-fluent-emoji-flat"):
        extract_library(tmp_path, {"elements": {"fox": catalog["elements"]["fox"]}})
