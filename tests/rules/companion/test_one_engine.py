"""One engine: the same rounds give the same scores, squares and clue restrictions in a
companion game, in the online game and in ``reverie score``.

Hypothesis draws tables and rounds: who lies where and whom each voter votes for (by
owner, since the online game shuffles its own positions). The companion game enters the
positions and votes, the online engine is played with real cards to the same owners,
and the ``reverie score`` command is fed each round as JSON with the scores before it.
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from reverie.cli import app
from reverie.rules import association as online
from reverie.rules import companion
from reverie.rules.association.clues import Restriction
from reverie.rules.association.state import RestrictionSetting
from reverie.rules.association.variants import VARIANTS, StorySource

CLUES = {
    Restriction.FOUR_WORDS: "one two three four",
    Restriction.THREE_WORDS: "one two three",
    Restriction.QUESTION: "who is there?",
}


@st.composite
def games(draw: st.DrawFn) -> tuple[str, int, RestrictionSetting, list[dict[str, Any]]]:
    variant = draw(st.sampled_from(sorted(VARIANTS)))
    v = VARIANTS[variant]
    n = draw(st.integers(v.min_players, min(v.max_players, 7)))
    settings_: list[RestrictionSetting] = ["board", "off", "four_words", "question", "film"]
    restrictions = draw(st.sampled_from(settings_))
    gallery = v.story_source is StorySource.GALLERY
    rounds = []
    for _ in range(draw(st.integers(1, 12))):
        if gallery:
            rounds.append(
                {
                    "target": draw(st.integers(1, 6)),
                    "votes": [draw(st.integers(1, 6)) for _ in range(n)],
                }
            )
        else:
            # ``order``: the seats by position; ``picks[s]``: whose card seat s votes for,
            # as an offset (1..n-1) so it is never s itself.
            rounds.append(
                {
                    "order": draw(st.permutations(range(n))),
                    "picks": [draw(st.integers(1, n - 1)) for _ in range(n)],
                }
            )
    return variant, n, restrictions, rounds


def _online_round(g: online.GameState, plan: dict[str, Any]) -> online.GameState:
    v = VARIANTS[g.variant]
    st_ = g.round.storyteller
    assert st_ is not None and g.phase is online.Phase.CLUE
    text = CLUES.get(g.round.restriction, "a clue") if g.round.restriction else "a clue"
    n = len(g.players)
    if v.story_source is StorySource.GALLERY:
        card = g.round.table[plan["target"] - 1]
        g = online.apply(g, online.Clue(st_, text, card)).state
        for s in range(n):
            if s != st_ and g.phase is online.Phase.VOTE:
                g = online.apply(g, online.Vote(s, plan["votes"][s])).state
        return g
    card = g.hands[st_][0] if v.story_source is StorySource.HAND else None
    g = online.apply(g, online.Clue(st_, text, card)).state
    for s in range(n):
        if s != st_:
            g = online.apply(g, online.Submit(s, g.hands[s][0])).state
    owners = g.round.owners
    for s in range(n):
        if s != st_ and g.phase is online.Phase.VOTE:
            target = (s + plan["picks"][s]) % n
            g = online.apply(g, online.Vote(s, owners.index(target) + 1)).state
    return g


def _companion_round(g: companion.GameState, plan: dict[str, Any]) -> companion.GameState:
    st_ = g.round.storyteller
    assert st_ is not None
    n = len(g.players)
    g = companion.apply(g, companion.Tell(st_, "a clue"))
    if "target" in plan:
        g = companion.apply(g, companion.Count(st_, 6))
        g = companion.apply(g, companion.Place(st_, plan["target"]))
        for s in range(n):
            if s != st_:
                g = companion.apply(g, companion.Vote(s, plan["votes"][s]))
        return g
    g = companion.apply(g, companion.Count(st_, n))
    order = plan["order"]
    for s in range(n):
        g = companion.apply(g, companion.Place(s, order.index(s) + 1))
    for s in range(n):
        if s != st_:
            target = (s + plan["picks"][s]) % n
            g = companion.apply(g, companion.Vote(s, order.index(target) + 1))
    return g


def _cli_points(g: companion.GameState, before: tuple[int, ...]) -> list[int]:
    """What the ``reverie score`` command prints for the companion game's last round,
    given the round as JSON on its standard input."""
    last = g.history[-1]
    names = [f"P{s}" for s in range(len(g.players))]
    gallery = VARIANTS[g.variant].story_source is StorySource.GALLERY
    request: dict[str, Any] = {
        "variant": g.variant,
        "storyteller": names[last.storyteller],
        "table": {str(p): names[o] for p, o in enumerate(last.owners, 1)},
        "votes": {names[s]: p for s, p in enumerate(last.votes) if p is not None},
        "scores": {names[s]: b for s, b in enumerate(before)},
    }
    if gallery:
        request["target"] = last.story_position
    result = CliRunner().invoke(app, ["score"], input=json.dumps(request))
    assert result.exit_code == 0, result.output
    moved = json.loads(result.stdout)
    return [moved[name] for name in names]


@settings(max_examples=150, deadline=None)
@given(games())
def test_companion_online_and_cli_agree(
    game: tuple[str, int, RestrictionSetting, list[dict[str, Any]]],
) -> None:
    variant, n, restrictions, rounds = game
    names = [f"P{s}" for s in range(n)]
    first = 0
    web = online.new_game(
        variant,
        names,
        seed=11,
        card_count=400,
        options=online.Options(first_storyteller=first, restrictions=restrictions),
    )
    box = companion.new_game(
        variant,
        names,
        seed=11,
        options=companion.Options(first_storyteller=first, restrictions=restrictions),
    )
    for plan in rounds:
        if web.phase is online.Phase.OVER or box.phase is companion.Phase.OVER:
            # Pictoric's box ends both at once; card games end online when cards run out.
            assert box.phase is not companion.Phase.OVER or web.phase is online.Phase.OVER
            break
        assert box.round.storyteller == web.round.storyteller
        assert box.round.restriction == web.round.restriction
        before = box.scores
        web = _online_round(web, plan)
        box = _companion_round(box, plan)
        assert box.scores == web.scores
        assert list(box.history[-1].points) == _cli_points(box, before)
        squares_web = [p["square"] for p in online.view(web, None)["players"]]
        squares_box = [p["square"] for p in companion.view(box, None)["players"]]
        assert squares_box == squares_web
