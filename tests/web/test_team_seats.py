"""Team seats over real sockets (issue #27): several people play one seat, each with a
link of their own, and the seat's secrets (its hand, its members' choices, its chat)
reach its members and nobody else, in every frame, before and after the reveal.

A whole Imaginarium game is played by two team seats and one solo seat in "agree" mode
(a move lands once a second member confirms it), watched by a spectator who sees the
teams and none of their secrets; a whole Dixit game in "one" mode loses a member
mid-game and plays on, is played by a bot once every member is gone, and is taken back
by the first member back, on their return. Two members confirming different cards at the
same moment: exactly one lands. The lobby stays even as people leave; a phase timer runs
for a team seat as for any seat; the host role passes to a member of another seat and
comes back.
"""

from __future__ import annotations

import functools
import json
import random
import threading
from pathlib import Path

from reverie.bots.simple import choose_action, to_frame
from reverie.rooms.events import Acted, BotSeat, Chatted, Proposed
from reverie.rooms.team_moves import seat_view
from reverie.rules.association import view
from reverie.rules.association.playouts import view_cards as card_fields
from reverie.rules.association.playouts import visible_cards

from .harness import (
    Client,
    Frame,
    ServerThread,
    SkewClock,
    create_room,
    game_is,
    join,
    logged_events,
    room_history,
    sync,
)

SECRET_WORDS = "marmalade-plan"  # said in a team seat's own chat only


def look_in(server: ServerThread, code: str) -> None:
    """A spectator looks in: the room looks again at who is gone (as any socket does)."""
    watcher = Client(server.base, code)
    watcher.until(lambda f: f["type"] == "state")
    watcher.close()


def join_seat(server: ServerThread, code: str, name: str, seat: int) -> Client:
    """A person joins an existing seat as one more member."""
    c = Client(server.base, code)
    reply = c.request({"type": "join", "name": name, "color": "", "seat": seat})
    assert reply["type"] == "ack", reply
    welcome = next(f for f in c.frames if f["type"] == "welcome")
    assert welcome["seat"] == seat and welcome["member"] >= 1
    return c


def reply_to(client: Client, ref: int) -> Frame:
    """The ack or error answering the frame ``ref`` a client sent."""
    return client.until(lambda f: f.get("ref") == ref and f["type"] in ("ack", "error"))


def pointed_at(frame: Frame, move: Frame) -> bool:
    """A state frame whose seat's members' choices hold ``move``."""
    you = frame["room"]["you"] if frame["type"] == "state" else None
    return you is not None and any(p["move"] == move for p in you.get("proposals", []))


def play_teams(seats: dict[int, list[Client]], everyone: list[Client], *, agree: bool) -> Frame:
    """Play to the end: a member of each waiting seat points at a move, and confirms it;
    in "agree" mode a second member confirms the same move, which then lands."""
    rng = random.Random(3)
    for _ in range(3000):
        state = sync(everyone)
        game = state["game"]
        if game["phase"] == "over":
            return state
        mine = [s for s in game["waiting_for"] if s in seats]
        if not mine:
            everyone[0].state_at_least(state["version"] + 1)
            continue
        members = list(seats[rng.choice(mine)])
        rng.shuffle(members)
        first = members[0]
        move: Frame = {}
        assert first.state is not None
        action = choose_action(first.state["game"], lambda card: [], rng)
        assert action is not None
        move = to_frame(action)
        if len(members) > 1:
            # The teammates see where the first member points, before any confirm.
            assert first.request({"type": "point", "move": move})["type"] == "ack"
            other = members[1]
            seen = other.until(functools.partial(pointed_at, move=move))
            assert not any(p["firm"] for p in seen["room"]["you"]["proposals"])
        reply = first.request({**move, "version": first.state["version"]})
        if reply["type"] == "error" and reply["code"] == "stale_version":
            continue
        assert reply["type"] == "ack", reply
        if agree and len(members) > 1:
            second = members[1]
            second.state_at_least(reply["version"])
            assert second.state is not None
            proposals = second.state["room"]["you"]["proposals"]
            assert any(p["firm"] and p["move"] == move for p in proposals)
            again = second.request({**move, "version": second.state["version"]})
            assert again["type"] == "ack", again
    raise AssertionError("the game did not end")


def check_frames(
    db: Path | str, code: str, clients: list[Client], seat_of: dict[int, int | None]
) -> int:
    """Every state frame is its seat's view at its version (a team seat's members get
    the seat's), the members' choices reach only the seat's own frames, and the team
    chat only the seat's members. Returns how many frames were checked."""
    states = room_history(db, code)
    checked = 0
    for client in clients:
        for frame in client.frames:
            seat = seat_of[id(client)]
            text = json.dumps(frame)
            if frame["type"] == "chat" and seat != 0:
                assert SECRET_WORDS not in text
            if frame["type"] != "state":
                continue
            room = states[frame["version"]]
            you = frame["room"]["you"]
            if you is None:  # before its join: a spectator's frame
                seat = None
            assert (you["seat"] if you else None) == seat
            members_seat = seat is not None and bool(room.players[seat].members)
            if members_seat:
                assert seat is not None
                assert you["proposals"] == json.loads(json.dumps(seat_view(room, seat)))
            else:
                assert you is None or "proposals" not in you
                assert '"proposals"' not in text
            if room.game is None:
                continue
            assert frame["game"] == json.loads(json.dumps(view(room.game, seat)))
            assert card_fields(frame["game"]) <= visible_cards(room.game, seat)
            checked += 1
    return checked


def test_an_imaginarium_game_with_two_team_seats_agreeing_and_a_solo_seat(
    server: ServerThread,
) -> None:
    code, token = create_room(
        server.base, "imaginarium", 3, target_score=8, team_seats="agree", first_storyteller=0
    )
    host = Client(server.base, code, token)
    host.until(lambda f: f["type"] == "state")
    ann = join_seat(server, code, "Ann", 0)
    bob = join(server.base, code, "Bob", "#8338ec")
    cid = join_seat(server, code, "Cid", 1)
    dee = join(server.base, code, "Dee", "#457b9d")
    watcher = Client(server.base, code)
    everyone = [host, ann, bob, cid, dee, watcher]
    state = sync(everyone)
    players = state["room"]["players"]
    assert [p["name"] for p in players] == ["Host", "Bob", "Dee"]
    # A spectator sees the teams and who is in them, and nothing of their secrets.
    assert watcher.state is not None and watcher.state["room"]["you"] is None
    teams = [[m["name"] for m in p["members"]] for p in watcher.state["room"]["players"]]
    assert teams == [["Host", "Ann"], ["Bob", "Cid"], []]
    assert [[m["name"] for m in p["members"]] for p in players] == [
        ["Host", "Ann"],
        ["Bob", "Cid"],
        [],
    ]
    # A member's link is its own: the host's seat keeps its colour and its token.
    assert ann.token not in (token, None) and ann.seat == 0
    # A name at the table is a name a member has too.
    taken = Client(server.base, code).request({"type": "join", "name": "ann", "color": ""})
    assert taken["type"] == "error" and taken["code"] == "name_taken"
    assert host.request({"type": "start"})["type"] == "ack"
    # The team seat's own chat: its members read it, nobody else does.
    said = ann.request({"type": "chat", "text": f"go for {SECRET_WORDS}", "own": True})
    assert said["type"] == "ack"
    host.until(lambda f: f["type"] == "chat" and SECRET_WORDS in json.dumps(f))
    solo = dee.request({"type": "chat", "text": "mine", "own": True})
    assert solo["type"] == "error" and solo["code"] == "bad_team"
    final = play_teams({0: [host, ann], 1: [bob, cid], 2: [dee]}, everyone, agree=True)
    assert final["game"]["phase"] == "over"
    for c in everyone:
        c.state_at_least(final["version"])
    # The end's scores: one per seat, whoever of its members moved.
    assert len(final["game"]["players"]) == 3
    assert max(p["score"] for p in final["game"]["players"]) >= 8
    seat_of = {id(host): 0, id(ann): 0, id(bob): 1, id(cid): 1, id(dee): 2, id(watcher): None}
    assert check_frames(server.data_dir / "reverie.db", code, everyone, seat_of) > 100
    events = [e for _, e in logged_events(server.data_dir / "reverie.db", code)]
    # Agreement is in the log: a firm proposal before each team seat's move.
    assert any(isinstance(e, Proposed) and e.firm for e in events)
    assert any(isinstance(e, Proposed) and not e.firm for e in events)
    assert any(isinstance(e, Chatted) and e.own and e.member == 1 for e in events)
    for c in everyone:
        c.close()


def test_two_members_confirming_different_cards_at_once_land_exactly_one(
    server: ServerThread,
) -> None:
    code, token = create_room(server.base, "dixit", 3, team_seats="one", first_storyteller=1)
    host = Client(server.base, code, token)
    ann = join_seat(server, code, "Ann", 0)
    assert host.request({"type": "add_bot"})["type"] == "ack"
    assert host.request({"type": "add_bot"})["type"] == "ack"
    assert host.request({"type": "start"})["type"] == "ack"
    # The bot storyteller tells; then the team seat puts a card down.
    state = host.until(lambda f: f["type"] == "state" and f["game"]["phase"] == "submit")
    ann.state_at_least(state["version"])
    hand = state["game"]["hand"]
    frames = [
        (host, {"type": "submit", "card": hand[0], "version": state["version"]}),
        (ann, {"type": "submit", "card": hand[1], "version": state["version"]}),
    ]
    gate = threading.Barrier(2)
    refs: dict[int, int] = {}

    def confirm(i: int) -> None:
        client, frame = frames[i]
        gate.wait()
        refs[i] = client.send(frame)

    threads = [threading.Thread(target=confirm, args=(i,)) for i in range(2)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    replies = [reply_to(frames[i][0], refs[i]) for i in range(2)]
    assert sorted(r["type"] for r in replies) == ["ack", "error"]
    events = [e for _, e in logged_events(server.data_dir / "reverie.db", code)]
    submits = [
        e.action for e in events if isinstance(e, Acted) and getattr(e.action, "seat", -1) == 0
    ]
    assert len(submits) == 1 and submits[0].card in hand[:2]
    for c in (host, ann):
        c.close()


def test_a_dixit_game_with_teams_a_member_leaving_and_every_member_away(tmp_path: Path) -> None:
    clock = SkewClock()
    server = ServerThread(tmp_path, clock=clock, away_grace=60).start()
    try:
        code, token = create_room(
            server.base, "dixit", 3, team_seats="one", first_storyteller=1, target_score=3
        )
        host = Client(server.base, code, token)
        bob = join(server.base, code, "Bob", "#8338ec")
        cid = join_seat(server, code, "Cid", 1)
        eve = join_seat(server, code, "Eve", 1)
        assert host.request({"type": "add_bot"})["type"] == "ack"
        assert host.request({"type": "start"})["type"] == "ack"
        sync([host, bob, cid, eve])
        # Eve leaves the seat mid-game: it plays on with Bob and Cid, and her link opens
        # nothing any more (she watches, as anyone may).
        assert eve.request({"type": "leave"})["type"] == "ack"
        state = sync([host, bob, cid, eve])
        assert [m["name"] for m in state["room"]["players"][1]["members"]] == ["Bob", "Cid"]
        assert eve.state is not None and eve.state["room"]["you"] is None
        assert eve.state["game"]["hand"] is None
        eve.close()
        # Bob (the seat's first) goes; Cid plays on for the seat: no bot stands in.
        bob.close()
        host.until(
            lambda f: (
                f["type"] == "state"
                and not f["room"]["players"][1]["members"][0]["connected"]
                and f["room"]["players"][1]["members"][1]["connected"]
            )
        )
        clock.advance(120)
        look_in(server, code)
        seen = host.until(lambda f: f["type"] == "state")
        assert not seen["room"]["players"][1]["bot_playing"]
        assert seen["room"]["players"][1]["connected"]
        # Cid tells the clue as the seat's storyteller.
        assert cid.state is not None
        cid.state_at_least(seen["version"])
        hand = cid.state["game"]["hand"]
        told = cid.request(
            {"type": "clue", "text": "dream", "card": hand[0], "version": cid.state["version"]}
        )
        assert told["type"] == "ack", told
        # Every member gone past the table's minute: a bot stands in.
        cid_token = cid.token
        cid.close()
        host.until(lambda f: f["type"] == "state" and not f["room"]["players"][1]["connected"])
        clock.advance(120)
        look_in(server, code)
        host.until(lambda f: f["type"] == "state" and f["room"]["players"][1]["bot_playing"])
        # The first member back takes the seat back by coming back: nothing to ask.
        back = Client(server.base, code, cid_token)
        handed = back.until(
            lambda f: f["type"] == "state" and not f["room"]["players"][1]["bot_playing"]
        )
        assert handed["room"]["you"]["seat"] == 1
        events = [e for _, e in logged_events(server.data_dir / "reverie.db", code)]
        assert [(e.on, e.auto) for e in events if isinstance(e, BotSeat)] == [
            (True, True),
            (False, True),
        ]
        # Bob's link still opens the seat beside Cid's; the game plays on to its end.
        again = Client(server.base, code, bob.token)
        final = play_teams({0: [host], 1: [back, again]}, [host, back, again], agree=False)
        assert max(p["score"] for p in final["game"]["players"]) >= 3
        for c in (host, back, again):
            c.close()
    finally:
        server.stop()


def test_the_lobby_deals_people_into_team_seats_and_keeps_them_even(
    server: ServerThread,
) -> None:
    code, token = create_room(server.base, "imaginarium", 3, team_seats="one")
    host = Client(server.base, code, token)
    people = [
        host,
        join(server.base, code, "Ann", "#2a9d8f"),
        join(server.base, code, "Bob", "#8338ec"),
    ]
    # Every seat taken: the next people join the team seat with the fewest people.
    for name in ("Cid", "Dee", "Eve"):
        c = Client(server.base, code)
        assert c.request({"type": "join", "name": name, "color": ""})["type"] == "ack"
        people.append(c)
    state = sync(people)
    assert [len(p["members"]) for p in state["room"]["players"]] == [2, 2, 2]
    # Bob (a member now of nothing but his own seat) may not deal: only the host.
    refused = people[2].request({"type": "deal", "seats": 2})
    assert refused["type"] == "error" and refused["code"] == "not_host"
    assert host.request({"type": "deal", "seats": 2})["type"] == "ack"
    state = sync(people)
    players = state["room"]["players"]
    assert sorted(len(p["members"]) for p in players) == [3, 3]
    names = sorted(m["name"] for p in players for m in p["members"])
    assert names == ["Ann", "Bob", "Cid", "Dee", "Eve", "Host"]
    assert len({p["color"] for p in players}) == 2
    # Every link still opens its person's seat; the host is still the host.
    for c in people:
        assert c.state is not None and c.state["room"]["you"] is not None
    assert host.state is not None and host.state["room"]["you"]["host"]
    by_seat = {s: [c for c in people if c.state["room"]["you"]["seat"] == s] for s in (0, 1)}  # type: ignore[index]
    assert sorted(len(v) for v in by_seat.values()) == [3, 3]
    assert host.request({"type": "deal", "seats": 7})["type"] == "error"
    # Two members of the first seat leave: 1 and 3 people would be uneven, so the
    # newest member of the other seat moves over, and their link opens the first seat.
    by_name = dict(zip(["Host", "Ann", "Bob", "Cid", "Dee", "Eve"], people, strict=True))
    first, *rest = [m["name"] for m in players[0]["members"]]
    newest = players[1]["members"][-1]["name"]
    for name in rest:
        assert by_name[name].request({"type": "leave"})["type"] == "ack"
    state = sync(people)
    seated = [[m["name"] for m in p["members"]] for p in state["room"]["players"]]
    assert seated == [[first, newest], [m["name"] for m in players[1]["members"]][:2]]
    moved = by_name[newest].state
    assert moved is not None and moved["room"]["you"]["seat"] == 0
    for c in people:
        c.close()


def test_a_member_joins_mid_game_moves_their_link_and_a_companion_team_enters_from_any_phone(
    server: ServerThread,
) -> None:
    # A companion table (the real box): a team is one seat entered from any member's
    # phone; the team sits together at the box, so "agree" is taken as "one".
    code, token = create_room(
        server.base, "dixit-companion", 3, first_storyteller=0, team_seats="agree"
    )
    host = Client(server.base, code, token)
    bob = join(server.base, code, "Bob", "#8338ec")
    cy = join(server.base, code, "Cy", "#457b9d")
    assert host.request({"type": "start"})["type"] == "ack"
    host.until(lambda f: f["type"] == "state" and f["game"] and f["game"]["phase"] == "clue")
    # Ann joins the host's seat during the game, and plays it from her own phone.
    ann = join_seat(server, code, "Ann", 0)
    assert ann.request({"type": "tell", "text": "sea"})["type"] == "ack"
    assert host.request({"type": "count", "cards": 3})["type"] == "ack"
    sync([host, ann, bob, cy])
    assert ann.request({"type": "place", "position": 2})["type"] == "ack"
    # The place the seat entered (one member's entry, both being here) reaches both its
    # members, and nobody else.
    seen = host.until(lambda f: f["type"] == "state" and f["game"]["my_position"] == 2)
    assert seen["room"]["you"]["seat"] == 0
    assert seen["room"]["options"]["team_seats"] == "one"
    state = sync([host, ann, bob, cy])
    assert bob.state is not None and bob.state["game"]["my_position"] is None
    # Ann moves her own link to another device: her old link opens nothing, the host's
    # (the seat's first person's) still opens the seat.
    old = ann.token
    reply = ann.request({"type": "new_link"})
    assert reply["type"] == "ack" and ann.token != old
    stale = Client(server.base, code, old)
    seen = stale.until(lambda f: f["type"] == "state")
    assert seen["room"]["you"] is None
    again = Client(server.base, code, token)
    assert again.until(lambda f: f["type"] == "state")["room"]["you"]["seat"] == 0
    fresh = Client(server.base, code, ann.token)
    assert fresh.until(lambda f: f["type"] == "welcome")["member"] == 1
    assert state["room"]["players"][0]["members"][1]["name"] == "Ann"
    for c in (host, ann, bob, cy, stale, again, fresh):
        c.close()


def test_a_timer_runs_for_a_team_seat_as_for_a_seat(server: ServerThread) -> None:
    code, token = create_room(
        server.base, "dixit", 3, team_seats="agree", first_storyteller=0, card_seconds=3
    )  # three seconds: Bob's confirm must beat the clock on a loaded machine
    host = Client(server.base, code, token)
    bob = join(server.base, code, "Bob", "#8338ec")
    cid = join_seat(server, code, "Cid", 1)
    assert host.request({"type": "add_bot"})["type"] == "ack"
    assert host.request({"type": "start"})["type"] == "ack"
    start = host.until(game_is(phase="clue"))
    told = {"type": "clue", "text": "tide", "card": start["game"]["hand"][0]}
    assert host.request(told)["type"] == "ack"
    # Bob confirms a card and Cid never agrees: the clock plays for the seat, as it
    # does for any seat, and the confirm waiting for a teammate goes with the phase.
    submit = bob.until(game_is(phase="submit"))
    card = submit["game"]["hand"][0]
    assert bob.request({"type": "submit", "card": card})["type"] == "ack"
    waiting = cid.until(lambda f: f["type"] == "state" and bool(f["room"]["you"]["proposals"]))
    assert waiting["room"]["deadline"] is not None
    vote = cid.until(game_is(phase="vote"))
    assert len(vote["game"]["table"]) == 3 and vote["room"]["you"]["proposals"] == []
    for c in (host, bob, cid):
        c.close()


def test_the_host_role_passes_to_a_member_of_a_team_seat_and_comes_back(
    tmp_path: Path,
) -> None:
    clock = SkewClock()
    server = ServerThread(tmp_path, clock=clock, away_grace=60).start()
    try:
        code, token = create_room(server.base, "dixit", 3, team_seats="one")
        host = Client(server.base, code, token)
        bob = join(server.base, code, "Bob", "#8338ec")
        cid = join_seat(server, code, "Cid", 1)
        bob.close()
        host.close()
        cid.until(
            lambda f: (
                f["type"] == "state"
                and not f["room"]["players"][0]["connected"]
                and not f["room"]["players"][1]["members"][0]["connected"]
            )
        )
        # The host and Bob gone past the table's minute: the role passes to the seat of
        # someone here, Bob's, and Cid (its second member) holds it.
        clock.advance(120)
        look_in(server, code)
        hosting = cid.until(lambda f: f["type"] == "state" and f["room"]["you"]["host"])
        assert hosting["room"]["players"][1]["host"]
        assert cid.request({"type": "add_bot"})["type"] == "ack"
        # The host is back: the role is theirs again.
        back = Client(server.base, code, token)
        back.until(lambda f: f["type"] == "state" and f["room"]["you"]["host"])
        cid.until(lambda f: f["type"] == "state" and not f["room"]["you"]["host"])
        for c in (back, cid):
            c.close()
    finally:
        server.stop()
