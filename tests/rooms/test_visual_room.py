"""A drawing-game room as a fold of its events: what the log must hold for a faithful
replay, options that could break a room, and team chat across games."""

from __future__ import annotations

import pytest

import reverie.games.visual.family as visual_family
from reverie.errors import RoomError
from reverie.games.visual import VISUAL
from reverie.rooms.commands import Chat, Start, TeamCmd
from reverie.rooms.deciding import decide
from reverie.rooms.events import Created, Joined, RoomEvent, Started, decode_event, encode_event
from reverie.rooms.state import RoomState, evolve

COLORS = ["#e63946", "#f4a261", "#2a9d8f", "#457b9d"]


def lobby(**options: object) -> tuple[RoomState, list[RoomEvent]]:
    """A visual room with four people, seat s in team s % 2."""
    events: list[RoomEvent] = [
        Created(
            code="ABCDEF",
            variant="visual",
            seats=4,
            options=dict(options),
            seed=12345,
            name="P0",
            color=COLORS[0],
            token_hash="t0",
            at=0.0,
        ),
        *(Joined(f"P{i}", COLORS[i], f"t{i}") for i in range(1, 4)),
    ]
    room = None
    for e in events:
        room = evolve(room, e)
    assert room is not None
    for seat in range(4):
        event = decide(room, seat, TeamCmd(team=seat % 2), 0.0)
        events.append(event)
        room = evolve(room, event)
    return room, events


def replay(events: list[RoomEvent]) -> RoomState:
    room = None
    for e in events:
        room = evolve(room, decode_event(encode_event(e), VISUAL))  # through the log's bytes
    assert room is not None
    return room


def test_replay_deals_the_recorded_cards_even_after_the_word_lists_change(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    room, events = lobby()
    start = decide(room, 0, Start(), 0.0)
    assert isinstance(start, Started) and len(start.content) >= 150
    events.append(start)
    live = evolve(room, start)
    # A deploy adds and removes words: a replay must not deal other cards.
    visual_family._words.cache_clear()
    changed: dict[str, tuple[str, ...]] = {
        c: ("one", "two", "three") for c in ("objects", "actions", "places", "luck")
    }
    changed["proverbs"] = ("all is well that ends well",)
    monkeypatch.setattr(visual_family, "_words", lambda lang: changed)
    again = replay(events)
    assert again.game == live.game
    assert again.game.cards == start.content


@pytest.mark.parametrize(
    "options",
    [
        {"choose_seconds": 10**400},
        {"draw_seconds": 3601},
        {"think_seconds": -1},
        {"blank_share": 1.5},
        {"turn_limit": 0},
        {"token_values": [1, 10**30]},
        {"bonus_tokens": 40},
        {"language": "de"},
        {"overshoot": "wrap"},
    ],
)
def test_options_that_could_break_a_room_are_refused(options: dict[str, object]) -> None:
    with pytest.raises(RoomError) as err:
        lobby(**options)
    assert err.value.code == "bad_options"


def test_team_lines_are_forgotten_when_a_game_starts() -> None:
    room, _ = lobby()
    for seat, team in ((0, True), (1, False)):
        room = evolve(room, decide(room, seat, Chat(text=f"line {seat}", team=team), 1.0))
    assert [c.team for c in room.chat] == [0, None]
    room = evolve(room, decide(room, 0, Start(), 2.0))
    assert [c.text for c in room.chat] == ["line 1"]


def test_a_start_logged_without_cards_deals_them_from_the_lists() -> None:
    _room, events = lobby()
    old = decode_event(b'{"type":"started"}', VISUAL)
    assert isinstance(old, Started) and old.content == ()
    started = replay([*events, old])
    assert started.status == "playing" and len(started.game.cards) >= 150
