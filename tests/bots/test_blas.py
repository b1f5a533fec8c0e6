"""The bots' numeric work runs on one BLAS thread, in the server's process and in the
child process that reads a deck, whatever imported numpy first (issue #13: OpenBLAS's
threads fighting for the cores made a move's p95 ten times its median)."""

from __future__ import annotations

import json
import multiprocessing
import os
import subprocess
import sys
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import pytest

#: More threads than the bots may use, asked of OpenBLAS before numpy is imported
#: (OpenBLAS gives at most one per core).
ASKED = "4"

_IN_PROCESS = """
import json, random, dataclasses
import numpy  # numpy first, with OPENBLAS_NUM_THREADS=4, before any bot code
from threadpoolctl import threadpool_info

def blas():
    return [p["num_threads"] for p in threadpool_info() if p["user_api"] == "blas"]

before = blas()
from reverie.bots import encoder
from reverie.bots.reading import card_book
from reverie.content.decks import default_deck_path, load_deck
from reverie.games.association import ASSOCIATION
from reverie.rules.association import apply, new_game

deck = dataclasses.replace(load_deck(default_deck_path()), count=40)
enc = encoder.get_encoder()
assert enc is not None, "the sentence encoder is missing"
card_book(deck, "en", enc)
state = new_game("dixit", ["a", "b", "c", "d"], 7, card_count=deck.count)
moves = 0
for _ in range(12):
    seat = state.round.waiting[0]
    action = ASSOCIATION.bot_move(state, seat, random.Random(0), deck, "en", "clever")
    state = apply(state, action).state
    moves += 1
print(json.dumps({"before": before, "after": blas(), "moves": moves}))
"""


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["OPENBLAS_NUM_THREADS"] = ASKED
    env.pop("REVERIE_BOT_ENCODER", None)
    return env


def test_a_bot_move_runs_on_one_blas_thread_even_if_numpy_came_first() -> None:
    out = subprocess.run(
        [sys.executable, "-c", _IN_PROCESS],
        env=_env(),
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert out.returncode == 0, out.stderr
    seen = json.loads(out.stdout.strip().splitlines()[-1])
    # Before any bot code: OpenBLAS's own choice, more than one thread on this machine.
    cores = os.cpu_count() or 1
    assert seen["before"] and max(seen["before"]) == min(int(ASKED), cores), seen
    assert seen["moves"] == 12
    assert seen["after"] and all(n == 1 for n in seen["after"]), seen


def _child_reads_and_reports() -> list[int]:
    """In the child the deck's reading runs in: read as it does, then report."""
    from threadpoolctl import threadpool_info

    from reverie.bots.reading import _encode_in_child

    _encode_in_child(["a lost key", "home"])
    return [int(p["num_threads"]) for p in threadpool_info() if p["user_api"] == "blas"]


def test_the_child_that_reads_a_deck_runs_on_one_blas_thread(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for key, value in _env().items():
        monkeypatch.setenv(key, value)
    monkeypatch.delenv("REVERIE_BOT_ENCODER", raising=False)
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=1, mp_context=context) as pool:
        threads: Any = pool.submit(_child_reads_and_reports).result(timeout=600)
    assert threads and all(n == 1 for n in threads), threads
