"""The one redaction point: who sees the subject, guesses and "close" hints."""

from __future__ import annotations

import msgspec

from reverie.rules.visual import Guess, Phase, TimeUp, view, views
from tests.rules.visual.helpers import (
    PROVERB,
    act,
    blank_card,
    drawing,
    game,
    opponent,
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
