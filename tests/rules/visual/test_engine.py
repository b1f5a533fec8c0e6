"""Scenario tests for every rule of the drawing game (docs/specification.md §3)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reverie.rules.visual import (
    Accept,
    Action,
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
    Synonym,
    Timer,
    TimeUp,
    apply,
    decode_action,
    encode_action,
    new_game,
    view,
)
from reverie.rules.visual.board import DEFAULT_TOKEN_VALUES
from reverie.rules.visual.engine import MAX_GUESSES_PER_SEAT
from reverie.rules.visual.views import SHOWN_GUESSES
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


def code_of(state: GameState, action: object) -> str:
    with pytest.raises(IllegalAction) as err:
        apply(state, action)  # type: ignore[arg-type]
    assert str(err.value)  # a readable message
    return err.value.code


# ---------------------------------------------------------------------------- setup


def test_setup_pawns_tokens_and_first_team() -> None:
    g = game((2, 3, 2))
    assert g.pawns == (1, 1, 1)
    assert g.squares[0] is None
    assert sorted(k for k in g.squares if k is not None) == list(range(39))
    assert [t.value for t in g.tokens if not t.bonus] == list(DEFAULT_TOKEN_VALUES)
    assert sum(t.bonus for t in g.tokens) == 3
    assert g.phase is Phase.CHOOSE and g.turn.number == 1
    assert g.turn.drawer == g.teams[g.turn.team][0]
    firsts = {game((2, 2, 2), seed=s).first_team for s in range(30)}
    assert firsts == {0, 1, 2}  # drawn by lot
    assert game(seed=5) == game(seed=5)  # ...deterministically


def test_token_set_is_configurable() -> None:
    g = game(token_values=(10, 20), bonus_tokens=1, bonus_value=7)
    assert [(t.value, t.bonus) for t in g.tokens] == [(10, False), (20, False), (7, True)]
    assert sum(k is not None for k in g.squares) == 3


@pytest.mark.parametrize(
    ("players", "teams", "needle"),
    [
        (["A", "B", "C", "D"], [[0, 1, 2, 3]], "at least 2 teams"),
        (["A", "B", "C"], [[0, 1], [2]], "at least 2"),
        (["A", "B", "C", "D"], [[0, 1], [1, 2, 3]], "more than one team"),
        (["A", "B", "C", "D", "E"], [[0, 1], [2, 3]], "E"),
        (["A", "B", "C", "D"], [[0, 1], [2, 7]], "seat 7"),
    ],
)
def test_setup_errors_are_readable(players: list[str], teams: list[list[int]], needle: str) -> None:
    with pytest.raises(SetupError, match=needle):
        new_game(players, teams, 1, cards=[PLAIN])


def test_setup_errors_for_cards_and_options() -> None:
    with pytest.raises(SetupError, match="card"):
        game(cards=())
    with pytest.raises(SetupError, match="at most 39"):
        game(token_values=(1,) * 39, bonus_tokens=1)
    with pytest.raises(SetupError, match="turn limit"):
        game(turn_limit=0)


def test_team_order_and_drawer_rotation() -> None:
    g = game((2, 3), seed=2)
    seen = []
    for _ in range(10):
        seen.append((g.turn.team, g.turn.drawer))
        g = act(drawing(g, "objects"), TimeUp())  # fail: nobody guesses
    teams = [t for t, _ in seen]
    assert teams == [teams[0], 1 - teams[0]] * 5
    drawers = {t: [d for tt, d in seen if tt == t] for t in (0, 1)}
    assert drawers[0] == [0, 1, 0, 1, 0]
    assert drawers[1] == [2, 3, 4, 2, 3]


# ---------------------------------------------------------------------------- choose


def test_choose_draws_a_card_and_starts_the_think_timer() -> None:
    g = game()
    drawer = g.turn.drawer
    assert code_of(g, Choose(teammate(g), "objects")) == "not_drawer"
    assert code_of(g, Choose(drawer, "proverbs")) == "not_choosable"
    assert code_of(g, Guess(teammate(g), "teapot")) == "wrong_phase"
    assert g.turn.timer is Timer.CHOOSE  # TimeUp here picks for the drawer: test_timeouts
    g = act(g, Choose(drawer, "actions"))
    assert g.phase is Phase.THINK and g.turn.timer is Timer.THINK
    assert g.turn.category == "actions" and not g.turn.proverb
    assert g.turn.card == 0 and g.deck == ()
    assert code_of(g, Guess(teammate(g), "running")) == "not_drawing_yet"
    g = act(g, TimeUp())
    assert g.phase is Phase.DRAW and g.turn.timer is Timer.DRAW


# ---------------------------------------------------------------------------- guesses


def test_who_may_guess() -> None:
    g = drawing(game(), "objects")
    assert code_of(g, Guess(g.turn.drawer, "teapot")) == "drawer_cannot_guess"
    assert code_of(g, Guess(opponent(g), "teapot")) == "not_your_turn"
    assert code_of(g, Guess(teammate(g), "   ")) == "empty_guess"
    assert code_of(g, Guess(99, "teapot")) == "no_such_seat"


def test_a_seat_makes_at_most_so_many_guesses_a_turn() -> None:
    g = drawing(game((3, 3)), "objects")
    first = teammate(g)
    other = next(s for s in g.teams[g.turn.team] if s not in (first, g.turn.drawer))
    g = act(g, *(Guess(first, f"no {i}") for i in range(MAX_GUESSES_PER_SEAT)))
    assert code_of(g, Guess(first, "one more")) == "too_many_guesses"
    # The cap is per seat; views list the latest guesses only, each with its index.
    g = act(g, *(Guess(other, f"me {i}") for i in range(MAX_GUESSES_PER_SEAT)))
    total = 2 * MAX_GUESSES_PER_SEAT
    assert len(g.turn.guesses) == total > SHOWN_GUESSES
    shown = view(g, other)
    assert [x["index"] for x in shown["guesses"]] == list(range(total - SHOWN_GUESSES, total))
    assert shown["guess_count"] == total


def test_correct_guess_moves_by_the_value_and_takes_the_token() -> None:
    g = arrange(game(), tokens_at={4: 0, 5: 1})
    team = g.turn.team
    g = drawing(g, "objects")  # value 3
    result = apply(g, Guess(teammate(g), "The TEAPOT"))
    g = result.state
    assert g.pawns[team] == 4
    assert g.held[team] == (0,)
    assert g.squares[3] is None and g.squares[4] == 1
    assert g.history[-1].subject == "teapot" and g.history[-1].solved_by == team
    assert g.turn.team != team and g.phase is Phase.CHOOSE
    assert any(type(e).__name__ == "PawnMoved" for e in result.events)


@pytest.mark.parametrize(("category", "value"), [("actions", 4), ("places", 5), ("luck", 6)])
def test_category_values(category: str, value: int) -> None:
    g = arrange(game(), tokens_at={})
    team = g.turn.team
    g = drawing(g, category)  # type: ignore[arg-type]
    answer = PLAIN.subject(category)  # type: ignore[arg-type]
    assert answer is not None
    g = act(g, Guess(teammate(g), answer))
    assert g.pawns[team] == 1 + value


def test_wrong_and_close_guesses_are_recorded_without_moving() -> None:
    g = drawing(game(), "places")
    g = act(g, Guess(teammate(g), "airport"), Guess(teammate(g), "harbor"))
    assert g.phase is Phase.DRAW and g.pawns == (1, 1)
    assert [x.close for x in g.turn.guesses] == [False, True]


def test_drawer_accepts_or_marks_a_synonym() -> None:
    g = arrange(drawing(game(), "objects"), tokens_at={})
    team, drawer, mate = g.turn.team, g.turn.drawer, teammate(g)
    g = act(g, Guess(mate, "kettle"), Guess(mate, "teakettle"))
    assert code_of(g, Synonym(mate, 0)) == "not_drawer"
    assert code_of(g, Accept(drawer, 5)) == "no_such_guess"
    g = act(g, Synonym(drawer, 0))
    assert g.turn.guesses[0].synonym and g.phase is Phase.DRAW and g.pawns[team] == 1
    g = act(g, Accept(drawer, 1))
    assert g.pawns[team] == 4 and g.history[-1].solved_by == team


# ---------------------------------------------------------------------------- moves


def test_a_move_past_40_bounces_back_by_the_excess() -> None:
    g = game()
    team = g.turn.team
    g = arrange(g, tokens_at={}, pawns=[38, 38])
    g = drawing(g, "places")  # 38 + 5 = 43 -> 37
    g = act(g, Guess(teammate(g), "harbour"))
    assert g.pawns[team] == 37 and g.phase is Phase.CHOOSE


def test_with_the_stay_option_the_pawn_does_not_move() -> None:
    g = game(overshoot="stay")
    team = g.turn.team
    g = arrange(g, tokens_at={}, pawns=[38, 38])
    g = act(drawing(g, "places"), Guess(teammate(g), "harbour"))
    assert g.pawns[team] == 38


def test_reaching_exactly_40_ends_the_game() -> None:
    g = game()
    team = g.turn.team
    g = arrange(g, tokens_at={40: 3}, pawns=[35, 35])
    g = act(drawing(g, "places"), Guess(teammate(g), "harbour"))
    assert g.phase is Phase.OVER and g.finisher == team
    assert g.winners == (team,)  # the only team with a token
    assert g.turn.timer is None
    assert code_of(g, TimeUp()) == "game_over"


# ---------------------------------------------------------------------------- tokens


def bonus_landing(held: list[list[int]]) -> GameState:
    """The playing team's teammate guesses a 3-point word onto a bonus token."""
    g = game()
    g = arrange(g, tokens_at={4: BONUS}, held=held)
    return act(drawing(g, "objects"), Guess(teammate(g), "teapot"))


def test_bonus_token_kept() -> None:
    g = bonus_landing([[0], [1]])
    team = g.turn.team
    assert g.phase is Phase.BONUS and g.turn.bonus_token == BONUS
    assert code_of(g, Keep(opponent(g))) == "not_your_team"
    g = act(g, Keep(teammate(g)))
    assert BONUS in g.held[team] and g.phase is Phase.CHOOSE


def test_bonus_token_traded_for_a_stolen_token_leaves_the_game() -> None:
    g = bonus_landing([[0], [1]])
    team = g.turn.team
    other = 1 - team
    mine = g.held[team][0]
    theirs = g.held[other][0]
    assert code_of(g, Steal(teammate(g), mine)) == "not_stealable"
    assert code_of(g, Steal(teammate(g), 30)) == "not_stealable"  # on no team
    g = act(g, Steal(g.turn.drawer, theirs))
    assert g.held[team] == (mine, theirs) and g.held[other] == ()
    assert BONUS in g.removed


def test_bonus_token_is_kept_when_there_is_nothing_to_steal() -> None:
    g = bonus_landing([[], []])
    assert g.phase is Phase.CHOOSE
    assert g.history[-1].solved_by is not None
    assert BONUS in g.held[g.history[-1].solved_by]


def test_failure_loses_a_token_of_the_teams_choice() -> None:
    g = arrange(game(), held=[[0, 30], [1, 31]])  # values 1 and 5: a real choice
    team = g.turn.team
    g = act(drawing(g, "objects"), TimeUp())
    assert g.phase is Phase.LOSE and g.turn.timer is Timer.LOSE
    assert code_of(g, Forfeit(opponent(g), g.held[1 - team][0])) == "not_your_team"
    assert code_of(g, Forfeit(teammate(g), g.held[1 - team][0])) == "not_yours"
    keep, lose = g.held[team]
    g = act(g, Forfeit(teammate(g), lose))
    assert g.held[team] == (keep,) and lose in g.removed
    assert g.history[-1].solved_by is None and g.history[-1].subject == "teapot"
    # The turn's record says which token it cost (the story tells it).
    assert g.history[-1].lost_token == lose
    assert g.turn.team == 1 - team and g.phase is Phase.CHOOSE


def test_failure_without_tokens_or_with_alike_tokens_needs_no_choice() -> None:
    g = act(drawing(game(), "objects"), TimeUp())
    assert g.phase is Phase.CHOOSE and g.removed == ()
    g = arrange(game(), held=[[0, 1], [2, 3]])  # all worth 1
    team = g.turn.team
    g = act(drawing(g, "objects"), TimeUp())
    assert g.phase is Phase.CHOOSE and len(g.held[team]) == 1 and len(g.removed) > 0
    assert g.history[-1].lost_token == g.removed[-1]
    # A solved turn costs nothing; its one drawer is on the record.
    solved = act(drawing(game(), "objects"), Guess(teammate(drawing(game(), "objects")), "teapot"))
    assert solved.history[-1].lost_token is None
    assert solved.history[-1].drawers == (solved.history[-1].drawer,)


# ---------------------------------------------------------------------------- proverbs


def proverb_round(team_sizes: tuple[int, ...] = (2, 2)) -> GameState:
    g = game(team_sizes, cards=(blank_card("objects"),))
    return drawing(g, "objects")


def test_a_blank_makes_every_team_draw_the_proverb() -> None:
    g = proverb_round((2, 3, 2))
    assert g.turn.proverb and len(g.turn.drawers) == 3
    for t, drawer in enumerate(g.turn.drawers):
        assert drawer in g.teams[t]
        assert code_of(g, Guess(drawer, PROVERB)) == "drawer_cannot_guess"
    # ... the other teams' drawers are their next in rotation, whose turn is not used up
    assert g.turn.drawers[g.turn.team] == g.turn.drawer


def test_any_team_may_guess_the_proverb_and_move_either_way() -> None:
    g = proverb_round()
    playing = g.turn.team
    other = 1 - playing
    g = arrange(g, tokens_at={10: 5, 2: 6}, pawns=[6, 6])
    guesser = opponent(g)
    g = act(g, Guess(guesser, "early bird catches worm"))  # most of the words
    assert g.phase is Phase.MOVE and g.turn.solved_by == other
    assert code_of(g, Move(teammate(g), 3, "forward")) == "not_your_team"
    assert code_of(g, Move(guesser, 9, "forward")) == "bad_steps"
    assert code_of(g, Move(guesser, -1, "forward")) == "bad_steps"
    stay = act(g, Move(guesser, 0, "forward"))  # "up to 8": staying put is allowed
    assert stay.pawns[other] == 6 and stay.turn.team == other
    assert code_of(g, Move(guesser, 6, "backward")) == "off_board"
    forward = act(g, Move(guesser, 4, "forward"))
    assert forward.pawns[other] == 10 and forward.held[other] == (5,)
    backward = act(g, Move(guesser, 4, "backward"))
    assert backward.pawns[other] == 2 and backward.held[other] == (6,)
    # The team that guessed plays the next turn; the order then resumes after it.
    assert backward.turn.team == other and backward.phase is Phase.CHOOSE
    assert backward.history[-1].subject == PROVERB and backward.history[-1].proverb
    # Every team drew the proverb: the record names each drawer, not just the first.
    assert backward.history[-1].drawers == g.turn.drawers and len(g.turn.drawers) == 2
    g = act(backward, Choose(backward.turn.drawer, "actions"), TimeUp(), TimeUp())
    assert g.turn.team == playing


def test_the_proverb_can_be_solved_by_its_own_team_and_by_acceptance() -> None:
    g = proverb_round()
    playing = g.turn.team
    other = 1 - playing
    g = act(g, Guess(opponent(g), "a bird"))
    assert code_of(g, Accept(g.turn.drawer, 0)) == "not_your_team"
    g = act(g, Accept(g.turn.drawers[other], 0))
    assert g.phase is Phase.MOVE and g.turn.solved_by == other


def test_a_proverb_move_onto_a_bonus_token_asks_keep_or_steal() -> None:
    g = arrange(proverb_round(), tokens_at={9: BONUS}, held=[[0], [1]])
    g = act(g, Guess(teammate(g), PROVERB))
    team = g.turn.solved_by
    assert team == g.turn.team
    g = act(g, Move(teammate(g), 8, "forward"))
    assert g.phase is Phase.BONUS
    g = act(g, Keep(g.teams[team][0]))
    assert BONUS in g.held[team] and g.turn.team == team


def test_nobody_guessing_the_proverb_discards_the_card() -> None:
    g = arrange(proverb_round(), held=[[0, 30], [1, 31]])
    playing = g.turn.team
    before = (g.held, g.removed, g.pawns)
    g = act(g, Guess(opponent(g), "no idea"), TimeUp())
    assert g.phase is Phase.CHOOSE and g.turn.team == 1 - playing
    assert (g.held, g.removed, g.pawns) == before  # nobody loses or moves
    assert g.discard == (0,) and g.history[-1].solved_by is None


# ---------------------------------------------------------------------------- the end


def finish(g: GameState, held: list[list[int]], pawns: list[int]) -> GameState:
    """The playing team guesses a 5-point word from square 35 onto 40 (no token)."""
    g = arrange(g, tokens_at={}, held=held, pawns=pawns)
    return act(drawing(g, "places"), Guess(teammate(g), "harbour"))


def three_teams_with_first(team: int) -> GameState:
    seed = next(s for s in range(100) if game((2, 2, 2), seed=s).first_team == team)
    return game((2, 2, 2), seed=seed)


def test_highest_total_wins_even_if_another_team_finished() -> None:
    g = finish(three_teams_with_first(0), [[0], [30], [1]], [35, 3, 3])
    assert g.finisher == 0 and g.winners == (1,)


def test_tie_goes_to_the_team_that_reached_40() -> None:
    g = finish(three_teams_with_first(0), [[30], [31], [0]], [35, 20, 3])
    assert g.winners == (0,)


def test_then_to_the_team_further_along() -> None:
    g = finish(three_teams_with_first(0), [[0], [30], [31]], [35, 20, 30])
    assert g.winners == (2,)
    g = finish(three_teams_with_first(0), [[0], [30], [31]], [35, 20, 20])
    assert g.winners == (1, 2)  # still tied: they share the win


def test_turn_limit_ends_the_game() -> None:
    g = arrange(game(turn_limit=2), held=[[30], [0]])
    g = act(drawing(g, "objects"), TimeUp())
    g = act(drawing(g, "objects"), TimeUp())
    assert g.phase is Phase.OVER and g.finisher is None and len(g.history) == 2


# ---------------------------------------------------------------------------- data


def test_the_deck_is_reshuffled_when_it_runs_out() -> None:
    g = game(cards=(PLAIN, PLAIN, PLAIN))
    for _ in range(7):
        g = act(drawing(g, "objects"), TimeUp())
    assert g.reshuffles == 2 and sorted(g.deck + g.discard) == [0, 1, 2]


def test_actions_and_state_survive_json() -> None:
    actions: list[Action] = [
        Choose(0, "objects"),
        Guess(1, "tea pot"),
        Accept(0, 0),
        Synonym(0, 1),
        Move(2, 8, "backward"),
        Keep(3),
        Steal(3, 4),
        Forfeit(1, 0),
        TimeUp(),
    ]
    for action in actions:
        assert decode_action(encode_action(action)) == action
    g = drawing(game(), "objects")
    g = act(g, Guess(teammate(g), "kettle"))
    assert GameState.from_json(g.to_json()) == g


def test_a_rejected_action_changes_nothing() -> None:
    g = drawing(game(), "objects")
    before = g.to_json()
    code_of(g, Guess(opponent(g), "teapot"))
    assert g.to_json() == before


@settings(max_examples=60, deadline=None)
@given(start=st.integers(1, 39), steps=st.integers(1, 8), forward=st.booleans())
def test_proverb_moves_land_exactly_or_are_refused(start: int, steps: int, forward: bool) -> None:
    g = arrange(proverb_round(), pawns=[start, start])
    g = act(g, Guess(teammate(g), PROVERB))
    team = g.turn.team
    end = start + steps if forward else start - steps
    move = Move(teammate(g), steps, "forward" if forward else "backward")
    if not 1 <= end <= 40:
        assert code_of(g, move) == "off_board"
        return
    after = apply(g, move).state
    assert after.pawns[team] == end
    assert (after.phase is Phase.OVER) == (end == 40)
