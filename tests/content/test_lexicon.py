"""The association lexicon covers everything the default deck draws, in every language,
and never names what is drawn."""

from __future__ import annotations

from pathlib import Path

import pytest

from reverie.content.decks import default_deck_path, load_deck
from reverie.content.lexicon import (
    LANGS,
    card_associations,
    card_keys,
    content_stems,
    load_lexicon,
    names_any,
    parse,
)
from tools.deckgen.elements import load_library
from tools.deckgen.layouts import LAYOUTS
from tools.deckgen.scenery import PROPS, SETTINGS

MIN_ASSOCIATIONS = 8


def _element_labels() -> dict[str, dict[str, str]]:
    """Every element the generator may draw, with its label per language."""
    lib = load_library(Path(default_deck_path()))
    labels = {f"emoji:{k}": dict(a.label) for k, a in lib.items()}
    labels.update({f"prop:{k}": dict(v) for k, v in PROPS.items()})
    return labels


@pytest.mark.parametrize("lang", LANGS)
def test_every_element_setting_and_layout_has_enough_associations(lang: str) -> None:
    lex = load_lexicon()
    keys = [*_element_labels(), *(f"setting:{s}" for s in SETTINGS)]
    keys += [f"layout:{name}" for name in LAYOUTS]
    short = {k: len(lex.get(k, lang)) for k in keys if len(lex.get(k, lang)) < MIN_ASSOCIATIONS}
    assert not short, f"{lang}: fewer than {MIN_ASSOCIATIONS} associations: {short}"


@pytest.mark.parametrize("lang", LANGS)
def test_no_association_names_its_element(lang: str) -> None:
    lex = load_lexicon()
    bad = [
        (key, a)
        for key, label in _element_labels().items()
        for a in lex.get(key, lang)
        if names_any(a, content_stems(label[lang], lang), lang)
    ]
    assert not bad


@pytest.mark.parametrize("lang", LANGS)
def test_every_card_has_associations_free_of_caption_words(lang: str) -> None:
    lex = load_lexicon()
    deck = load_deck(default_deck_path())
    for i in range(deck.count):
        m = deck.meta(i)
        keys = card_keys(m.elements, m.setting.get("id", ""), m.layout)
        found = card_associations(lex, keys, m.caption[lang], lang)
        assert len(found) >= MIN_ASSOCIATIONS, (m.id, lang, len(found))
        caption = content_stems(m.caption[lang], lang)
        assert not [a for _, a in found if names_any(a, caption, lang)], m.id


def test_the_caption_filter_drops_an_association_that_names_the_picture() -> None:
    lex = parse("emoji:key: a secret; the keyhole; home\n")
    from reverie.content.lexicon import Lexicon

    got = card_associations(Lexicon({"en": lex}), ["emoji:key"], "A key in a jar", "en")
    assert [a for _, a in got] == ["a secret", "home"]


def test_a_malformed_line_is_reported_with_its_place() -> None:
    with pytest.raises(ValueError, match=r"x\.txt:2"):
        parse("emoji:a: b\nno separator here\n", "x.txt")
