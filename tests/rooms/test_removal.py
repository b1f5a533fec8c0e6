"""Removing a person: by the host at any time, or by a vote of the people at a public
table; the removed browser and address may not sit again (rules and state level)."""

from __future__ import annotations

from typing import Any

import pytest

from reverie.errors import RoomError
from reverie.games.association import ASSOCIATION
from reverie.rooms.bans import check_not_banned
from reverie.rooms.commands import AddBot, Ballot, Kick, Leave, SetPublic, Start, VoteKick
from reverie.rooms.deciding import decide
from reverie.rooms.events import (
    Created,
    Joined,
    Left,
    Removed,
    Voted,
    VoteEnded,
    VoteStarted,
    decode_event,
    encode_event,
)
from reverie.rooms.snapshot import room_info, state_frames
from reverie.rooms.state import RoomState, evolve

COLORS = ("#2a9d8f", "#457b9d", "#8338ec", "#ff66c4")
PEOPLE = ("Bob", "Cid", "Dee", "Eve")


def _ids(name: str) -> tuple[str, ...]:
    return (f"b:{name}-browser", f"a:{name}-address")


def _room(people: int = 3, *, public: bool = False) -> RoomState:
    """Ann (host, seat 0) and ``people`` more people, each with a browser and an address."""
    room = evolve(
        None,
        Created(
            code="ABCDEF", variant="dixit", seats=6, options={},
            setup={"deck": "default", "card_count": 84}, seed=7, name="Ann",
            color="#e63946", token_hash="h-Ann", at=0.0, public=public, ids=_ids("Ann"),
        ),
    )  # fmt: skip
    for name, color in zip(PEOPLE[:people], COLORS, strict=False):
        room = evolve(room, Joined(name, color, f"h-{name}", ids=_ids(name)))
    return room


def _do(room: RoomState, seat: int | None, cmd: Any, now: float = 0.0, **kw: Any) -> RoomState:
    event = decide(room, seat, cmd, now, **kw)
    # Every event goes through the log's encoding, as the service writes it.
    assert decode_event(encode_event(event), ASSOCIATION) == event
    return evolve(room, event)


def _everyone(room: RoomState) -> frozenset[int]:
    return frozenset(range(len(room.players)))


def test_the_host_removes_in_the_lobby_and_the_ban_holds_browser_and_address() -> None:
    room = _room(2)
    assert isinstance(decide(room, 0, Kick(seat=1), 0.0), Removed)
    room = _do(room, 0, Kick(seat=1))
    assert [p.name for p in room.players] == ["Ann", "Cid"]
    assert room.bans == frozenset(_ids("Bob"))
    # Bob again with the same browser, or from the same address with another browser.
    for ids in (("b:Bob-browser", "a:elsewhere"), ("b:new-browser", "a:Bob-address")):
        with pytest.raises(RoomError) as info:
            check_not_banned(room, *ids)
        assert info.value.code == "banned"
    check_not_banned(room, "b:new-browser", "a:elsewhere", "")  # someone else sits
    # A bot leaves the lobby as before, and bans nothing.
    room = _do(room, 0, AddBot())
    bot_kick = decide(room, 0, Kick(seat=2), 0.0)
    assert bot_kick == Left(2, kicked=True)
    assert evolve(room, bot_kick).bans == room.bans


def test_removal_mid_game_gives_the_seat_to_a_bot_with_its_hand_and_score() -> None:
    room = _do(_room(2), 0, Start())
    game = room.game
    hand, score = game.hands[1], game.scores[1]
    room = _do(room, 0, Kick(seat=1))
    bob = room.players[1]
    assert bob.bot and bob.controlled_by_bot and bob.token_hash is None and bob.name == "Bob"
    assert room.status == "playing" and room.game is game  # the game goes on untouched
    assert room.game.hands[1] == hand and room.game.scores[1] == score
    assert room.seat_of("h-Bob") is None  # Bob's link opens nothing now
    assert room.bans == frozenset(_ids("Bob"))
    # Only the host removes; nobody removes themselves; a bot's seat stays in a game.
    for seat, cmd, code in ((2, Kick(seat=0), "not_host"), (0, Kick(seat=0), "bad_message"),
                            (0, Kick(seat=1), "not_in_lobby")):  # fmt: skip
        with pytest.raises(RoomError) as info:
            decide(room, seat, cmd, 0.0)
        assert info.value.code == code


def test_an_old_log_without_ids_folds_and_bans_nothing() -> None:
    old = decode_event(b'{"type":"joined","name":"Bob","color":"#2a9d8f","token_hash":"x"}',
                       ASSOCIATION)  # fmt: skip
    assert old == Joined("Bob", "#2a9d8f", "x")
    room = evolve(_room(0), old)
    assert evolve(room, Removed(1)).bans == frozenset()


def test_votes_are_for_public_tables_and_a_majority_of_the_people_present() -> None:
    with pytest.raises(RoomError) as info:
        decide(_room(3), 1, VoteKick(seat=3), 0.0, at_table=_everyone(_room(3)))
    assert info.value.code == "not_public"
    room = _do(_room(3, public=True), 0, Start())
    # Ann, Bob and Cid are present; Dee (the target) too, but she does not vote.
    present = frozenset({0, 1, 2, 3})
    room = _do(room, 1, VoteKick(seat=3), 10.0, at_table=present, vote_seconds=30)
    vote = room.vote
    assert vote is not None and vote.needed == 2 and len(vote.voters) == 3
    seen = room_info(room, None, connected=set(present), spectators=0, deadline=None, now=11.0)
    assert seen["vote"] == {"target": 3, "member": None, "by": 1, "yes": 1, "no": 0,
                            "voters": 3, "needed": 2, "deadline": 40_000}  # fmt: skip
    # Each seat sees its own ballot, nobody else's.
    frames = state_frames(room, {1, 2, 3, None}, connected=set(present), spectators=0,
                          deadline=None, now=11.0)  # fmt: skip
    assert frames[1]["room"]["vote"]["ballot"] == "yes"
    assert frames[2]["room"]["vote"]["ballot"] is None and frames[2]["room"]["vote"]["voter"]
    assert frames[3]["room"]["vote"]["voter"] is False
    assert "ballot" not in frames[None]["room"]["vote"]
    for seat, cmd, code in (
        (2, VoteKick(seat=0), "vote_running"),  # one vote at a time
        (3, Ballot(yes=False), "not_voter"),  # the target does not vote
        (1, Ballot(yes=True), "voted"),  # once each
    ):
        with pytest.raises(RoomError) as info:
            decide(room, seat, cmd, 12.0, at_table=present)
        assert info.value.code == code
    hand = room.game.hands[3]
    room = _do(room, 2, Ballot(yes=True), 12.0)
    assert room.vote is None and room.players[3].bot and room.game.hands[3] == hand
    assert room.bans == frozenset(_ids("Dee"))
    assert room.vote_after == 12.0 + 120  # the default cooldown


def test_the_host_can_be_voted_out_and_the_role_passes_on() -> None:
    room = _room(3, public=True)
    room = _do(room, 2, VoteKick(seat=0), 0.0, at_table=_everyone(room))
    room = _do(room, 1, Ballot(yes=True), 1.0)
    assert [p.name for p in room.players] == ["Bob", "Cid", "Dee"]  # the lobby seat goes
    assert room.players[room.host].name == "Bob" and room.bans == frozenset(_ids("Ann"))


def test_a_vote_without_majority_ends_and_the_cooldown_holds() -> None:
    room = _room(3, public=True)
    everyone = _everyone(room)
    room = _do(room, 1, VoteKick(seat=3), 0.0, at_table=everyone, vote_cooldown=50)
    room = _do(room, 0, Ballot(yes=False), 1.0)
    assert room.vote is not None  # 1 yes, 1 no, Cid may still make it 2
    room = _do(room, 2, Ballot(yes=False), 2.0)
    assert room.vote is None and [p.name for p in room.players][3] == "Dee"  # not removed
    with pytest.raises(RoomError) as info:
        decide(room, 1, VoteKick(seat=3), 30.0, at_table=everyone)
    assert info.value.code == "vote_cooldown" and info.value.params == {"seconds": 23}
    room = _do(room, 1, VoteKick(seat=3), 52.0, at_table=everyone)
    assert room.vote is not None


def test_a_vote_runs_out_and_then_takes_no_ballot() -> None:
    room = _room(3, public=True)
    everyone = _everyone(room)
    room = _do(room, 1, VoteKick(seat=3), 0.0, at_table=everyone, vote_seconds=30,
               vote_cooldown=10)  # fmt: skip
    with pytest.raises(RoomError) as info:
        decide(room, 2, Ballot(yes=True), 30.0)
    assert info.value.code == "no_vote"
    with pytest.raises(RoomError):
        evolve(room, Voted(2, True, 31.0))  # nor does the fold, replayed
    with pytest.raises(RoomError):
        evolve(room, VoteEnded(29.0))  # not before its time
    # Nobody wrote the end (its process stopped): the next vote may start after the
    # cooldown anyway, counted from the deadline.
    with pytest.raises(RoomError) as info:
        decide(room, 2, VoteKick(seat=3), 35.0, at_table=everyone)
    assert info.value.code == "vote_cooldown"
    assert _do(room, 2, VoteKick(seat=3), 40.0, at_table=everyone).vote is not None
    ended = evolve(room, VoteEnded(30.5))
    assert ended.vote is None and ended.vote_after == 40.0
    assert room_info(room, None, connected=set(), spectators=0, deadline=None,
                     now=31.0)["vote"] is None  # fmt: skip


def test_two_people_alone_cannot_vote_each_other_out_and_absent_people_do_not_count() -> None:
    room = _room(1, public=True)
    with pytest.raises(RoomError) as info:
        decide(room, 1, VoteKick(seat=0), 0.0, at_table=_everyone(room))
    assert info.value.code == "vote_too_few"
    room = _room(3, public=True)
    # Only Bob and Dee are at the table: Dee is the target, so Bob alone would vote.
    with pytest.raises(RoomError) as info:
        decide(room, 1, VoteKick(seat=3), 0.0, at_table=frozenset({1, 3}))
    assert info.value.code == "vote_too_few"
    # Bots never vote: a table of Ann, Bob and two bots cannot vote Bob out.
    room = _do(_do(_room(1, public=True), 0, AddBot()), 0, AddBot())
    with pytest.raises(RoomError) as info:
        decide(room, 0, VoteKick(seat=1), 0.0, at_table=_everyone(room))
    assert info.value.code == "vote_too_few"


def test_a_vote_about_someone_who_left_ends() -> None:
    room = _room(3, public=True)
    room = _do(room, 1, VoteKick(seat=3), 0.0, at_table=_everyone(room))
    room = _do(room, 3, Leave())
    assert room.vote is None


def test_a_table_listed_after_a_removal_keeps_its_bans_and_votes() -> None:
    room = _do(_room(3), 0, Kick(seat=3))
    room = _do(room, 0, SetPublic(public=True))
    assert room.public and room.bans == frozenset(_ids("Dee"))
    started = decide(room, 0, VoteKick(seat=1), 5.0, at_table=_everyone(room), vote_seconds=9)
    assert isinstance(started, VoteStarted)
    assert started.voters == ("h-Ann", "h-Cid") and (started.at, started.seconds) == (5.0, 9)
