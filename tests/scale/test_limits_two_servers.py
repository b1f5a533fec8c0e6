"""The open tables' limits hold across processes (one PostgreSQL, one Redis): public
tables one person may open, seats taken from one address a minute, votes of one seat and
reports of one person are spent from one allowance, whichever process each request
reaches."""

from __future__ import annotations

import secrets
from pathlib import Path

import httpx

from tests.scale.cluster import server_pair
from tests.web.harness import Client, join
from tests.web.test_removal import TRUSTED

BODY = {"name": "Ann", "color": "#e63946", "variant": "dixit", "seats": 6, "options": {}}


def test_the_limits_are_shared_by_both_processes(
    tmp_path: Path, postgres_url: str, redis_url: str
) -> None:
    # The Redis outlives this test: its own addresses and browsers start afresh.
    net = f"10.{secrets.randbelow(250)}.{secrets.randbelow(250)}"
    tag = secrets.token_hex(8)

    def person(n: int) -> dict[str, str]:
        return {"X-Forwarded-For": f"{net}.{n}", "Cookie": f"reverie_b=limits-{tag}-{n:02d}"}

    limits = {"public_tables_per_hour": 2, "joins_per_minute": 2, "votes_per_minute": 2,
              "reports_per_hour": 2, "forwarded_allow_ips": TRUSTED}  # fmt: skip
    with server_pair(tmp_path, postgres_url, redis_url, "limits", **limits) as (a, b):
        # Public tables: one on each process, then none more for that person.
        opened = [httpx.post(f"{s.base}/api/rooms", json={**BODY, "public": True},
                             headers=person(1)) for s in (a, b, a)]  # fmt: skip
        assert [r.status_code for r in opened] == [201, 201, 429], opened[2].text
        assert opened[2].json()["error"]["code"] == "rate_limited"
        code, token = opened[0].json()["code"], opened[0].json()["token"]

        # Seats from one address (new browsers each time): one through each, then none.
        joins = [Client(s.base, code, headers={**person(2), "Cookie": f"reverie_b=j-{tag}-{i}"})
                 .request({"type": "join", "name": f"P{i}", "color": color})
                 for i, (s, color) in enumerate(zip((a, b, a), ("#2a9d8f", "#457b9d", "#8338ec"),
                                                    strict=True))]  # fmt: skip
        assert [f["type"] for f in joins] == ["ack", "ack", "error"], joins
        assert joins[2]["code"] == "rate_limited"

        # Votes of one seat (its page open on both processes): the rate is spent before
        # the vote is read (these name nobody), so the third is refused for it.
        on_a = Client(a.base, code, token, headers=person(1))
        on_b = Client(b.base, code, token, headers=person(1))
        votes = [c.request({"type": "vote_kick", "seat": 99}) for c in (on_a, on_b, on_a)]
        assert [f.get("code") for f in votes] == ["unknown_seat", "unknown_seat", "rate_limited"], (
            votes
        )

        # Reports of one person: one through each process, then none.
        reports = [c.request({"type": "report", "seat": None, "reason": "spam"})
                   for c in (on_a, on_b, on_a)]  # fmt: skip
        assert [f["type"] for f in reports] == ["ack", "ack", "error"], reports
        assert reports[2]["code"] == "rate_limited"
        # Someone else (another browser, another address) is held back by none of these.
        other = join(b.base, code, "Zoe", "#ff66c4", headers=person(3))
        assert other.request({"type": "report", "seat": None, "reason": "spam"})["type"] == "ack"
