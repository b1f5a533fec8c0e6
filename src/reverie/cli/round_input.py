"""Reading one physically played round for ``reverie score``.

The input names players, not seats::

    {"variant": "dixit", "storyteller": "A",
     "table": {"1": "C", "2": "A", "3": "B"},
     "votes": {"B": 2, "C": 3},
     "scores": {"A": 4, "B": 0, "C": 7}}

For ``pictoric-gallery`` every position is the storyteller's and ``"target"`` names the
position they picked. Every player but the storyteller votes, except those listed in
``"absent"`` (sat out of the round). Everything is checked before scoring; a problem raises
:class:`RoundInputError` with one sentence a person can act on.
"""

from __future__ import annotations

import msgspec

from reverie.rules.association.engine import round_points
from reverie.rules.association.scoring import RoundInput
from reverie.rules.association.variants import StorySource, find_variant
from reverie.rules.errors import SetupError


class RoundInputError(ValueError):
    """The round described cannot be scored; the message says why."""


class RoundRequest(msgspec.Struct, forbid_unknown_fields=True):
    """The JSON document ``reverie score`` reads."""

    variant: str
    storyteller: str
    table: dict[str, str]
    votes: dict[str, int]
    scores: dict[str, int] = {}
    target: int | None = None
    absent: list[str] = []


_DECODER = msgspec.json.Decoder(RoundRequest)


def parse_request(data: bytes | str) -> RoundRequest:
    """Decode and type-check the JSON input."""
    if isinstance(data, str):
        data = data.encode()
    if not data.strip():
        raise RoundInputError("no input: pipe one round as JSON into standard input")
    try:
        request: RoundRequest = _DECODER.decode(data)
    except msgspec.ValidationError as exc:
        raise RoundInputError(f"invalid round: {exc}") from None
    except msgspec.DecodeError as exc:
        raise RoundInputError(f"malformed JSON: {exc}") from None
    return request


def score_request(request: RoundRequest) -> dict[str, int]:
    """Points each player moves this round (negative where a piece moves back)."""
    try:
        variant = find_variant(request.variant)
    except SetupError as exc:
        raise RoundInputError(str(exc)) from None
    st = request.storyteller
    if not st:
        raise RoundInputError("the storyteller needs a name")
    positions = _positions(request.table)
    owners_by_name = [request.table[str(p)] for p in positions]
    gallery = variant.story_source is StorySource.GALLERY
    if gallery:
        if any(owner != st for owner in owners_by_name):
            raise RoundInputError(
                "in pictoric-gallery every card on the table is the storyteller's"
            )
        if request.target is None:
            raise RoundInputError(
                'pictoric-gallery needs "target": the position the storyteller picked'
            )
        if request.target not in positions:
            raise RoundInputError(f"target {request.target} is not a position on the table")
        story_position = request.target
    else:
        if request.target is not None:
            raise RoundInputError(
                '"target" is only for pictoric-gallery; here the '
                "storyteller's card is the one they own on the table"
            )
        mine = [p for p, owner in zip(positions, owners_by_name, strict=True) if owner == st]
        if len(mine) != 1:
            raise RoundInputError(
                f"the storyteller {st} must have exactly one card on the table, not {len(mine)}"
            )
        story_position = mine[0]
        seen: set[str] = set()
        for owner in owners_by_name:
            if owner in seen:
                raise RoundInputError(f"{owner} has more than one card on the table")
            seen.add(owner)

    names: list[str] = [st]
    for name in [*owners_by_name, *request.votes, *request.scores]:
        if not name:
            raise RoundInputError("every player needs a name")
        if name not in names:
            names.append(name)
    for name in request.absent:
        if name not in names:
            names.append(name)
    seat = {name: i for i, name in enumerate(names)}
    if not variant.min_players <= len(names) <= variant.max_players:
        raise RoundInputError(
            f"{variant.title} is played by {variant.min_players} to {variant.max_players} "
            f"players; this round has {len(names)}"
        )
    if gallery and len(positions) > variant.gallery_size:
        raise RoundInputError(
            f"the gallery has {variant.gallery_size} positions, not {len(positions)}"
        )
    votes: dict[int, int] = {}
    for voter, pos in request.votes.items():
        if voter == st:
            raise RoundInputError(f"{st} is the storyteller and does not vote")
        if pos not in positions:
            raise RoundInputError(
                f"{voter} voted for position {pos}, which is not on the table "
                f"(positions 1 to {len(positions)})"
            )
        if not gallery and request.table[str(pos)] == voter:
            raise RoundInputError(f"{voter} voted for their own card at position {pos}")
        votes[seat[voter]] = pos

    for name in request.absent:
        if name == st:
            raise RoundInputError(f"{st} tells the story: the storyteller cannot be absent")
        if name in request.votes:
            raise RoundInputError(f"{name} is marked absent but voted")
    silent = [n for n in names if n != st and n not in request.votes and n not in request.absent]
    if silent:
        raise RoundInputError(f'{silent[0]} has no vote: add their vote, or list them in "absent"')

    before = [request.scores.get(name, 0) for name in names]
    if any(b < 0 for b in before):
        raise RoundInputError("scores before the round cannot be negative")
    owners = tuple(seat[o] for o in owners_by_name)
    moved = round_points(variant, RoundInput(len(names), 0, owners, story_position, votes), before)
    return {name: moved[seat[name]] for name in sorted(names)}


def _positions(table: dict[str, str]) -> list[int]:
    positions: list[int] = []
    for key in table:
        try:
            pos = int(key)
        except ValueError:
            raise RoundInputError(f"table position {key!r} is not a number") from None
        positions.append(pos)
    positions.sort()
    if not positions:
        raise RoundInputError("the table is empty")
    if positions != list(range(1, len(positions) + 1)):
        raise RoundInputError(
            f"table positions must be numbered 1 to {len(positions)} without gaps"
        )
    return positions
