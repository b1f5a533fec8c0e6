"""Decoding pictures is budgeted by pixels (per upload, per deck, per address an hour)
and done in worker processes, so a few kilobytes of huge pictures cost little and do not
stall the server's event loop (issue #24, item 3)."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from reverie.web.decoders import DecoderPool
from tests.pictures import bomb_png, numbered, zip_of
from tests.web.harness import ServerThread
from tests.web.test_own_decks import new_deck

OWNER = "x-deck-owner"
#: A 3000 × 3000 1-bit PNG: 9 million pixels in a few kilobytes.
HUGE = bomb_png(side=3000)
MP = 9.0


@pytest.fixture
def budgeted(tmp_path: Path) -> Iterator[ServerThread]:
    srv = ServerThread(
        tmp_path,
        upload_megapixels=2 * MP + 1,  # two huge pictures an upload
        deck_megapixels=3 * MP + 1,  # three a deck
        upload_megapixels_per_hour=5 * MP + 1,  # five an hour from one address
    ).start()
    try:
        yield srv
    finally:
        srv.stop()


def upload(base: str, deck: str, owner: str, data: bytes) -> httpx.Response:
    return httpx.post(
        f"{base}/api/decks/{deck}/pictures",
        params={"name": "up"},
        content=data,
        headers={OWNER: owner},
        timeout=120,
    )


def codes(r: httpx.Response) -> list[str]:
    assert r.status_code == 200, r.text
    return ["ok" if x["ok"] else x["code"] for x in r.json()["results"]]


def pool(srv: ServerThread) -> DecoderPool:
    decoder = srv.app.state.custom_decks.decoder()
    assert isinstance(decoder, DecoderPool)
    return decoder


def worker_cpu(pids: set[int]) -> float:
    """CPU seconds the worker processes used (user + system), from /proc."""
    total = 0
    for pid in pids:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15)
    return total / os.sysconf("SC_CLK_TCK")


def test_a_small_zip_of_huge_pictures_is_refused_before_it_is_decoded(
    budgeted: ServerThread,
) -> None:
    attack = zip_of({f"p{i}.png": HUGE for i in range(10)})
    assert len(attack) < 20_000  # 90 million pixels in a few kilobytes
    deck, owner = new_deck(budgeted.base)
    assert codes(upload(budgeted.base, deck, owner, attack)) == ["ok"] * 2 + ["upload_pixels"] * 8
    # Only the two pictures within the budget reached a decoder.
    assert pool(budgeted).pixels == 2 * 3000 * 3000
    r = upload(budgeted.base, deck, owner, attack)
    refused = r.json()["results"][1]
    assert codes(r) == ["ok"] + ["deck_pixels"] * 9
    assert refused["params"] == {"megapixels": int(3 * MP + 1)} and refused["message"]
    assert pool(budgeted).pixels == 3 * 3000 * 3000


def test_taking_pictures_out_or_deleting_the_deck_gives_no_budget_back(
    budgeted: ServerThread,
) -> None:
    base = budgeted.base
    deck, owner = new_deck(base)
    first = upload(base, deck, owner, zip_of({"a.png": HUGE, "b.png": HUGE}))
    assert codes(first) == ["ok", "ok"]
    for result in first.json()["results"]:
        gone = httpx.delete(f"{base}/api/decks/{deck}/pictures/{result['card']}",
                            headers={OWNER: owner})  # fmt: skip
        assert gone.status_code == 204
    # The deck is empty again, but has spent two of its three.
    assert codes(upload(base, deck, owner, zip_of({"c.png": HUGE, "d.png": HUGE}))) == [
        "ok",
        "deck_pixels",
    ]
    assert httpx.delete(f"{base}/api/decks/{deck}", headers={OWNER: owner}).status_code == 204
    # A new deck from the same address: the hour's budget (five) is what is left.
    again, again_owner = new_deck(base)
    assert codes(upload(base, again, again_owner, zip_of({"e.png": HUGE, "f.png": HUGE}))) == [
        "ok",
        "ok",
    ]
    assert codes(upload(base, again, again_owner, HUGE)) == ["pixels_per_hour"]


def test_pictures_are_decoded_in_other_processes(tmp_path: Path) -> None:
    """The server's process spends little CPU on a heavy upload: the workers spend it
    (compared in one run, not against the clock)."""
    srv = ServerThread(tmp_path, upload_megapixels=100).start()
    try:
        deck, owner = new_deck(srv.base)
        assert codes(upload(srv.base, deck, owner, numbered(1))) == ["ok"]  # workers up
        pids = set(pool(srv).pids)
        assert pids and os.getpid() not in pids
        before_here, before_there = time.process_time(), worker_cpu(pids)
        heavy = zip_of({f"p{i}.png": bomb_png(side=4000) for i in range(4)})
        assert codes(upload(srv.base, deck, owner, heavy)) == ["ok"] * 4
        here = time.process_time() - before_here
        there = worker_cpu(pids | pool(srv).pids) - before_there
        assert os.getpid() not in pool(srv).pids
        assert there > 3 * here, (here, there)
    finally:
        srv.stop()


def test_a_flood_of_uploads_is_refused_as_busy_not_queued(tmp_path: Path) -> None:
    srv = ServerThread(
        tmp_path, upload_decoders=1, upload_decoder_queue=0, upload_megapixels=1000
    ).start()
    try:
        deck, owner = new_deck(srv.base)
        heavy = zip_of({f"p{i}.png": bomb_png(side=4000) for i in range(8)})
        first: dict[str, Any] = {}

        def send() -> None:
            first["r"] = upload(srv.base, deck, owner, heavy)

        sender = threading.Thread(target=send)
        sender.start()
        end = time.monotonic() + 60
        while pool(srv).pixels == 0:  # the first upload is decoding
            assert time.monotonic() < end and sender.is_alive()
            time.sleep(0.01)
        r = upload(srv.base, deck, owner, numbered(2))
        assert r.status_code == 503 and r.json()["error"]["code"] == "busy"
        assert r.headers["retry-after"]
        sender.join()
        assert codes(first["r"]) == ["ok"] * 8
        assert codes(upload(srv.base, deck, owner, numbered(2))) == ["ok"]
    finally:
        srv.stop()


def test_a_picture_past_the_workers_memory_is_refused_and_the_next_one_decodes(
    tmp_path: Path,
) -> None:
    srv = ServerThread(tmp_path, upload_decoder_memory_mb=150, upload_megapixels=1000).start()
    try:
        deck, owner = new_deck(srv.base)
        # 36 million pixels: well over 150 MB once decoded to RGB and resized.
        r = upload(srv.base, deck, owner, bomb_png(side=6000))
        assert codes(r) == ["too_big_to_decode"]
        assert codes(upload(srv.base, deck, owner, numbered(3))) == ["ok"]
    finally:
        srv.stop()
