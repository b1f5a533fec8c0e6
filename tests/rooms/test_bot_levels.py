"""A bot's level is carried by the log: old logs (no level) replay with the easy bot."""

from __future__ import annotations

from typing import Any

import pytest

from reverie import games
from reverie.errors import RoomError
from reverie.games.association import ASSOCIATION
from reverie.rooms.bot_levels import BOT_LEVELS, DEFAULT_BOT_LEVEL, stand_in_level
from reverie.rooms.commands import AddBot, HandToBot, SetBotLevel, Start
from reverie.rooms.deciding import decide
from reverie.rooms.events import (
    BotAdded,
    BotLevelSet,
    BotSeat,
    Created,
    Joined,
    decode_event,
    encode_event,
)
from reverie.rooms.snapshot import room_info
from reverie.rooms.state import RoomState, evolve


def _room(variant: str = "dixit") -> RoomState:
    return evolve(
        None,
        Created(
            code="ABCDEF", variant=variant, seats=6, options={},
            setup={"deck": "default", "card_count": 84},
            seed=1, name="Ann", color="#e63946", token_hash="h0", at=0.0,
        ),
    )  # fmt: skip


def _seen(room: RoomState) -> dict[str, Any]:
    """The room part of the state frame the host receives."""
    return room_info(room, 0, connected={0}, spectators=0, deadline=None, now=0.0)


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


def test_a_stand_in_plays_at_the_tables_bot_level_or_the_best_with_no_bot() -> None:
    room = evolve(_room(), Joined("Bob", "#2a9d8f", "h1"))
    assert stand_in_level(room) == "clever"  # no bot: it plays for a person, as well as it can
    room = evolve(room, decide(room, 0, AddBot(level="easy"), 0.0))
    assert stand_in_level(room) == "easy"  # the host chose easy bots for this table
    room = evolve(room, decide(room, 0, AddBot(level="normal"), 0.0))
    assert stand_in_level(room) == "normal"  # the strongest the host chose
    room = evolve(room, decide(room, 0, Start(), 0.0))
    away = frozenset({1})
    room = evolve(room, decide(room, 0, HandToBot(seat=1, on=True, level="clever"), 0.0, away=away))
    assert stand_in_level(room) == "clever"  # a bot the host raised counts too
    # A game whose bots have no levels: the default, as before.
    assert stand_in_level(_room("visual")) == DEFAULT_BOT_LEVEL


def test_the_host_changes_a_bots_level_and_the_log_keeps_it() -> None:
    room = _room()
    room = evolve(room, decide(room, 0, AddBot(level="easy"), 0.0))
    event = decide(room, 0, SetBotLevel(seat=1, level="clever"), 0.0)
    assert event == BotLevelSet(1, "clever")
    assert decode_event(encode_event(event), ASSOCIATION) == event
    after = evolve(room, event)
    assert after.players[1].bot_level == "clever"
    seen = _seen(after)["players"][1]
    assert seen["bot"] and seen["bot_level"] == "clever"


def test_only_the_host_changes_a_level_and_only_of_a_bot() -> None:
    room = _room()
    room = evolve(room, Joined("Bob", "#2a9d8f", "h1"))
    room = evolve(room, decide(room, 0, AddBot(), 0.0))
    with pytest.raises(RoomError) as not_host:
        decide(room, 1, SetBotLevel(seat=2, level="easy"), 0.0)
    assert not_host.value.code == "not_host"
    with pytest.raises(RoomError, match="No bot plays that seat"):
        evolve(room, decide(room, 0, SetBotLevel(seat=1, level="easy"), 0.0))
    with pytest.raises(RoomError, match="level"):
        decide(room, 0, SetBotLevel(seat=2, level="genius"), 0.0)
    with pytest.raises(RoomError) as unknown:
        evolve(room, BotLevelSet(9, "easy"))
    assert unknown.value.code == "unknown_seat"


def test_a_stand_ins_level_changes_during_the_game() -> None:
    room = _room()
    for i, color in enumerate(("#2a9d8f", "#457b9d"), start=1):
        room = evolve(room, Joined(f"P{i}", color, f"h{i}"))
    room = evolve(room, decide(room, 0, Start(), 0.0))
    away = frozenset({2})
    room = evolve(room, decide(room, 0, HandToBot(seat=2, on=True, level="easy"), 0.0, away=away))
    room = evolve(room, decide(room, 0, SetBotLevel(seat=2, level="clever"), 0.0))
    assert room.players[2].bot_playing and room.players[2].bot_level == "clever"
    assert _seen(room)["players"][2]["bot_level"] == "clever"


def test_a_family_whose_bots_have_no_levels_refuses_one() -> None:
    room = _room("visual")
    room = evolve(room, BotSeat(0, on=True))  # a stand-in only chooses categories
    with pytest.raises(RoomError, match="no such level"):
        evolve(room, decide(room, 0, SetBotLevel(seat=0, level="clever"), 0.0))


def test_the_capabilities_say_which_levels_a_host_may_choose() -> None:
    for family in games.families():
        assert set(family.bot_levels) <= set(BOT_LEVELS), family.name
        for info in family.variants():
            assert info.capabilities["bot_levels"] == list(family.bot_levels), info.name
            # Levels are offered only where bots may be added.
            assert not family.bot_levels or info.capabilities["bots"], info.name
    assert ASSOCIATION.variant("dixit").capabilities["bot_levels"] == list(BOT_LEVELS)
    assert games.family_of("visual").bot_levels == ()
    assert games.family_of("dixit-companion").bot_levels == ()


def test_a_bot_for_a_seat_that_does_not_exist_is_refused_by_name() -> None:
    """Issue #24: ``bot_seat`` on seat 7 of a two-seat table answered player_present."""
    room = evolve(_room(), Joined("Bob", "#2a9d8f", "h1"))
    for seat in (2, 7, -1):
        with pytest.raises(RoomError) as refused:
            decide(room, 0, HandToBot(seat=seat, on=True), 0.0, away=frozenset({1}))
        assert refused.value.code == "unknown_seat"
