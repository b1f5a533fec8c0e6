"""Tests of the Visual Game word lists and of guess normalisation."""

from __future__ import annotations

import json
import re
import unicodedata
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from reverie.content.words import (
    CATEGORIES,
    CATEGORY_POINTS,
    CONTENT_DIR_ENV,
    LANGUAGES,
    ContentDirNotFoundError,
    UnknownCategoryError,
    UnknownLanguageError,
    WordListNotFoundError,
    WordsError,
    content_dir,
    load_words,
    normalise,
    word_list_path,
)
from reverie.rules.visual import categories, language
from reverie.rules.visual.language import UnknownLanguageError as RulesUnknownLanguageError

MIN_ENTRIES = {"objects": 300, "actions": 300, "places": 300, "luck": 300, "proverbs": 150}

LISTS = [(lang, category) for lang in LANGUAGES for category in CATEGORIES]
NOUN_LISTS = [(lang, category) for lang, category in LISTS if category != "proverbs"]

# Characters that betray markup, templating or a pasted path rather than a word.
MARKUP = re.compile(r"[<>\[\]{}*_#|\\/=@~^$%&+\t]|https?:|\.\.|  ")

# Common words that must be written with ё.  Only forms whose е-spelling is not
# itself a different everyday word: "всё"/"все", "осёл"/"осел", "нёбо"/"небо"
# are left out on purpose.
_YO_TEXT = """
    ёж ёжик ёлка ёлочка ёлки ёрш ёмкость самолёт самолёта самолётик вертолёт
    зелёный зелёная зелёное зелёные чёрный чёрная чёрное чёрные жёлтый жёлтая
    тёмный тёплый лёгкий жёсткий жёстко пчёлка пчёлы ведёрко вёдра ребёнок
    котёнок утёнок цыплёнок телёнок щётка щёки щёку берёза клён
    костёр орёл жёлудь ковёр мёд мёда тёрка расчёска отвёртка верёвка кошелёк
    лётчик учёный актёр дирижёр жонглёр шахтёр боксёр небоскрёб перекрёсток
    конёк лёд бельё звёзды звёздочка слёзы слёз тётка тётя пёс сёстры
    гнёзда вёсла зёрнышко зёрнышку дёготь дёгтя четырёх трёх ещё её своё моё
    твоё идёт течёт клюёт поёт пьёт живёт несёт даёт ждёт найдёт пойдёт
    смеётся рвётся попадёшь разольёшь пожнёшь неймёт сойдётся расхлёбывай
    причёсываться одёжке одёжка дарёному обжёгшись
"""
YO_WORDS = frozenset(_YO_TEXT.split())
YO_AS_E = {word.replace("ё", "е"): word for word in YO_WORDS}

RU_WORD = re.compile(r"[а-яё]+")


def _raw_lines(lang: str, category: str) -> list[str]:
    return word_list_path(lang, category).read_text(encoding="utf-8").splitlines()


def _split_header(lines: list[str]) -> tuple[list[str], list[str]]:
    header_end = 0
    while header_end < len(lines) and lines[header_end].startswith("#"):
        header_end += 1
    return lines[:header_end], lines[header_end:]


# --- the data itself -------------------------------------------------------------------------


def test_category_points_and_languages() -> None:
    assert CATEGORY_POINTS == {"objects": 3, "actions": 4, "places": 5, "luck": 6, "proverbs": 8}
    assert CATEGORIES == ("objects", "actions", "places", "luck", "proverbs")
    assert LANGUAGES == ("ru", "en", "it")


def test_the_rules_own_categories_languages_and_normalise() -> None:
    # Content re-exports them; one object each, so the rules and the loaders agree.
    assert CATEGORIES is categories.CATEGORIES and CATEGORY_POINTS is categories.CATEGORY_POINTS
    assert LANGUAGES is language.LANGUAGES
    assert normalise is language.normalise


@pytest.mark.parametrize(("lang", "category"), LISTS)
def test_list_is_long_enough(lang: str, category: str) -> None:
    assert len(load_words(lang, category)) >= MIN_ENTRIES[category]


@pytest.mark.parametrize(("lang", "category"), LISTS)
def test_file_has_header_then_clean_entries(lang: str, category: str) -> None:
    header, body = _split_header(_raw_lines(lang, category))
    header_text = "\n".join(header).lower()
    assert category in header_text
    assert "license" in header_text
    assert body, "no entries after the header"
    for number, line in enumerate(body, start=len(header) + 1):
        where = f"{lang}/{category}.txt:{number}: {line!r}"
        assert line, f"empty line at {where}"
        assert line == line.strip(), f"leading/trailing space at {where}"
        assert not line.startswith("#"), f"comment after the header at {where}"
        assert not any(char.isdigit() for char in line), f"digit at {where}"
        assert not MARKUP.search(line), f"markup-like text at {where}"
        assert unicodedata.normalize("NFC", line) == line, f"not NFC at {where}"
        assert normalise(line, lang), f"nothing left after normalisation at {where}"
    assert body == list(load_words(lang, category))


@pytest.mark.parametrize(("lang", "category"), LISTS)
def test_no_duplicates_within_a_list(lang: str, category: str) -> None:
    counts = Counter(normalise(entry, lang) for entry in load_words(lang, category))
    assert [key for key, count in counts.items() if count > 1] == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_entry_in_two_categories(lang: str) -> None:
    owner: dict[str, str] = {}
    clashes: list[str] = []
    for category in CATEGORIES:
        for entry in load_words(lang, category):
            key = normalise(entry, lang)
            if owner.setdefault(key, category) != category:
                clashes.append(f"{entry!r} in {owner[key]} and {category}")
    assert clashes == []


@pytest.mark.parametrize(("lang", "category"), NOUN_LISTS)
def test_entries_do_not_start_with_an_article(lang: str, category: str) -> None:
    articles = {
        "en": ("a ", "an ", "the "),
        "it": ("il ", "lo ", "la ", "i ", "gli ", "le ", "un ", "uno ", "una ", "l'", "un'"),
        "ru": (),
    }[lang]
    offenders = [e for e in load_words(lang, category) if e.lower().startswith(articles)]
    assert offenders == []


@pytest.mark.parametrize("category", CATEGORIES)
def test_russian_lists_use_yo(category: str) -> None:
    assert any("ё" in entry for entry in load_words("ru", category))


@pytest.mark.parametrize("lang", ["en", "it"])
def test_only_russian_lists_use_cyrillic(lang: str) -> None:
    for category in CATEGORIES:
        for entry in load_words(lang, category):
            assert not RU_WORD.search(entry.lower()), entry


def test_yo_word_list_is_well_formed() -> None:
    assert all("ё" in word for word in YO_WORDS)
    # A guard against the check itself rotting: these must stay covered.
    for word in ("ёж", "ёлка", "самолёт", "вертолёт", "зелёный", "чёрный", "ребёнок", "щётка"):
        assert word in YO_WORDS


@pytest.mark.parametrize("category", CATEGORIES)
def test_russian_yo_words_are_not_spelled_with_e(category: str) -> None:
    misspelt = [
        f"{entry!r}: {word} -> {YO_AS_E[word]}"
        for entry in load_words("ru", category)
        for word in RU_WORD.findall(entry.lower())
        if word in YO_AS_E
    ]
    assert misspelt == []


def test_yo_check_catches_a_misspelling() -> None:
    words = RU_WORD.findall("новогодняя елка и зеленый самолет")
    assert [YO_AS_E[word] for word in words if word in YO_AS_E] == ["ёлка", "зелёный", "самолёт"]


# --- credits ---------------------------------------------------------------------------------


def _credits_dir() -> Path:
    return content_dir() / "words" / "visual"


def _credits() -> dict[str, Any]:
    data = json.loads((_credits_dir() / "credits.json").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def test_credits_list_every_source_with_an_existing_license() -> None:
    data = _credits()
    assert data["game"] == "visual"
    sources = {source["id"]: source for source in data["credits"]}
    assert set(sources) == {"reverie", "emojibase-data", "ru-proverbs"}
    expected_licenses = {"reverie": "MIT", "emojibase-data": "MIT", "ru-proverbs": "Apache-2.0"}
    for source_id, source in sources.items():
        assert source["license"] == expected_licenses[source_id]
        assert source["source"] and source["authors"] and source["description"]
        assert (_credits_dir() / source["license_file"]).is_file(), source["license_file"]


def test_credits_cover_every_word_list() -> None:
    data = _credits()
    known = {source["id"] for source in data["credits"]}
    expected = {f"{lang}/{category}.txt" for lang, category in LISTS}
    assert set(data["files"]) == expected
    for name, source_ids in data["files"].items():
        assert (_credits_dir() / name).is_file()
        assert "reverie" in source_ids
        assert set(source_ids) <= known, name


def test_license_overview_names_every_source() -> None:
    text = (_credits_dir() / "LICENSE.md").read_text(encoding="utf-8")
    for needle in (
        "emojibase-data",
        "ru-proverbs",
        "Apache",
        "MIT",
        "Permission is hereby granted",
    ):
        assert needle in text
    assert "Apache License" in (_credits_dir() / "LICENSES" / "Apache-2.0.txt").read_text()


# --- normalise -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "lang", "expected"),
    [
        ("L'Albero", "it", "albero"),
        ("l’albero", "it", "albero"),
        ("Un'ape", "it", "ape"),
        ("Il gatto e la volpe", "it", "gatto e volpe"),
        ("Gli occhiali", "it", "occhiali"),
        ("Uno zaino", "it", "zaino"),
        ("Dell'albero", "it", "dell albero"),
        ("Nella botte", "it", "nella botte"),
        ("Città", "it", "citta"),
        ("Perché è così?", "it", "perche e cosi"),
        ("Ёлка", "ru", "елка"),
        ("ЁЖ", "ru", "еж"),
        ("Самолёт!", "ru", "самолет"),
        ("Чай", "ru", "чай"),
        ("Хот-дог", "ru", "хот дог"),
        ("Слово не воробей: вылетит — не поймаешь", "ru", "слово не воробей вылетит не поймаешь"),
        ("The Early Bird", "en", "early bird"),
        ("An apple a day", "en", "apple day"),
        ("Don't cry over spilt milk", "en", "dont cry over spilt milk"),
        ("Rubik's cube", "en", "rubiks cube"),
        ("Piñata", "en", "pinata"),
        ("  café   au\tlait ", "en", "cafe au lait"),
        ("«Ёлочка, зажгись!»", "ru", "елочка зажгись"),
    ],
)
def test_normalise_examples(text: str, lang: str, expected: str) -> None:
    assert normalise(text, lang) == expected


def test_normalise_articles_are_per_language() -> None:
    # "la" and "i" are Italian articles but ordinary words elsewhere.
    assert normalise("la la land", "en") == "la la land"
    assert normalise("I spy", "en") == "i spy"
    assert normalise("the end", "it") == "the end"


def test_normalise_is_idempotent_on_the_lists() -> None:
    for lang, category in LISTS:
        for entry in load_words(lang, category):
            once = normalise(entry, lang)
            assert normalise(once, lang) == once


def test_normalise_rejects_unknown_language() -> None:
    with pytest.raises(RulesUnknownLanguageError) as error:
        normalise("casa", "fr")
    assert isinstance(error.value, ValueError) and error.value.lang == "fr"


# --- loader ----------------------------------------------------------------------------------


def test_unknown_language_and_category_raise_typed_errors() -> None:
    with pytest.raises(UnknownLanguageError) as lang_error:
        load_words("de", "objects")
    assert isinstance(lang_error.value, WordsError)
    assert isinstance(lang_error.value, RulesUnknownLanguageError)
    assert isinstance(lang_error.value, ValueError)
    with pytest.raises(UnknownCategoryError):
        load_words("en", "colours")


def test_content_dir_is_the_repository_content_folder(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(CONTENT_DIR_ENV, raising=False)
    repo = Path(__file__).resolve().parents[2]
    assert content_dir() == repo / "content"


def test_env_override_and_missing_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    lists = tmp_path / "words" / "visual" / "en"
    lists.mkdir(parents=True)
    (lists / "objects.txt").write_text("# header\n\nkite\n  boat  \n# late comment\n", "utf-8")
    monkeypatch.setenv(CONTENT_DIR_ENV, str(tmp_path))
    assert content_dir() == tmp_path
    assert load_words("en", "objects") == ("kite", "boat")
    with pytest.raises(WordListNotFoundError) as missing:
        load_words("en", "actions")
    assert isinstance(missing.value, FileNotFoundError)
    assert missing.value.path == lists / "actions.txt"


def test_env_override_must_exist(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(CONTENT_DIR_ENV, str(tmp_path / "nowhere"))
    with pytest.raises(ContentDirNotFoundError):
        load_words("en", "objects")
