"""The drawing game over real sockets: teams, turns, guessing, the canvas, proverb rounds.

Tables of four (two teams of two) play with short timers. Where a test needs to know a
secret the players may not (which sector of the next card is blank), it reads the room's
event log the way the server replays it: the test is the only omniscient party.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosedError

from reverie.rooms.state import RoomState
from reverie.rules.visual import GameState, subject, view
from reverie.rules.visual.cards import CHOOSABLE
from reverie.rules.visual.views import SECRET_PHASES

from .harness import (
    Client,
    Frame,
    ServerThread,
    SkewClock,
    create_room,
    join,
    room_history,
    sync,
)

COLORS = ["#2a9d8f", "#8338ec", "#457b9d", "#f4a261", "#e9c46a"]


def table(
    server: ServerThread, seats: int = 4, *, start: bool = True, **options: object
) -> tuple[str, list[Client]]:
    """A visual room with ``seats`` players; seat s plays in team s % 2."""
    options.setdefault("think_seconds", 0)
    options.setdefault("blank_share", 0.0)  # proverb rounds only where a test asks
    code, token = create_room(server.base, "visual", seats, **options)
    host = Client(server.base, code, token)
    host.until(lambda f: f["type"] == "welcome")
    clients = [host, *(join(server.base, code, f"P{i}", COLORS[i]) for i in range(seats - 1))]
    for c in clients:
        assert c.request({"type": "team", "team": c.seat % 2})["type"] == "ack"  # type: ignore[operator]
    if start:
        assert host.request({"type": "start"})["type"] == "ack"
        sync(clients)
    return code, clients


def by_seat(clients: list[Client]) -> dict[int, Client]:
    return {c.seat: c for c in clients if c.seat is not None}


def game(client: Client) -> dict[str, Any]:
    assert client.state is not None and client.state["game"] is not None
    g: dict[str, Any] = client.state["game"]
    return g


def latest_room(server: ServerThread, code: str) -> RoomState:
    room: RoomState = room_history(server.data_dir / "reverie.db", code)[-1]
    return room


def wait_phase(clients: list[Client], phase: str) -> Frame:
    for c in clients:
        c.until(lambda f: f["type"] == "state" and (f["game"] or {}).get("phase") == phase)
    return sync(clients)


def choose(clients: list[Client], category: str) -> tuple[Client, str]:
    """The drawer chooses; returns the drawer and the subject once drawing starts."""
    seats = by_seat(clients)
    drawer = seats[game(clients[0])["turn"]["drawer"]]
    assert drawer.request({"type": "choose", "category": category})["type"] == "ack"
    wait_phase(clients, "draw")
    word = game(drawer)["subject"]
    assert isinstance(word, str) and word
    return drawer, word


def test_lobby_teams_balance_and_start(server: ServerThread) -> None:
    _code, clients = table(server, 5, start=False)
    host = clients[0]
    assert host.request({"type": "add_bot"})["code"] == "no_bots"
    assert clients[1].request({"type": "team", "team": 5})["code"] == "bad_team"
    assert clients[1].request({"type": "teams", "count": 3})["code"] == "not_host"
    assert host.request({"type": "teams", "count": 7})["code"] == "bad_team"
    assert host.request({"type": "teams", "count": 3})["type"] == "ack"
    assert host.request({"type": "team", "team": 2})["type"] == "ack"
    room = sync(clients)["room"]
    assert room["family"] == "visual" and room["team_count"] == 3
    assert len(room["team_colors"]) >= 3
    assert [p["team"] for p in room["players"]] == [2, 1, 0, 1, 0]
    assert host.request({"type": "balance"})["type"] == "ack"
    teams = [p["team"] for p in sync(clients)["room"]["players"]]
    assert sorted(teams.count(t) for t in range(3)) == [1, 2, 2]
    # A team of one cannot play: the start is refused with a reason, nothing changes.
    reply = host.request({"type": "start"})
    assert reply["type"] == "error" and reply["code"] == "not_enough_players"
    assert host.request({"type": "teams", "count": 2})["type"] == "ack"
    for c in clients[1:3]:  # two stand aside: the start puts them in the smallest teams
        assert c.request({"type": "team", "team": None})["type"] == "ack"
    assert host.request({"type": "start"})["type"] == "ack"
    state = sync(clients)
    teams = [p["team"] for p in state["room"]["players"]]
    assert sorted(teams.count(t) for t in range(2)) == [2, 3] and None not in teams
    assert state["game"]["teams"][0]["seats"] == [s for s, t in enumerate(teams) if t == 0]


def test_a_turn_guessing_matching_and_reveal(server: ServerThread) -> None:
    _code, clients = table(server)
    seats = by_seat(clients)
    g = game(clients[0])
    assert g["phase"] == "choose"
    team = g["turn"]["team"]
    mate = next(s for s in g["teams"][team]["seats"] if s != g["turn"]["drawer"])
    rival = next(s for s in g["teams"][1 - team]["seats"])
    assert seats[rival].request({"type": "choose", "category": "objects"})["code"] == "not_drawer"
    drawer, word = choose(clients, "objects")
    for c in clients:  # the word reaches the drawer alone
        assert (game(c)["subject"] == word) == (c is drawer)
        assert game(c)["turn"]["value"] == 3
    assert seats[rival].request({"type": "guess", "text": word})["code"] == "not_your_turn"
    assert drawer.request({"type": "guess", "text": word})["code"] == "drawer_cannot_guess"
    assert drawer.request({"type": "chat", "text": "psst"})["code"] == "drawer_silent"
    typo = word[:-1] + ("x" if word[-1] != "x" else "y")
    if len(word) >= 5:  # a small typo: "close", shown only to the guesser who typed it
        assert seats[mate].request({"type": "guess", "text": typo})["type"] == "ack"
        sync(clients)
        closes = {c.seat: [x["close"] for x in game(c)["guesses"]] for c in clients}
        assert closes[mate] == [True] and all(v == [False] for s, v in closes.items() if s != mate)
    assert (
        seats[mate].request({"type": "guess", "text": "  " + word.upper() + " "})["type"] == "ack"
    )
    state = sync(clients)
    last = state["game"]["last_turn"]
    assert last["subject"] == word and last["solved_by"] == team
    assert last["moved_from"] == 1 and last["moved_to"] == 4
    assert state["game"]["teams"][team]["square"] == 4


def test_drawer_accepts_or_marks_a_synonym(server: ServerThread) -> None:
    _code, clients = table(server)
    seats = by_seat(clients)
    drawer, word = choose(clients, "actions")
    team = game(drawer)["you"]["team"]
    mate = seats[next(s for s in game(drawer)["teams"][team]["seats"] if s != drawer.seat)]
    assert mate.request({"type": "guess", "text": "zzqq nothing like it"})["type"] == "ack"
    assert mate.request({"type": "guess", "text": "qqzz near enough"})["type"] == "ack"
    assert mate.request({"type": "synonym", "index": 0})["code"] == "not_drawer"
    assert drawer.request({"type": "synonym", "index": 0})["type"] == "ack"
    assert drawer.request({"type": "accept", "index": 9})["code"] == "no_such_guess"
    g = sync(clients)["game"]
    assert [x["synonym"] for x in g["guesses"]] == [True, False]
    assert drawer.request({"type": "accept", "index": 1})["type"] == "ack"
    g = sync(clients)["game"]
    assert g["last_turn"]["solved_by"] == team and g["last_turn"]["subject"] == word
    assert g["teams"][team]["square"] == 5


def test_strokes_stream_validate_and_replay_for_late_joiners(server: ServerThread) -> None:
    code, clients = table(server)
    seats = by_seat(clients)
    drawer, _ = choose(clients, "objects")
    others = [c for c in clients if c is not drawer]
    not_drawer = others[0]
    watcher = Client(server.base, code)
    watcher.until(lambda f: f["type"] == "state")
    stroke = [[0, 1, 1, 100, 100, 120, 110], [1, 140, 130, 160, 150]]
    assert drawer.request({"type": "draw", "ops": stroke})["type"] == "ack"
    for c in [*others, watcher]:
        frame = c.until(lambda f: f["type"] == "draw")
        assert frame["ops"] == stroke and frame["seat"] == drawer.seat
    bad = [
        [[0, 1, 1, 900, 100]],  # off the canvas
        [[0, 16, 1, 10, 10]],  # no such colour
        [[0, 1, 3, 10, 10]],  # no such size
        [[0, 1, 1, 10]],  # half a point
        [[7]],  # unknown operation
        [[0, 1, 1, 10, 10]] * 65,  # too many operations
        [],
    ]
    for ops in bad:
        assert drawer.request({"type": "draw", "ops": ops})["code"] == "bad_stroke"
    # Each refusal shows the drawer the picture the others have (its page drew too soon).
    resyncs = [f for f in drawer.frames if f["type"] == "canvas"]
    assert resyncs and all(f["canvases"] == {str(drawer.seat): stroke} for f in resyncs)
    drawer.send({"type": "draw", "ops": [[0, 1, 1, 1.5, 2]]})  # not an integer: the schema
    assert drawer.until(lambda f: f["type"] == "error")["code"] == "bad_message"
    assert not_drawer.request({"type": "draw", "ops": stroke})["code"] == "not_drawer"
    more = [[0, 4, 2, 300, 300, 310, 320], [2], [4, 9, 400, 300], [0, 7, 0, 5, 5]]
    assert drawer.request({"type": "draw", "ops": more})["type"] == "ack"
    # The drawer's own connection never gets its strokes back.
    assert not any(f["type"] == "draw" for f in drawer.frames)
    # A late joiner (a reconnecting player) gets the picture so far, undone stroke gone.
    again = Client(server.base, code, seats[others[1].seat].token)  # type: ignore[index]
    canvas = again.until(lambda f: f["type"] == "canvas")
    assert canvas["canvases"] == {str(drawer.seat): [*stroke, [4, 9, 400, 300], [0, 7, 0, 5, 5]]}
    assert canvas["turn"] == game(drawer)["turn"]["number"]
    assert drawer.request({"type": "draw", "ops": [[3]]})["type"] == "ack"
    sync(clients)
    fresh = Client(server.base, code)  # the canvas comes first, then the state
    assert fresh.until(lambda f: f["type"] == "canvas")["canvases"] == {str(drawer.seat): []}
    # A full canvas refuses more and stays as it was.
    ops = [[0, 1, 0, 10, 10]] * 64
    for _ in range(100):
        time.sleep(0.04)  # within the drawing allowance
        reply = drawer.request({"type": "draw", "ops": ops})
        if reply["type"] == "error":
            assert reply["code"] == "canvas_full"
            break
    else:
        raise AssertionError("the canvas never filled up")
    late = Client(server.base, code)
    assert len(late.until(lambda f: f["type"] == "canvas")["canvases"][str(drawer.seat)]) <= 4000


def test_fill_and_undo_floods_spend_the_allowance_faster(tmp_path: Path) -> None:
    """A fill + undo makes every viewer repaint: such frames spend five tokens, so a
    burst lets a fifth as many through as strokes (clock held still: no refill)."""
    server = ServerThread(tmp_path, limits_clock=_StillClock()).start()
    try:
        _code, clients = table(server)
        drawer, _ = choose(clients, "objects")
        replies = [drawer.request({"type": "draw", "ops": [[4, 1, 5, 5], [2]]}) for _ in range(20)]
        accepted = sum(r["type"] == "ack" for r in replies)
        assert accepted == 60 // 5  # the burst of 60 over a cost of 1 + 3 + 1
        assert {r["code"] for r in replies if r["type"] == "error"} == {"rate_limited"}
    finally:
        server.stop()


class _StillClock:
    """A clock that never moves (the allowance never refills)."""

    def __call__(self) -> float:
        return 1_000.0


def test_draw_flood_is_rate_limited_and_cut_off(server: ServerThread) -> None:
    _code, clients = table(server)
    drawer, word = choose(clients, "objects")
    others = [c for c in clients if c is not drawer]
    for _ in range(200):
        try:
            drawer.send({"type": "draw", "ops": [[0, 1, 1, 10, 10]]})
        except ConnectionClosedError:
            # On a loaded machine the server can read the flood faster than this loop
            # writes it, and cuts the flooder off before the last frames are sent; the
            # replies that came before the close are still read below.
            break
    errors = [drawer.until(lambda f: f["type"] == "error") for _ in range(5)]
    assert {e["code"] for e in errors} == {"rate_limited"}
    with pytest.raises(ConnectionClosedError) as closed:  # the flooder is cut off
        drawer.until(lambda f: False, timeout=10)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
    # The others got at most the strokes the allowance let through, and play on.
    for o in others:
        assert sum(f["type"] == "draw" for f in o.frames) <= 61
    mate = next(o for o in others if game(o)["you"]["role"] == "guesser")
    assert mate.request({"type": "guess", "text": word})["type"] == "ack"
    assert sync(others)["game"]["last_turn"]["solved_by"] == game(mate)["you"]["team"]


def test_guesses_are_rate_limited_and_capped_per_turn(tmp_path: Path) -> None:
    clock = SkewClock()
    server = ServerThread(tmp_path, limits_clock=clock).start()
    try:
        _guesses_are_rate_limited_and_capped_per_turn(server, clock)
    finally:
        server.stop()


def _guesses_are_rate_limited_and_capped_per_turn(server: ServerThread, clock: SkewClock) -> None:
    _code, clients = table(server, draw_seconds=600)
    _drawer, _ = choose(clients, "objects")
    mate = next(c for c in clients if game(c)["you"]["role"] == "guesser")
    began = clock()
    replies = [mate.request({"type": "guess", "text": f"zz{i}"}) for i in range(10)]
    elapsed = clock() - began
    accepted = sum(r["type"] == "ack" for r in replies)
    # A burst of 6, then 2 a second: however slow the machine, no more got through.
    assert accepted <= 6 + 2 * elapsed + 1
    assert {r["code"] for r in replies if r["type"] == "error"} <= {"rate_limited"}
    while accepted < 40:
        clock.advance(0.5)  # the allowance refills as if half a second had passed
        reply = mate.request({"type": "guess", "text": f"zz{accepted}"})
        assert reply["type"] == "ack", reply
        accepted += 1
    clock.advance(0.5)
    assert mate.request({"type": "guess", "text": "one more"})["code"] == "too_many_guesses"
    g = sync(clients)["game"]
    assert g["guess_count"] == len(g["guesses"]) == 40 and g["guesses"][-1]["index"] == 39


def test_team_chat_reaches_only_the_team(server: ServerThread) -> None:
    code, clients = table(server, start=False)
    watcher = Client(server.base, code)
    watcher.until(lambda f: f["type"] == "state")
    assert (
        clients[0].request({"type": "chat", "text": "team zero only", "team": True})["type"]
        == "ack"
    )
    assert clients[1].request({"type": "chat", "text": "for everyone"})["type"] == "ack"
    for c in [*clients, watcher]:
        c.until(lambda f: f["type"] == "chat" and "for everyone" in json.dumps(f))
    for c in clients:
        heard = any(m["text"] == "team zero only" for m in c.chat)
        assert heard == (c.seat % 2 == 0), c.seat  # type: ignore[operator]
    assert not any(m["text"] == "team zero only" for m in watcher.chat)
    late = Client(server.base, code, clients[3].token)
    late.until(lambda f: f["type"] == "state")
    assert not any(m["text"] == "team zero only" for m in late.chat)


def blank_category(server: ServerThread, code: str) -> str:
    """The blank sector of the card the next choice will draw (from the log)."""
    g: GameState = latest_room(server, code).game
    card = g.cards[g.deck[0]]
    assert card.blank is not None
    return CHOOSABLE[card.blank]


def test_proverb_round_each_team_its_own_canvas_first_correct_moves(
    server: ServerThread,
) -> None:
    code, clients = table(server, blank_share=1.0)
    seats = by_seat(clients)
    watcher = Client(server.base, code)
    watcher.until(lambda f: f["type"] == "state")
    g = game(clients[0])
    playing = g["turn"]["team"]
    _, proverb = choose(clients, blank_category(server, code))
    g = game(clients[0])
    assert g["turn"]["proverb"] and g["turn"]["value"] == 8
    drawers = g["turn"]["drawers"]
    assert len(drawers) == 2
    for c in clients:
        assert (game(c)["subject"] == proverb) == (c.seat in drawers)
        assert game(c)["you"]["role"] == ("drawer" if c.seat in drawers else "guesser")
    # Each team sees only its own drawer's canvas; spectators see none.
    for t, d in enumerate(drawers):
        ops = [[0, 2 + t, 0, 10 * (t + 1), 10, 20, 20]]
        assert seats[d].request({"type": "draw", "ops": ops})["type"] == "ack"
    for c in clients:
        if c.seat not in drawers:
            assert c.until(lambda f: f["type"] == "draw")["seat"] == drawers[game(c)["you"]["team"]]
    # Team chat during the round stays in the team.
    some = next(c for c in clients if c.seat not in drawers)
    assert some.request({"type": "chat", "text": "ours is a bird", "team": True})["type"] == "ack"
    mates = [c for c in clients if game(c)["you"]["team"] == game(some)["you"]["team"]]
    for c in mates:
        c.until(lambda f: f["type"] == "chat" and "ours is a bird" in json.dumps(f))
    # Coming back mid-round: one's own team's drawing, and only it; a spectator none.
    for c in clients:
        back = Client(server.base, code, c.token)
        canvas = back.until(lambda f: f["type"] == "canvas")["canvases"]
        assert list(canvas) == [str(drawers[game(c)["you"]["team"]])]
        assert canvas[str(drawers[game(c)["you"]["team"]])][0][1] == 2 + game(c)["you"]["team"]
        back.close()
    assert Client(server.base, code).until(lambda f: f["type"] == "canvas")["canvases"] == {}
    # The other team guesses first; the teams do not see each other's guesses.
    other = 1 - playing
    guesser = seats[next(s for s in g["teams"][other]["seats"] if s not in drawers)]
    rival = seats[next(s for s in g["teams"][playing]["seats"] if s not in drawers)]
    assert rival.request({"type": "guess", "text": "a wrong idea"})["type"] == "ack"
    sync([*clients, watcher])
    assert [x["text"] for x in game(guesser)["guesses"]] == []
    for c in clients:  # strokes and team lines reached their own team only
        mine = game(c)["you"]["team"]
        assert all(f["seat"] == drawers[mine] for f in c.frames if f["type"] == "draw")
        heard = any(m["text"] == "ours is a bird" for m in c.chat)
        assert heard == (c in mates)
    assert not any(f["type"] == "draw" for f in watcher.frames)
    assert not any(m["text"] == "ours is a bird" for m in watcher.chat)
    assert guesser.request({"type": "guess", "text": proverb})["type"] == "ack"
    state = wait_phase(clients, "move")
    assert state["game"]["turn"]["solved_by"] == other
    assert rival.request({"type": "move", "steps": 3, "direction": "forward"})["code"] == (
        "not_your_team"
    )
    assert guesser.request({"type": "move", "steps": 9, "direction": "forward"})["code"] == (
        "bad_steps"
    )
    assert guesser.request({"type": "move", "steps": 5, "direction": "forward"})["type"] == "ack"
    g = sync(clients)["game"]
    assert g["teams"][other]["square"] == 6
    if g["phase"] == "bonus":  # square 6 held a bonus token: keep it
        assert guesser.request({"type": "keep"})["type"] == "ack"
        g = sync(clients)["game"]
    assert g["last_turn"]["subject"] == proverb and g["last_turn"]["proverb"]
    assert g["phase"] == "choose" and g["turn"]["team"] == other  # the winner plays next


def test_draw_timer_fails_the_turn(server: ServerThread) -> None:
    _code, clients = table(server, draw_seconds=1, lose_seconds=1)
    start = game(clients[0])["turn"]["number"]
    _drawer, word = choose(clients, "luck")
    clients[0].until(
        lambda f: f["type"] == "state" and (f["game"] or {}).get("last_turn") is not None,
        timeout=10,
    )
    g = sync(clients)["game"]
    assert g["last_turn"]["number"] == start and g["last_turn"]["solved_by"] is None
    assert g["last_turn"]["subject"] == word
    assert all(t["square"] == 1 for t in g["teams"])


@pytest.mark.slow
def test_no_guesser_ever_receives_the_word(server: ServerThread) -> None:
    """Every state frame equals the rules' view for its seat at its version, and until a
    turn is guessed or over its subject appears in no frame of anyone but its drawers."""
    code, clients = table(server, blank_share=0.5)
    watcher = Client(server.base, code)
    for turn in range(6):
        seats = by_seat(clients)
        g = game(clients[0])
        if g["phase"] == "over":
            break
        category = CHOOSABLE[turn % 4]
        drawer, word = choose(clients, category)
        g = game(drawer)
        team = g["turn"]["team"]
        drawing = set(g["turn"]["drawers"])
        guesser = seats[next(s for s in g["teams"][team]["seats"] if s not in drawing)]
        for d in drawing:  # strokes, chat and a refused chat travel during the secret too
            assert seats[d].request({"type": "draw", "ops": [[0, 1, 1, 5, 5]]})["type"] == "ack"
            assert seats[d].request({"type": "chat", "text": word})["code"] == "drawer_silent"
        assert guesser.request({"type": "chat", "text": "hmm", "team": True})["type"] == "ack"
        assert guesser.request({"type": "guess", "text": "surely not this"})["type"] == "ack"
        if turn % 2:
            assert guesser.request({"type": "guess", "text": word})["type"] == "ack"
        else:
            for d in drawing:
                assert seats[d].request({"type": "accept", "index": 0})["type"] in ("ack", "error")
        state = sync(clients)
        for _ in range(4):  # settle bonus / lose / move decisions
            g = state["game"]
            if g["phase"] == "choose" or g["phase"] == "over":
                break
            actor = seats[g["waiting"][0]]
            frame: Frame
            if g["phase"] == "move":
                frame = {"type": "move", "steps": 1, "direction": "forward"}
            elif g["phase"] == "bonus":
                frame = {"type": "keep"}
            else:
                team_of = {p["seat"]: p["team"] for p in g["players"]}
                held = g["teams"][team_of[actor.seat]]["tokens"]
                frame = {"type": "forfeit", "token": held[0]["id"]}
            assert actor.request(frame)["type"] == "ack"
            state = sync(clients)
    watcher.state_at_least(clients[0].state["version"])  # type: ignore[index]
    states = room_history(server.data_dir / "reverie.db", code)
    checked = 0
    for client in [*clients, watcher]:
        seat = client.seat
        room: RoomState | None = None  # as of the last state frame: frames between share it
        for got in client.frames:
            if got["type"] == "state":
                room = states[got["version"]]
                if got["game"] is not None:
                    assert got["game"] == json.loads(json.dumps(view(room.game, seat)))
            if room is None or room.game is None:
                continue
            g = room.game
            secret = subject(g) if g.phase in SECRET_PHASES else None
            # Once a team guessed, its right guess shows the word to whoever sees that
            # guess: everyone in a usual turn, the guessing team in a proverb round.
            solved = g.turn.solved_by
            told = solved is not None and (not g.turn.proverb or g.team_of(seat) == solved)
            if secret and seat not in g.turn.drawers and not told:
                # Any frame: state, chat, strokes, canvas, acks and errors alike. As a
                # whole word: "car" may be inside the key "cards_left".
                text = json.dumps(got, ensure_ascii=False)
                pattern = rf"(?<!\w){re.escape(secret)}(?!\w)"
                assert not re.search(pattern, text, re.IGNORECASE), got["type"]
                checked += 1
    assert checked > 40


def test_restart_resumes_the_game(tmp_path: Path) -> None:
    srv = ServerThread(tmp_path).start()
    try:
        code, clients = table(srv)
        drawer, word = choose(clients, "places")
        version = clients[0].state["version"]  # type: ignore[index]
        tokens = [c.token for c in clients]
        for c in clients:
            c.close()
    finally:
        srv.stop()
    srv = ServerThread(tmp_path).start()
    try:
        again = [Client(srv.base, code, t) for t in tokens]
        state = sync(again)
        assert state["version"] >= version and state["game"]["phase"] == "draw"
        d = by_seat(again)[drawer.seat]  # type: ignore[index]
        assert game(d)["subject"] == word
    finally:
        srv.stop()
