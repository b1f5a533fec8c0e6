"""A minimal mutable Dixit core: the yardstick for the engine benchmark.

No views, no hidden-state checks, no immutability, no commitments: lists mutated in
place and the same random players. Issue #2 sets the engine's goal relative to what this
kind of core reaches on the same machine, so the benchmark runs both in one process and
reports the ratio (shared machines are too noisy for absolute limits).
"""

from __future__ import annotations

import random


def play_reference_dixit(seed: int, players: int = 6, card_count: int = 300) -> list[int]:
    """Play one random six-player Dixit game; returns the final scores."""
    rng = random.Random(seed)
    deck = rng.sample(range(card_count), 84)
    hands = [deck[i * 6 : (i + 1) * 6] for i in range(players)]
    del deck[: players * 6]
    scores = [0] * players
    storyteller = rng.randrange(players)
    while True:
        story = rng.choice(hands[storyteller])
        hands[storyteller].remove(story)
        table = [(story, storyteller)]
        for s in range(players):
            if s != storyteller:
                card = rng.choice(hands[s])
                hands[s].remove(card)
                table.append((card, s))
        rng.shuffle(table)
        story_pos = next(i for i, (c, _) in enumerate(table) if c == story)
        votes = {}
        for s in range(players):
            if s != storyteller:
                while True:
                    p = rng.randrange(len(table))
                    if table[p][1] != s:
                        votes[s] = p
                        break
        finders = [s for s, p in votes.items() if p == story_pos]
        if len(finders) in (0, len(votes)):
            for s in votes:
                scores[s] += 2
        else:
            scores[storyteller] += 3
            for s in finders:
                scores[s] += 3
        for p in votes.values():
            owner = table[p][1]
            if owner != storyteller:
                scores[owner] += 1
        short = False
        for s in range(players):
            want = 6 - len(hands[s])
            if want > len(deck):
                short = True
            hands[s].extend(deck[:want])
            del deck[:want]
        if short or not deck:
            return scores
        storyteller = (storyteller + 1) % players
