"""The drawing game played on paper (the companion mode): a seat stands aside (the shared
device), a drawer declares a guess heard aloud, and the drawing may be given up; all of it
on the one engine, so the board and tokens move exactly as in the online game."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from reverie.rules.visual import (
    Accept,
    Card,
    Choose,
    Declare,
    GameState,
    GiveUp,
    Guess,
    IllegalAction,
    Move,
    Phase,
    SetupError,
    TimeUp,
    apply,
    decode_action,
    encode_action,
    new_game,
    view,
)
from reverie.rules.visual.playouts import play_random_game
from tests.rules.visual.helpers import (
    PLAIN,
    PROVERB,
    SYNTHETIC_DECK,
    act,
    arrange,
    blank_card,
    drawing,
    teammate,
)

#: P1, P2 | P3, P4, and the shared device "Table" on seat 4.
PLAYERS = ["P1", "P2", "P3", "P4", "Table"]
TEAMS = [[0, 1], [2, 3]]
TABLE = 4


def paper_game(cards: Sequence[Card] = (PLAIN,), seed: int = 1) -> GameState:
    return new_game(PLAYERS, TEAMS, seed, cards=cards, aside=[TABLE])


def code_of(state: object, action: object) -> str:
    with pytest.raises(IllegalAction) as err:
        apply(state, action)  # type: ignore[arg-type]
    assert str(err.value)
    return err.value.code


def test_a_seat_aside_plays_in_no_team_and_never_sees_the_subject() -> None:
    g = drawing(paper_game(), "objects")
    assert g.team_of(TABLE) is None
    shown = view(g, TABLE)
    assert shown["you"] == {"seat": TABLE, "team": None, "role": "watcher"}
    assert shown["subject"] is None and "teapot" not in str(shown)
    assert view(g, g.turn.drawer)["subject"] == "teapot"


def test_only_seats_named_aside_may_stay_out_of_the_teams() -> None:
    with pytest.raises(SetupError, match="Every player must be in a team"):
        new_game(PLAYERS, TEAMS, 1, cards=[PLAIN])
    with pytest.raises(SetupError, match="cannot stand aside"):
        new_game(PLAYERS, TEAMS, 1, cards=[PLAIN], aside=[0])
    with pytest.raises(SetupError, match="cannot stand aside"):
        new_game(PLAYERS, TEAMS, 1, cards=[PLAIN], aside=[7])


def test_a_declared_guess_moves_the_pawn_and_takes_the_token_like_an_accepted_one() -> None:
    """One engine: the same turn solved by a typed guess the drawer accepts and by a
    guess declared aloud ends in the same board, tokens and turn order."""
    start = drawing(arrange(paper_game(), tokens_at={5: 3}), "actions")  # 4 squares → 5
    drawer = start.turn.drawer
    typed = act(start, Guess(teammate(start), "kettle"), Accept(drawer, 0))
    said = act(start, Declare(drawer))
    for g in (typed, said):
        team = start.turn.team
        assert g.pawns[team] == 5 and g.held[team] == (3,)
        assert g.history[-1].solved_by == team and g.phase is Phase.CHOOSE
    assert (said.pawns, said.held, said.squares, said.turn) == (
        typed.pawns,
        typed.held,
        typed.squares,
        typed.turn,
    )
    events = apply(start, Declare(drawer)).events
    assert events[0].index is None and events[0].accepted  # type: ignore[union-attr]


def test_only_a_drawer_declares_and_only_while_drawing() -> None:
    g = paper_game()
    drawer = g.turn.drawer
    assert code_of(g, Declare(drawer)) == "wrong_phase"
    thinking = act(g, Choose(drawer, "objects"))
    assert code_of(thinking, Declare(drawer)) == "not_drawing_yet"
    drawing_now = act(thinking, TimeUp())
    assert code_of(drawing_now, Declare(teammate(drawing_now))) == "not_drawer"
    assert code_of(drawing_now, Declare(TABLE)) == "not_drawer"


def test_giving_up_fails_the_turn_exactly_as_the_clock_does() -> None:
    start = drawing(paper_game(), "objects")
    held: list[list[int]] = [[], []]
    held[start.turn.team] = [1, 30]  # a 1 and a 5: the team chooses what it loses
    start = arrange(start, held=held)
    gave_up = apply(start, GiveUp(start.turn.drawer))
    timed_out = apply(start, TimeUp())
    assert gave_up.state == timed_out.state
    assert gave_up.state.phase is Phase.LOSE
    assert gave_up.events[0].seat == start.turn.drawer  # type: ignore[union-attr]
    assert code_of(start, GiveUp(teammate(start))) == "not_drawer"
    assert code_of(start, GiveUp(TABLE)) == "not_drawer"
    fresh = paper_game()
    thinking = act(fresh, Choose(fresh.turn.drawer, "luck"))
    assert code_of(thinking, GiveUp(fresh.turn.drawer)) == "wrong_phase"


def test_a_proverb_on_paper_each_team_draws_and_the_first_declared_moves() -> None:
    g = drawing(paper_game(cards=(blank_card("places"),)), "places")
    assert g.turn.proverb and len(g.turn.drawers) == 2
    for seat in g.turn.drawers:
        assert view(g, seat)["subject"] == PROVERB
    for watcher in (TABLE, None):
        assert PROVERB not in str(view(g, watcher))
    other = next(t for t in range(2) if t != g.turn.team)
    g = act(g, Declare(g.turn.drawers[other]))
    assert g.phase is Phase.MOVE and g.turn.solved_by == other
    g = act(g, Move(TEAMS[other][0], 6, "forward"))
    assert g.pawns[other] == 7
    # The team that guessed plays the next turn.
    assert g.phase is Phase.CHOOSE and g.turn.team == other


def test_nobody_guessing_a_proverb_discards_the_card() -> None:
    g = drawing(paper_game(cards=(blank_card("objects"),)), "objects")
    assert g.turn.proverb
    team = g.turn.team
    after = act(g, GiveUp(g.turn.drawer))
    assert after.pawns == g.pawns and after.held == g.held
    assert after.history[-1].solved_by is None and after.turn.team == (team + 1) % 2


def test_paper_actions_survive_the_log() -> None:
    for action in (Declare(3), GiveUp(1)):
        assert decode_action(encode_action(action)) == action


def test_random_paper_games_keep_every_invariant_and_hide_the_subject() -> None:
    """Random companion games: the seat aside and every non-drawer never see a subject,
    tokens and cards are conserved, the log replays, and every game ends."""
    for seed in range(40):
        record = play_random_game(
            (2, 3) if seed % 2 else (2, 2, 2),
            2000 + seed,
            SYNTHETIC_DECK,
            check_views=True,
            paper=True,
        )
        assert record.problems == [], (seed, record.problems[:3])
        assert record.final.phase is Phase.OVER
        kinds = {type(a).__name__ for a in record.actions}
        assert "Guess" not in kinds and "Accept" not in kinds


def test_one_engine_paper_games_end_as_the_same_online_games() -> None:
    """Each random paper game played again online, a declared guess becoming a typed
    guess the drawer accepts and a given-up drawing the clock running out, ends with the
    same board, tokens, turns and winners."""
    for seed in range(25):
        paper = play_random_game((2, 3, 2), 3000 + seed, SYNTHETIC_DECK, paper=True)
        players = [f"P{s + 1}" for s in range(7)] + ["Table1"]
        teams = [[0, 1], [2, 3, 4], [5, 6]]
        online = new_game(players, teams, 3000 + seed, cards=SYNTHETIC_DECK, aside=[7])
        for action in paper.actions:
            if isinstance(action, Declare):
                team = online.team_of(action.seat)
                assert team is not None
                guesser = next(s for s in online.teams[team] if s not in online.turn.drawers)
                online = act(online, Guess(guesser, "no idea at all"))
                action = Accept(action.seat, len(online.turn.guesses) - 1)
            elif isinstance(action, GiveUp):
                action = TimeUp()
            online = act(online, action)
        a, b = paper.final, online
        assert (a.pawns, a.held, a.removed, a.squares) == (b.pawns, b.held, b.removed, b.squares)
        assert (a.history, a.winners, a.finisher, a.phase) == (
            b.history,
            b.winners,
            b.finisher,
            b.phase,
        )
