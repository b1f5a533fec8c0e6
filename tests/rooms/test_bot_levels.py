"""A bot's level is carried by the log: old logs (no level) replay with the easy bot."""

from __future__ import annotations

import pytest

from reverie.games.association import ASSOCIATION
from reverie.rooms.commands import AddBot, HandToBot, decide
from reverie.rooms.errors import RoomError
from reverie.rooms.events import BotAdded, BotSeat, Created, decode_event, encode_event
from reverie.rooms.state import RoomState, evolve


def _room() -> RoomState:
    return evolve(
        None,
        Created(
            code="ABCDEF", variant="dixit", seats=6, options={}, deck="default",
            card_count=84, seed=1, name="Ann", color="#e63946", token_hash="h0", at=0.0,
        ),
    )  # fmt: skip


def test_an_event_written_before_levels_reads_as_the_easy_bot() -> None:
    old = b'{"type":"bot_added","name":"Luna (bot)","color":"#2a9d8f"}'
    event = decode_event(old, ASSOCIATION)
    assert event == BotAdded("Luna (bot)", "#2a9d8f", "easy")
    assert evolve(_room(), event).players[1].bot_level == "easy"
    seat = decode_event(b'{"type":"bot_seat","seat":0,"on":true}', ASSOCIATION)
    assert seat == BotSeat(0, on=True, level="easy")


def test_the_host_adds_a_bot_of_a_level_and_the_log_keeps_it() -> None:
    room = _room()
    event = decide(room, 0, AddBot(level="clever"), 0.0)
    assert isinstance(event, BotAdded) and event.level == "clever"
    assert decode_event(encode_event(event), ASSOCIATION) == event
    assert evolve(room, event).players[1].bot_level == "clever"
    default = decide(room, 0, AddBot(), 0.0)
    assert isinstance(default, BotAdded) and default.level == "normal"


def test_an_unknown_level_is_refused_clearly() -> None:
    with pytest.raises(RoomError, match="level"):
        decide(_room(), 0, AddBot(level="genius"), 0.0)
    with pytest.raises(RoomError, match="level"):
        evolve(_room(), BotAdded("Luna (bot)", "#2a9d8f", "genius"))


def test_a_stand_in_plays_at_the_level_asked_for() -> None:
    room = _room()
    on = evolve(room, decide(room, 0, HandToBot(seat=0, on=True, level="clever"), 0.0))
    assert on.players[0].bot_playing and on.players[0].bot_level == "clever"
