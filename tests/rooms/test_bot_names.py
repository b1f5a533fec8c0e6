"""A bot takes a name of its table's language: Russian names at a Russian table, Italian
at an Italian one, the English list anywhere else."""

from __future__ import annotations

import re

import pytest

from reverie.rooms.commands import BOT_NAMES, BOT_NAMES_BY_LANG, AddBot, bot_name
from reverie.rooms.deciding import decide
from reverie.rooms.events import BotAdded, Created
from reverie.rooms.state import RoomState, evolve


def _room(lang: str) -> RoomState:
    return evolve(
        None,
        Created(
            code="ABCDEF", variant="dixit", seats=6, options={},
            setup={"deck": "default", "card_count": 84},
            seed=1, name="Ann", color="#e63946", token_hash="h0", at=0.0,
            lang=lang,
        ),
    )  # fmt: skip


def _bots(lang: str, count: int) -> list[str]:
    room = _room(lang)
    names = []
    for _ in range(count):
        event = decide(room, 0, AddBot(), 0.0)
        assert isinstance(event, BotAdded)
        names.append(event.name)
        room = evolve(room, event)
    return names


@pytest.mark.parametrize(("lang", "letters"), [("ru", r"[А-Яа-яЁё]+"), ("it", r"[A-Za-z]+")])
def test_a_bot_at_a_russian_or_italian_table_has_a_name_of_that_language(
    lang: str, letters: str
) -> None:
    names = _bots(lang, 5)
    assert names == list(BOT_NAMES_BY_LANG[lang][:5])
    assert all(re.fullmatch(letters, n) for n in names), names
    assert not set(names) & set(BOT_NAMES)  # none of the English list


def test_an_english_table_keeps_the_english_names() -> None:
    assert _bots("en", 3) == list(BOT_NAMES[:3])


def test_when_every_name_of_the_language_is_taken_they_are_numbered() -> None:
    assert bot_name(list(BOT_NAMES_BY_LANG["ru"]), "ru") == "Алиса 2"
    assert bot_name(["алиса"], "ru") == "Борис"  # compared as people's names are


def test_a_table_of_another_language_gets_the_english_names() -> None:
    assert bot_name([], "de") == BOT_NAMES[0]
