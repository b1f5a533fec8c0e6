"""The text filter (reverie.content.textfilter): rude words found through the usual
evasions in three languages, clean words that contain one left alone, the levels, and
names that only look like another."""

from __future__ import annotations

from pathlib import Path

import pytest

from reverie.content.textfilter import WordFilter, load, lookalike, skeleton

FOLDER = Path(__file__).resolve().parents[2] / "content" / "textfilter"


@pytest.fixture(scope="module")
def words() -> WordFilter:
    return load(FOLDER)


@pytest.mark.parametrize(
    ("text", "masked"),
    [
        # English: case, spaced letters, repeats, digits and signs, a Cyrillic letter inside.
        ("FUCK off", "**** off"),
        ("f u c k you", "* * * * you"),
        ("f.u.c.k", "*******"),
        ("fuuuuuck", "********"),
        ("sh1t happens!", "**** happens!"),
        ("a$$", "***"),
        ("you @sshole", "you *******"),
        ("fuсk", "****"),  # the с is Cyrillic
        ("motherfucking", "*************"),
        ("testa di cazzo!", "***** ** *****!"),
        # Italian: accents and width folded, other endings by root; the same evasions.
        ("Che stronzata", "Che *********"),
        ("STRONZI", "*******"),
        ("vaffanculooo", "************"),
        ("sei una merdaccia", "sei una *********"),
        ("puttane", "*******"),
        ("s t r o n z o", "* * * * * * *"),
        ("str0nz0", "*******"),
        ("stronzо", "*******"),  # the о is Cyrillic
        # Russian: roots with prefixes, ё, repeats, digits, Latin letters for Cyrillic ones.
        ("хуй", "***"),
        ("xуй", "***"),  # a Latin x
        ("похуй", "*****"),
        ("хуёвый день", "****** день"),
        ("п и з д а", "* * * * *"),
        ("заебись", "*******"),
        ("ЕБАТЬ", "*****"),
        ("хуууй", "*****"),
        ("6лядь", "*****"),  # a 6 for б
        ("пи3да", "*****"),  # a 3 for з
        ("блядь", "*****"),
        ("pizdets", "*******"),  # transliterated
        ("dolboyeb", "********"),
        ("🖕 hi", "* hi"),
    ],
)
def test_rude_words_are_hidden_through_the_usual_evasions(
    words: WordFilter, text: str, masked: str
) -> None:
    assert words.mask(text, "mild") == masked
    assert words.mask(text, "strict") == masked
    assert words.mask(text, "off") == text


@pytest.mark.parametrize(
    "text",
    [
        # Place names and everyday words that contain a rude one.
        "Scunthorpe",
        "Essex and Middlesex",
        "Penistone",
        "the therapist",
        "a pen is mightier",
        "cocktail",
        "assassin in the grass",
        "a class analysis",
        "cumulus clouds",
        "shiitake",
        "Dickens",
        "4.5,5 stars",
        "5m away, 455 km",
        "Cazzago San Martino",
        "cazzuola",
        "un cazzotto",
        "spaghetti alla puttanesca",
        "pesce",
        "regina",
        "pisello e finocchio",
        "хлеб",
        "небо",
        "Себастьян",
        "потребовать",
        "учебу",
        "мандарин",
        "мудрый",
        "бугор",
        "the tit on a branch",
    ],
)
def test_clean_words_that_contain_a_rude_one_pass(words: WordFilter, text: str) -> None:
    assert words.find(text, "strict") == []


def test_strict_hides_what_mild_lets_through(words: WordFilter) -> None:
    for text in ("nude", "Moby Dick", "хрен", "Troia", "s&m"):
        assert words.allows(text, "mild"), text
        assert not words.allows(text, "strict"), text
    assert words.allows("anything at all: fuck", "off")


def test_the_games_own_words_pass_the_mild_level(words: WordFilter) -> None:
    """Every proverb, word and association the game itself shows or plays passes the
    default level: the filter would otherwise hide the game's own clues."""
    root = FOLDER.parents[1]
    files = [*(root / "content" / "words").rglob("*.txt")]
    files += (root / "src" / "reverie" / "content" / "associations").glob("*.txt")
    assert len(files) >= 10
    lines = [line for path in files for line in path.read_text(encoding="utf-8").splitlines()]
    assert len(lines) > 5000
    hits = [line for line in lines if not words.allows(line, "mild")]
    assert hits == []


def test_a_curation_naming_a_word_its_list_lacks_is_refused(tmp_path: Path) -> None:
    (tmp_path / "ldnoobw").mkdir()
    for lang in ("en", "ru", "it"):
        (tmp_path / "ldnoobw" / f"{lang}.txt").write_text("badword\n", encoding="utf-8")
    (tmp_path / "curation.txt").write_text("[allow en]\nnotthere\n", encoding="utf-8")
    with pytest.raises(ValueError, match="'notthere' is not in the en list"):
        load(tmp_path)
    (tmp_path / "curation.txt").write_text("[allow en]\nbadword\n", encoding="utf-8")
    assert load(tmp_path).allows("badword", "strict")


def test_names_that_only_look_like_another_are_found() -> None:
    assert skeleton("Аnn") == skeleton("ann") == "ann"  # a Cyrillic А
    assert lookalike("Аnn", ["Bob", "Ann"]) == "Ann"
    assert lookalike("Bоb", ["Bob"]) == "Bob"  # a Cyrillic о
    assert lookalike("ΑΝΝ", ["ann"]) == "ann"  # Greek capitals
    assert lookalike("Anna", ["Ann"]) is None
    assert lookalike("Ann", ["Ann"]) is None  # the same name is another check's matter
    assert lookalike("Иван", ["Ivan"]) is None  # a transliteration is a different name
