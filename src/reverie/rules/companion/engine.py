"""The companion round, for every association variant played with a real box.

Each turn: the storyteller tells the clue aloud and taps :class:`~.actions.Tell`; the
others lay a card face down; the storyteller counts the cards on the table
(:class:`~.actions.Count`); then every seat enters, in secret, the position of its own
card (:class:`~.actions.Place`) and its vote (:class:`~.actions.Vote`), never its own
position. The positions are checked only once every one is in (until then a seat may
enter its own again): if two claim one place, every position and vote is cleared and the
whole table looks again, nobody named, so a clash tells nobody whose card lies where
(see :func:`_place`). When all are in, the round is revealed and scored by the
variant's own scorer
(:func:`reverie.rules.association.engine.round_points`, the one the online game and
``reverie score`` use), the pieces move, and the turn passes on. The table may take the
last reveal back (:class:`~.actions.Undo`) and end the game when its cards run out
(:class:`~.actions.Finish`).

``apply(state, action)`` returns the new state or raises
:class:`~reverie.rules.errors.IllegalAction`; the old state is immutable.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Literal

from msgspec.structs import replace

from reverie.rules.association.engine import (
    check_player_count,
    highest_rolls,
    restriction_for,
    round_points,
    score_ends_game,
)
from reverie.rules.association.scoring import RoundInput
from reverie.rules.association.variants import (
    FirstStoryteller,
    StorySource,
    Variant,
    find_variant,
)
from reverie.rules.companion.actions import Action, Count, Finish, Place, Roll, Tell, Undo, Vote
from reverie.rules.companion.state import GameState, Options, Phase, Revealed, Round, Undone
from reverie.rules.errors import IllegalAction, SetupError
from reverie.rules.seeded import rng_for

__all__ = ["apply", "new_game", "replay", "waiting_for"]

MAX_CLUE_LENGTH = 200
DIE_FACES = 6


# ---------------------------------------------------------------------------- setup


def new_game(
    variant: str, players: Sequence[str], seed: int, options: Options | None = None
) -> GameState:
    """A companion game of ``variant`` (an association variant) for ``players``.

    >>> g = new_game("pictoric", ["Ann", "Bob", "Cy"], seed=1)
    >>> g.phase.value, g.contenders
    ('dice', (0, 1, 2))
    """
    v = find_variant(variant)
    opts = options or Options()
    n = len(players)
    check_player_count(v, n)
    fs = opts.first_storyteller
    if isinstance(fs, int) and not 0 <= fs < n:
        raise SetupError(f"The first storyteller must be a seat from 1 to {n}.")
    if fs == "claim" and v.story_source is not StorySource.HAND:
        raise SetupError(
            f"In {v.title} the storyteller's card is dealt, so nobody can claim the first turn."
        )
    state = GameState(
        variant=v.name,
        players=tuple(players),
        seed=seed,
        options=opts,
        phase=Phase.CLUE,
        round=Round(number=1, storyteller=None),
        scores=(0,) * n,
    )
    if isinstance(fs, int):
        return _start_turn(state, v, fs, 1)
    how = FirstStoryteller(fs) if fs != "default" else v.first_storyteller
    if how is FirstStoryteller.CLAIM:
        return state
    if how is FirstStoryteller.RANDOM:
        return _start_turn(state, v, rng_for(seed, "first").randrange(n), 1)
    everyone = tuple(range(n))
    return replace(state, phase=Phase.DICE, rolls=((0,) * n,), contenders=everyone)


def die(seed: int, row: int, seat: int) -> int:
    """The number ``seat`` rolls in roll ``row`` (0-based) of the game with ``seed``.

    >>> 1 <= die(5, 0, 2) <= DIE_FACES
    True
    """
    return rng_for(seed, "die", row, seat).randint(1, DIE_FACES)


def _start_turn(state: GameState, v: Variant, storyteller: int, number: int) -> GameState:
    restriction = restriction_for(state.options.restrictions, v, state.scores[storyteller])
    rnd = Round(number=number, storyteller=storyteller, restriction=restriction)
    return replace(state, phase=Phase.CLUE, round=rnd)


# ---------------------------------------------------------------------------- queries


def waiting_for(state: GameState) -> tuple[int, ...]:
    """The seats whose tap the table is waiting for.

    >>> g = new_game("dixit", ["A", "B", "C"], seed=2)
    >>> waiting_for(g)  # anyone may claim the first turn
    (0, 1, 2)
    """
    rnd = state.round
    n = len(state.players)
    if state.phase is Phase.DICE:
        row = state.rolls[-1]
        return tuple(s for s in state.contenders if row[s] == 0)
    if state.phase is Phase.CLUE:
        return tuple(range(n)) if rnd.storyteller is None else (rnd.storyteller,)
    if state.phase is Phase.COUNT:
        assert rnd.storyteller is not None
        return (rnd.storyteller,)
    if state.phase is Phase.SECRET:
        return tuple(s for s in range(n) if _owes(state, s))
    return ()


def _owes(state: GameState, seat: int) -> bool:
    """Whether ``seat`` still has a position or a vote to enter."""
    rnd = state.round
    st = rnd.storyteller
    if _places(state, seat) and rnd.claims[seat] is None:
        return True
    return seat != st and rnd.votes[seat] is None


def _places(state: GameState, seat: int) -> bool:
    """Whether ``seat`` enters a position this round (in the gallery only the
    storyteller, whose position is the card they picked)."""
    gallery = find_variant(state.variant).story_source is StorySource.GALLERY
    return not gallery or seat == state.round.storyteller


# ---------------------------------------------------------------------------- actions


def apply(state: GameState, action: Action) -> GameState:
    """The game after ``action``; raises :class:`IllegalAction` if the rules refuse it.

    >>> g = new_game("dixit", ["Ann", "Bob", "Cy"], seed=1, options=Options(first_storyteller=0))
    >>> apply(g, Vote(1, 2))
    Traceback (most recent call last):
    ...
    reverie.rules.errors.IllegalAction: Votes come once the cards are on the table.
    """
    if not 0 <= action.seat < len(state.players):
        raise IllegalAction("unknown_seat", "There is no such seat at this table.")
    if isinstance(action, Undo):
        new = _undo(state, action)
    elif state.phase is Phase.OVER:
        raise IllegalAction("game_over", "The game is over.")
    elif isinstance(action, Roll):
        new = _roll(state, action)
    elif isinstance(action, Tell):
        new = _tell(state, action)
    elif isinstance(action, Count):
        new = _count(state, action)
    elif isinstance(action, Place):
        new = _place(state, action)
    elif isinstance(action, Vote):
        new = _vote(state, action)
    else:
        new = _finish(state, action)
    return replace(new, version=state.version + 1)


def _roll(state: GameState, a: Roll) -> GameState:
    if state.phase is not Phase.DICE:
        raise IllegalAction("wrong_phase", "The dice have already chosen the storyteller.")
    row = state.rolls[-1]
    if a.seat not in state.contenders:
        raise IllegalAction("not_rolling", "Only the players tied on the highest roll again.")
    if row[a.seat]:
        raise IllegalAction("already_rolled", "You have rolled; wait for the others.")
    rolled = (*row[: a.seat], die(state.seed, len(state.rolls) - 1, a.seat), *row[a.seat + 1 :])
    rolls = (*state.rolls[:-1], rolled)
    if any(rolled[s] == 0 for s in state.contenders):
        return replace(state, rolls=rolls)
    top = highest_rolls(rolled)
    if len(top) > 1:
        n = len(state.players)
        return replace(state, rolls=(*rolls, (0,) * n), contenders=top)
    v = find_variant(state.variant)
    return _start_turn(replace(state, rolls=rolls, contenders=()), v, top[0], 1)


def _tell(state: GameState, a: Tell) -> GameState:
    if state.phase is Phase.DICE:
        raise IllegalAction("wrong_phase", "Roll the dice first: the highest tells first.")
    if state.phase is not Phase.CLUE:
        raise IllegalAction("wrong_phase", "The clue has already been told this turn.")
    v = find_variant(state.variant)
    rnd = state.round
    if rnd.storyteller is None:  # the first to tell takes the turn (Dixit)
        state = _start_turn(state, v, a.seat, rnd.number)
        rnd = state.round
    st = rnd.storyteller
    assert st is not None
    if a.seat != st:
        raise IllegalAction("not_your_turn", f"{state.players[st]} is the storyteller this turn.")
    clue = " ".join(a.text.split())
    if len(clue) > MAX_CLUE_LENGTH:
        raise IllegalAction(
            "clue_too_long", f"The clue is too long: at most {MAX_CLUE_LENGTH} characters."
        )
    return replace(state, phase=Phase.COUNT, round=replace(rnd, told=True, clue=clue))


def _count(state: GameState, a: Count) -> GameState:
    if state.phase is not Phase.COUNT:
        raise IllegalAction("wrong_phase", "The cards are not being counted now.")
    rnd = state.round
    if a.seat != rnd.storyteller:
        raise IllegalAction("not_your_turn", "The storyteller counts the cards on the table.")
    v = find_variant(state.variant)
    n = len(state.players)
    if v.story_source is StorySource.GALLERY:
        if not 2 <= a.cards <= v.gallery_size:
            raise IllegalAction(
                "bad_count", f"The gallery shows 2 to {v.gallery_size} cards, not {a.cards}."
            )
    elif a.cards != n:
        raise IllegalAction(
            "bad_count",
            f"Everyone lays one card, so the table should hold {n} cards, not {a.cards}: "
            "count again.",
        )
    empty = (None,) * n
    rnd = replace(rnd, count=a.cards, claims=empty, votes=empty, clashes=0)
    return replace(state, phase=Phase.SECRET, round=rnd)


def _in_secret(state: GameState, position: int) -> Round:
    if state.phase is not Phase.SECRET:
        raise IllegalAction("wrong_phase", "Votes come once the cards are on the table.")
    rnd = state.round
    assert rnd.count is not None
    if not 1 <= position <= rnd.count:
        raise IllegalAction(
            "unknown_position", f"Choose a position from 1 to {rnd.count} on the table."
        )
    return rnd


def _place(state: GameState, a: Place) -> GameState:
    """Enter (or, until every position is in, enter again) one's card's position.

    The positions are compared only when the last one comes in, never one against
    another as they arrive: a player who waits for everyone else and then claims a
    place that is not theirs would otherwise learn from each clash whose card lies
    there (issue #24: the storyteller's, in 7 of 8 rounds). When every position is in,
    every other card's place is claimed, so a clash says only "some claim is wrong",
    which the one who made it knew already. A clash clears every position and vote and
    asks the whole table to look again, naming nobody: the owner of the place claimed
    twice is asked exactly as everyone else is, and the public view counts clashes only.
    So another try never pays, and the number of tries needs no limit (a player who
    wants to stall the table can do so by not entering at all).
    """
    rnd = _in_secret(state, a.position)
    seat = a.seat
    if not _places(state, seat):
        raise IllegalAction("no_card", "Only the storyteller has cards in the gallery.")
    if _all_placed(state, rnd):
        raise IllegalAction("already_placed", "Your card's position is already entered.")
    claims = list(rnd.claims)
    votes = list(rnd.votes)
    claims[seat] = a.position
    votes[seat] = None  # a vote given from another position is given again
    rnd = replace(rnd, claims=tuple(claims), votes=tuple(votes))
    if _all_placed(state, rnd):
        entered = [p for p in rnd.claims if p is not None]
        if len(set(entered)) < len(entered):
            empty = (None,) * len(state.players)
            rnd = replace(rnd, claims=empty, votes=empty, clashes=rnd.clashes + 1)
    return _maybe_reveal(replace(state, round=rnd))


def _all_placed(state: GameState, rnd: Round) -> bool:
    """Whether every seat that places has entered its position (then they are checked
    and locked)."""
    return all(rnd.claims[s] is not None for s in range(len(state.players)) if _places(state, s))


def _vote(state: GameState, a: Vote) -> GameState:
    rnd = _in_secret(state, a.position)
    seat = a.seat
    if seat == rnd.storyteller:
        raise IllegalAction("storyteller_votes", "The storyteller does not vote.")
    if rnd.votes[seat] is not None:
        raise IllegalAction("already_voted", "You have already voted; votes cannot be changed.")
    own = rnd.claims[seat]
    if _places(state, seat):
        if own is None:
            raise IllegalAction("place_first", "First enter where your own card lies.")
        if own == a.position:
            raise IllegalAction("own_card", "You cannot vote for your own card.")
    votes = (*rnd.votes[:seat], a.position, *rnd.votes[seat + 1 :])
    return _maybe_reveal(replace(state, round=replace(rnd, votes=votes)))


def _maybe_reveal(state: GameState) -> GameState:
    """Reveal and score the round once every position and vote is in."""
    if waiting_for(state):
        return state
    rnd = state.round
    st = rnd.storyteller
    assert st is not None and rnd.count is not None
    v = find_variant(state.variant)
    n = len(state.players)
    story_position = rnd.claims[st]
    assert story_position is not None
    if v.story_source is StorySource.GALLERY:
        owners: tuple[int, ...] = (st,) * rnd.count
    else:
        by_position = {p: s for s, p in enumerate(rnd.claims)}
        owners = tuple(by_position[p] for p in range(1, rnd.count + 1))
    votes = {s: p for s, p in enumerate(rnd.votes) if p is not None}
    points = round_points(v, RoundInput(n, st, owners, story_position, votes), state.scores)
    scores = tuple(a + b for a, b in zip(state.scores, points, strict=True))
    result = Revealed(
        number=rnd.number,
        storyteller=st,
        clue=rnd.clue,
        restriction=rnd.restriction,
        owners=owners,
        story_position=story_position,
        votes=rnd.votes,
        points=tuple(points),
    )
    state = replace(state, scores=scores, history=(*state.history, result))
    options = state.options
    if score_ends_game(v, scores, options.target_score, options.track_length):
        return _end(state, "score")
    return _start_turn(state, v, (st + 1) % n, rnd.number + 1)


def _end(state: GameState, by: Literal["score", "table"]) -> GameState:
    best = max(state.scores)
    winners = tuple(s for s, p in enumerate(state.scores) if p == best)
    return replace(state, phase=Phase.OVER, winners=winners, ended_by=by)


def _finish(state: GameState, a: Finish) -> GameState:
    if state.phase is not Phase.CLUE or state.round.told:
        raise IllegalAction(
            "wrong_phase", "End the game between turns, before the next clue is told."
        )
    if not state.history:
        raise IllegalAction("too_early", "Play at least one round before ending the game.")
    return _end(state, "table")


def _undo(state: GameState, a: Undo) -> GameState:
    if not state.history:
        raise IllegalAction("nothing_to_undo", "No round has been revealed yet.")
    last = state.history[-1]
    fresh_turn = state.phase is Phase.CLUE and not state.round.told
    if not (fresh_turn or state.ended_by == "score"):
        raise IllegalAction(
            "too_late", "Only the last reveal can be taken back, before the next clue is told."
        )
    scores = tuple(s - p for s, p in zip(state.scores, last.points, strict=True))
    rnd = Round(
        number=last.number,
        storyteller=last.storyteller,
        restriction=last.restriction,
        told=True,
        clue=last.clue,
    )
    return replace(
        state,
        phase=Phase.COUNT,
        round=rnd,
        scores=scores,
        history=state.history[:-1],
        undone=(*state.undone, Undone(a.seat, last)),
        winners=(),
        ended_by=None,
    )


def replay(
    variant: str,
    players: Sequence[str],
    seed: int,
    actions: Iterable[Action],
    options: Options | None = None,
) -> GameState:
    """Rebuild a game from its seed and the actions the log holds."""
    state = new_game(variant, players, seed, options)
    for action in actions:
        state = apply(state, action)
    return state
