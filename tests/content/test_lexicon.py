"""The association lexicon covers everything both editions of the default deck draw, in
every language, and never names what is drawn."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from reverie.content.decks import DEFAULT_DECK, FIRST_EDITION, CardMeta, deck_path, load_deck
from reverie.content.lexicon import (
    LANGS,
    Lexicon,
    card_associations,
    card_keys,
    content_stems,
    element_key,
    load_lexicon,
    names_any,
    parse,
)
from tools.deckgen.elements import load_library
from tools.deckgen.layouts import LAYOUTS
from tools.deckgen.scenery import PROPS, SETTINGS
from tools.deckgen.second.build import SCENES
from tools.deckgen.second.library import load_elements

MIN_ASSOCIATIONS = 8
#: What each part of a card (scene, element, backdrop) keeps at least once the caption's
#: words are filtered out: a part stripped of most of its associations would leave the
#: bots nothing to say about it.
MIN_KEPT = 5
EDITIONS = (DEFAULT_DECK, FIRST_EDITION)


def _generator_labels(edition: str) -> dict[str, list[dict[str, str]]]:
    """Every element the edition's generator may draw (by lexicon key), with its labels."""
    out: dict[str, list[dict[str, str]]] = {}
    if edition == FIRST_EDITION:
        for k, a in load_library(deck_path(edition)).items():
            out.setdefault(f"emoji:{k}", []).append(dict(a.label))
        for k, v in PROPS.items():
            out.setdefault(f"prop:{k}", []).append(dict(v))
    else:
        for e in load_elements(deck_path(edition)).values():
            out.setdefault(element_key(e.source), []).append(dict(e.art.label))
    return out


def _scenes(edition: str) -> list[str]:
    return list(LAYOUTS) if edition == FIRST_EDITION else [s.name for s in SCENES]


def _cards(edition: str) -> Iterator[CardMeta]:
    deck = load_deck(deck_path(edition))
    return (deck.meta(i) for i in range(deck.count))


def _labels(edition: str) -> dict[str, list[dict[str, str]]]:
    """Every name an element has in the edition: its generator's and its cards'."""
    out = _generator_labels(edition)
    for m in _cards(edition):
        for e in m.elements:
            out.setdefault(element_key(e["id"]), []).append(dict(e["label"]))
    return out


def test_both_editions_name_an_element_of_one_source_by_one_key() -> None:
    assert element_key("fluent:old-key") == element_key("emoji:old-key") == "emoji:old-key"
    assert element_key("game-icons:raven") == "game-icons:raven"
    assert element_key("openclipart:plants/mushroom.svg") == "openclipart:plants/mushroom.svg"


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("edition", EDITIONS)
def test_every_element_setting_and_scene_has_enough_associations(edition: str, lang: str) -> None:
    lex = load_lexicon()
    keys = [*_generator_labels(edition), *(f"setting:{s}" for s in SETTINGS)]
    keys += [f"layout:{name}" for name in _scenes(edition)]
    for m in _cards(edition):
        keys += card_keys(m.elements, m.setting.get("id", ""), m.layout)
    short = {k: len(lex.get(k, lang)) for k in keys if len(lex.get(k, lang)) < MIN_ASSOCIATIONS}
    assert not short, f"{edition} {lang}: fewer than {MIN_ASSOCIATIONS} associations: {short}"


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("edition", EDITIONS)
def test_no_association_names_its_element(edition: str, lang: str) -> None:
    lex = load_lexicon()
    bad = [
        (key, a)
        for key, labels in _labels(edition).items()
        for label in labels
        for a in lex.get(key, lang)
        if names_any(a, content_stems(label[lang], lang), lang)
    ]
    assert not bad


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("edition", EDITIONS)
def test_every_card_has_associations_free_of_caption_words(edition: str, lang: str) -> None:
    lex = load_lexicon()
    cards = 0
    for m in _cards(edition):
        keys = card_keys(m.elements, m.setting.get("id", ""), m.layout)
        labels = [str(e["label"][lang]) for e in m.elements]
        found = card_associations(lex, keys, m.caption[lang], lang, labels)
        assert len(found) >= MIN_ASSOCIATIONS, (m.id, lang, len(found))
        caption = content_stems(m.caption[lang], lang)
        assert not [a for _, a in found if names_any(a, caption, lang)], m.id
        kept = {k: len(card_associations(lex, [k], m.caption[lang], lang, labels)) for k in keys}
        assert min(kept.values()) >= MIN_KEPT, (m.id, lang, kept)
        cards += 1
    assert cards >= 300


def test_the_caption_filter_drops_an_association_that_names_the_picture() -> None:
    lex = parse("emoji:key: a secret; the keyhole; home\n")
    got = card_associations(Lexicon({"en": lex}), ["emoji:key"], "A key in a jar", "en")
    assert [a for _, a in got] == ["a secret", "home"]


def test_a_malformed_line_is_reported_with_its_place() -> None:
    with pytest.raises(ValueError, match=r"x\.txt:2"):
        parse("emoji:a: b\nno separator here\n", "x.txt")
