"""A removal holds on every process (one PostgreSQL, one Redis): the host, connected to
one process, removes mid-game a player connected through the other; that player's
browser and address then take no seat again through either process."""

from __future__ import annotations

from pathlib import Path

import httpx

from tests.scale.cluster import server_pair
from tests.web.harness import Client, join
from tests.web.test_removal import TRUSTED, _as, _cookie


def test_a_removal_on_one_process_holds_on_the_other(
    tmp_path: Path, postgres_url: str, redis_url: str
) -> None:
    pair = server_pair(tmp_path, postgres_url, redis_url, "remove", forwarded_allow_ips=TRUSTED)
    with pair as (a, b):
        body = {"name": "Ann", "color": "#e63946", "variant": "dixit", "seats": 3,
                "options": {"first_storyteller": 0}, "public": True}  # fmt: skip
        r = httpx.post(f"{a.base}/api/rooms", json=body, headers=_as(1, _cookie(1)))
        assert r.status_code == 201, r.text
        code = r.json()["code"]
        ann = Client(a.base, code, r.json()["token"], headers=_as(1, _cookie(1)))
        bob = join(b.base, code, "Bob", "#2a9d8f", headers=_as(2, _cookie(2)))
        join(a.base, code, "Cid", "#457b9d", headers=_as(3, _cookie(3)))
        assert ann.request({"type": "start"})["type"] == "ack"

        # Ann (process A) removes Bob (process B): B tells him, a bot plays his seat on.
        assert ann.request({"type": "kick", "seat": 1})["type"] == "ack"
        seen = bob.until(lambda f: f["type"] == "state" and f["room"]["players"][1]["bot"])
        assert seen["room"]["you"] is None and seen["room"]["status"] == "playing"

        for server in (a, b):
            # His old link opens no seat; his browser from another address, and his
            # address with a new browser, are refused a seat.
            again = Client(server.base, code, bob.token, headers=_as(2, _cookie(2)))
            assert again.until(lambda f: f["type"] == "state")["room"]["you"] is None
            for headers in (_as(2, _cookie(2)), _as(9, _cookie(2)), _as(2, _cookie(12))):
                refused = Client(server.base, code, headers=headers).request(
                    {"type": "join", "name": "Bobby", "color": "#ff66c4"}
                )
                assert refused["type"] == "error" and refused["code"] == "banned", refused
