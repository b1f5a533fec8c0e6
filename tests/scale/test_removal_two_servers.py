"""A removal holds on every process: two ``reverie serve`` processes behind nginx
(deploy/nginx/) on one PostgreSQL and one Redis. The host, connected straight to one
process, removes mid-game a player whose socket nginx sent to the other; that player's
link, browser and address then take no seat again, through nginx or straight at either
process. Behind nginx a player's address is the one nginx forwards (X-Forwarded-For set to
the peer it saw), so the ban is on that address, not on what the player's own header
claimed."""

from __future__ import annotations

from pathlib import Path

import httpx

from tests.scale.cluster import landed, nginx_pair, sockets_on
from tests.web.harness import Client, join
from tests.web.test_removal import _as, _cookie

NGINX_SEES = "127.0.0.1"  # the address nginx forwards for every client of the test


def _browser(cookie: str, address: str | None) -> dict[str, str]:
    """Handshake headers: a browser's id cookie, and (when given) an X-Forwarded-For."""
    headers = {"Cookie": f"reverie_b={cookie}"}
    if address is not None:
        headers["X-Forwarded-For"] = address
    return headers


def test_a_removal_through_one_process_holds_on_the_other_and_behind_nginx(
    tmp_path: Path, postgres_url: str, redis_url: str
) -> None:
    with nginx_pair(tmp_path, postgres_url, redis_url) as (nginx, processes):
        body = {"name": "Ann", "color": "#e63946", "variant": "dixit", "seats": 3,
                "options": {"first_storyteller": 0}, "public": True}  # fmt: skip
        r = httpx.post(f"{nginx.base}/api/rooms", json=body, headers=_as(1, _cookie(1)))
        assert r.status_code == 201, r.text
        code = r.json()["code"]
        # Bob comes through nginx claiming 10.0.0.2; nginx replaces the header with the
        # address it sees. Which process it picks goes by the room's code.
        before = [sockets_on(p) for p in processes]
        bob = join(nginx.base, code, "Bob", "#2a9d8f", headers=_as(2, _cookie(2)))
        near = landed(processes, before)
        far = next(p for p in processes if p is not near)
        ann = Client(far.base, code, r.json()["token"], headers=_as(1, _cookie(1)))
        ann.until(lambda f: f["type"] == "state")
        join(far.base, code, "Cid", "#457b9d", headers=_as(3, _cookie(3)))
        assert sockets_on(near) == 1 and sockets_on(far) == 2  # Bob alone on his process
        assert ann.request({"type": "start"})["type"] == "ack"

        # Ann (one process) removes Bob (the other): his tells him, a bot plays his seat.
        assert ann.request({"type": "kick", "seat": 1})["type"] == "ack"
        seen = bob.until(lambda f: f["type"] == "state" and f["room"]["players"][1]["bot"])
        assert seen["room"]["you"] is None and seen["room"]["status"] == "playing"

        # Through nginx the address is always the one nginx saw, whatever the header says.
        via_nginx = [_browser(_cookie(2), None), _browser(_cookie(12), "10.0.0.12")]
        # Straight at a process (nginx's own peer, trusted): the forwarded address counts.
        direct = [_browser(_cookie(2), "10.0.0.9"), _browser(_cookie(12), NGINX_SEES)]
        for base, tries in ((nginx.base, via_nginx), (near.base, direct), (far.base, direct)):
            again = Client(base, code, bob.token, headers=tries[0])
            assert again.until(lambda f: f["type"] == "state")["room"]["you"] is None
            for headers in tries:
                refused = Client(base, code, headers=headers).request(
                    {"type": "join", "name": "Bobby", "color": "#ff66c4"}
                )
                assert refused["type"] == "error" and refused["code"] == "banned", refused
        # The address Bob's own header claimed is not banned: a new browser there may queue
        # for the seat the bot plays (a public table: rooms/takeover.py).
        fay = Client(near.base, code, headers=_as(2, _cookie(20)))
        other = fay.request({"type": "join", "name": "Fay", "color": "#ff66c4"})
        assert other["type"] == "ack", other
