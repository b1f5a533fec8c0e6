"""The table never stalls: a bot stands in for a player gone too long, the host role
passes on and comes back, and a room with every person gone waits for them.

The rooms' clock is skewed forward instead of sleeping through the grace period; a
spectator looking in makes the room look again at who is gone (as any connection does).
"""

from __future__ import annotations

from pathlib import Path

from .harness import Client, ServerThread, SkewClock, create_room, join, sync


def look_in(server: ServerThread, code: str) -> None:
    watcher = Client(server.base, code)
    watcher.until(lambda f: f["type"] == "state")
    watcher.close()


def players(client: Client) -> list[dict[str, object]]:
    assert client.state is not None
    result: list[dict[str, object]] = client.state["room"]["players"]
    return result


def test_a_player_gone_too_long_is_played_by_a_bot_and_the_host_role_passes(
    tmp_path: Path,
) -> None:
    clock = SkewClock()
    server = ServerThread(tmp_path, clock=clock, away_grace=60).start()
    try:
        code, token = create_room(server.base, "dixit", 3, first_storyteller=0)
        host = Client(server.base, code, token)
        ann = join(server.base, code, "Ann", "#2a9d8f")
        bob = join(server.base, code, "Bob", "#8338ec")
        assert host.request({"type": "start"})["type"] == "ack"
        sync([host, ann, bob])
        assert players(ann)[0]["host"]
        # The host (the storyteller) and Bob close their tabs; a moment later nothing
        # has changed: a dropped phone gets its minute.
        host_token, bob_token = host.token, bob.token
        host.close()
        bob.close()
        ann.until(  # the server has seen both go before the clock moves on
            lambda f: (
                f["type"] == "state" and not any(p["connected"] for p in f["room"]["players"][::2])
            )
        )
        clock.advance(30)
        look_in(server, code)
        first = sync([ann])["room"]["players"][0]
        assert not first["bot_playing"] and first["host"]
        # Past the table's minute: bots play both seats and Ann, the one left, hosts.
        clock.advance(31)
        look_in(server, code)
        ann.until(
            lambda f: (
                f["type"] == "state"
                and f["room"]["players"][0]["bot_playing"]
                and f["room"]["players"][2]["bot_playing"]
                and f["room"]["you"]["host"]
            )
        )
        # With no bot at the table, a stand-in plays as well as bots can: it plays for a
        # person whose score counts.
        assert [p["bot_level"] for p in players(ann)[::2]] == ["clever", "clever"]
        # The bots play on for them: the storyteller's clue comes without the host.
        ann.until(lambda f: f["type"] == "state" and f["game"]["phase"] != "clue")
        # The host comes back: the role returns; Bob takes his seat back with one tap.
        back = Client(server.base, code, host_token)
        back.until(lambda f: f["type"] == "state" and f["room"]["you"]["host"])
        bob = Client(server.base, code, bob_token)
        bob.until(lambda f: f["type"] == "state")
        assert bob.request({"type": "reclaim"})["type"] == "ack"
        bob.until(lambda f: f["type"] == "state" and not f["room"]["players"][2]["bot_playing"])
        for c in (ann, back, bob):
            c.close()
    finally:
        server.stop()


def test_a_table_can_choose_to_wait_for_its_players(tmp_path: Path) -> None:
    clock = SkewClock()
    server = ServerThread(tmp_path, clock=clock, away_grace=60).start()
    try:
        code, token = create_room(server.base, "dixit", 3)
        host = Client(server.base, code, token)
        ann = join(server.base, code, "Ann", "#2a9d8f")
        bad = host.request({"type": "options", "options": {}, "away_seconds": 2})
        assert bad["type"] == "error" and bad["code"] == "bad_options"
        assert host.request({"type": "options", "options": {}, "away_seconds": None})
        state = sync([host, ann])
        assert state["room"]["away_seconds"] is None
        assert host.request({"type": "add_bot"})["type"] == "ack"
        assert host.request({"type": "start"})["type"] == "ack"
        ann_token = ann.token
        ann.close()
        clock.advance(3600)
        look_in(server, code)
        state = host.until(
            lambda f: f["type"] == "state" and not f["room"]["players"][1]["connected"]
        )
        assert not state["room"]["players"][1]["bot_playing"]
        again = Client(server.base, code, ann_token)
        again.until(lambda f: f["type"] == "state")
        for c in (host, again):
            c.close()
    finally:
        server.stop()


def test_with_every_person_gone_the_bots_wait(tmp_path: Path) -> None:
    server = ServerThread(tmp_path, bot_delay=0.3).start()
    try:
        code, token = create_room(server.base, "imaginarium", 3)
        host = Client(server.base, code, token)
        assert host.request({"type": "add_bot"})["type"] == "ack"
        assert host.request({"type": "add_bot"})["type"] == "ack"
        assert host.request({"type": "start"})["type"] == "ack"
        # The host lets a bot play for her and leaves: three bots, nobody watching.
        assert host.request({"type": "bot_seat", "seat": 0, "on": True})["type"] == "ack"
        host.close()
        watcher = Client(server.base, code)
        seen = watcher.until(lambda f: f["type"] == "state" and f["room"]["paused"])
        stopped = seen["version"]
        for _ in range(8):  # presence changes over a while, and no bot moves
            look_in(server, code)
        watcher.until(lambda f: f["type"] == "state")
        assert watcher.state is not None
        assert watcher.state["version"] <= stopped + 1  # at most a move already on its way
        stopped = watcher.state["version"]
        # Someone is back: the bots play on.
        back = Client(server.base, code, token)
        back.until(lambda f: f["type"] == "state" and f["version"] > stopped)
        for c in (watcher, back):
            c.close()
    finally:
        server.stop()
