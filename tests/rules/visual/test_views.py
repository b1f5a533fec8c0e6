"""The one redaction point: who sees the subject, guesses and "close" hints.

The strongest check is non-interference: for a seat (or a spectator), scramble everything
in the state that seat may not know (the card texts but the subject it draws, the deck,
the seed, hidden guesses, others' "close" hints) and its view must not change at all.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import msgspec
import pytest

from reverie.rules.visual import (
    Card,
    GameState,
    Guess,
    Phase,
    TimeUp,
    apply,
    build_deck,
    new_game,
    view,
    views,
)
from reverie.rules.visual.playouts import random_action
from reverie.rules.visual.secrecy import scramble
from reverie.rules.visual.views import SECRET_PHASES
from tests.rules.visual.helpers import (
    PROVERB,
    SYNTHETIC_DECK,
    act,
    blank_card,
    drawing,
    game,
    opponent,
    synthetic_words,
    teammate,
)


def test_only_the_drawer_sees_the_word_until_the_reveal() -> None:
    g = drawing(game((2, 3)), "places")
    drawer = g.turn.drawer
    shown = views(g, [*range(5), None])
    assert shown[drawer]["subject"] == "harbour"
    assert shown[drawer]["you"]["role"] == "drawer"
    for seat, v in shown.items():
        if seat != drawer:
            assert v["subject"] is None
            assert "harbour" not in msgspec.json.encode(v).decode()
            assert v["turn"]["category"] == "places" and v["turn"]["value"] == 5
    assert shown[teammate(g)]["you"]["role"] == "guesser"
    assert shown[opponent(g)]["you"]["role"] == "watcher"
    assert shown[None]["you"]["role"] == "spectator"
    assert shown[None]["turn"]["timer"] == "draw" and shown[None]["turn"]["seconds"] == 60
    g = act(g, TimeUp())  # nobody guessed: revealed
    assert view(g, opponent(g))["last_turn"]["subject"] == "harbour"


def test_close_hints_only_to_their_guesser() -> None:
    g = drawing(game((3, 3)), "places")
    mates = [s for s in g.teams[g.turn.team] if s != g.turn.drawer]
    g = act(g, Guess(mates[0], "harbor"), Guess(mates[1], "port"))
    for seat in [*range(6), None]:
        guesses = view(g, seat)["guesses"]
        assert [x["text"] for x in guesses] == ["harbor", "port"]  # usual turn: public
        assert guesses[0]["close"] is (seat == mates[0])
        assert guesses[1]["close"] is False


def test_proverb_round_shows_each_drawer_the_proverb_and_each_team_its_own_guesses() -> None:
    g = drawing(game((2, 2), cards=(blank_card("actions"),)), "actions")
    assert g.turn.proverb
    g = act(g, Guess(teammate(g), "bird"), Guess(opponent(g), "worm"))
    for seat in range(4):
        v = view(g, seat)
        if seat in g.turn.drawers:
            assert v["subject"] == PROVERB
        else:
            assert v["subject"] is None and v["you"]["role"] == "guesser"
        team = g.team_of(seat)
        assert {x["team"] for x in v["guesses"]} == {team}
    assert view(g, None)["guesses"] == []
    assert view(g, None)["turn"]["value"] == 8


def test_views_are_json_ready_in_every_phase() -> None:
    g = game()
    assert g.phase is Phase.CHOOSE
    assert view(g, g.turn.drawer)["subject"] is None  # nothing drawn yet
    assert view(g, g.turn.drawer)["you"]["role"] == "drawer"
    assert view(g, g.turn.drawer)["waiting"] == [g.turn.drawer]
    for seat in (0, None):
        msgspec.json.encode(view(g, seat))


# ---------------------------------------------------------------------------- non-interference


def random_states(
    sizes: tuple[int, ...], seed: int, cards: tuple[Card, ...]
) -> Iterator[GameState]:
    """Every state of a seeded random game (the clock runs out often, in every phase)."""
    rng = random.Random(seed)
    teams, start = [], 0
    for size in sizes:
        teams.append(list(range(start, start + size)))
        start += size
    g = new_game([f"P{s + 1}" for s in range(start)], teams, seed, cards=cards)
    yield g
    while g.phase is not Phase.OVER:
        g = apply(g, random_action(g, rng, 0.15)).state
        yield g


PROVERB_HEAVY = build_deck(synthetic_words(), seed=2, blank_share=0.8)


@pytest.mark.parametrize(
    ("sizes", "cards"),
    [((2, 3), SYNTHETIC_DECK), ((2, 2, 3), PROVERB_HEAVY), ((3, 2, 2, 2), SYNTHETIC_DECK)],
)
def test_views_do_not_depend_on_what_the_seat_may_not_know(
    sizes: tuple[int, ...], cards: tuple[Card, ...]
) -> None:
    phases: set[Phase] = set()
    proverb_guesses = 0
    for seed in range(6):
        rng = random.Random(seed)
        for g in random_states(sizes, seed, cards):
            phases.add(g.phase)
            proverb_guesses += g.turn.proverb and len(g.turn.guesses) > 1
            seats: list[int | None] = [*range(len(g.players)), None]
            for seat in seats:
                scrambled = scramble(g, seat, rng)
                assert scrambled != g
                assert view(scrambled, seat) == view(g, seat), (seed, g.phase, seat)
            if g.phase in SECRET_PHASES:
                # The scramble is strong enough to catch a leak: it changes the subject.
                drawer = g.turn.drawer
                outsider = next(s for s in seats if s is None or s not in g.turn.drawers)
                assert view(scramble(g, outsider, rng), drawer) != view(g, drawer)
    assert phases == set(Phase)  # every phase, its timer included, was checked
    assert proverb_guesses > 0
