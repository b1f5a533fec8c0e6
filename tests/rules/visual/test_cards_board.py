"""Cards dealt from word lists, the board and its token set."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reverie.content.words import load_words
from reverie.rules.visual import Options, build_deck
from reverie.rules.visual.board import (
    DEFAULT_BONUS_TOKENS,
    DEFAULT_TOKEN_VALUES,
    LAST_SQUARE,
    advance,
    deal_tokens,
)
from reverie.rules.visual.cards import category_value
from reverie.rules.visual.categories import CATEGORIES
from reverie.rules.visual.language import LANGUAGES
from tests.rules.visual.helpers import game, synthetic_words


def test_category_values() -> None:
    assert [category_value(c) for c in CATEGORIES] == [3, 4, 5, 6, 8]


def test_default_token_set_fills_squares_2_to_40() -> None:
    assert len(DEFAULT_TOKEN_VALUES) + DEFAULT_BONUS_TOKENS == LAST_SQUARE - 1
    assert set(DEFAULT_TOKEN_VALUES) == {1, 2, 3, 4, 5}


@given(st.integers(0, 39), st.integers(0, 2**32))
def test_tokens_go_one_per_square_after_the_start(count: int, seed: int) -> None:
    squares = deal_tokens(count, seed)
    placed = [k for k in squares if k is not None]
    assert len(squares) == LAST_SQUARE and squares[0] is None
    assert sorted(placed) == list(range(count))


@given(st.integers(1, 40), st.integers(1, 8))
def test_advance_stays_on_the_board(square: int, steps: int) -> None:
    bounced = advance(square, steps, bounce=True)
    stayed = advance(square, steps, bounce=False)
    assert 1 <= bounced <= LAST_SQUARE and 1 <= stayed <= LAST_SQUARE
    if square + steps <= LAST_SQUARE:
        assert bounced == stayed == square + steps
    else:
        assert bounced == 2 * LAST_SQUARE - square - steps and stayed == square


def test_deck_from_synthetic_words_is_seeded() -> None:
    words = synthetic_words(30)
    a = build_deck(words, seed=4, blank_share=0.3)
    assert a == build_deck(words, seed=4, blank_share=0.3)
    assert a != build_deck(words, seed=5, blank_share=0.3)
    assert len(a) == 30
    for category in CATEGORIES:
        k = CATEGORIES.index(category)
        subjects = [c.subjects[k] for c in a if c.blank != k]
        assert set(subjects) <= set(words[category])
        assert len(set(subjects)) == len(subjects)  # no word twice
    blanks = [c.blank for c in a if c.blank is not None]
    assert 0 < len(blanks) < 30 and set(blanks) <= {0, 1, 2, 3}
    for card in a:
        if card.blank is not None:
            assert card.subject(CATEGORIES[card.blank]) is None
        assert card.proverb


def test_blank_share_extremes_and_size() -> None:
    words = synthetic_words(20)
    assert all(c.blank is None for c in build_deck(words, 1, blank_share=0.0))
    assert all(c.blank is not None for c in build_deck(words, 1, blank_share=1.0))
    assert len(build_deck(words, 1, size=7)) == 7
    with pytest.raises(ValueError, match="no words"):
        build_deck({**words, "luck": []}, 1)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_game_from_the_real_word_lists(lang: str) -> None:
    words = {c: load_words(lang, c) for c in CATEGORIES}
    deck = build_deck(words, seed=9, blank_share=Options().blank_share)
    assert len(deck) >= 50
    g = game((2, 2), seed=9, cards=deck, language=lang)
    assert len(g.deck) == len(deck)
