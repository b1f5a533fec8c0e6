"""Phase timers: the room's clock enters the rules as a Timeout action."""

from __future__ import annotations

from .harness import Client, ServerThread, create_room, game_is, join


def test_card_and_vote_timers_play_on_for_absent_players(server: ServerThread) -> None:
    code, token = create_room(
        server.base, "dixit", 3, first_storyteller=0, card_seconds=1, vote_seconds=1
    )
    host = Client(server.base, code, token)
    ann = join(server.base, code, "Ann", "#2a9d8f")
    join(server.base, code, "Bob", "#8338ec")
    assert host.request({"type": "start"})["type"] == "ack"
    start = host.until(lambda f: f["type"] == "state" and f["game"] is not None)
    assert start["room"]["deadline"] is None  # no clue timer was set
    card = start["game"]["hand"][0]
    assert host.request({"type": "clue", "text": "tide", "card": card})["type"] == "ack"
    submit = ann.until(game_is(phase="submit"))
    deadline = submit["room"]["deadline"]
    assert deadline is not None and 0 < deadline - submit["room"]["server_time"] <= 1000
    # Nobody plays: the clock plays a random card for each, then votes at random.
    vote = ann.until(game_is(phase="vote"), 5)
    assert len(vote["game"]["table"]) == 3 and vote["room"]["deadline"] is not None
    after = ann.until(game_is(rounds_played=1), 5)
    last = after["game"]["last_round"]
    assert all(v is not None for s, v in enumerate(last["votes"]) if s != 0)
    assert after["game"]["storyteller"] == 1 and after["room"]["deadline"] is None


def test_skip_policy_sits_absent_players_out(server: ServerThread) -> None:
    # Three seconds: Ann's card must beat the clock on a loaded machine; Bob's never comes.
    code, token = create_room(
        server.base, "dixit", 3, first_storyteller=0, card_seconds=3, on_timeout="skip"
    )
    host = Client(server.base, code, token)
    ann = join(server.base, code, "Ann", "#2a9d8f")
    join(server.base, code, "Bob", "#8338ec")
    assert host.request({"type": "start"})["type"] == "ack"
    hand = ann.until(lambda f: f["type"] == "state" and f["game"] is not None)["game"]["hand"]
    card = host.until(lambda f: f["type"] == "state" and f["game"] is not None)["game"]["hand"][0]
    assert host.request({"type": "clue", "text": "tide", "card": card})["type"] == "ack"
    ann.until(game_is(phase="submit"))
    assert ann.request({"type": "submit", "card": hand[0]})["type"] == "ack"
    vote = ann.until(game_is(phase="vote"), 10)
    assert vote["game"]["sat_out"] == [2] and len(vote["game"]["table"]) == 2
