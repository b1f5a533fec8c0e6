"""Random legal play and invariant checks, for simulations and conformance tests.

:func:`random_action` reads the full state (it is a test driver, not a bot): it knows the
subject, so it can type right answers, small typos and junk in chosen proportions.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import msgspec

from reverie.rules.visual.actions import (
    Accept,
    Action,
    Choose,
    Declare,
    Forfeit,
    GiveUp,
    Guess,
    Keep,
    Move,
    Steal,
    Synonym,
    TimeUp,
)
from reverie.rules.visual.board import FIRST_SQUARE, LAST_SQUARE
from reverie.rules.visual.cards import CHOOSABLE, Card
from reverie.rules.visual.engine import (
    MAX_GUESSES_PER_SEAT,
    apply,
    guessers,
    new_game,
    replay,
    subject,
)
from reverie.rules.visual.state import GameState, Options, Phase, Timer, Turn
from reverie.rules.visual.views import SECRET_PHASES, views

JUNK = ("house", "tree", "something", "no idea", "boat", "sun")


def _typo(text: str, rng: random.Random) -> str:
    """The text with one letter replaced (same length, so it never contains the text)."""
    letters = [i for i, c in enumerate(text) if c.isalpha()]
    if not letters:
        return "?"
    i = rng.choice(letters)
    replacement = "q" if text[i].lower() != "q" else "z"
    return text[:i] + replacement + text[i + 1 :]


def random_guess_text(state: GameState, rng: random.Random) -> str:
    answer = subject(state) or ""
    r = rng.random()
    if r < 0.12:
        return answer
    if r < 0.3:
        return _typo(answer, rng)
    if r < 0.4 and state.turn.proverb:
        words = answer.split()
        return " ".join(words[: max(1, len(words) // 2)])
    return rng.choice(JUNK)


def _guesses_of(turn: Turn, seat: int) -> int:
    return sum(g.seat == seat for g in turn.guesses)


def random_action(
    state: GameState, rng: random.Random, timeout_rate: float = 0.05, *, paper: bool = False
) -> Action:
    """A random legal action, or the clock running out (every phase has a timer: in the
    phases that wait for a decision it runs out with probability ``timeout_rate``).
    ``paper``: the game is drawn on paper (companion mode): nothing is typed, a drawer
    declares a guess heard aloud, or the drawing is given up or runs out of time."""
    turn = state.turn
    phase = state.phase
    if phase in (Phase.CHOOSE, Phase.MOVE, Phase.BONUS, Phase.LOSE) and (
        rng.random() < timeout_rate
    ):
        return TimeUp()
    if phase is Phase.CHOOSE:
        return Choose(turn.drawer, rng.choice(CHOOSABLE))
    if phase is Phase.THINK:
        return TimeUp()
    if phase is Phase.DRAW and paper:
        r = rng.random()
        if r < 0.25:
            return TimeUp()
        if r < 0.4:
            return GiveUp(turn.drawer)
        return Declare(rng.choice(turn.drawers))
    if phase is Phase.DRAW:
        r = rng.random()
        if r < timeout_rate:
            return TimeUp()
        if r < timeout_rate + 0.1 and turn.guesses:
            drawer = rng.choice(turn.drawers)
            team = state.team_of(drawer)
            mine = [i for i, g in enumerate(turn.guesses) if g.team == team]
            if mine:
                kind = Accept if rng.random() < 0.3 else Synonym
                return kind(drawer, rng.choice(mine))
        # A seat that used up its guesses this turn waits for the clock like a person would.
        left = [s for s in guessers(state) if _guesses_of(turn, s) < MAX_GUESSES_PER_SEAT]
        if not left:
            return TimeUp()
        return Guess(rng.choice(left), random_guess_text(state, rng))
    team = turn.solved_by if phase in (Phase.MOVE, Phase.BONUS) else turn.team
    assert team is not None
    seat = rng.choice(state.teams[team])
    if phase is Phase.MOVE:
        here = state.pawns[team]
        if here + 8 >= LAST_SQUARE and rng.random() < 0.5:
            return Move(seat, LAST_SQUARE - here, "forward")
        moves = [
            (steps, way)
            for steps in range(1, 9)
            for way, end in (("forward", here + steps), ("backward", here - steps))
            if FIRST_SQUARE <= end <= LAST_SQUARE
        ]
        steps, way = rng.choice(moves)
        return Move(seat, steps, "forward" if way == "forward" else "backward")
    if phase is Phase.BONUS:
        others = [k for t, held in enumerate(state.held) if t != team for k in held]
        if rng.random() < 0.5:
            return Keep(seat)
        return Steal(seat, rng.choice(others))
    return Forfeit(seat, rng.choice(state.held[team]))


# ---------------------------------------------------------------------------- invariants


def token_violations(state: GameState) -> list[str]:
    """Token conservation: every token is on the board, held, removed, or (while its team
    decides) the bonus token just taken — exactly once."""
    places = [k for k in state.squares if k is not None]
    for held in state.held:
        places.extend(held)
    places.extend(state.removed)
    if state.phase is Phase.BONUS and state.turn.bonus_token is not None:
        places.append(state.turn.bonus_token)  # taken, waiting for keep or steal
    problems = []
    if sorted(places) != list(range(len(state.tokens))):
        problems.append(f"tokens not conserved: {sorted(places)}")
    if state.squares[FIRST_SQUARE - 1] is not None:
        problems.append("a token on the start square")
    return problems


def card_violations(state: GameState) -> list[str]:
    cards = list(state.deck) + list(state.discard)
    if state.phase in SECRET_PHASES and state.turn.card is not None:
        cards.append(state.turn.card)
    if sorted(cards) != list(range(len(state.cards))):
        return ["cards not conserved"]
    return []


def view_leaks(state: GameState) -> list[str]:
    """Views that show the secret subject to a seat that is not drawing it."""
    if state.phase not in SECRET_PHASES:
        return []
    secret = (subject(state) or "").casefold()
    if any((r.subject or "").casefold() == secret for r in state.history):
        secret = ""  # the same subject was revealed earlier (a reshuffled card)
    seats: list[int | None] = [*range(len(state.players)), None]
    problems = []
    for seat, shown in views(state, seats).items():
        # Guesses are what players typed: the team that just solved sees its own answer.
        text = msgspec.json.encode({**shown, "guesses": None}).decode().casefold()
        drawer = seat is not None and seat in state.turn.drawers
        if drawer and shown["subject"] is None:
            problems.append(f"drawer {seat} does not see the subject")
        if not drawer and secret and secret in text:
            problems.append(f"seat {seat} sees the subject {secret!r}")
        for g in shown["guesses"]:
            if g["close"] and g["seat"] != seat:
                problems.append(f"seat {seat} sees another seat's close hint")
            if state.turn.proverb and (seat is None or g["team"] != state.team_of(seat)):
                problems.append(f"seat {seat} sees another team's proverb guess")
    return problems


def invariant_violations(state: GameState, *, check_views: bool = False) -> list[str]:
    """Everything wrong with a state that the rules should never produce (empty if fine)."""
    problems = token_violations(state) + card_violations(state)
    if any(not FIRST_SQUARE <= p <= LAST_SQUARE for p in state.pawns):
        problems.append("a pawn off the board")
    if (state.phase is Phase.OVER) != bool(state.winners):
        problems.append("winners without the end, or the end without winners")
    if state.phase not in (Phase.OVER, Phase.BONUS) and LAST_SQUARE in state.pawns:
        problems.append("a pawn on square 40 but the game goes on")
    if state.turn.drawer not in state.teams[state.turn.team]:
        problems.append("the drawer is not in the playing team")
    expected = None if state.phase is Phase.OVER else Timer(state.phase.value)
    if state.turn.timer is not expected:
        problems.append(f"the timer is {state.turn.timer} in phase {state.phase}")
    if check_views:
        problems += view_leaks(state)
    return problems


class PlayRecord(msgspec.Struct):
    """One random game: its final state, its action log and every problem seen."""

    final: GameState
    actions: list[Action]
    problems: list[str]


def seat_teams(
    team_sizes: Sequence[int], aside: int = 0
) -> tuple[list[str], list[list[int]], list[int]]:
    """Players P1, P2, … seated team by team, then ``aside`` seats in no team: names,
    each team's seats and the seats aside."""
    players: list[str] = []
    teams: list[list[int]] = []
    for size in team_sizes:
        start = len(players)
        teams.append(list(range(start, start + size)))
        players.extend(f"P{start + i + 1}" for i in range(size))
    first = len(players)
    players.extend(f"Table{i + 1}" for i in range(aside))
    return players, teams, list(range(first, first + aside))


def play_random_game(
    team_sizes: Sequence[int],
    seed: int,
    cards: Sequence[Card],
    *,
    options: Options | None = None,
    max_actions: int = 5000,
    check_views: bool = False,
    timeout_rate: float = 0.05,
    paper: bool = False,
) -> PlayRecord:
    """Play a seeded random game, checking invariants after every action; at the end,
    check that the log replays to the same state and that the state survives JSON.
    ``paper``: a companion game (drawn on paper, a shared device seated aside)."""
    rng = random.Random(seed)
    players, teams, aside = seat_teams(team_sizes, 1 if paper else 0)
    state = new_game(players, teams, seed, cards=cards, options=options, aside=aside)
    actions: list[Action] = []
    problems = invariant_violations(state, check_views=check_views)
    while state.phase is not Phase.OVER and len(actions) < max_actions:
        action = random_action(state, rng, timeout_rate, paper=paper)
        state = apply(state, action).state
        actions.append(action)
        problems += invariant_violations(state, check_views=check_views)
    if state.phase is not Phase.OVER:
        problems.append(f"no end after {max_actions} actions")
    if replay(players, teams, seed, actions, cards=cards, options=options, aside=aside) != state:
        problems.append("the replay differs")
    if GameState.from_json(state.to_json()) != state:
        problems.append("the JSON round trip differs")
    return PlayRecord(state, actions, problems)
