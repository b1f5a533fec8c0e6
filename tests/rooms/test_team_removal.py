"""Removing one person who plays a team seat (issues #26 and #27): by the host or by a
vote, only that member goes and is banned; the seat plays on with the others, and goes
(lobby) or passes to a bot (game) only with its last member; the lobby is made even
again, as after a leave; logs from before replay as they were played."""

from __future__ import annotations

from typing import Any

import pytest

from reverie.errors import RoomError
from reverie.games.association import ASSOCIATION
from reverie.rooms.bans import check_not_banned
from reverie.rooms.commands import Ballot, Kick, Leave, MakeHost, Start, VoteKick
from reverie.rooms.deciding import decide
from reverie.rooms.events import (
    Created,
    Joined,
    Proposed,
    Removed,
    VoteStarted,
    decode_event,
    encode_event,
)
from reverie.rooms.snapshot import room_info, state_frames
from reverie.rooms.state import RoomState, evolve
from reverie.rules.association import view

COLORS = ("#e63946", "#f4a261", "#e9c46a", "#2a9d8f")


def _ids(token: str) -> tuple[str, ...]:
    return (f"b:{token}", f"a:{token}")


def _room(sizes: list[int], *, public: bool = False) -> RoomState:
    """A Dixit lobby of team seats whose seat ``s`` is played by ``sizes[s]`` people
    (person ``m`` of seat ``s``: P{s}m{m}, token t{s}-{m}); seat 0's first is the host."""
    room = evolve(
        None,
        Created(
            code="TEAMRM", variant="dixit", seats=4, options={"team_seats": "one"}, seed=3,
            name="P0m0", color=COLORS[0], token_hash="t0-0", at=0.0, public=public,
            setup={"deck": "default", "card_count": 84}, ids=_ids("t0-0"),
        ),
    )  # fmt: skip
    for s, size in enumerate(sizes):
        for m in range(size):
            if s or m:
                token = f"t{s}-{m}"
                seat = s if m else None
                room = evolve(room, Joined(f"P{s}m{m}", COLORS[s], token, seat, _ids(token)))
    return room


def _do(room: RoomState, seat: int | None, cmd: Any, now: float = 0.0, **kw: Any) -> RoomState:
    event = decide(room, seat, cmd, now, **kw)
    assert decode_event(encode_event(event), ASSOCIATION) == event
    return evolve(room, event)


def _people(room: RoomState) -> list[list[str]]:
    return [[p.name, *(m.name for m in p.members)] for p in room.players]


def test_the_host_removes_one_member_mid_game_and_the_seat_plays_on_with_the_others() -> None:
    room = _do(_room([1, 3, 1]), 0, Start())
    game = room.game
    hand = view(game, 1)["hand"]
    room = evolve(room, Proposed(1, 2, {"type": "submit", "card": hand[0]}))
    event = decide(room, 0, Kick(seat=1, member=1), 1.0)
    assert event == Removed(1, how="host", member=1)
    room = _do(room, 0, Kick(seat=1, member=1), 1.0)
    # Only P1m1 goes and is banned; the seat is still the people's, its game untouched.
    assert _people(room) == [["P0m0"], ["P1m0", "P1m2"], ["P2m0"]]
    assert not room.players[1].controlled_by_bot and room.game is game
    assert room.bans == frozenset(_ids("t1-1"))
    assert room.seat_of("t1-1") is None and room.seat_of("t1-2") == 1
    with pytest.raises(RoomError) as info:
        check_not_banned(room, "b:t1-1")
    assert info.value.code == "banned"
    check_not_banned(room, *_ids("t1-0"), *_ids("t1-2"))  # the teammates may sit again
    # P1m2 is member 1 now and keeps the card they pointed at.
    assert [(p.seat, p.member) for p in room.proposals] == [(1, 1)]
    # The seat's first person goes: the next member takes the seat over.
    room = _do(room, 0, Kick(seat=1), 2.0)
    assert _people(room) == [["P0m0"], ["P1m2"], ["P2m0"]]
    assert room.players[1].ids == _ids("t1-2") and not room.players[1].bot
    # The last member's removal is as a solo seat's: a bot plays on, hand and score kept.
    assert decide(room, 0, Kick(seat=1), 3.0) == Removed(1, how="host")
    room = _do(room, 0, Kick(seat=1), 3.0)
    assert room.players[1].bot and room.players[1].token_hash is None
    assert room.game is game and view(room.game, 1)["hand"] == hand
    assert room.bans == frozenset(_ids("t1-1") + _ids("t1-0") + _ids("t1-2"))
    with pytest.raises(RoomError) as info:
        decide(room, 0, Kick(seat=2, member=1), 4.0)  # a solo seat has no member 1
    assert info.value.code == "unknown_seat"


def test_a_removal_in_the_lobby_evens_the_seats_and_old_logs_replay_as_played() -> None:
    room = _room([3, 3, 1])
    with pytest.raises(RoomError) as info:
        decide(room, 0, Kick(seat=0, member=1), 1.0, by=1)
    assert info.value.code == "bad_message"  # a member does not remove themselves
    # The host removes their own teammate: 2, 3, 1 is made 2, 2, 2, the newest of the
    # three moving over; every seat's first person stays.
    room = _do(room, 0, Kick(seat=0, member=1), 1.0)
    assert _people(room) == [["P0m0", "P0m2"], ["P1m0", "P1m1"], ["P2m0", "P1m2"]]
    assert room.bans == frozenset(_ids("t0-1")) and room.host == 0
    # The third seat's first person: the seat stays with the one who moved there.
    room = _do(room, 0, Kick(seat=2), 1.0)
    assert _people(room) == [["P0m0", "P0m2"], ["P1m0", "P1m1"], ["P1m2"]]
    assert room.bans == frozenset(_ids("t0-1") + _ids("t2-0"))
    before = _room([1, 3, 1])
    evened = _do(before, 0, Kick(seat=2), 1.0)
    assert _people(evened) == [["P0m0", "P1m2"], ["P1m0", "P1m1"]]
    # Logs from before: a removal without a member took the whole team seat, and
    # without balance nobody moved.
    old = evolve(before, Removed(1))
    assert _people(old) == [["P0m0"], ["P2m0"]]
    assert old.bans == frozenset(_ids("t1-0") + _ids("t1-1") + _ids("t1-2"))
    assert _people(evolve(before, Removed(2))) == [["P0m0"], ["P1m0", "P1m1", "P1m2"]]
    assert _people(evolve(before, Removed(1, member=2))) == [["P0m0"], ["P1m0", "P1m1"],
                                                           ["P2m0"]]  # fmt: skip


def test_a_removed_host_member_leaves_the_role_with_the_seat_and_its_claim_goes() -> None:
    # The host's seat's first person is voted out at a public table: P0m1 plays the
    # seat on, and the host role stays with it, as when a member leaves.
    room = _room([2, 1, 1], public=True)
    room = _do(room, 1, VoteKick(seat=0), 1.0, at_table=frozenset({0, 1, 2}))
    assert room.vote is not None and room.vote.member == 0
    room = _do(room, 2, Ballot(yes=True), 2.0)
    assert _people(room) == [["P0m1"], ["P1m0"], ["P2m0"]]
    assert room.host == 0 and room.bans == frozenset(_ids("t0-0"))
    # A host away, whose role another took over, keeps a claim to it; removed, they
    # lose it (their teammate does not inherit it).
    room = _do(_room([2, 1, 1]), 1, MakeHost(seat=1), 3.0, away=frozenset({0}))
    assert room.host == 1 and room.home_host == "t0-0"
    room = _do(room, 1, Kick(seat=0), 4.0)
    assert room.host == 1 and room.home_host is None and _people(room)[0] == ["P0m1"]


def test_a_vote_about_a_member_counts_every_person_present_and_removes_only_them() -> None:
    room = _do(_room([3, 2, 1], public=True), 0, Start())
    # Everyone's seat has a socket open, but P1m1 is away: the voters are the people
    # here, each member on their own, the target (P0m2) aside: five of them.
    here = frozenset({"t0-0", "t0-1", "t0-2", "t1-0", "t2-0"})
    started = decide(room, 1, VoteKick(seat=0, member=2), 5.0, at_table=frozenset({0, 1, 2}),
                     here=here)  # fmt: skip
    assert isinstance(started, VoteStarted)
    assert started.member == 2 and started.voters == ("t0-0", "t0-1", "t1-0", "t2-0")
    room = _do(room, 1, VoteKick(seat=0, member=2), 5.0, at_table=frozenset({0, 1, 2}),
               here=here)  # fmt: skip
    seen = room_info(room, None, connected={0, 1, 2}, spectators=0, deadline=None, now=6.0)
    assert (seen["vote"]["target"], seen["vote"]["member"], seen["vote"]["needed"]) == (0, 2, 3)
    # The target's teammates vote too, each once; the target does not.
    with pytest.raises(RoomError) as info:
        decide(room, 0, Ballot(yes=False), 6.0, by=2)
    assert info.value.code == "not_voter"
    room = _do(room, 0, Ballot(yes=True), 6.0, by=1)
    # The seat's frame reaches the target too: who may still vote, never how anyone did.
    frames = state_frames(room, {0, 1}, connected={0, 1, 2}, spectators=0, deadline=None,
                          now=6.5)  # fmt: skip
    assert {k: frames[0]["room"]["vote"][k] for k in ("voter", "ballot", "open")} == {
        "voter": True, "ballot": None, "open": [0]}  # fmt: skip
    # P1m0 started it (their yes counts), P1m1 was away: nobody of seat 1 votes now.
    assert frames[1]["room"]["vote"]["open"] == []
    with pytest.raises(RoomError) as info:
        decide(room, 0, Ballot(yes=True), 6.0, by=1)
    assert info.value.code == "voted"
    assert room.vote is not None and room.vote.yes == {"t1-0", "t0-1"}
    room = _do(room, 0, Ballot(yes=True), 7.0, by=0)  # the third yes: a majority
    assert room.vote is None and _people(room) == [["P0m0", "P0m1"], ["P1m0", "P1m1"],
                                                   ["P2m0"]]  # fmt: skip
    assert not room.players[0].bot and room.bans == frozenset(_ids("t0-2"))
    # Nobody votes themselves out, a member neither.
    with pytest.raises(RoomError) as info:
        decide(room, 1, VoteKick(seat=1, member=1), 400.0, at_table=frozenset({0, 1, 2}), by=1)
    assert info.value.code == "bad_message"


def test_a_vote_about_a_member_who_leaves_ends() -> None:
    room = _room([2, 1, 1], public=True)
    room = _do(room, 1, VoteKick(seat=0, member=1), 1.0, at_table=frozenset({0, 1, 2}))
    assert room.vote is not None
    room = _do(room, 0, Leave(), 2.0, by=1)
    assert room.vote is None and _people(room) == [["P0m0"], ["P1m0"], ["P2m0"]]
