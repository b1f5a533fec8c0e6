"""Removing people over real sockets: the host removes mid-game (a bot plays on), the
people at a public table vote someone out (the host too, mid-game), and the removed
browser and address cannot take a seat again; browsers get their id cookie, and the log
keeps only hashes."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from reverie.store.moderation import open_moderation
from tests.aio import run_async

from .harness import Client, ServerThread, join

TRUSTED = "127.0.0.1"  # the test's X-Forwarded-For names the client


def _as(n: int, cookie: str | None = None) -> dict[str, str]:
    """The handshake headers of a browser at address 10.0.0.n with its id cookie."""
    headers = {"X-Forwarded-For": f"10.0.0.{n}"}
    if cookie is not None:
        headers["Cookie"] = f"reverie_b={cookie}"
    return headers


def _cookie(n: int) -> str:
    return f"browser-{n:02d}-" + "x" * 16


@pytest.fixture
def proxied(tmp_path: Path) -> Iterator[ServerThread]:
    srv = ServerThread(tmp_path, forwarded_allow_ips=TRUSTED).start()
    try:
        yield srv
    finally:
        srv.stop()


def test_host_removal_mid_game_a_vote_and_bans(proxied: ServerThread) -> None:
    base = proxied.base
    body = {"name": "Ann", "color": "#e63946", "variant": "dixit", "seats": 4,
            "options": {"first_storyteller": 0}, "public": True}  # fmt: skip
    r = httpx.post(f"{base}/api/rooms", json=body, headers=_as(1, _cookie(1)))
    assert r.status_code == 201, r.text
    code = r.json()["code"]
    ann = Client(base, code, r.json()["token"], headers=_as(1, _cookie(1)))
    bob = join(base, code, "Bob", "#2a9d8f", headers=_as(2, _cookie(2)))
    cid = join(base, code, "Cid", "#457b9d", headers=_as(3, _cookie(3)))
    dee = join(base, code, "Dee", "#8338ec", headers=_as(4, _cookie(4)))
    assert ann.request({"type": "start"})["type"] == "ack"

    # The host removes Bob mid-game: a bot plays his seat on, his link opens nothing.
    assert ann.request({"type": "kick", "seat": 1})["type"] == "ack"
    seen = bob.until(lambda f: f["type"] == "state" and f["room"]["players"][1]["bot"])
    assert seen["room"]["you"] is None and seen["room"]["status"] == "playing"
    again = Client(base, code, bob.token, headers=_as(2, _cookie(2)))
    assert again.until(lambda f: f["type"] == "state")["room"]["you"] is None
    # Neither his browser from elsewhere nor his address with a new browser may sit.
    for headers in (_as(9, _cookie(2)), _as(2, _cookie(12))):
        refused = Client(base, code, headers=headers).request(
            {"type": "join", "name": "Bobby", "color": "#ff66c4"}
        )
        assert refused["type"] == "error" and refused["code"] == "banned", refused
    # Someone else may queue for the seat the bot plays now (a public table: they take
    # it at the next turn, rooms/takeover.py).
    fay = Client(base, code, headers=_as(8, _cookie(8)))
    other = fay.request({"type": "join", "name": "Fay", "color": "#ff66c4"})
    assert other["type"] == "ack", other
    assert next(f for f in fay.frames if f["type"] == "welcome")["queued"] is True

    # Cid asks to vote Dee out; Ann and Cid are the people present besides her.
    assert cid.request({"type": "vote_kick", "seat": 3})["type"] == "ack"
    vote = dee.until(lambda f: f["type"] == "state" and f["room"]["vote"])["room"]["vote"]
    assert {k: vote[k] for k in ("target", "by", "yes", "no", "voters", "needed")} == {
        "target": 3, "by": 2, "yes": 1, "no": 0, "voters": 2, "needed": 2}  # fmt: skip
    assert vote["voter"] is False and vote["ballot"] is None
    busy = ann.request({"type": "vote_kick", "seat": 2})
    assert busy["code"] == "vote_running"
    assert dee.request({"type": "ballot", "yes": False})["code"] == "not_voter"
    assert ann.request({"type": "ballot", "yes": True})["type"] == "ack"
    after = dee.until(lambda f: f["type"] == "state" and f["room"]["players"][3]["bot"])
    assert after["room"]["vote"] is None and after["room"]["you"] is None
    refused = Client(base, code, headers=_as(4, _cookie(14))).request(
        {"type": "join", "name": "Dee", "color": "#ff66c4"}
    )
    assert refused["code"] == "banned"

    metrics = httpx.get(f"{base}/metrics").text
    assert 'reverie_removals_total{how="host"} 1.0' in metrics
    assert 'reverie_removals_total{how="vote"} 1.0' in metrics

    for c in (ann, bob, cid, dee, again):
        c.close()
    # The database holds hashes only: no address, no cookie, anywhere in it.
    stored = b"".join(p.read_bytes() for p in proxied.data_dir.glob("reverie.db*"))
    assert b"10.0.0." not in stored and b"browser-0" not in stored
    assert re.search(rb'"ids":\["b:[0-9a-f]{32}","a:[0-9a-f]{32}"\]', stored)


def test_a_browser_gets_its_id_cookie(proxied: ServerThread) -> None:
    page = httpx.get(f"{proxied.base}/")
    cookie = page.headers.get("set-cookie", "")
    assert cookie.startswith("reverie_b=") and "HttpOnly" in cookie and "SameSite=Lax" in cookie
    # One that has it keeps it; a socket opened first gets one too.
    value = cookie.split(";")[0].split("=", 1)[1]
    assert "set-cookie" not in httpx.get(f"{proxied.base}/", headers={"Cookie": cookie}).headers
    body = {"name": "Ann", "color": "#e63946", "variant": "dixit", "seats": 3, "options": {}}
    r = httpx.post(f"{proxied.base}/api/rooms", json=body, headers={"Cookie": f"reverie_b={value}"})
    fresh = Client(proxied.base, r.json()["code"], headers=_as(5))
    assert fresh.response_headers is not None
    assert fresh.response_headers.get("set-cookie", "").startswith("reverie_b=")
    fresh.close()
    # The salt was made once, in the data folder.
    assert len((proxied.data_dir / "id_salt").read_text().strip()) == 64


def test_joins_per_address_are_limited(tmp_path: Path) -> None:
    srv = ServerThread(tmp_path, joins_per_minute=2, forwarded_allow_ips=TRUSTED).start()
    try:
        r = httpx.post(f"{srv.base}/api/rooms", json={"name": "Ann", "color": "#e63946",
                       "variant": "dixit", "seats": 6, "options": {}})  # fmt: skip
        code = r.json()["code"]
        colors = ("#2a9d8f", "#457b9d", "#8338ec")
        replies = [
            Client(srv.base, code, headers=_as(7, _cookie(20 + i))).request(
                {"type": "join", "name": f"P{i}", "color": color}
            )
            for i, color in enumerate(colors)
        ]
        assert [f["type"] for f in replies] == ["ack", "ack", "error"]
        assert replies[2]["code"] == "rate_limited"
        # Another address is not held back by this one.
        other = Client(srv.base, code, headers=_as(8)).request(
            {"type": "join", "name": "Q", "color": "#8338ec"}
        )
        assert other["type"] == "ack"
    finally:
        srv.stop()


def test_one_member_of_a_team_seat_is_removed_and_banned_alone(proxied: ServerThread) -> None:
    base = proxied.base
    body = {"name": "Ann", "color": "#e63946", "variant": "dixit", "seats": 3, "public": True,
            "options": {"first_storyteller": 0, "team_seats": "one"}}  # fmt: skip
    r = httpx.post(f"{base}/api/rooms", json=body, headers=_as(1, _cookie(1)))
    assert r.status_code == 201, r.text
    code = r.json()["code"]
    ann = Client(base, code, r.json()["token"], headers=_as(1, _cookie(1)))
    people = {"Ann": ann}
    joining = (("Bob", "#2a9d8f", None), ("Cid", "", 1), ("Dee", "#457b9d", None), ("Eve", "", 2))
    for n, (name, color, seat) in enumerate(joining, 2):
        people[name] = c = Client(base, code, headers=_as(n, _cookie(n)))
        reply = c.request({"type": "join", "name": name, "color": color, "seat": seat})
        assert reply["type"] == "ack", reply
    bob, cid, dee, eve = (people[n] for n in ("Bob", "Cid", "Dee", "Eve"))
    assert ann.request({"type": "start"})["type"] == "ack"

    # The host removes Cid, Bob's teammate: Bob plays the seat on, Cid watches.
    assert ann.request({"type": "kick", "seat": 1, "member": 1})["type"] == "ack"
    seen = cid.until(lambda f: f["type"] == "state" and not f["room"]["players"][1]["members"])
    assert seen["room"]["you"] is None and not seen["room"]["players"][1]["bot"]
    assert bob.until(lambda f: f["type"] == "state" and f["version"] >= seen["version"])[
        "room"]["you"]["seat"] == 1  # fmt: skip
    again = Client(base, code, cid.token, headers=_as(3, _cookie(3)))
    assert again.until(lambda f: f["type"] == "state")["room"]["you"] is None
    refused = again.request({"type": "join", "name": "Cid", "color": "", "seat": 1})
    assert refused["type"] == "error" and refused["code"] == "banned", refused
    back = Client(base, code, bob.token, headers=_as(2, _cookie(2)))
    assert back.until(lambda f: f["type"] == "state")["room"]["you"]["seat"] == 1

    # Dee reports Eve, her teammate (not herself): the report names Eve.
    mine = eve.request({"type": "report", "seat": 2, "member": 1, "reason": "abuse"})
    assert mine["type"] == "error" and mine["code"] == "bad_seat"
    report = dee.request({"type": "report", "seat": 2, "member": 1, "reason": "abuse"})
    assert report["type"] == "ack", report

    async def reported() -> str:
        store = open_moderation(proxied.settings.store_url)
        await store.open()
        try:
            found = await store.report(report["report"])
            assert found is not None
            return found.target_name
        finally:
            await store.close()

    assert run_async(reported()) == "Eve"

    # Bob asks to vote Eve out of Dee's seat: Ann, Bob and Dee (her teammate) vote.
    assert bob.request({"type": "vote_kick", "seat": 2, "member": 1})["type"] == "ack"
    vote = eve.until(lambda f: f["type"] == "state" and f["room"]["vote"])["room"]["vote"]
    assert {k: vote[k] for k in ("target", "member", "by", "voters", "needed")} == {
        "target": 2, "member": 1, "by": 1, "voters": 3, "needed": 2}  # fmt: skip
    # Eve reads her seat's frame: Dee (member 0) may vote, nobody's ballot is in it.
    assert vote["open"] == [0] and vote["ballot"] is None
    assert eve.request({"type": "ballot", "yes": False})["code"] == "not_voter"
    assert ann.request({"type": "ballot", "yes": True})["type"] == "ack"
    after = dee.until(lambda f: f["type"] == "state" and not f["room"]["players"][2]["members"])
    assert after["room"]["vote"] is None and after["room"]["you"]["seat"] == 2
    assert not after["room"]["players"][2]["bot"]
    refused = Client(base, code, headers=_as(5, _cookie(15))).request(
        {"type": "join", "name": "Eve", "color": "", "seat": 2}
    )
    assert refused["code"] == "banned"
    for c in (*people.values(), again, back):
        c.close()


def test_the_people_vote_the_host_out_mid_game(proxied: ServerThread) -> None:
    base = proxied.base
    body = {"name": "Ann", "color": "#e63946", "variant": "dixit", "seats": 3,
            "options": {}, "public": True}  # fmt: skip
    r = httpx.post(f"{base}/api/rooms", json=body, headers=_as(1, _cookie(1)))
    code = r.json()["code"]
    ann = Client(base, code, r.json()["token"], headers=_as(1, _cookie(1)))
    bob = join(base, code, "Bob", "#2a9d8f", headers=_as(2, _cookie(2)))
    cid = join(base, code, "Cid", "#457b9d", headers=_as(3, _cookie(3)))
    assert ann.request({"type": "start"})["type"] == "ack"
    # Bob asks to remove the host; Cid agrees: two of the three people present.
    assert bob.request({"type": "vote_kick", "seat": 0})["type"] == "ack"
    assert cid.request({"type": "ballot", "yes": True})["type"] == "ack"
    after = ann.until(lambda f: f["type"] == "state" and f["room"]["players"][0]["bot"])
    room = after["room"]
    assert room["you"] is None and room["status"] == "playing"
    # The role passed to a person, and Ann's browser (from elsewhere) takes no seat again.
    assert [p["name"] for p in room["players"] if p["host"]] in (["Bob"], ["Cid"])
    refused = Client(base, code, headers=_as(9, _cookie(1))).request(
        {"type": "join", "name": "Anna", "color": "#ff66c4"}
    )
    assert refused["code"] == "banned", refused
    for c in (ann, bob, cid):
        c.close()
