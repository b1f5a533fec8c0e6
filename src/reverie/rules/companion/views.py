"""The one redaction point of a companion game: what a seat (or the table screen) sees.

Before the reveal nobody learns another seat's position or vote: the public part says
only who has entered theirs (and how many times the positions clashed, never whose);
a seat sees its own entries. Revealed rounds are public. Views are plain JSON-ready dicts.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import msgspec

from reverie.rules.association.variants import StorySource, find_variant
from reverie.rules.companion.engine import waiting_for
from reverie.rules.companion.state import GameState, Phase, Revealed

View = dict[str, Any]


def view(state: GameState, seat: int | None) -> View:
    """What ``seat`` may see now; ``None`` is a spectator (the table screen).

    >>> from reverie.rules.companion.engine import new_game
    >>> g = new_game("dixit", ["Ann", "Bob", "Cy"], seed=1)
    >>> view(g, None)["my_position"], view(g, 1)["you"]
    (None, 1)
    """
    return seat_view(state, public_view(state), seat)


def views(state: GameState, seats: Iterable[int | None]) -> dict[int | None, View]:
    """The views of several seats at once, sharing the public part."""
    public = public_view(state)
    return {seat: seat_view(state, public, seat) for seat in seats}


def public_view(state: GameState) -> View:
    """Everything every seat and the table screen may see."""
    v = find_variant(state.variant)
    rnd = state.round
    board = v.board
    length = board.length if board.loops else state.options.track_length
    secret = state.phase is Phase.SECRET
    return {
        "game": "companion",
        "variant": v.name,
        "title": v.title,
        "version": state.version,
        "you": None,
        "phase": state.phase.value,
        "turn": rnd.number,
        "storyteller": rnd.storyteller,
        "restriction": rnd.restriction.value if rnd.restriction else None,
        "told": rnd.told,
        "clue": rnd.clue if rnd.told else None,
        "count": rnd.count,
        "gallery": v.story_source is StorySource.GALLERY,
        "players": [
            {
                "seat": s,
                "name": name,
                "score": state.scores[s],
                "square": board.square(state.scores[s], length),
                "hand_size": None,
            }
            for s, name in enumerate(state.players)
        ],
        "waiting_for": list(waiting_for(state)),
        "placed": [s for s, p in enumerate(rnd.claims) if p is not None] if secret else [],
        "voted": [s for s, p in enumerate(rnd.votes) if p is not None] if secret else [],
        "clashes": rnd.clashes if secret else 0,
        "first_rolls": [list(r) for r in state.rolls],
        "contenders": list(state.contenders),
        "last_round": result_view(state.history[-1]) if state.history else None,
        "rounds_played": len(state.history),
        "history": [result_view(r) for r in state.history] if state.phase is Phase.OVER else [],
        "undone": [{"seat": u.seat, "turn": u.round.number} for u in state.undone],
        "can_undo": bool(state.history)
        and (
            (state.phase is Phase.CLUE and not rnd.told)
            or (state.phase is Phase.OVER and state.ended_by == "score")
        ),
        "winners": list(state.winners),
        "ended_by": state.ended_by,
        "options": msgspec.structs.asdict(state.options),
        "my_position": None,
        "my_vote": None,
    }


def seat_view(state: GameState, public: View, seat: int | None) -> View:
    """``public`` plus what only ``seat`` may see: its own position and vote."""
    out = dict(public)
    if seat is None or not 0 <= seat < len(state.players):
        return out
    rnd = state.round
    out["you"] = seat
    if state.phase is Phase.SECRET:
        out["my_position"] = rnd.claims[seat]
        out["my_vote"] = rnd.votes[seat]
    return out


def result_view(r: Revealed) -> View:
    """A revealed round: who had which position, who voted for it, the points."""
    return {
        "turn": r.number,
        "storyteller": r.storyteller,
        "clue": r.clue,
        "restriction": r.restriction.value if r.restriction else None,
        "skipped": False,
        "table": [
            {
                "position": p,
                "card": None,
                "owner": owner,
                "voters": [s for s, v in enumerate(r.votes) if v == p],
            }
            for p, owner in enumerate(r.owners, 1)
        ],
        "story_position": r.story_position,
        "votes": list(r.votes),
        "points": list(r.points),
    }
