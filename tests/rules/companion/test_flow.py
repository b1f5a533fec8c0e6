"""The companion round: telling, counting, secret positions checked once all are in,
votes never on one's own position, the reveal, the dice, the undo and the table's end."""

from __future__ import annotations

import pytest

from reverie.rules.companion import (
    Count,
    Finish,
    GameState,
    Options,
    Phase,
    Place,
    Roll,
    Tell,
    Undo,
    Vote,
    apply,
    die,
    new_game,
    view,
    waiting_for,
)
from reverie.rules.errors import IllegalAction, SetupError

NAMES = ["Ann", "Bob", "Cy", "Dee"]


def dixit(first: int = 0) -> GameState:
    return new_game("dixit", NAMES, seed=7, options=Options(first_storyteller=first))


def counted(g: GameState) -> GameState:
    st = g.round.storyteller
    assert st is not None
    g = apply(g, Tell(st, "  a   quiet sea "))
    return apply(g, Count(st, len(g.players)))


def test_tell_then_count_opens_the_secret_entries() -> None:
    g = dixit()
    assert g.phase is Phase.CLUE and waiting_for(g) == (0,)
    with pytest.raises(IllegalAction, match="storyteller this turn"):
        apply(g, Tell(1, "mine"))
    g = apply(g, Tell(0, "  a   quiet sea "))
    assert g.phase is Phase.COUNT and g.round.clue == "a quiet sea"
    with pytest.raises(IllegalAction, match="should hold 4 cards, not 3"):
        apply(g, Count(0, 3))
    g = apply(g, Count(0, 4))
    assert g.phase is Phase.SECRET and waiting_for(g) == (0, 1, 2, 3)


def test_claim_mode_the_first_to_tell_is_the_storyteller() -> None:
    g = new_game("dixit", NAMES, seed=1)
    assert g.round.storyteller is None and waiting_for(g) == (0, 1, 2, 3)
    g = apply(g, Tell(2, ""))
    assert g.round.storyteller == 2 and g.phase is Phase.COUNT


def test_positions_are_checked_once_all_are_in_and_a_clash_clears_them_all() -> None:
    g = counted(dixit())
    g = apply(g, Place(1, 3))
    g = apply(g, Vote(1, 2))
    g = apply(g, Place(2, 3))  # 3 again, but not everyone is in: nothing is compared yet
    assert g.round.claims == (None, 3, 3, None) and g.round.clashes == 0
    g = apply(g, Place(0, 1))
    g = apply(g, Place(3, 4))  # the last one in: two claim 3, everyone looks again
    assert g.round.claims == (None,) * 4 and g.round.votes == (None,) * 4
    assert g.round.clashes == 1 and waiting_for(g) == (0, 1, 2, 3)
    public = view(g, None)
    assert public["clashes"] == 1 and public["placed"] == [] and public["voted"] == []
    # Nobody is named: no view carries a seat list that says who clashed.
    assert "recheck" not in public and view(g, 3)["my_position"] is None


def test_a_position_may_be_entered_again_until_all_are_in_then_it_is_locked() -> None:
    g = counted(dixit())
    g = apply(g, Place(1, 3))
    g = apply(g, Vote(1, 2))
    g = apply(g, Place(1, 2))  # changed: the vote is given again
    assert view(g, 1)["my_position"] == 2 and view(g, 1)["my_vote"] is None
    for seat, pos in ((0, 1), (2, 3), (3, 4)):
        g = apply(g, Place(seat, pos))
    assert g.round.clashes == 0 and g.round.claims == (1, 2, 3, 4)
    with pytest.raises(IllegalAction, match="already entered"):
        apply(g, Place(1, 3))


def test_a_log_with_a_clash_of_the_old_rules_still_replays() -> None:
    """Before the positions were checked all at once, a clash cleared the two seats at
    once and they entered again: such a log still replays, to the same reveal."""
    g = counted(dixit())
    old_log: list[Place | Vote] = [Place(0, 1), Place(1, 3), Vote(1, 2), Place(2, 3)]
    old_log += [Place(2, 2), Place(1, 3), Vote(1, 4), Place(3, 4), Vote(2, 1), Vote(3, 1)]
    for action in old_log:
        g = apply(g, action)
    assert g.phase is Phase.CLUE and g.history[-1].owners == (0, 2, 1, 3)
    assert g.history[-1].votes == (None, 4, 1, 1)


def test_a_vote_needs_ones_position_and_never_hits_it() -> None:
    g = counted(dixit())
    with pytest.raises(IllegalAction, match="own card lies"):
        apply(g, Vote(1, 2))
    g = apply(g, Place(1, 2))
    with pytest.raises(IllegalAction, match="own card"):
        apply(g, Vote(1, 2))
    with pytest.raises(IllegalAction, match="from 1 to 4"):
        apply(g, Vote(1, 5))
    with pytest.raises(IllegalAction, match="does not vote"):
        apply(g, Vote(0, 1))
    g = apply(g, Vote(1, 1))
    with pytest.raises(IllegalAction, match="already voted"):
        apply(g, Vote(1, 3))


def play_round(g: GameState, positions: list[int], votes: dict[int, int]) -> GameState:
    g = counted(g)
    for seat, pos in enumerate(positions):
        g = apply(g, Place(seat, pos))
    for seat, pos in votes.items():
        g = apply(g, Vote(seat, pos))
    return g


def test_reveal_scores_moves_and_passes_the_turn() -> None:
    g = dixit()
    # Ann (storyteller) at 1, Bob 2, Cy 3, Dee 4; Bob found it, Cy voted Bob's, Dee Cy's.
    g = play_round(g, [1, 2, 3, 4], {1: 1, 2: 2, 3: 3})
    assert g.phase is Phase.CLUE and g.round.storyteller == 1 and g.round.number == 2
    assert g.scores == (3, 4, 1, 0)
    last = view(g, None)["last_round"]
    assert last["story_position"] == 1
    assert [p["owner"] for p in last["table"]] == [0, 1, 2, 3]
    assert last["table"][1]["voters"] == [2]


def test_undo_takes_the_last_reveal_back_and_the_round_is_entered_again() -> None:
    g = play_round(dixit(), [1, 2, 3, 4], {1: 1, 2: 2, 3: 3})
    g = apply(g, Undo(3))
    assert g.scores == (0, 0, 0, 0) and not g.history
    assert g.phase is Phase.COUNT and g.round.number == 1 and g.round.clue == "a quiet sea"
    assert view(g, None)["undone"] == [{"seat": 3, "turn": 1}]
    g = apply(g, Count(0, 4))
    for seat, pos in enumerate([1, 2, 3, 4]):
        g = apply(g, Place(seat, pos))
    for seat, pos in {1: 3, 2: 1, 3: 1}.items():
        g = apply(g, Vote(seat, pos))
    assert g.scores == (3, 0, 4, 3)
    # Once the next clue is told, the reveal stands.
    g = apply(g, Tell(1, ""))
    with pytest.raises(IllegalAction, match="before the next clue"):
        apply(g, Undo(0))


def test_undo_before_any_reveal_is_refused() -> None:
    with pytest.raises(IllegalAction, match="No round"):
        apply(dixit(), Undo(0))


def test_the_table_ends_the_game_between_turns() -> None:
    g = dixit()
    with pytest.raises(IllegalAction, match="at least one round"):
        apply(g, Finish(0))
    g = play_round(g, [1, 2, 3, 4], {1: 1, 2: 2, 3: 3})
    g = apply(g, Finish(2))
    assert g.phase is Phase.OVER and g.winners == (1,) and g.ended_by == "table"
    with pytest.raises(IllegalAction):
        apply(g, Undo(0))


def test_pictoric_reaching_the_box_ends_the_game_and_can_be_undone() -> None:
    g = new_game("pictoric", NAMES, seed=3, options=Options(first_storyteller=0, track_length=3))
    g = play_round(g, [1, 2, 3, 4], {1: 1, 2: 2, 3: 3})  # Ann 6 − 1 = 5: in the box
    assert g.phase is Phase.OVER and g.winners == (0,) and g.ended_by == "score"
    assert view(g, None)["players"][0]["square"] == 4  # the box, past the last step
    g = apply(g, Undo(1))
    assert g.phase is Phase.COUNT and g.scores == (0, 0, 0, 0)


def test_imaginarium_special_cloud_restricts_the_storyteller() -> None:
    g = new_game("imaginarium", NAMES, seed=3, options=Options(first_storyteller=0))
    assert g.round.restriction is None  # cloud 1
    # Bob alone found Ann's card (3); Cy and Dee voted each other's cards.
    g = play_round(g, [1, 2, 3, 4], {1: 1, 2: 4, 3: 3})
    assert g.scores == (4, 3, 1, 1)
    # Bob tells next from cloud 4, a special cloud: exactly four words.
    assert g.round.storyteller == 1
    assert view(g, None)["restriction"] == "four_words"
    assert view(g, None)["players"][1]["square"] == 4


def test_gallery_only_the_storyteller_places_and_everyone_else_votes() -> None:
    g = new_game("pictoric-gallery", NAMES, seed=3, options=Options(first_storyteller=0))
    g = apply(g, Tell(0, ""))
    with pytest.raises(IllegalAction, match="2 to 6"):
        apply(g, Count(0, 7))
    g = apply(g, Count(0, 6))
    assert waiting_for(g) == (0, 1, 2, 3)
    with pytest.raises(IllegalAction, match="Only the storyteller"):
        apply(g, Place(1, 2))
    g = apply(g, Vote(1, 5))  # no own card: any of the six
    g = apply(g, Place(0, 5))
    g = apply(g, Vote(2, 1))
    g = apply(g, Vote(3, 2))
    assert g.scores == (5, 3, 0, 0)


def test_dice_ties_roll_again_among_the_tied() -> None:
    seed = next(s for s in range(500) if _first_row_ties(s, 4))
    g = new_game("pictoric", NAMES, seed=seed)
    with pytest.raises(IllegalAction, match="Roll the dice"):
        apply(g, Tell(0, ""))
    for seat in range(4):
        g = apply(g, Roll(seat))
    first = g.rolls[0]
    top = max(first)
    tied = tuple(s for s in range(4) if first[s] == top)
    assert len(tied) > 1 and g.phase is Phase.DICE and g.contenders == tied
    outsider = next(s for s in range(4) if s not in tied)
    with pytest.raises(IllegalAction, match="tied"):
        apply(g, Roll(outsider))
    while g.phase is Phase.DICE:
        for seat in g.contenders:
            if g.rolls[-1][seat] == 0:
                g = apply(g, Roll(seat))
    last = g.rolls[-1]
    assert g.round.storyteller == last.index(max(last)) and g.phase is Phase.CLUE


def _first_row_ties(seed: int, n: int) -> bool:
    row = [die(seed, 0, s) for s in range(n)]
    return row.count(max(row)) > 1


def test_setup_errors() -> None:
    with pytest.raises(SetupError, match="3 to 6"):
        new_game("dixit", ["A", "B"], seed=1)
    with pytest.raises(SetupError, match="claim"):
        new_game("pictoric", NAMES, seed=1, options=Options(first_storyteller="claim"))
    with pytest.raises(SetupError, match="seat from 1 to 4"):
        new_game("dixit", NAMES, seed=1, options=Options(first_storyteller=4))
