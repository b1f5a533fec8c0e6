"""A person arriving at a running public table takes a bot's seat at the next turn
boundary, with its hand and score (the drawing game: a bot's place in the smaller team);
nobody is seated in a game already decided. The fold alone, event by event."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import msgspec
import pytest

from reverie.bus.base import MemoryBus
from reverie.content.decks import list_decks
from reverie.content.library import Library
from reverie.errors import RoomError
from reverie.rooms.commands import AddBot, Join, Start, TeamCmd
from reverie.rooms.deciding import decide
from reverie.rooms.events import (
    Acted,
    Created,
    Joined,
    Left,
    RoomEvent,
    decode_event,
    encode_event,
)
from reverie.rooms.listing import may_seat
from reverie.rooms.seating import check_may_seat
from reverie.rooms.service import RoomService
from reverie.rooms.snapshot import QUEUED, state_frames
from reverie.rooms.snapshots import decode_snapshot, encode_snapshot
from reverie.rooms.state import RoomState, evolve, hash_token
from reverie.rooms.takeover import decided, open_places, takeable_bots
from reverie.rooms.texts import check_new_name
from reverie.store import open_store
from tests.aio import run_async


def _fold(room: RoomState | None, event: RoomEvent) -> RoomState:
    new = evolve(room, event)
    # Through the log's bytes, as a replay reads it.
    return evolve(room, decode_event(encode_event(event), new.family)) if room else new


def _table(variant: str, *, public: bool = True, **options: Any) -> RoomState:
    """Ann (host, seat 0) and three bots, the game started."""
    setup = None if variant == "visual" else {"deck": "default", "card_count": 84}
    room = _fold(
        None,
        Created(
            code="ABCDEF", variant=variant, seats=4, options=options, seed=7, name="Ann",
            color="#e63946", token_hash="h-Ann", at=0.0, public=public, lang="en",
            setup=setup,
        ),
    )  # fmt: skip
    for _ in range(3):
        room = _fold(room, decide(room, 0, AddBot(), 0.0))
    return _fold(room, decide(room, 0, Start(), 0.0))


def _turn(room: RoomState) -> int:
    key = room.phase_key()
    assert key is not None
    return key[1]


def _step(room: RoomState) -> RoomEvent:
    """The next move of the game: the phase's time running out (every phase of both
    families ends so, whoever it waits for)."""
    timeout = room.family.timeout()
    assert timeout is not None
    return Acted(timeout)


def _person(name: str) -> Joined:
    return Joined(name, "#2a9d8f", f"h-{name}", ids=(f"b:{name}",))


def test_a_person_takes_a_bots_seat_when_the_turn_ends_with_its_hand_and_score() -> None:
    room = _table("dixit")
    assert room.status == "playing" and takeable_bots(room) == [1, 2, 3]
    turn = _turn(room)
    room = _fold(room, _person("Bea"))
    # Queued: not seated yet, the seat still a bot's; the name is taken already.
    assert [p.name for p in room.waiting] == ["Bea"] and room.seat_of("h-Bea") is None
    assert room.players[1].bot
    with pytest.raises(RoomError) as info:
        check_new_name(room, "bea")
    assert info.value.code == "name_taken"
    # The turn goes on, event by event: Bea stays queued until the turn is over.
    twin = replace(room, waiting=())  # the same table without her, for comparing
    while True:
        event = _step(room)
        before = room
        room, twin = _fold(room, event), _fold(twin, event)
        # The takeover changes who plays, never the game: hands and scores are kept.
        assert room.game == twin.game
        if _turn(room) != turn:
            break
        assert room.waiting and room.seat_of("h-Bea") is None and room.players[1].bot
    seat = room.seat_of("h-Bea")
    assert seat == 1 and room.waiting == ()
    bea, bot = room.players[1], before.players[1]
    assert not bea.bot and bea.name == "Bea" and bea.ids == ("b:Bea",)
    assert bea.color == bot.color  # the board's piece stays the seat's
    assert room.game.hands[1] == twin.game.hands[1] and len(room.game.hands[1]) > 0
    assert room.game.scores == twin.game.scores
    # Her view is the seat's: its hand.
    frames = state_frames(room, {1}, connected={0, 1}, spectators=0, deadline=None, now=0.0)
    assert frames[1]["room"]["you"]["seat"] == 1
    assert list(frames[1]["game"]["hand"]) == list(room.game.hands[1])


def _drawing_table() -> RoomState:
    """Five people in two teams of 3 and 2 (the drawing game has no bots), started."""
    room = _fold(
        None,
        Created(
            code="ABCDEF", variant="visual", seats=5, options={}, seed=7, name="Ann",
            color="#e63946", token_hash="h-Ann", at=0.0, public=True, lang="en",
        ),
    )  # fmt: skip
    colors = ("#f4a261", "#e9c46a", "#2a9d8f", "#457b9d")
    for name, color in zip(("Bob", "Cy", "Di", "Ed"), colors, strict=True):
        room = _fold(room, Joined(name, color, f"h-{name}"))
    for seat, team in enumerate((0, 0, 0, 1, 1)):
        room = _fold(room, decide(room, seat, TeamCmd(team=team), 0.0))
    return _fold(room, decide(room, 0, Start(), 0.0))


def test_the_drawing_game_seats_a_newcomer_in_the_smaller_team_at_the_turns_end() -> None:
    room = _drawing_table()
    assert room.public and open_places(room) == 12 - 5  # up to the game's most players
    turn = _turn(room)
    room = _fold(room, _person("Bea"))
    twin = replace(room, waiting=())
    while _turn(room) == turn:
        assert room.seat_of("h-Bea") is None and len(room.players) == 5
        event = _step(room)
        room, twin = _fold(room, event), _fold(twin, event)
    # A sixth seat, in the smaller team (1), whose score she shares; nothing else moved.
    seat = room.seat_of("h-Bea")
    assert seat == 5 and room.seats == 6 and room.waiting == ()
    assert room.players[5].team == 1 and room.game.team_of(5) == 1
    assert room.game.teams == ((0, 1, 2), (3, 4, 5)) and room.game.players[5] == "Bea"
    assert room.players[5].color not in {p.color for p in room.players[:5]}
    for kept in ("pawns", "held", "turn", "squares", "deck"):
        assert getattr(room.game, kept) == getattr(twin.game, kept)
    # Teams are even now: the next newcomer joins the first team.
    room = _fold(room, _person("Cid"))
    turn = _turn(room)
    while _turn(room) == turn:
        room = _fold(room, _step(room))
    assert room.seat_of("h-Cid") == 6 and room.game.teams[0] == (0, 1, 2, 6)
    # Her view is a player's of that team.
    frames = state_frames(room, {5}, connected={5}, spectators=0, deadline=None, now=0.0)
    assert frames[5]["room"]["you"]["seat"] == 5
    assert {"seat": 5, "name": "Bea", "team": 1} in frames[5]["game"]["players"]


def test_a_decided_game_seats_nobody_and_a_private_one_queues_nobody() -> None:
    room = _table("dixit")
    room = _fold(room, _person("Bea"))
    # The game becomes decided before the turn ends: Bea is not seated, she watches.
    game = room.game
    near_end = msgspec.structs.replace(game, scores=(0, 0, 32, 0))
    room = replace(room, game=near_end)
    assert decided(room)
    with pytest.raises(RoomError) as info:
        evolve(room, _person("Cid"))
    assert info.value.code == "table_full"
    # Play now's own check says so too (it sends nobody there), nor does the list.
    with pytest.raises(RoomError) as info:
        check_may_seat(room, "", "")
    assert info.value.code == "table_full"
    assert not may_seat(room)
    turn = _turn(room)
    while _turn(room) == turn and room.status == "playing":
        room = _fold(room, _step(room))
    assert room.seat_of("h-Bea") is None and room.waiting == ()
    assert all(p.bot for p in room.players[1:])
    # A private table seats people in its lobby only, as before.
    private = _table("dixit", public=False)
    with pytest.raises(RoomError) as info:
        evolve(private, _person("Bea"))
    assert info.value.code == "not_in_lobby"


def test_the_queue_holds_one_person_per_bots_seat_and_survives_a_snapshot() -> None:
    room = _table("dixit")
    for name in ("Bea", "Cid", "Dee"):
        room = _fold(room, _person(name))
    with pytest.raises(RoomError) as info:
        evolve(room, _person("Eve"))
    assert info.value.code == "table_full"
    again, _ = decode_snapshot(encode_snapshot(room, 0.0))
    assert again == room
    # What the queued see: the spectators' view, saying they are queued.
    frames = state_frames(room, {None, QUEUED}, connected={0}, spectators=1, deadline=None, now=0.0)
    assert frames[QUEUED]["room"]["queued"] is True and frames[None]["room"]["queued"] is False
    assert frames[QUEUED]["game"] == frames[None]["game"]
    assert frames[None]["room"]["waiting"] == 3 and frames[None]["room"]["places"] == 0
    turn = _turn(room)
    while _turn(room) == turn:
        room = _fold(room, _step(room))
    assert [room.seat_of(f"h-{n}") for n in ("Bea", "Cid", "Dee")] == [1, 2, 3]


def test_over_the_service_a_drawing_game_newcomer_is_seated_and_the_log_replays(
    tmp_path: Path,
) -> None:
    """The room service's join queues (no seat yet), the turn's end seats, and the log
    folds again to the same room (a restart, another process)."""

    async def main() -> None:
        decks = {d.name: d for d in list_decks()}
        service = RoomService(
            open_store(f"sqlite:///{tmp_path / 'r.db'}"), MemoryBus(), Library(decks),
            bot_delay=3600,
        )  # fmt: skip
        live, _ = await service.create_room(
            name="Ann", color="#e63946", variant="visual", seats=4, options={}, public=True
        )
        colors = ("#f4a261", "#e9c46a", "#2a9d8f")
        for name, color in zip(("Bob", "Cy", "Di"), colors, strict=True):
            await service.join(live, Join(name=name, color=color))
        for s in range(4):
            await service.command(live, s, TeamCmd(team=s % 2))
        await service.command(live, 0, Start())
        seat, token = await service.join(live, Join(name="Bea", color=""))
        assert seat is None and service.queued(live, hash_token(token))
        assert service.seat_for_token(live, token) is None
        turn = _turn(live.state)
        while _turn(live.state) == turn:
            async with live.lock:
                await service.writer.commit(live, _step)
        seat = service.seat_for_token(live, token)
        assert seat is not None and not service.queued(live, hash_token(token))
        replayed = await service.history.replay(live.state.code)
        assert replayed is not None and replayed[0] == live.state
        await service.close()

    run_async(main())


def test_a_person_queued_may_leave_the_queue_and_then_watches() -> None:
    room = _table("dixit")
    room = _fold(room, _person("Bea"))
    room = _fold(room, Left(-1, waiting="h-Bea"))
    assert room.waiting == () and open_places(room) == 3
    with pytest.raises(RoomError) as info:
        evolve(room, Left(-1, waiting="h-Bea"))
    assert info.value.code == "not_seated"
    turn = _turn(room)
    while _turn(room) == turn:
        room = _fold(room, _step(room))
    assert room.seat_of("h-Bea") is None and all(p.bot for p in room.players[1:])
