"""Full association games per second on one core: the rules alone, and with views.

For each variant, six random legal players play whole seeded games (1) through the
rules alone and (2) with every seat's view (and a spectator's) built after every
action, as the server does. A minimal mutable Dixit core (``reference_dixit``) runs in
the same process as the yardstick, so the ratio means something on a noisy machine.

    python -m benchmarks.engine [--seconds 3] [--no-write] [--profile]
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import random
import time
from collections.abc import Callable

from benchmarks.machine import describe, write_section
from benchmarks.reference_dixit import play_reference_dixit
from reverie.rules.association import VARIANTS, Phase, apply, new_game, views
from reverie.rules.association.playouts import random_action

PLAYERS = 6
CARDS = 300
NAMES = [f"P{i + 1}" for i in range(PLAYERS)]


def rules_only(variant: str) -> Callable[[int], None]:
    def play(seed: int) -> None:
        state = new_game(variant, NAMES, seed, card_count=CARDS)
        rng = random.Random(seed)
        while state.phase is not Phase.OVER:
            state = apply(state, random_action(state, rng)).state

    return play


def with_views(variant: str) -> Callable[[int], None]:
    seats: list[int | None] = [*range(PLAYERS), None]

    def play(seed: int) -> None:
        state = new_game(variant, NAMES, seed, card_count=CARDS)
        rng = random.Random(seed)
        while state.phase is not Phase.OVER:
            state = apply(state, random_action(state, rng)).state
            views(state, seats)

    return play


def games_per_second(play: Callable[[int], object], seconds: float) -> float:
    """Best of three timed runs of ``seconds / 3`` each (the least disturbed one)."""
    best = 0.0
    seed = 0
    for _ in range(3):
        start = time.perf_counter()
        games = 0
        while (elapsed := time.perf_counter() - start) < seconds / 3:
            play(seed)
            seed += 1
            games += 1
        best = max(best, games / elapsed)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    parser.add_argument("--no-write", action="store_true", help="do not update the docs")
    parser.add_argument("--profile", action="store_true", help="profile 500 Dixit games")
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core

    reference = games_per_second(play_reference_dixit, args.seconds)
    rows = []
    for name in VARIANTS:
        alone = games_per_second(rules_only(name), args.seconds)
        viewed = games_per_second(with_views(name), args.seconds)
        rows.append((name, alone, viewed))
        print(f"{name:22} rules alone {alone:8.0f} games/s   with views {viewed:8.0f} games/s")
    print(f"{'reference mutable dixit':22} {reference:8.0f} games/s")

    dixit = rows[0][1]
    lines = [
        f"Machine: {describe()}. One core (pinned), six random players, "
        f"best of three runs of {args.seconds / 3:.1f} s.",
        "",
        "| variant | rules alone (games/s) | with all views after every action (games/s) |",
        "|---|---:|---:|",
        *[f"| {n} | {a:,.0f} | {v:,.0f} |" for n, a, v in rows],
        "",
        f"Minimal mutable Dixit core (no views, no checks), same run: {reference:,.0f} games/s; "
        f"the engine's Dixit is {dixit / reference:.2f}× of it. Goal: ≥ 2,500 Dixit games/s "
        "for the rules alone.",
    ]
    if args.profile:
        prof = cProfile.Profile()
        prof.enable()
        play = rules_only("dixit")
        for seed in range(500):
            play(seed)
        prof.disable()
        out = io.StringIO()
        pstats.Stats(prof, stream=out).sort_stats("tottime").print_stats(12)
        print(out.getvalue())
    if not args.no_write:
        write_section("engine", "\n".join(lines))
        print("figures written to docs/benchmarks.md")


if __name__ == "__main__":
    main()
