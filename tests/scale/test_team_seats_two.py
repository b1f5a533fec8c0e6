"""Team seats over two server processes (one PostgreSQL, one Redis): a team seat's
members on different processes play one seat, see each other's choices and agree, and
every frame either process sends holds only what its seat may know (the seat's hand,
its members' choices and its own chat reach its members only, before and after the
reveal)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.scale.cluster import server_pair
from tests.web.harness import Client, ServerThread, create_room, join, sync
from tests.web.test_team_seats import SECRET_WORDS, check_frames, join_seat, play_teams


@pytest.fixture
def pair(tmp_path: Path, postgres_url: str, redis_url: str) -> Iterator[list[ServerThread]]:
    """Two apps sharing the database and the bus (each with its own process id)."""
    with server_pair(
        tmp_path, postgres_url, redis_url, "team", lease_seconds=1.0, rooms_per_minute=0
    ) as servers:
        yield servers


def test_a_team_seat_split_over_two_processes_keeps_its_secrets(
    pair: list[ServerThread], postgres_url: str
) -> None:
    a, b = pair
    code, token = create_room(
        a.base, "imaginarium", 3, target_score=6, team_seats="agree", first_storyteller=0
    )
    host = Client(a.base, code, token)
    host.until(lambda f: f["type"] == "welcome")
    ann = join_seat(b, code, "Ann", 0)  # the host's teammate, on the other process
    bob = join(b.base, code, "Bob", "#8338ec")
    cid = join_seat(a, code, "Cid", 1)
    dee = join(a.base, code, "Dee", "#457b9d")
    watchers = [Client(a.base, code), Client(b.base, code)]
    everyone = [host, ann, bob, cid, dee, *watchers]
    sync(everyone)
    assert host.request({"type": "start"})["type"] == "ack"
    said = ann.request({"type": "chat", "text": f"psst {SECRET_WORDS}", "own": True})
    assert said["type"] == "ack"
    host.until(lambda f: f["type"] == "chat" and SECRET_WORDS in json.dumps(f))
    final = play_teams({0: [host, ann], 1: [bob, cid], 2: [dee]}, everyone, agree=True)
    for c in everyone:
        c.state_at_least(final["version"])
    seat_of: dict[int, int | None] = {
        id(host): 0, id(ann): 0, id(bob): 1, id(cid): 1, id(dee): 2,
        id(watchers[0]): None, id(watchers[1]): None,
    }  # fmt: skip
    assert check_frames(postgres_url, code, everyone, seat_of) > 100
    for c in everyone:
        c.close()
