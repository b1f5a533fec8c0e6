"""A table's own words: checked, normalised, combined with the defaults."""

from __future__ import annotations

import pytest

from reverie.content.custom_words import (
    MAX_WORDS,
    WordsRefused,
    combine,
    parse_list,
    parse_lists,
)
from reverie.rules.visual.categories import Category

TEN = "\n".join(f"word{i}" for i in range(10))


def test_entries_are_tidied_and_repeats_dropped() -> None:
    text = "\n".join(
        [
            "  Ёлка  ",
            "- ёлка",  # a bullet, and the same word (ё/е, case) as the first
            "1. кот   в   сапогах",
            "# a comment",
            "",
            "ЕЛКА",
            "зе\u200bбра",  # a zero-width space inside is dropped
            *[f"слово{i}" for i in range(8)],
        ]
    )
    words = parse_list("objects", text, "ru")
    assert words[:3] == ("Ёлка", "кот в сапогах", "зебра")
    assert len(words) == 11


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("\n".join(f"w{i}" for i in range(9)), "too_few_words"),
        ("\n".join(["same"] * 20), "too_few_words"),
        ("\n".join(f"w{i}" for i in range(MAX_WORDS + 1)), "too_many_words"),
        (TEN + "\n" + "x" * 61, "word_too_long"),
        (TEN + "\n12345", "not_a_word"),
    ],
    ids=["nine", "repeats", "too_many", "long", "digits"],
)
def test_bad_lists_are_refused_with_a_reason(text: str, code: str) -> None:
    with pytest.raises(WordsRefused) as refused:
        parse_list("objects", text, "en")
    assert [p.code for p in refused.value.problems] == [code]


def test_proverbs_may_be_sentences() -> None:
    long = "A journey of a thousand miles begins with a single step, as they say"
    assert long in parse_list("proverbs", TEN + "\n" + long, "en")


def test_every_category_reports_its_own_problem() -> None:
    with pytest.raises(WordsRefused) as refused:
        parse_lists({"objects": "a\nb", "actions": TEN, "colours": TEN}, "en")
    problems = {(p.category, p.code) for p in refused.value.problems}
    assert problems == {("objects", "too_few_words"), ("colours", "unknown_category")}
    with pytest.raises(WordsRefused) as empty:
        parse_lists({"objects": "  \n "}, "en")
    assert [p.code for p in empty.value.problems] == ["no_words"]
    assert set(parse_lists({"objects": TEN, "places": ""}, "en")) == {"objects"}


def test_own_words_instead_of_or_beside_the_defaults() -> None:
    defaults: dict[Category, tuple[str, ...]] = {"objects": ("cat", "dog"), "actions": ("run",)}
    own: dict[Category, tuple[str, ...]] = {"objects": ("Dog", "owl")}
    assert combine(defaults, own, "instead", "en")["objects"] == ("Dog", "owl")
    assert combine(defaults, own, "beside", "en")["objects"] == ("Dog", "owl", "cat")
    assert combine(defaults, own, "instead", "en")["actions"] == ("run",)
