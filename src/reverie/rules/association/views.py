"""The one redaction point: what a seat (or a spectator) may know of a game.

Whatever leaves the server about an association game, for a player, a spectator or a
bot, is built here. A hand is shown only to its owner. Before the reveal nobody learns
which table card is whose: the table is a list of cards in position order and nothing
else; the storyteller's pick and a player's own card are shown only to that player.
Revealed rounds (``last_round``) are public.

Views are plain JSON-ready dicts; the keys are documented in docs/protocol.md.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import msgspec

from reverie.rules.association.engine import waiting_for
from reverie.rules.association.state import GameState, Phase, RoundResult
from reverie.rules.association.variants import StorySource, find_variant

View = dict[str, Any]


def view(state: GameState, seat: int | None) -> View:
    """What ``seat`` may see now; ``seat=None`` is a spectator.

    >>> from reverie.rules.association.engine import new_game
    >>> g = new_game("dixit", ["Ann", "Bob", "Cy"], seed=1, card_count=100)
    >>> sorted(len(view(g, s)["hand"]) for s in range(3)), view(g, None)["hand"]
    ([6, 6, 6], None)
    """
    return seat_view(state, public_view(state), seat)


def views(state: GameState, seats: Iterable[int | None]) -> dict[int | None, View]:
    """The views of several seats at once, sharing the public part (as the server
    fans out one change to a whole table)."""
    public = public_view(state)
    return {seat: seat_view(state, public, seat) for seat in seats}


def public_view(state: GameState) -> View:
    """Everything about the game that every seat and spectator may see."""
    v = find_variant(state.variant)
    rnd = state.round
    phase = state.phase
    board = v.board
    length = state.options.track_length if not board.loops else board.length
    scores = state.scores
    hands = state.hands
    players = [
        {
            "seat": s,
            "name": name,
            "score": scores[s],
            "square": board.square(scores[s], length),
            "hand_size": len(hands[s]),
        }
        for s, name in enumerate(state.players)
    ]
    table_public = phase is Phase.VOTE or (
        phase is Phase.CLUE and v.story_source is StorySource.GALLERY
    )
    return {
        "game": "association",
        "variant": v.name,
        "title": v.title,
        "version": state.version,
        "you": None,
        "phase": phase.value,
        "turn": rnd.number,
        "storyteller": rnd.storyteller,
        "restriction": rnd.restriction.value if rnd.restriction else None,
        "clue": rnd.clue,
        "commitment": rnd.commitment,
        "players": players,
        "deck": len(state.deck),
        "discard": len(state.discard),
        "waiting_for": list(waiting_for(state)),
        "played": [s for s, c in enumerate(rnd.submissions) if c is not None]
        if phase is Phase.SUBMIT
        else [],
        "voted": [s for s, p in enumerate(rnd.votes) if p is not None]
        if phase is Phase.VOTE
        else [],
        "sat_out": list(rnd.sat_out),
        "table": [{"position": i, "card": c} for i, c in enumerate(rnd.table, 1)]
        if table_public
        else [],
        "hand": None,
        "story_card": None,
        "my_card": None,
        "my_position": None,
        "my_vote": None,
        "last_round": _result(state.history[-1]) if state.history else None,
        "rounds_played": len(state.history),
        # The whole story (every round is public once revealed), for the end screen.
        "history": [_result(r) for r in state.history] if phase is Phase.OVER else [],
        "first_rolls": [list(r) for r in state.first_rolls],
        "winners": list(state.winners),
        "options": _options(state),
    }


def seat_view(state: GameState, public: View, seat: int | None) -> View:
    """``public`` (from :func:`public_view` of the same state) plus what only ``seat``
    may see. Nested values are shared between seats' views: treat views as read-only."""
    rnd = state.round
    phase = state.phase
    me = seat if seat is not None and 0 <= seat < len(state.players) else None
    out = dict(public)
    if me is None:
        return out
    out["you"] = me
    out["hand"] = list(state.hands[me])
    if phase is Phase.OVER:
        return out
    if me == rnd.storyteller:
        if rnd.story_card is not None:
            out["story_card"] = rnd.story_card
        if phase is Phase.VOTE:
            out["my_position"] = rnd.table.index(rnd.story_card) + 1
    else:
        mine = rnd.submissions[me] if rnd.submissions else None
        out["my_card"] = mine
        if phase is Phase.VOTE:
            if mine is not None:
                out["my_position"] = rnd.table.index(mine) + 1
            out["my_vote"] = rnd.votes[me]
    return out


def spectator_view(state: GameState) -> View:
    """What someone watching the table (not seated) may see."""
    return view(state, None)


def _result(r: RoundResult) -> View:
    return {
        "turn": r.number,
        "storyteller": r.storyteller,
        "clue": r.clue,
        "restriction": r.restriction.value if r.restriction else None,
        "skipped": r.skipped,
        "table": [
            {
                "position": i,
                "card": c,
                "owner": r.owners[i - 1],
                "voters": [s for s, p in enumerate(r.votes) if p == i],
            }
            for i, c in enumerate(r.table, 1)
        ],
        "story_position": r.story_position,
        "story_card": r.story_card,
        "votes": list(r.votes),
        "points": list(r.points),
        "commitment": r.commitment,
        "salt": r.salt if r.commitment else None,
    }


def _options(state: GameState) -> View:
    return msgspec.structs.asdict(state.options)
