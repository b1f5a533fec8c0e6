"""Time runs out in every phase: each phase names its timer and ``TimeUp`` decides.

Defaults (engine docstring): choose → a seeded random category among the first four;
move → the largest forward move that lands on the board; bonus → keep the bonus token;
lose → the lowest-value token (ties: the first held).
"""

from __future__ import annotations

import random

import pytest

from reverie.rules.visual import (
    Choose,
    Forfeit,
    GameState,
    Guess,
    IllegalAction,
    Keep,
    Move,
    Phase,
    SetupError,
    Steal,
    Timer,
    TimeUp,
    apply,
    view,
)
from reverie.rules.visual import events as ev
from reverie.rules.visual.cards import CHOOSABLE
from tests.rules.visual.helpers import (
    BONUS,
    PLAIN,
    PROVERB,
    act,
    arrange,
    blank_card,
    drawing,
    game,
    opponent,
    teammate,
)


def refused(state: GameState, action: object) -> str:
    """The code of a refused action, checking that the state did not change."""
    before = state.to_json()
    with pytest.raises(IllegalAction) as err:
        apply(state, action)  # type: ignore[arg-type]
    assert state.to_json() == before
    return err.value.code


def time_up(state: GameState) -> tuple[GameState, tuple[ev.Event, ...]]:
    """``TimeUp`` applied; the old state stays as it was."""
    before = state.to_json()
    new, events = apply(state, TimeUp())
    assert state.to_json() == before
    assert new.version == state.version + 1
    return new, events


def proverb_solved(pawn: int, **tokens: object) -> GameState:
    g = game(cards=(blank_card("objects"),))
    g = arrange(g, pawns=[pawn, pawn], **tokens)  # type: ignore[arg-type]
    return act(drawing(g, "objects"), Guess(teammate(g), PROVERB))


# ---------------------------------------------------------------------------- timers


def test_every_phase_but_the_end_names_its_timer_and_its_length() -> None:
    options: dict[str, object] = {
        "choose_seconds": 11,
        "think_seconds": 12,
        "draw_seconds": 13,
        "move_seconds": 14,
        "bonus_seconds": 15,
        "lose_seconds": 16,
    }
    g = game((2, 2), 1, (blank_card("objects"), PLAIN), **options)
    g = arrange(g, tokens_at={9: BONUS}, held=[[0, 30], [1, 31]], pawns=[1, 1], deck=[0, 1])
    seen: dict[Timer, object] = {}

    def record(state: GameState) -> None:
        timer = state.turn.timer
        assert timer is not None and timer.value == state.phase.value
        shown = view(state, None)["turn"]
        assert shown["timer"] == timer.value
        seen[timer] = shown["seconds"]

    record(g)  # choose
    g = act(g, Choose(g.turn.drawer, "objects"))
    record(g)  # think (a proverb)
    g = act(g, TimeUp())
    record(g)  # draw
    g = act(g, Guess(teammate(g), PROVERB))
    record(g)  # move
    g = act(g, Move(teammate(g), 8, "forward"))
    record(g)  # bonus
    g = act(g, Keep(teammate(g)))
    g = act(drawing(g, "objects"), TimeUp())  # the next turn fails
    record(g)  # lose
    assert seen == {Timer(k.removesuffix("_seconds")): v for k, v in options.items()}
    g = act(g, TimeUp())
    assert g.phase is Phase.CHOOSE and g.turn.timer is Timer.CHOOSE


def test_defaults_and_validation_of_the_times() -> None:
    g = game()
    assert view(g, None)["turn"]["seconds"] == 20  # choose
    assert (g.options.move_seconds, g.options.bonus_seconds, g.options.lose_seconds) == (30,) * 3
    for name in ("choose_seconds", "move_seconds", "bonus_seconds", "lose_seconds"):
        with pytest.raises(SetupError, match="≥ 1 s"):
            game((2, 2), 1, (PLAIN,), **{name: 0})


def test_the_end_has_no_timer() -> None:
    g = arrange(game(), tokens_at={}, pawns=[35, 35])
    g = act(drawing(g, "places"), Guess(teammate(g), "harbour"))
    assert g.phase is Phase.OVER and g.turn.timer is None
    assert refused(g, TimeUp()) == "game_over"


# ---------------------------------------------------------------------------- choose


def test_time_up_in_choose_picks_a_seeded_category_among_the_first_four() -> None:
    g = game()
    random.seed(1)
    a, events = time_up(g)
    random.seed(2)  # the global random plays no part
    assert apply(g, TimeUp()) == (a, events)
    assert a.phase is Phase.THINK and a.turn.timer is Timer.THINK
    assert a.turn.category in CHOOSABLE
    assert events[0] == ev.TimedOut("choose")
    # ... exactly as if the drawer had chosen it
    chosen, chosen_events = apply(g, Choose(g.turn.drawer, a.turn.category))
    assert chosen == a and chosen_events == events[1:]


def test_the_random_category_varies_with_seed_and_turn() -> None:
    picked = {time_up(game(seed=s))[0].turn.category for s in range(40)}
    assert picked == set(CHOOSABLE)
    g = game(seed=3)
    per_turn = []
    for _ in range(12):
        g = act(g, TimeUp())  # choose
        per_turn.append(g.turn.category)
        g = act(g, TimeUp(), TimeUp())  # think, draw: nobody guesses
    assert len(set(per_turn)) > 1


def test_time_up_in_choose_can_hit_a_blank() -> None:
    for seed in range(40):
        g = game(seed=seed, cards=(blank_card("luck"),))
        g, _ = time_up(g)
        if g.turn.category == "luck":
            assert g.turn.proverb and len(g.turn.drawers) == 2
            return
    raise AssertionError("no seed picked luck")


# ---------------------------------------------------------------------------- move


@pytest.mark.parametrize(("pawn", "end"), [(1, 9), (6, 14), (31, 39), (32, 40), (39, 40)])
def test_time_up_in_move_makes_the_largest_forward_move_on_the_board(pawn: int, end: int) -> None:
    g = proverb_solved(pawn, tokens_at={})
    team = g.turn.solved_by
    assert team is not None
    assert g.phase is Phase.MOVE and g.turn.timer is Timer.MOVE
    assert refused(g, Move(opponent(g), 1, "forward")) == "not_your_team"
    assert refused(g, Keep(teammate(g))) == "wrong_phase"
    g, events = time_up(g)
    assert g.pawns[team] == end
    assert events[:2] == (ev.TimedOut("move"), ev.PawnMoved(team, pawn, end))
    assert (g.phase is Phase.OVER) == (end == 40)
    if end < 40:
        assert g.turn.team == team and g.phase is Phase.CHOOSE  # the guessers play next


def test_time_up_in_move_onto_a_bonus_token_then_keeps_it() -> None:
    g = proverb_solved(1, tokens_at={9: BONUS}, held=[[0], [1]])
    team = g.turn.solved_by
    assert team is not None
    g, _ = time_up(g)
    assert g.phase is Phase.BONUS and g.turn.timer is Timer.BONUS
    g, events = time_up(g)
    assert events[:2] == (ev.TimedOut("bonus"), ev.BonusKept(team, BONUS))
    assert BONUS in g.held[team] and g.phase is Phase.CHOOSE


# ---------------------------------------------------------------------------- bonus


def test_time_up_in_bonus_keeps_the_bonus_token() -> None:
    g = arrange(game(), tokens_at={4: BONUS}, held=[[0], [1]])
    team = g.turn.team
    g = act(drawing(g, "objects"), Guess(teammate(g), "teapot"))
    assert g.phase is Phase.BONUS and g.turn.timer is Timer.BONUS
    assert refused(g, Steal(teammate(g), g.held[team][0])) == "not_stealable"
    assert refused(g, Keep(opponent(g))) == "not_your_team"
    assert refused(g, Forfeit(teammate(g), 0)) == "wrong_phase"
    held = g.held
    g, events = time_up(g)
    assert events[:2] == (ev.TimedOut("bonus"), ev.BonusKept(team, BONUS))
    assert g.held[team] == (*held[team], BONUS) and g.held[1 - team] == held[1 - team]
    assert BONUS not in g.removed
    assert g.phase is Phase.CHOOSE and g.turn.team == 1 - team


# ---------------------------------------------------------------------------- lose


@pytest.mark.parametrize(
    ("held", "lost"),
    [
        ((30, 0, 8), 0),  # 5, 1, 2 points: the 1
        ((30, 16, 9, 8), 9),  # 5, 3, 2, 2: the first 2
        ((24, BONUS, 8), BONUS),  # 4, 2 (bonus), 2: the first 2
    ],
)
def test_time_up_in_lose_gives_up_the_lowest_token(held: tuple[int, ...], lost: int) -> None:
    g = game()
    g = arrange(g, held=[held, [1]] if g.turn.team == 0 else [[1], held])
    team = g.turn.team
    g = act(drawing(g, "objects"), TimeUp())
    assert g.phase is Phase.LOSE and g.turn.timer is Timer.LOSE
    assert refused(g, Forfeit(opponent(g), 1)) == "not_your_team"
    assert refused(g, Forfeit(teammate(g), 1)) == "not_yours"
    assert refused(g, Keep(teammate(g))) == "wrong_phase"
    g, events = time_up(g)
    assert events[:2] == (ev.TimedOut("lose"), ev.TokenLost(team, lost))
    assert g.held[team] == tuple(k for k in held if k != lost) and lost in g.removed
    assert g.phase is Phase.CHOOSE and g.turn.team == 1 - team
