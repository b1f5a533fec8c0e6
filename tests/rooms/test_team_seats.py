"""Team seats in the room's fold and service (issue #27).

A team seat is scored exactly as one player: whole games are played through the
room's ``decide`` and ``evolve`` with each move pointed at and confirmed by random
members (a second member agreeing in "agree" mode), and the same moves made by one
player each on the rules engine alone end in the very same game. Two members who
confirm at the same moment: exactly one move lands.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st

from reverie.bots.simple import choose_action, to_frame
from reverie.bus.base import MemoryBus
from reverie.content.decks import list_decks
from reverie.content.library import Library
from reverie.errors import RoomError
from reverie.games import family_of
from reverie.rooms.commands import AddBot, Join, Leave, Point, Start, decoder_for
from reverie.rooms.deciding import decide
from reverie.rooms.events import Acted, Created, Dealt, Joined, Left, Proposed, RoomEvent
from reverie.rooms.service import RoomService
from reverie.rooms.state import RoomState, evolve, hash_token
from reverie.rules.association import apply, new_game, view
from reverie.rules.errors import IllegalAction
from reverie.store import open_store
from tests.aio import run_async

COLORS = ("#e63946", "#f4a261", "#e9c46a", "#2a9d8f", "#457b9d")


def _room(variant: str, mode: str, sizes: list[int], seed: int) -> RoomState:
    """A lobby whose seat ``s`` is played by ``sizes[s]`` people."""
    options = {"team_seats": mode, "target_score": 10}
    room = evolve(
        None,
        Created(
            code="TEAMS1", variant=variant, seats=len(sizes), options=options, seed=seed,
            name="P0m0", color=COLORS[0], token_hash="t0-0", at=0.0, setup=_setup(),
        ),
    )  # fmt: skip
    for s, size in enumerate(sizes):
        if s:
            room = evolve(room, Joined(f"P{s}m0", COLORS[s], f"t{s}-0"))
        for m in range(1, size):
            room = evolve(room, Joined(f"P{s}m{m}", "", f"t{s}-{m}", seat=s))
    return room


def _setup() -> dict[str, Any]:
    return {"deck": "default", "card_count": 98}


@settings(max_examples=12, deadline=None)
@given(
    variant=st.sampled_from(["imaginarium", "imaginarium-harmony", "dixit", "pictoric"]),
    mode=st.sampled_from(["one", "agree"]),
    sizes=st.lists(st.integers(1, 3), min_size=3, max_size=5),
    seed=st.integers(0, 2**30),
)
def test_a_team_seat_is_scored_exactly_as_one_player(
    variant: str, mode: str, sizes: list[int], seed: int
) -> None:
    room = _room(variant, mode, sizes, seed)
    room = evolve(room, decide(room, 0, Start(), 0.0))
    assert room.game is not None
    # The rules engine alone, one player to a seat, the same names and seed.
    alone = new_game(
        variant, [p.name for p in room.players], room.game.seed, card_count=98,
        options=room.options,
    )  # fmt: skip
    assert alone == room.game
    rng = random.Random(seed)
    commands = decoder_for(room.family)
    for _ in range(2000):
        if room.status == "over":
            break
        waiting = list(room.game.round.waiting)
        if not waiting:
            break
        seat = rng.choice(waiting)
        action = choose_action(view(room.game, seat), lambda card: [], rng)
        assert action is not None
        frame = to_frame(action, room.version)
        cmd = commands.decode(msgspec.json.encode(frame))
        members = list(range(sizes[seat]))
        rng.shuffle(members)
        if len(members) > 1:  # a teammate points first: nothing moves
            pointed = decide(room, seat, Point(move=to_frame(action)), 0.0, by=members[1])
            before = room.game
            room = evolve(room, pointed)
            assert room.game == before
        event = decide(room, seat, cmd, 0.0, by=members[0], present=len(members))
        if mode == "agree" and len(members) > 1:
            assert isinstance(event, Proposed) and event.firm
            room = evolve(room, event)
            event = decide(room, seat, cmd, 0.0, by=members[1], present=len(members))
        assert isinstance(event, Acted) and event.action == action
        room = evolve(room, event)
        alone = apply(alone, action).state
        assert room.game == alone
        assert not room.proposals or all(p.seat != seat for p in room.proposals)
    assert room.status == "over"  # played to the end
    assert room.game == alone
    assert room.game.scores == alone.scores


def test_agreement_needs_the_same_move_from_another_member() -> None:
    room = _room("imaginarium", "agree", [2, 1, 1], 5)
    room = evolve(room, decide(room, 0, Start(), 0.0))
    assert room.game is not None
    seat = room.game.round.storyteller
    assert seat is not None
    hand = room.game.hands[seat]
    commands = decoder_for(room.family)

    def clue(card: int) -> Any:
        frame = {"type": "clue", "text": "dream", "card": card, "version": room.version}
        return commands.decode(msgspec.json.encode(frame))

    if room.players[seat].members:
        first = decide(room, seat, clue(hand[0]), 0.0, by=0, present=2)
        assert isinstance(first, Proposed)
        room = evolve(room, first)
        # The same member again, or another card: still waiting.
        again: RoomEvent = decide(room, seat, clue(hand[0]), 0.0, by=0, present=2)
        assert isinstance(again, Proposed)
        other = decide(room, seat, clue(hand[1]), 0.0, by=1, present=2)
        assert isinstance(other, Proposed)
        room = evolve(room, other)
        # Member 1 changed their mind to member 0's card: it lands.
        agreed = decide(room, seat, clue(hand[0]), 0.0, by=1, present=2)
        assert isinstance(agreed, Acted)
        # Alone at the seat (the other member gone), one confirm is enough.
        assert isinstance(decide(room, seat, clue(hand[1]), 0.0, by=0, present=1), Acted)
    else:
        assert isinstance(decide(room, seat, clue(hand[0]), 0.0, by=0, present=1), Acted)


def test_two_members_confirming_at_once_land_exactly_one_move(tmp_path: Path) -> None:
    async def main() -> None:
        decks = {d.name: d for d in list_decks()}
        service = RoomService(
            open_store(f"sqlite:///{tmp_path / 'r.db'}"), MemoryBus(), Library(decks),
            bot_delay=3600,
        )  # fmt: skip
        live, token = await service.create_room(
            name="Ann", color="#e63946", variant="dixit", seats=3,
            options={"team_seats": "one", "first_storyteller": 1},
        )  # fmt: skip
        _, bob = await service.join(live, Join(name="Bob", seat=0))
        await service.command(live, 0, AddBot())
        await service.command(live, 0, AddBot())
        await service.command(live, 0, Start())
        game = live.state.game
        assert game is not None
        # The bot storyteller's clue, by hand (the bots wait an hour here).
        clue = live.state.family.bot_action(game, 1, random.Random(1), live.state, service.library)
        await service.writer.commit(live, lambda room: Acted(clue))
        game = live.state.game
        hand = game.hands[0]
        commands = decoder_for(live.state.family)
        version = live.state.version

        def submit(card: int) -> Any:
            frame = {"type": "submit", "card": card, "version": version}
            return commands.decode(msgspec.json.encode(frame))

        results = await asyncio.gather(
            service.command(live, 0, submit(hand[0]), by=hash_token(token)),
            service.command(live, 0, submit(hand[1]), by=hash_token(bob)),
            return_exceptions=True,
        )
        landed = [r for r in results if isinstance(r, int)]
        refused = [r for r in results if isinstance(r, RoomError | IllegalAction)]
        assert len(landed) == 1 and len(refused) == 1
        assert live.state.game is not None
        card = live.state.game.round.submissions[0]
        assert card in hand[:2]
        events = await service.store.load(live.state.code)
        assert sum(b'"acted"' in e.payload and b'"seat":0' in e.payload for e in events) == 1
        await service.close()
        await service.store.close()

    run_async(main())


def test_a_deal_seats_everyone_once_and_the_host_role_follows_the_host() -> None:
    room = _room("imaginarium", "one", [2, 2, 1], 9)  # the host's seat: P0m0 and P0m1
    # The host's teammate is dealt away from the host: the role stays with the host.
    groups = (("t1-0", "t0-1", "t2-0"), ("t1-1", "t0-0"))
    dealt = evolve(room, Dealt(groups))
    assert [p.token_hash for p in dealt.players] == ["t1-0", "t1-1"]
    assert dealt.host == 1 and dealt.players[1].members[0].token_hash == "t0-0"
    assert len({p.color for p in dealt.players}) == 2
    for token in ("t0-0", "t0-1", "t1-0", "t1-1", "t2-0"):
        assert dealt.seat_of(token) is not None
    try:
        evolve(room, Dealt((("t1-0", "t0-1"), ("t1-1", "t0-0"))))  # t2-0 left out
    except RoomError as exc:
        assert exc.code == "bad_message"
    else:
        raise AssertionError("a deal that leaves someone out was taken")


def test_the_lobby_is_made_even_when_someone_leaves_and_old_logs_replay_as_played() -> None:
    room = _room("imaginarium", "one", [3, 2, 2], 4)
    # The first seat's newest members leave: 1, 2, 2 is even enough, and nobody moves.
    left = evolve(room, decide(room, 0, Leave(), 1.0, by=2))
    assert [1 + len(p.members) for p in left.players] == [2, 2, 2]
    left = evolve(left, decide(left, 0, Leave(), 1.0, by=1))
    assert [1 + len(p.members) for p in left.players] == [1, 2, 2]
    # The second seat's first person leaves: its member takes the seat over (1, 1, 2).
    left = evolve(left, decide(left, 1, Leave(), 1.0, by=0))
    assert [p.name for p in left.players] == ["P0m0", "P1m1", "P2m0"]
    left = evolve(left, Joined("Q1", "", "t-Q1", seat=2))
    assert [1 + len(p.members) for p in left.players] == [1, 1, 3]
    # The second seat's one person leaves (the seat goes): 1 and 3 are made 2 and 2,
    # the newest of the three moving over; every seat's first person stays.
    gone = evolve(left, decide(left, 1, Leave(), 1.0))
    assert [[p.name, *(m.name for m in p.members)] for p in gone.players] == [
        ["P0m0", "Q1"],
        ["P2m0", "P2m1"],
    ]
    assert gone.seat_of("t-Q1") == 0 and gone.host == 0
    # A log written before the seats were made even replays as it was played.
    assert [1 + len(p.members) for p in evolve(left, Left(1)).players] == [1, 3]


def test_a_member_leaving_mid_game_takes_only_their_own_choice_with_them() -> None:
    room = _room("dixit", "one", [3, 1, 1], 5)
    room = evolve(room, decide(room, 0, Start(), 1.0))
    assert room.status == "playing" and room.game is not None
    hand = view(room.game, 0)["hand"]
    for member, card in ((1, hand[0]), (2, hand[1])):
        room = evolve(room, Proposed(0, member, {"type": "submit", "card": card}))
    room = evolve(room, decide(room, 0, Leave(), 2.0, by=1))
    assert [m.name for m in room.players[0].members] == ["P0m2"]
    # P0m2 is member 1 now and keeps the card they pointed at; P0m1's choice is gone.
    assert [(p.member, p.move["card"]) for p in room.proposals] == [(1, hand[1])]
    assert room.status == "playing"


def test_a_companion_team_seat_is_entered_from_any_phone_agree_taken_as_one() -> None:
    family = family_of("dixit-companion")
    assert family.team_seats(family.parse_options({"team_seats": "agree"}, "en")) == "one"
    assert family.team_seats(family.parse_options({"team_seats": "off"}, "en")) == "off"
    online = family_of("dixit")
    assert online.team_seats(online.parse_options({"team_seats": "agree"}, "en")) == "agree"
