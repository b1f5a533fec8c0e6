"""The association turn in every variant: setup, the flow, refills, the ends, timeouts."""

from __future__ import annotations

import itertools

import msgspec
import pytest
from msgspec.structs import replace

from reverie.rules.association import (
    Clue,
    GameState,
    IllegalAction,
    Options,
    Phase,
    SetupError,
    Submit,
    Timeout,
    Vote,
    apply,
    new_game,
    replay,
)
from reverie.rules.association.actions import decode_action, encode_action
from reverie.rules.association.commitment import verify
from reverie.rules.association.playouts import card_locations, invariant_violations

from .helpers import (
    CARDS,
    avoid_story,
    find_story,
    game,
    give_clue,
    play_round,
    position_of,
    story_position,
    storyteller,
    submit_all,
    vote_all,
)

# ------------------------------------------------------------------------- setup


@pytest.mark.parametrize(
    ("players", "deck"), [(3, 96), (4, 96), (5, 75), (6, 72), (7, 98), (8, 96)]
)
@pytest.mark.parametrize("variant", ["imaginarium", "imaginarium-harmony"])
def test_imaginarium_deck_size_depends_on_player_count(
    variant: str, players: int, deck: int
) -> None:
    g = game(variant, players)
    assert g.in_play == deck
    assert len(card_locations(g)) == deck
    assert all(len(h) == 6 for h in g.hands)
    assert len(g.deck) == deck - 6 * players


def test_dixit_deals_six_from_84() -> None:
    g = game("dixit", 4)
    assert g.in_play == 84 and len(g.deck) == 84 - 24
    assert all(len(h) == 6 for h in g.hands)


def test_pictoric_deals_two_and_the_storyteller_draws_the_top_card() -> None:
    g = game("pictoric", 4)
    assert all(len(h) == 2 for h in g.hands)
    assert g.round.story_card is not None
    assert g.round.story_card not in g.deck
    assert g.in_play == CARDS  # Pictoric reshuffles, so it plays with the whole deck


def test_gallery_lays_six_cards_face_up_for_the_storyteller() -> None:
    g = game("pictoric-gallery", 5)
    assert len(g.round.table) == 6
    assert set(g.round.owners) == {storyteller(g)}
    assert all(h == () for h in g.hands)


def test_setup_errors_are_readable() -> None:
    with pytest.raises(SetupError, match="3 to 6 players"):
        game("dixit", 7)
    with pytest.raises(SetupError, match="3 to 6 players"):
        game("pictoric", 2)
    with pytest.raises(SetupError, match="Unknown variant 'uno'"):
        game("uno", 4)
    with pytest.raises(SetupError, match="only 50"):
        new_game("dixit", ["a", "b", "c"], 1, card_count=50, options=Options(deck_size=60))
    with pytest.raises(SetupError, match="at least 21 cards"):
        new_game("dixit", ["a", "b", "c"], 1, card_count=20)
    # A deck smaller than the variant's 84 (a player's own pictures) is played whole.
    small = new_game("dixit", ["a", "b", "c"], 1, card_count=50)
    assert len(small.deck) + sum(len(h) for h in small.hands) == 50
    with pytest.raises(SetupError, match="nobody can claim"):
        game("pictoric", 4, first_storyteller="claim")
    with pytest.raises(SetupError, match="seat from 1 to 4"):
        game("dixit", 4, first_storyteller=4)
    with pytest.raises(SetupError, match="target score"):
        game("dixit", 4, target_score=0)


# ------------------------------------------------------------- first storyteller


def test_dixit_first_storyteller_is_the_first_to_give_a_clue() -> None:
    g = game("dixit", 4)
    assert g.round.storyteller is None
    assert g.round.waiting == (0, 1, 2, 3)
    g = give_clue(g, seat=2)
    assert g.round.storyteller == 2 and g.phase is Phase.SUBMIT
    with pytest.raises(IllegalAction, match="clue has already been given"):
        apply(g, Clue(1, "me too", g.hands[1][0]))


def test_host_may_pick_the_first_storyteller() -> None:
    assert game("dixit", 5, first_storyteller=3).round.storyteller == 3
    assert game("pictoric", 5, first_storyteller=1).round.storyteller == 1


def test_random_first_storyteller_is_seeded_and_covers_every_seat() -> None:
    firsts = {game("imaginarium", 5, seed=s).round.storyteller for s in range(60)}
    assert firsts == {0, 1, 2, 3, 4}
    assert (
        game("imaginarium", 5, seed=9).round.storyteller
        == game("imaginarium", 5, seed=9).round.storyteller
    )


def test_pictoric_first_storyteller_by_dice_with_rerolls_among_the_tied() -> None:
    saw_reroll = False
    for seed in range(200):
        g = game("pictoric", 6, seed=seed)
        rolls = g.first_rolls
        assert rolls, "the dice are recorded for everyone to see"
        final = rolls[-1]
        st = storyteller(g)
        assert final[st] == max(final) and final.count(max(final)) == 1
        for earlier, later in itertools.pairwise(rolls):
            top = max(earlier)
            tied = {s for s, r in enumerate(earlier) if r == top}
            assert {s for s, r in enumerate(later) if r} == tied
            saw_reroll = True
    assert saw_reroll


def test_storyteller_passes_to_the_next_seat() -> None:
    g = game("imaginarium", 4, first_storyteller=3)
    seen = []
    for _ in range(5):
        seen.append(storyteller(g))
        g = play_round(g, find_story)
    assert seen == [3, 0, 1, 2, 3]


# ------------------------------------------------------------------ illegal moves


def _rejects(state: GameState, action: object, code: str) -> None:
    before = state.to_json()
    with pytest.raises(IllegalAction) as err:
        apply(state, action)  # type: ignore[arg-type]
    assert err.value.code == code
    assert str(err.value)  # a message a player can read
    assert state.to_json() == before


def test_illegal_actions_raise_one_typed_error_and_change_nothing() -> None:
    g = game("dixit", 4, first_storyteller=0)
    _rejects(g, Vote(1, 1), "wrong_phase")
    _rejects(g, Submit(1, g.hands[1][0]), "wrong_phase")
    _rejects(g, Clue(1, "mine", g.hands[1][0]), "not_your_turn")
    _rejects(g, Clue(0, "mine", g.hands[1][0]), "card_not_in_hand")
    _rejects(g, Clue(0, "mine", None), "card_not_in_hand")
    _rejects(g, Clue(0, "   ", g.hands[0][0]), "empty_clue")
    _rejects(g, Clue(0, "x" * 201, g.hands[0][0]), "clue_too_long")
    _rejects(g, Clue(9, "mine", g.hands[0][0]), "unknown_seat")
    g = give_clue(g)
    _rejects(g, Submit(0, g.hands[0][0]), "not_your_turn")
    _rejects(g, Submit(1, g.hands[2][0]), "card_not_in_hand")
    _rejects(g, Submit(-1, 5), "unknown_seat")
    _rejects(g, Vote(1, 1), "wrong_phase")
    g2 = apply(g, Submit(1, g.hands[1][0])).state
    _rejects(g2, Submit(1, g2.hands[1][0]), "already_played")
    g = submit_all(g)
    _rejects(g, Submit(1, g.hands[1][0]), "wrong_phase")
    _rejects(g, Vote(0, 1), "storyteller_votes")
    _rejects(g, Vote(1, position_of(g, 1)), "own_card")
    _rejects(g, Vote(1, 0), "unknown_position")
    _rejects(g, Vote(1, 5), "unknown_position")
    _rejects(g, Vote(7, 1), "unknown_seat")
    g3 = apply(g, Vote(1, story_position(g))).state
    _rejects(g3, Vote(1, story_position(g)), "already_voted")
    over = replace(g, phase=Phase.OVER)
    _rejects(over, Vote(1, 1), "game_over")


def test_pictoric_storyteller_tells_about_the_drawn_card_only() -> None:
    g = game("pictoric", 4, first_storyteller=0)
    other = g.hands[1][0]
    _rejects(g, Clue(0, "x", other), "card_not_in_hand")
    g = apply(g, Clue(0, "x", g.round.story_card)).state
    assert g.phase is Phase.SUBMIT


def test_gallery_pick_must_be_one_of_the_six() -> None:
    g = game("pictoric-gallery", 4, first_storyteller=0)
    outside = next(c for c in range(CARDS) if c not in g.round.table)
    _rejects(g, Clue(0, "x", outside), "card_not_in_hand")
    g = apply(g, Clue(0, "x", g.round.table[3])).state
    assert g.phase is Phase.VOTE  # nobody adds cards in the gallery
    _rejects(g, Vote(1, 7), "unknown_position")


# ---------------------------------------------------------------- restrictions


def test_imaginarium_special_cloud_restricts_the_clue() -> None:
    g = game("imaginarium", 4, first_storyteller="claim")
    g = replace(g, scores=(3, 0, 0, 0))  # seat 0 stands on cloud 4: exactly four words
    card = g.hands[0][0]
    _rejects(g, Clue(0, "three words only", card), "clue_restriction")
    ok = apply(g, Clue(0, "a ship of dreams", card)).state
    assert ok.round.restriction is not None and ok.round.restriction.value == "four_words"
    g = replace(g, scores=(7, 0, 0, 0))  # cloud 8: a question
    _rejects(g, Clue(0, "a statement.", card), "clue_restriction")
    assert apply(g, Clue(0, "where to?", card)).state.round.clue == "where to?"
    g = replace(g, scores=(11, 0, 0, 0))  # cloud 12: a brand, judged by the table
    assert apply(g, Clue(0, "anything", card)).state.round.restriction.value == "brand"  # type: ignore[union-attr]


def test_restrictions_can_be_off_or_one_for_the_whole_game() -> None:
    g = game("imaginarium", 4, first_storyteller="claim", restrictions="off")
    g = replace(g, scores=(3, 0, 0, 0))
    assert apply(g, Clue(0, "anything", g.hands[0][0])).state.round.restriction is None
    g = game("dixit", 4, first_storyteller=0, restrictions="three_words")
    assert g.round.restriction is not None and g.round.restriction.value == "three_words"
    _rejects(g, Clue(0, "four words right here", g.hands[0][0]), "clue_restriction")


def test_start_of_turn_restriction_follows_the_storytellers_cloud() -> None:
    for seed in range(40):
        g = game("imaginarium", 3, seed=seed)
        for _ in range(12):
            if g.phase is Phase.OVER:
                break
            cloud = g.scores[storyteller(g)] % 39 + 1
            expected = {4: "four_words", 8: "question", 12: "brand", 16: "film", 20: "story",
                        24: "four_words", 28: "question", 31: "brand", 34: "film",
                        37: "story"}.get(cloud)  # fmt: skip
            got = g.round.restriction.value if g.round.restriction else None
            assert got == expected
            text = {"four_words": "one two three four", "question": "why?"}.get(got or "", "x")
            g = give_clue(g, text)
            g = vote_all(submit_all(g), find_story if seed % 2 else avoid_story)


# ------------------------------------------------------------- scoring in play


def test_a_dixit_round_scores_and_reveals() -> None:
    g = game("dixit", 4, first_storyteller=0)
    g = give_clue(g, "the long way home")
    commitment = g.round.commitment
    assert commitment
    g = submit_all(g)
    story = story_position(g)
    b_card = position_of(g, 2)
    g = vote_all(g, lambda s, seat: story if seat == 1 else (b_card if seat == 3 else story))
    # A and B found it, C voted for B's card: S 3, A 3, B 3 + 1, C 0.
    assert g.scores == (3, 3, 4, 0)
    last = g.history[-1]
    assert last.points == (3, 3, 4, 0)
    assert last.clue == "the long way home"
    assert last.owners[last.story_position - 1] == 0  # type: ignore[operator]
    assert verify(commitment, last.story_card, last.salt)  # type: ignore[arg-type]
    assert all(len(h) == 6 for h in g.hands)
    assert storyteller(g) == 1 and g.phase is Phase.CLUE


def test_commitment_is_fixed_before_votes_and_hides_the_card() -> None:
    g = give_clue(game("imaginarium", 5, first_storyteller=0))
    c = g.round.commitment
    assert c is not None and str(g.round.story_card) not in c
    g = submit_all(g)
    assert g.round.commitment == c
    g = vote_all(g, avoid_story)
    assert g.history[-1].commitment == c
    assert verify(c, g.history[-1].story_card, g.history[-1].salt)  # type: ignore[arg-type]


def test_imaginarium_storyteller_cannot_go_behind_cloud_one() -> None:
    g = game("imaginarium", 4, first_storyteller=0)
    g = play_round(g, find_story)  # everyone found it: S −3 from 0 stays at 0
    assert g.history[-1].points[0] == 0 and g.scores[0] == 0


def test_pictoric_finders_draw_an_extra_card_up_to_eight() -> None:
    g = game("pictoric", 4, first_storyteller=0)
    g = give_clue(g)
    g = submit_all(g)
    story = story_position(g)
    g = vote_all(g, lambda s, seat: story if seat == 1 else avoid_story(s, seat))
    # Each non-storyteller played 1 of 2 and draws 1; the finder draws 1 more.
    assert [len(h) for h in g.hands] == [2, 3, 2, 2]
    # A full hand does not grow past eight.
    g = game("pictoric", 4, first_storyteller=0)
    extra = tuple(g.deck[:6])
    g = replace(g, hands=(g.hands[0], g.hands[1] + extra, *g.hands[2:]), deck=g.deck[6:])
    g = vote_all(submit_all(give_clue(g)), find_story)
    assert len(g.hands[1]) == 8
    assert not invariant_violations(g)


def test_pictoric_reshuffles_the_discard_pile_when_the_deck_runs_out() -> None:
    g = game("pictoric", 4, first_storyteller=0)
    g = replace(g, discard=g.deck[3:], deck=g.deck[:3])
    g = vote_all(submit_all(give_clue(g)), find_story)
    assert not invariant_violations(g)
    assert len(g.deck) > 3 and g.phase is Phase.CLUE


def test_gallery_round_discards_the_six_and_deals_six_fresh() -> None:
    g = game("pictoric-gallery", 4, first_storyteller=0)
    six = g.round.table
    g = give_clue(g)
    g = vote_all(g, lambda s, seat: 1 + (seat % 2))  # positions 2, 1, 2
    assert set(six) <= set(g.discard)
    assert storyteller(g) == 1 and len(g.round.table) == 6
    assert not set(g.round.table) & set(six)


# --------------------------------------------------------------------- the end


def test_dixit_ends_when_the_refill_draws_the_last_card() -> None:
    g = game("dixit", 6, first_storyteller=0)
    turns = 0
    while g.phase is not Phase.OVER:
        g = play_round(g, avoid_story)
        turns += 1
    assert turns == (84 - 36) // 6 and not g.deck
    assert g.winners == tuple(s for s, p in enumerate(g.scores) if p == max(g.scores))


def test_dixit_ends_when_a_refill_cannot_be_completed() -> None:
    g = game("dixit", 5, first_storyteller=0)
    turns = 0
    while g.phase is not Phase.OVER:
        g = play_round(g, find_story)
        turns += 1
    assert turns == 11  # 54 cards after the deal, 5 a turn: the 11th refill falls short


def test_imaginarium_plays_the_hands_out_after_the_deck() -> None:
    g = game("imaginarium", 4, first_storyteller=0)
    turns = 0
    while g.phase is not Phase.OVER:
        g = play_round(g, avoid_story)
        turns += 1
    assert turns == 96 // 4  # 72 in the deck then 6 turns from the hands
    assert all(h == () for h in g.hands)


def test_pictoric_ends_at_the_pictoricbox() -> None:
    g = game("pictoric", 3, first_storyteller=0, track_length=5)
    while g.phase is not Phase.OVER:
        g = play_round(g, find_story)  # all found: others 2 a round
    assert max(g.scores) >= 5
    assert g.winners == tuple(s for s, p in enumerate(g.scores) if p == max(g.scores))


def test_target_score_ends_the_game_early_and_ties_share_the_win() -> None:
    g = game("dixit", 4, first_storyteller=0, target_score=4)
    g = play_round(g, find_story)  # all found: 0, 2, 2, 2
    assert g.phase is Phase.CLUE
    g = play_round(g, find_story)  # all found again: S = seat 1 gets 0
    assert g.phase is Phase.OVER
    assert g.scores == (2, 2, 4, 4) and g.winners == (2, 3)
    with pytest.raises(IllegalAction, match="over"):
        give_clue(g)


# --------------------------------------------------------------------- timeouts


def test_storyteller_timeout_skips_the_turn() -> None:
    g = game("pictoric", 4, first_storyteller=0)
    drawn = g.round.story_card
    g = apply(g, Timeout()).state
    assert storyteller(g) == 1 and g.history[-1].skipped
    assert drawn in g.discard and not invariant_violations(g)


def test_claim_timeout_picks_a_storyteller_at_random() -> None:
    g = apply(game("dixit", 4), Timeout()).state
    assert g.round.storyteller is not None and g.phase is Phase.CLUE


def test_card_timeout_plays_a_random_card_or_sits_the_player_out() -> None:
    g = give_clue(game("dixit", 4, first_storyteller=0))
    g = apply(g, Submit(1, g.hands[1][0])).state
    auto = apply(g, Timeout()).state
    assert auto.phase is Phase.VOTE and len(auto.round.table) == 4
    skip = apply(replace(g, options=Options(on_timeout="skip")), Timeout()).state
    assert skip.phase is Phase.VOTE and len(skip.round.table) == 2
    assert skip.round.sat_out == (2, 3) and skip.round.waiting == (1,)
    _rejects(skip, Vote(2, 1), "sat_out")


def test_vote_timeout_votes_at_random_or_abstains() -> None:
    g = submit_all(give_clue(game("dixit", 4, first_storyteller=0)))
    g = apply(g, Vote(1, story_position(g))).state
    auto = apply(g, Timeout()).state
    assert all(v is not None for s, v in enumerate(auto.history[-1].votes) if s != 0)
    skip = apply(replace(g, options=Options(on_timeout="skip")), Timeout()).state
    # Only A voted and found it: "all found" → A gets 2, S 0, the others nothing.
    assert skip.history[-1].points == (0, 2, 0, 0)


# ------------------------------------------------------------ determinism, JSON


def test_same_seed_and_actions_give_the_same_game_and_json_round_trips() -> None:
    import random

    from reverie.rules.association.playouts import random_action

    for variant, n in [("dixit", 5), ("imaginarium", 7), ("pictoric-gallery", 9)]:
        g = game(variant, n, seed=42)
        rng = random.Random(1)
        log = []
        while g.phase is not Phase.OVER:
            a = random_action(g, rng, 0.05)
            log.append(decode_action(encode_action(a)))
            g = apply(g, a).state
        names = [f"P{i + 1}" for i in range(n)]
        assert replay(variant, names, 42, log, card_count=CARDS) == g
        assert GameState.from_json(g.to_json()) == g
        assert GameState.from_json(g.to_json()).to_json() == g.to_json()


def test_malformed_actions_are_rejected_by_the_schema() -> None:
    bad_inputs = (
        b'{"type": "vote", "seat": 1}',
        b'{"type": "fly"}',
        b"[1,",
        b'{"type": "vote", "seat": 1, "position": "x"}',
    )
    for bad in bad_inputs:
        with pytest.raises((msgspec.ValidationError, msgspec.DecodeError)):
            decode_action(bad)
