"""The three dictionaries are complete and agree; every key the client asks for exists.

No browser needed: this reads the static files.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from reverie.store.moderation import REPORT_REASONS

STATIC = Path(__file__).resolve().parents[2] / "src" / "reverie" / "web" / "static"
LANGS = ("en", "ru", "it")
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def _load(lang: str) -> dict[str, object]:
    data: dict[str, object] = json.loads((STATIC / "i18n" / f"{lang}.json").read_text("utf-8"))
    return data


def _texts(value: object) -> list[str]:
    if isinstance(value, dict):
        return [str(v) for v in value.values()]
    return [str(value)]


def _placeholders(value: object) -> set[str]:
    return {m for text in _texts(value) for m in PLACEHOLDER.findall(text)}


def test_same_keys_in_every_language() -> None:
    en = _load("en")
    for lang in LANGS[1:]:
        other = _load(lang)
        assert sorted(set(en) - set(other)) == [], f"missing in {lang}"
        assert sorted(set(other) - set(en)) == [], f"only in {lang}"


@pytest.mark.parametrize("lang", LANGS)
def test_values_are_filled_and_plurals_complete(lang: str) -> None:
    for key, value in _load(lang).items():
        assert all(t.strip() for t in _texts(value)), f"{lang}:{key} is empty"
        if isinstance(value, dict):
            assert "other" in value, f"{lang}:{key} lacks the 'other' plural form"
            if lang == "ru":
                assert {"one", "few", "many"} <= set(value), f"ru:{key} lacks a plural form"


def test_placeholders_agree() -> None:
    en = _load("en")
    for lang in LANGS[1:]:
        other = _load(lang)
        for key, value in en.items():
            assert _placeholders(other[key]) == _placeholders(value), f"{lang}:{key}"


def test_every_literal_key_in_the_client_exists() -> None:
    en = _load("en")
    used: set[str] = set()
    for path in [*STATIC.glob("js/**/*.js"), STATIC / "decks.js"]:
        used |= set(re.findall(r"\bt\(\"([a-z0-9_.-]+)\"", path.read_text("utf-8")))
    for path in STATIC.glob("*.html"):
        text = path.read_text("utf-8")
        used |= set(re.findall(r'data-i18n="([a-z0-9_.-]+)"', text))
        used |= set(re.findall(r'content="([a-z]+\.[a-z0-9_.-]+)"', text))
    missing = sorted(k for k in used if k not in en)
    assert missing == []


def test_russian_keeps_yo() -> None:
    ru = json.dumps(_load("ru"), ensure_ascii=False)
    for word in ("ещё", "жёлт", "зелён", "ход перешёл", "её"):
        assert word in ru, word
    for wrong in ("еще", "перешел", "зелен", "желт"):
        assert not re.search(rf"\b{wrong}", ru), wrong


def test_every_composed_key_exists() -> None:
    """Keys the client builds from data: variants, restrictions, phases, error codes…"""
    en = _load("en")
    variants = ["dixit", "imaginarium", "imaginarium-harmony", "pictoric", "pictoric-gallery"]
    restrictions = ["four_words", "three_words", "question", "brand", "film", "story"]
    variants += [f"{v}-companion" for v in variants] + ["visual-companion"]
    wanted = [f"variant.{v}.{part}" for v in variants for part in ("title", "blurb")]
    wanted += [f"companion.phase.{p}" for p in ("dice", "clue", "count", "secret", "over")]
    wanted += [
        f"restriction.{r}.{p}" for r in restrictions for p in ("short", "rule", "rule_other")
    ]
    wanted += [f"phase.{p}" for p in ("clue", "submit", "vote", "over")]
    wanted += [f"color.{i}" for i in range(12)]
    wanted += [f"options.first.short.{f}" for f in ("claim", "random", "dice")]
    wanted += [f"options.target.hint.{v}" for v in ("dixit", "imaginarium", "pictoric")]
    wanted += [f"reveal.outcome.{o}" for o in ("all", "none", "some")]
    wanted += [f"board.title.{b}" for b in ("dixit-track", "imaginarium-clouds", "pictoric-track")]
    wanted += [f"report.reason.{r}" for r in REPORT_REASONS]  # the report dialog's choices
    protocol = (STATIC.parents[3] / "docs" / "protocol.md").read_text("utf-8")
    start = protocol.index("### Error codes")
    # The lists of codes, up to the paragraph after the room's list.
    section = protocol[start : protocol.index("\n\n", protocol.index("Room:", start))]
    drawing = protocol.index("Error codes of the drawing game")
    end = protocol.find("\n\n", drawing)
    section += protocol[drawing : end if end >= 0 else None]
    companion = protocol.index("Error codes of companion games")
    end = protocol.find("\n\n", companion)
    section += protocol[companion : end if end >= 0 else None]
    codes = set(re.findall(r"`([a-z_]+)`", section))
    assert "stale_version" in codes
    wanted += [f"error.{c}" for c in sorted(codes)]
    missing = [k for k in wanted if k not in en]
    assert missing == []


def test_the_report_dialog_offers_the_reasons_the_server_takes() -> None:
    source = (STATIC / "js" / "shell" / "report.js").read_text("utf-8")
    found = re.search(r"export const REASONS = \[([^\]]*)\]", source)
    assert found is not None
    assert tuple(re.findall(r'"([a-z]+)"', found.group(1))) == REPORT_REASONS


def test_russian_tells_the_pawn_from_the_token() -> None:
    """Issue #12: in the drawing game «фишка» is a team's pawn and «жетон» a point token,
    on the rules page and in the game alike (the Italian has «pedina» and «gettone»)."""
    en, ru = _load("en"), _load("ru")
    for key, value in en.items():
        english = " ".join(_texts(value)).lower()
        russian = " ".join(_texts(ru[key])).lower()
        if re.search(r"\btokens?\b", english) and "pawn" not in english:
            assert "фишк" not in russian, (key, russian)
        if "pawn" in english and not re.search(r"\btokens?\b", english):
            assert "жетон" not in russian, (key, russian)
