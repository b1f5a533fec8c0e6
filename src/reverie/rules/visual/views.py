"""The one redaction point: what a seat (or a spectator) may know of a drawing game.

Everything that leaves the server about a drawing game is built here. Before the turn's
reveal the subject (word or proverb) is shown only to the turn's drawer(s); guessers see
the category and its value. In a usual turn the guesses are public (the other teams
watch); in a proverb round a team sees only its own team's guesses. A "close" hint is
shown only to the seat that typed the guess. Spectators (``seat=None``) see what a
player of no team would see. Finished turns (``last_turn``) are public, subject included.

Views are plain JSON-ready dicts.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import msgspec

from reverie.rules.visual.cards import category_value
from reverie.rules.visual.engine import subject, waiting_for
from reverie.rules.visual.state import GameState, Phase

View = dict[str, Any]

#: How many of the turn's latest guesses a view lists (each keeps its ``index``).
SHOWN_GUESSES = 60

#: Phases in which a turn's subject is still secret (the turn has not ended).
SECRET_PHASES = frozenset({Phase.THINK, Phase.DRAW, Phase.MOVE, Phase.BONUS, Phase.LOSE})


def view(state: GameState, seat: int | None) -> View:
    """What ``seat`` may see now; ``seat=None`` is a spectator.

    >>> from reverie.rules.visual.cards import Card
    >>> from reverie.rules.visual.engine import new_game
    >>> deck = [Card(("cup", "run", "port", "kite", "all is well"))]
    >>> g = new_game(["A", "B", "C", "D"], [[0, 1], [2, 3]], seed=1, cards=deck)
    >>> view(g, 0)["you"]["team"], view(g, None)["subject"]
    (0, None)
    """
    return seat_view(state, public_view(state), seat)


def views(state: GameState, seats: Iterable[int | None]) -> dict[int | None, View]:
    """The views of several seats at once, sharing the public part."""
    public = public_view(state)
    return {seat: seat_view(state, public, seat) for seat in seats}


def paper_views(state: GameState, seats: Iterable[int | None]) -> dict[int | None, View]:
    """The views of a game played on paper around one shared device (the companion
    game): the seats in no team (``aside``, the device) play the table's role, and a
    finished turn's subject is shown only to the seat that drew it, since on paper the
    guessers never see the word written down.

    >>> from reverie.rules.visual.cards import Card
    >>> from reverie.rules.visual.engine import new_game
    >>> deck = [Card(("cup", "run", "port", "kite", "all is well"))]
    >>> g = new_game(["T", "A", "B", "C", "D"], [[1, 2], [3, 4]], seed=1, cards=deck, aside=[0])
    >>> shown = paper_views(g, [0, 1])
    >>> shown[0]["aside"], shown[0]["you"]["role"]
    ([0], 'table')
    """
    aside = [s for s in range(len(state.players)) if state.team_of(s) is None]
    out: dict[int | None, View] = {}
    for seat, shown in views(state, seats).items():
        view = dict(shown)
        view["aside"] = aside
        if seat in aside:
            view["you"] = {**view["you"], "role": "table"}
        if view["last_turn"] is not None:
            view["last_turn"] = _drawer_only(view["last_turn"], seat)
        view["history"] = [_drawer_only(r, seat) for r in view["history"]]
        out[seat] = view
    return out


def _drawer_only(result: View, seat: int | None) -> View:
    """A finished turn as ``seat`` sees it on paper: the subject only for its drawer."""
    shown = dict(result)
    if seat != shown.get("drawer"):
        shown["subject"] = None
    return shown


def _token(state: GameState, token: int | None) -> View | None:
    if token is None:
        return None
    t = state.tokens[token]
    return {"id": t.id, "value": t.value, "bonus": t.bonus}


def public_view(state: GameState) -> View:
    """Everything about the game that every seat and spectator may see."""
    turn = state.turn
    value = None
    if turn.category is not None:
        value = category_value("proverbs" if turn.proverb else turn.category)
    seconds = None if turn.timer is None else state.options.seconds(turn.timer)
    return {
        "game": "visual",
        "version": state.version,
        "phase": state.phase.value,
        "players": [
            {"seat": s, "name": name, "team": state.team_of(s)}
            for s, name in enumerate(state.players)
        ],
        "teams": [
            {
                "team": t,
                "seats": list(members),
                "square": state.pawns[t],
                "tokens": [_token(state, k) for k in state.held[t]],
                "total": state.total(t),
            }
            for t, members in enumerate(state.teams)
        ],
        "squares": [_token(state, k) for k in state.squares],
        "removed": [_token(state, k) for k in state.removed],
        "turn": {
            "number": turn.number,
            "team": turn.team,
            "drawer": turn.drawer,
            "drawers": list(turn.drawers),
            "category": turn.category,
            "value": value,
            "proverb": turn.proverb,
            "timer": None if turn.timer is None else turn.timer.value,
            "seconds": seconds,
            "solved_by": turn.solved_by,
            "bonus_token": _token(state, turn.bonus_token),
        },
        "waiting": list(waiting_for(state)),
        "cards_left": len(state.deck),
        "last_turn": msgspec.to_builtins(state.history[-1]) if state.history else None,
        # Every finished turn (public, words included), for the end screen's story.
        "history": msgspec.to_builtins(state.history) if state.phase is Phase.OVER else [],
        "finisher": state.finisher,
        "winners": list(state.winners),
    }


def seat_view(state: GameState, public: View, seat: int | None) -> View:
    """The public part plus what only ``seat`` may see."""
    turn = state.turn
    team = None if seat is None else state.team_of(seat)
    secret_open = state.phase in SECRET_PHASES
    drawing = seat is not None and seat in turn.drawers and secret_open
    if seat is None:
        role = "spectator"
    elif state.phase is not Phase.OVER and (drawing or seat == turn.drawer):
        role = "drawer"
    elif team is not None and (turn.proverb or team == turn.team):
        role = "guesser"
    else:
        role = "watcher"
    guesses = [
        {
            "index": i,
            "seat": g.seat,
            "team": g.team,
            "text": g.text,
            "synonym": g.synonym,
            "close": g.close and g.seat == seat,
        }
        for i, g in enumerate(turn.guesses)
        if not turn.proverb or (team is not None and g.team == team)
    ]
    return {
        **public,
        "you": {"seat": seat, "team": team, "role": role},
        "subject": subject(state) if drawing else None,
        "guesses": guesses[-SHOWN_GUESSES:],
        "guess_count": len(guesses),
    }


def spectator_view(state: GameState) -> View:
    """What a spectator sees."""
    return view(state, None)
