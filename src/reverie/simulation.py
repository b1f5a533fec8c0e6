"""Seeded random games for the ``reverie simulate`` command and the conformance tests.

Random legal players play whole games; after every action the invariants of
:func:`~reverie.rules.association.playouts.invariant_violations` are checked, and at the
end the game is replayed from its seed and action log and compared with the original.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

from reverie.rules.association import Action, GameState, Phase, apply, new_game, replay
from reverie.rules.association.playouts import invariant_violations, random_action

DEFAULT_CARD_COUNT = 300
MAX_ACTIONS = 20_000  # far beyond any real game; a game that needs more is stuck


@dataclass
class GameRecord:
    """One simulated game: its final state, action count and any broken invariants."""

    seed: int
    final: GameState
    actions: int
    problems: list[str] = field(default_factory=list)


def play_random_game(
    variant: str,
    players: int,
    seed: int,
    *,
    card_count: int = DEFAULT_CARD_COUNT,
    timeout_rate: float = 0.0,
    check: bool = True,
    check_views: bool = True,
) -> GameRecord:
    """Play one game with random legal players; with ``check``, verify every invariant
    after every action (with ``check_views``, also that no view shows a hidden card)."""
    names = [f"P{i + 1}" for i in range(players)]
    state = new_game(variant, names, seed, card_count=card_count)
    rng = random.Random(seed)
    log: list[Action] = []
    problems: list[str] = []
    while state.phase is not Phase.OVER:
        if len(log) >= MAX_ACTIONS:
            problems.append(f"the game did not end within {MAX_ACTIONS} actions")
            break
        action = random_action(state, rng, timeout_rate)
        nxt = apply(state, action).state
        log.append(action)
        if check:
            if nxt.version != state.version + 1:
                problems.append("the version did not advance by one")
            problems.extend(invariant_violations(nxt, check_views=check_views))
            if problems:
                break
        state = nxt
    if check and not problems:
        again = replay(variant, names, seed, log, card_count=card_count)
        if again != state:
            problems.append("replaying the action log gave a different final state")
        if GameState.from_json(state.to_json()) != state:
            problems.append("the state does not survive a JSON round trip")
    return GameRecord(seed=seed, final=state, actions=len(log), problems=problems)


@dataclass
class Summary:
    """Figures over many simulated games of one variant and player count."""

    variant: str
    players: int
    games: int = 0
    turns: list[int] = field(default_factory=list)
    points_per_turn: list[float] = field(default_factory=list)
    storyteller_scored: int = 0
    scored_turns: int = 0
    wins: list[float] = field(default_factory=list)
    failures: list[tuple[int, str]] = field(default_factory=list)

    def add(self, record: GameRecord) -> None:
        """Count one game."""
        self.games += 1
        if not self.wins:
            self.wins = [0.0] * self.players
        final = record.final
        played = [r for r in final.history if not r.skipped]
        self.turns.append(len(final.history))
        if played:
            self.points_per_turn.append(sum(sum(r.points) for r in played) / len(played))
        for r in played:
            self.scored_turns += 1
            if r.points[r.storyteller] > 0:
                self.storyteller_scored += 1
        for seat in final.winners:
            self.wins[seat] += 1 / len(final.winners)
        self.failures.extend((record.seed, p) for p in record.problems)

    def as_dict(self) -> dict[str, object]:
        """The figures as a JSON-ready dict."""
        n = max(self.games, 1)
        return {
            "variant": self.variant,
            "players": self.players,
            "games": self.games,
            "turns_per_game": {
                "mean": round(sum(self.turns) / n, 2),
                "min": min(self.turns, default=0),
                "max": max(self.turns, default=0),
            },
            "points_per_turn": round(
                sum(self.points_per_turn) / max(len(self.points_per_turn), 1), 3
            ),
            "storyteller_scores_rate": round(
                self.storyteller_scored / max(self.scored_turns, 1), 3
            ),
            "win_rate_by_seat": [round(w / n, 3) for w in self.wins],
            "failures": [{"seed": s, "problem": p} for s, p in self.failures],
        }


def simulate(
    variant: str,
    players: int,
    games: int,
    seed: int,
    *,
    timeout_rate: float = 0.0,
    on_game: Callable[[], None] | None = None,
) -> Summary:
    """Play ``games`` seeded games (seeds ``seed``, ``seed + 1``, …) and sum them up."""
    summary = Summary(variant=variant, players=players)
    for i in range(games):
        summary.add(play_random_game(variant, players, seed + i, timeout_rate=timeout_rate))
        if on_game is not None:
            on_game()
    return summary
