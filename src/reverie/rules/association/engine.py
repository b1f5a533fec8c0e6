"""The association turn, for every variant: setup, actions, scoring, refill and the end.

``apply(state, action)`` returns a :class:`Transition` (the new state and the public
events) or raises :class:`~reverie.rules.errors.IllegalAction` with a message for the
player; the old state is immutable, so a rejected action changes nothing. Everything a
variant changes is data in :mod:`.variants`; this module holds the one flow.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, NamedTuple, NoReturn

from msgspec.structs import replace

from reverie.rules.association import events as ev
from reverie.rules.association.actions import Action, Clue, Submit, Timeout, Vote
from reverie.rules.association.clues import Restriction, clean_clue
from reverie.rules.association.commitment import commit
from reverie.rules.association.deck_fit import cards_needed
from reverie.rules.association.scoring import RoundInput, apply_floor
from reverie.rules.association.state import GameState, Options, Phase, Round, RoundResult
from reverie.rules.association.variants import (
    VARIANTS,
    EndRule,
    FirstStoryteller,
    Refill,
    StorySource,
    Variant,
    find_variant,
)
from reverie.rules.errors import IllegalAction, SetupError
from reverie.rules.seeded import rng_for, secret_hex

__all__ = [
    "Transition",
    "apply",
    "highest_rolls",
    "new_game",
    "replay",
    "restriction_for",
    "round_points",
    "score_ends_game",
    "waiting_for",
]


class Transition(NamedTuple):
    """The result of a legal action: the new state and what happened, publicly."""

    state: GameState
    events: tuple[ev.Event, ...]


# ---------------------------------------------------------------------------- setup


def check_player_count(v: Variant, n: int) -> None:
    """Raise ``SetupError`` unless ``n`` players may play ``v`` (online or with the box).

    >>> check_player_count(find_variant("dixit"), 7)
    Traceback (most recent call last):
    reverie.rules.errors.SetupError: Dixit is played by 3 to 6 players, not 7.
    """
    if not v.min_players <= n <= v.max_players:
        raise SetupError(
            f"{v.title} is played by {v.min_players} to {v.max_players} players, not {n}."
        )


def new_game(
    variant: str,
    players: Sequence[str],
    seed: int,
    *,
    card_count: int,
    options: Options | None = None,
) -> GameState:
    """Set up a game: pick the deck from the content deck, deal, choose the storyteller.

    ``card_count`` is the size of the content deck the room plays with; cards are its
    indexes. Raises :class:`SetupError` with a readable message for an impossible table.

    >>> g = new_game("dixit", ["Ann", "Bob", "Cy"], seed=1, card_count=100)
    >>> len(g.deck), [len(h) for h in g.hands], g.phase.value
    (66, [6, 6, 6], 'clue')
    """
    v = find_variant(variant)
    opts = options or Options()
    n = len(players)
    check_player_count(v, n)
    _check_options(v, opts, n)
    # A deck smaller than the variant's (a player's own pictures) is played whole.
    size = opts.deck_size or min(v.deck_size(n, card_count), card_count)
    needed = cards_needed(v, n)
    if size < needed:
        raise SetupError(
            f"{v.title} for {n} players needs a deck of at least {needed} cards.",
            "deck_too_small",
            {"game": v.title, "variant": v.name, "players": n, "need": needed, "cards": size},
        )
    if size > card_count:
        raise SetupError(
            f"{v.title} for {n} players uses {size} cards; this deck has only {card_count}."
        )
    deck = tuple(rng_for(seed, "deck").sample(range(card_count), size))
    h = v.hand_size
    hands = tuple(deck[s * h : (s + 1) * h] for s in range(n))
    deck = deck[n * h :]

    storyteller, rolls = _first_storyteller(v, opts, n, seed)
    state = GameState(
        variant=v.name,
        players=tuple(players),
        seed=seed,
        card_count=card_count,
        options=opts,
        phase=Phase.CLUE,
        round=Round(number=1, storyteller=None),
        hands=hands,
        deck=deck,
        discard=(),
        scores=(0,) * n,
        first_rolls=rolls,
        in_play=size,
    )
    state, _ = _start_turn(state, v, storyteller, 1, deck, (), hands)
    return state


def _check_options(v: Variant, o: Options, n: int) -> None:
    fs = o.first_storyteller
    if isinstance(fs, int) and not 0 <= fs < n:
        raise SetupError(f"The first storyteller must be a seat from 1 to {n}.")
    if fs == "claim" and v.story_source is not StorySource.HAND:
        raise SetupError(
            f"In {v.title} the storyteller's card is dealt, so nobody can claim the first turn."
        )
    if o.target_score is not None and o.target_score < 1:
        raise SetupError("The target score must be at least 1.")
    if o.track_length < 1:
        raise SetupError("The track must be at least 1 step long.")
    if o.deck_size is not None and o.deck_size < 1:
        raise SetupError("The deck size must be a positive number of cards.")


def _first_storyteller(
    v: Variant, o: Options, n: int, seed: int
) -> tuple[int | None, tuple[tuple[int, ...], ...]]:
    """The first storyteller (``None``: the first to claim) and any dice rolled for it."""
    fs = o.first_storyteller
    if isinstance(fs, int):
        return fs, ()
    how = FirstStoryteller(fs) if fs != "default" else v.first_storyteller
    if how is FirstStoryteller.CLAIM:
        return None, ()
    rng = rng_for(seed, "first")
    if how is FirstStoryteller.RANDOM:
        return rng.randrange(n), ()
    # Dice: everyone rolls, the tied highest roll again. A roll of 0 in the record means
    # the seat was out of the re-roll.
    contenders: tuple[int, ...] = tuple(range(n))
    rolls: list[tuple[int, ...]] = []
    while True:
        roll = [0] * n
        for s in contenders:
            roll[s] = rng.randint(1, 6)
        rolls.append(tuple(roll))
        contenders = highest_rolls(roll)
        if len(contenders) == 1:
            return contenders[0], tuple(rolls)


def highest_rolls(roll: Sequence[int]) -> tuple[int, ...]:
    """The seats that rolled the highest number (0: did not roll): one seat starts, a tie
    rolls again among the tied.

    >>> highest_rolls([3, 0, 5, 5]), highest_rolls([6, 2, 0])
    ((2, 3), (0,))
    """
    top = max(roll)
    return tuple(s for s, r in enumerate(roll) if r == top)


# ---------------------------------------------------------------------------- turns


def _draw(
    seed: int, number: int, deck: tuple[int, ...], discard: tuple[int, ...], k: int, reshuffle: bool
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """Draw up to ``k`` cards; returns (drawn, deck, discard)."""
    if len(deck) >= k or not reshuffle or not discard:
        return deck[:k], deck[k:], discard
    drawn = deck
    pile = list(discard)
    rng_for(seed, "reshuffle", number, len(pile)).shuffle(pile)
    rest = k - len(drawn)
    return drawn + tuple(pile[:rest]), tuple(pile[rest:]), ()


def _start_turn(
    state: GameState,
    v: Variant,
    storyteller: int | None,
    number: int,
    deck: tuple[int, ...],
    discard: tuple[int, ...],
    hands: tuple[tuple[int, ...], ...],
) -> tuple[GameState, tuple[ev.Event, ...]]:
    """Open turn ``number`` for ``storyteller`` (``None``: the first to claim it)."""
    n = len(state.players)
    waiting = tuple(range(n)) if storyteller is None else (storyteller,)
    rnd = Round(number=number, storyteller=storyteller, submissions=(None,) * n, waiting=waiting)
    if v.end is EndRule.HANDS_EMPTY and any(not hand for hand in hands):
        return _end_game(state, deck=deck, discard=discard, hands=hands, round=rnd)
    if storyteller is not None:
        rnd = replace(rnd, restriction=_restriction(state, v, storyteller))
        if v.story_source is StorySource.DECK_TOP:
            top, deck, discard = _draw(state.seed, number, deck, discard, 1, v.reshuffle_discard)
            if not top:
                return _end_game(state, deck=deck, discard=discard, hands=hands, round=rnd)
            rnd = replace(rnd, story_card=top[0])
        elif v.story_source is StorySource.GALLERY:
            cards, deck, discard = _draw(
                state.seed, number, deck, discard, v.gallery_size, v.reshuffle_discard
            )
            if len(cards) < 2:
                discard += cards
                return _end_game(state, deck=deck, discard=discard, hands=hands, round=rnd)
            rnd = replace(rnd, table=cards, owners=(storyteller,) * len(cards))
    new = replace(state, phase=Phase.CLUE, round=rnd, deck=deck, discard=discard, hands=hands)
    return new, ()


def _restriction(state: GameState, v: Variant, seat: int) -> Restriction | None:
    return restriction_for(state.options.restrictions, v, state.scores[seat])


def restriction_for(setting: str, v: Variant, score: int) -> Restriction | None:
    """The clue restriction of a storyteller with ``score`` under the table's
    ``restrictions`` setting: the board's special square, none, or one for the game.

    >>> from reverie.rules.association.variants import IMAGINARIUM
    >>> restriction_for("board", IMAGINARIUM, 3), restriction_for("off", IMAGINARIUM, 3)
    (<Restriction.FOUR_WORDS: 'four_words'>, None)
    """
    if setting == "off":
        return None
    if setting == "board":
        return v.board.restriction_at(score)
    return Restriction(setting)


def _end_game(
    state: GameState,
    *,
    deck: tuple[int, ...],
    discard: tuple[int, ...],
    hands: tuple[tuple[int, ...], ...],
    round: Round,
) -> tuple[GameState, tuple[ev.Event, ...]]:
    best = max(state.scores)
    winners = tuple(s for s, p in enumerate(state.scores) if p == best)
    new = replace(
        state,
        phase=Phase.OVER,
        round=round,
        deck=deck,
        discard=discard,
        hands=hands,
        winners=winners,
    )
    return new, (ev.GameEnded(winners),)


def waiting_for(state: GameState) -> tuple[int, ...]:
    """The seats the table is waiting for (all seats while a first storyteller is open).

    >>> g = new_game("imaginarium", ["A", "B", "C"], seed=3, card_count=100)
    >>> waiting_for(g) == (g.round.storyteller,)
    True
    """
    if state.phase is Phase.OVER:
        return ()
    return state.round.waiting


def _others(n: int, storyteller: int, sat_out: tuple[int, ...] = ()) -> tuple[int, ...]:
    if sat_out:
        return tuple([s for s in range(n) if s != storyteller and s not in sat_out])
    return tuple(range(storyteller)) + tuple(range(storyteller + 1, n))


# ---------------------------------------------------------------------------- actions


def apply(state: GameState, action: Action) -> Transition:
    """Apply one action; raise :class:`IllegalAction` if the rules do not allow it.

    >>> g = new_game("dixit", ["Ann", "Bob", "Cy"], seed=1, card_count=100)
    >>> apply(g, Vote(seat=1, position=1))
    Traceback (most recent call last):
    ...
    reverie.rules.errors.IllegalAction: Voting has not started yet.
    """
    if state.phase is Phase.OVER:
        raise IllegalAction("game_over", "The game is over.")
    handler = _HANDLERS.get(type(action))
    if handler is None:
        raise IllegalAction("unknown_action", "That is not a move in this game.")
    new, events = handler(state, VARIANTS[state.variant], action)
    return Transition(replace(new, version=state.version + 1), events)


def _check_seat(state: GameState, seat: int) -> None:
    if not 0 <= seat < len(state.players):
        raise IllegalAction("unknown_seat", "There is no such seat at this table.")


def _why_not(state: GameState, seat: int, acting: Phase) -> NoReturn:
    """Raise the error that explains why ``seat`` may not act in ``acting`` now."""
    _check_seat(state, seat)
    rnd = state.round
    phase = state.phase
    if acting is Phase.SUBMIT:
        if phase is Phase.CLUE:
            raise IllegalAction("wrong_phase", "Wait for the storyteller's clue.")
        if phase is not Phase.SUBMIT:
            raise IllegalAction("wrong_phase", "The cards are already on the table.")
        if seat == rnd.storyteller:
            raise IllegalAction(
                "not_your_turn", "You are the storyteller: your card is already down."
            )
        if seat in rnd.sat_out:
            raise IllegalAction("sat_out", "You ran out of time and sit out this round.")
        raise IllegalAction("already_played", "You have already played a card this turn.")
    if phase is not Phase.VOTE:
        raise IllegalAction("wrong_phase", "Voting has not started yet.")
    if seat == rnd.storyteller:
        raise IllegalAction("storyteller_votes", "The storyteller does not vote.")
    if seat in rnd.sat_out:
        raise IllegalAction("sat_out", "You ran out of time and sit out this round.")
    raise IllegalAction("already_voted", "You have already voted; votes cannot be changed.")


def _clue(state: GameState, v: Variant, a: Clue) -> tuple[GameState, tuple[ev.Event, ...]]:
    _check_seat(state, a.seat)
    if state.phase is not Phase.CLUE:
        raise IllegalAction("wrong_phase", "The clue has already been given this turn.")
    rnd = state.round
    events: tuple[ev.Event, ...] = ()
    if rnd.storyteller is None:
        # Claim mode: whoever first gives a clue becomes the storyteller.
        rnd = replace(
            rnd,
            storyteller=a.seat,
            restriction=_restriction(state, v, a.seat),
            waiting=(a.seat,),
        )
        events = (ev.StorytellerChosen(a.seat, "claim"),)
    st = rnd.storyteller
    assert st is not None
    if a.seat != st:
        raise IllegalAction(
            "not_your_turn", f"{state.players[st]} is the storyteller this turn, not you."
        )
    text = clean_clue(a.text, rnd.restriction)
    hands = state.hands
    if v.story_source is StorySource.HAND:
        if a.card is None:
            raise IllegalAction("card_not_in_hand", "Pick one of the cards in your hand.")
        card = a.card
        hands = (*hands[:st], _without(hands[st], card), *hands[st + 1 :])
    elif v.story_source is StorySource.DECK_TOP:
        assert rnd.story_card is not None
        if a.card is not None and a.card != rnd.story_card:
            raise IllegalAction(
                "card_not_in_hand", "In Pictoric you tell about the card you drew from the deck."
            )
        card = rnd.story_card
    else:
        if a.card is None or a.card not in rnd.table:
            raise IllegalAction("card_not_in_hand", "Pick one of the six cards you laid out.")
        card = a.card
    salt = secret_hex(state.seed, "commit", rnd.number)
    rnd = replace(
        rnd,
        clue=text,
        story_card=card,
        salt=salt,
        commitment=commit(card, salt),
        waiting=_others(len(state.players), st),
    )
    if v.story_source is StorySource.GALLERY:
        rnd = replace(rnd, votes=(None,) * len(state.players))
        phase = Phase.VOTE
    else:
        phase = Phase.SUBMIT
    new = replace(state, phase=phase, round=rnd, hands=hands)
    return new, (*events, ev.ClueGiven(st, text))


def _submit(state: GameState, v: Variant, a: Submit) -> tuple[GameState, tuple[ev.Event, ...]]:
    rnd = state.round
    seat = a.seat
    waiting = rnd.waiting
    if state.phase is not Phase.SUBMIT or seat not in waiting:
        _why_not(state, seat, Phase.SUBMIT)
    card = a.card
    hands = state.hands
    hands = (*hands[:seat], _without(hands[seat], card), *hands[seat + 1 :])
    subs = rnd.submissions
    subs = (*subs[:seat], card, *subs[seat + 1 :])
    waiting = _without(waiting, seat)
    new = replace(state, round=replace(rnd, submissions=subs, waiting=waiting), hands=hands)
    if waiting:
        return new, (ev.CardPlayed(seat),)
    laid, events = _lay_out(new)
    return laid, (ev.CardPlayed(seat), *events)


def _without(hand: tuple[int, ...], card: int) -> tuple[int, ...]:
    """The tuple less one card (or seat); :class:`IllegalAction` if it is not there."""
    try:
        i = hand.index(card)
    except ValueError:
        raise IllegalAction("card_not_in_hand", "That card is not in your hand.") from None
    return hand[:i] + hand[i + 1 :]


def _lay_out(state: GameState) -> tuple[GameState, tuple[ev.Event, ...]]:
    """Shuffle the storyteller's card with the others' and open the vote."""
    rnd = state.round
    st = rnd.storyteller
    assert st is not None and rnd.story_card is not None
    placed = [(rnd.story_card, st)]
    placed += [(c, s) for s, c in enumerate(rnd.submissions) if c is not None]
    rng_for(state.seed, "table", rnd.number).shuffle(placed)
    rnd = replace(
        rnd,
        table=tuple(c for c, _ in placed),
        owners=tuple(s for _, s in placed),
        votes=(None,) * len(state.players),
        waiting=_others(len(state.players), st, rnd.sat_out),
    )
    new = replace(state, phase=Phase.VOTE, round=rnd)
    if not rnd.waiting:
        # Everybody else sat out: there is nobody to vote.
        return _finish_round(new, find_variant(state.variant), (ev.TableLaidOut(len(placed)),))
    return new, (ev.TableLaidOut(len(placed)),)


def _vote(state: GameState, v: Variant, a: Vote) -> tuple[GameState, tuple[ev.Event, ...]]:
    rnd = state.round
    seat = a.seat
    waiting = rnd.waiting
    if state.phase is not Phase.VOTE or seat not in waiting:
        _why_not(state, seat, Phase.VOTE)
    pos = a.position
    owners = rnd.owners
    if not 1 <= pos <= len(owners):
        raise IllegalAction(
            "unknown_position", f"Vote for a card from 1 to {len(owners)} on the table."
        )
    if owners[pos - 1] == seat:
        raise IllegalAction("own_card", "You cannot vote for your own card.")
    votes = rnd.votes
    votes = (*votes[:seat], pos, *votes[seat + 1 :])
    waiting = _without(waiting, seat)
    new = replace(state, round=replace(rnd, votes=votes, waiting=waiting))
    if waiting:
        return new, (ev.Voted(seat),)
    return _finish_round(new, v, (ev.Voted(seat),))


def _timeout(state: GameState, v: Variant, a: Timeout) -> tuple[GameState, tuple[ev.Event, ...]]:
    rnd = state.round
    pending = waiting_for(state)
    policy = state.options.on_timeout
    if state.phase is Phase.CLUE:
        if rnd.storyteller is None:
            seat = rng_for(state.seed, "claim-timeout").randrange(len(state.players))
            rnd = replace(
                rnd, storyteller=seat, restriction=_restriction(state, v, seat), waiting=(seat,)
            )
            return replace(state, round=rnd), (ev.StorytellerChosen(seat, "random"),)
        return _skip_turn(state, v)
    if state.phase is Phase.SUBMIT:
        if policy == "random":
            hands = list(state.hands)
            subs = list(rnd.submissions)
            for s in pending:
                card = rng_for(state.seed, "timeout-card", rnd.number, s).choice(hands[s])
                subs[s] = card
                hands[s] = tuple(c for c in hands[s] if c != card)
            rnd = replace(rnd, submissions=tuple(subs), waiting=())
            new = replace(state, hands=tuple(hands), round=rnd)
            handled = "random_card"
        else:
            new = replace(state, round=replace(rnd, sat_out=rnd.sat_out + pending))
            handled = "sat_out"
        laid, events = _lay_out(new)
        return laid, (ev.TimedOut(pending, handled), *events)
    # Voting.
    if policy == "random":
        votes = list(rnd.votes)
        for s in pending:
            choices = [p for p, owner in enumerate(rnd.owners, 1) if owner != s]
            votes[s] = rng_for(state.seed, "timeout-vote", rnd.number, s).choice(choices)
        new = replace(state, round=replace(rnd, votes=tuple(votes), waiting=()))
        handled = "random_vote"
    else:
        new = replace(state, round=replace(rnd, sat_out=rnd.sat_out + pending, waiting=()))
        handled = "sat_out"
    return _finish_round(new, v, (ev.TimedOut(pending, handled),))


def _skip_turn(state: GameState, v: Variant) -> tuple[GameState, tuple[ev.Event, ...]]:
    """The storyteller ran out of time: no points, the turn passes on."""
    rnd = state.round
    st = rnd.storyteller
    assert st is not None
    n = len(state.players)
    # A dealt story card (Pictoric) or gallery goes to the discard pile; a hand card was
    # never taken from the hand.
    dealt = rnd.table if v.story_source is StorySource.GALLERY else ()
    if v.story_source is StorySource.DECK_TOP and rnd.story_card is not None:
        dealt = (rnd.story_card,)
    result = RoundResult(
        number=rnd.number,
        storyteller=st,
        clue=None,
        restriction=rnd.restriction,
        table=(),
        owners=(),
        story_position=None,
        votes=(None,) * n,
        points=(0,) * n,
        commitment=None,
        salt="",
        story_card=None,
        skipped=True,
    )
    new = replace(state, history=(*state.history, result))
    nxt, events = _start_turn(
        new, v, (st + 1) % n, rnd.number + 1, state.deck, state.discard + dealt, state.hands
    )
    return nxt, (ev.TurnSkipped(st), *events)


def _finish_round(
    state: GameState, v: Variant, events: tuple[ev.Event, ...]
) -> tuple[GameState, tuple[ev.Event, ...]]:
    """Reveal, score, discard, refill, check the end and open the next turn."""
    rnd = state.round
    st = rnd.storyteller
    assert st is not None and rnd.story_card is not None
    n = len(state.players)
    story_position = rnd.table.index(rnd.story_card) + 1
    votes = {s: p for s, p in enumerate(rnd.votes) if p is not None}
    points = round_points(v, RoundInput(n, st, rnd.owners, story_position, votes), state.scores)
    scores = tuple(a + b for a, b in zip(state.scores, points, strict=True))
    result = RoundResult(
        number=rnd.number,
        storyteller=st,
        clue=rnd.clue,
        restriction=rnd.restriction,
        table=rnd.table,
        owners=rnd.owners,
        story_position=story_position,
        votes=rnd.votes,
        points=tuple(points),
        commitment=rnd.commitment,
        salt=rnd.salt,
        story_card=rnd.story_card,
    )
    discard = state.discard + rnd.table
    deck = state.deck
    hands = state.hands
    deck_short = False
    if v.refill is Refill.TO_HAND_SIZE:
        hands, deck, deck_short = _refill_to(hands, deck, v.hand_size, _from_next(st, n))
    elif v.refill is Refill.ONE_PLUS_FINDERS:
        finders = {s for s, p in votes.items() if p == story_position}
        wants = [0 if s == st else 1 + (s in finders) for s in range(n)]
        hands, deck, discard = _draw_each(
            state.seed, rnd.number, hands, deck, discard, wants, v.hand_cap, _from_next(st, n)
        )
    new = replace(state, scores=scores, history=(*state.history, result))
    events = (*events, ev.RoundScored(rnd.number))
    if _reached_end(new, v, deck, deck_short):
        end, more = _end_game(new, deck=deck, discard=discard, hands=hands, round=rnd)
        return end, events + more
    nxt, more = _start_turn(new, v, (st + 1) % n, rnd.number + 1, deck, discard, hands)
    return nxt, events + more


def _from_next(storyteller: int, n: int) -> list[int]:
    """Seats in the order cards are dealt: from the storyteller's left, clockwise."""
    return [(storyteller + i) % n for i in range(1, n + 1)]


def _refill_to(
    hands: tuple[tuple[int, ...], ...], deck: tuple[int, ...], size: int, order: Iterable[int]
) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...], bool]:
    """Top every hand up to ``size`` in deal order; ``short`` if the deck ran out."""
    new = list(hands)
    top = 0
    for s in order:
        want = size - len(new[s])
        if want > 0:
            new[s] = new[s] + deck[top : top + want]
            top += want
    return tuple(new), deck[top:], top > len(deck)


def _draw_each(
    seed: int,
    number: int,
    hands: tuple[tuple[int, ...], ...],
    deck: tuple[int, ...],
    discard: tuple[int, ...],
    wants: list[int],
    cap: int | None,
    order: Iterable[int],
) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...], tuple[int, ...]]:
    new = list(hands)
    for s in order:
        k = wants[s] if cap is None else min(wants[s], cap - len(new[s]))
        if k > 0:
            drawn, deck, discard = _draw(seed, number, deck, discard, k, True)
            new[s] = new[s] + drawn
    return tuple(new), deck, discard


def round_points(v: Variant, r: RoundInput, before: Sequence[int]) -> list[int]:
    """The points each seat moves for a revealed round: the variant's scoring, then the
    floor at the start of the track (the one scorer of the online and companion games)."""
    return apply_floor(v.score(r), list(before))


def score_ends_game(v: Variant, scores: Sequence[int], target: int | None, track: int) -> bool:
    """Whether the scores end the game: a target score reached, or a piece in
    Pictoric's PICTORICBOX (the end of a ``track`` steps long).

    >>> from reverie.rules.association.variants import PICTORIC, DIXIT
    >>> score_ends_game(PICTORIC, [40, 3], None, 40), score_ends_game(DIXIT, [40, 3], None, 40)
    (True, False)
    """
    if target is not None and max(scores) >= target:
        return True
    return v.end is EndRule.TRACK_END and max(scores) >= track


def _reached_end(state: GameState, v: Variant, deck: tuple[int, ...], deck_short: bool) -> bool:
    options = state.options
    if score_ends_game(v, state.scores, options.target_score, options.track_length):
        return True
    if v.end is EndRule.TRACK_END:
        return False
    if v.end is EndRule.DECK_DRAWN:
        return deck_short or not deck
    return False


_Handler = Callable[[GameState, Variant, Any], tuple[GameState, tuple[ev.Event, ...]]]
_HANDLERS: dict[type, _Handler] = {Vote: _vote, Submit: _submit, Clue: _clue, Timeout: _timeout}

# ---------------------------------------------------------------------------- replay


def replay(
    variant: str,
    players: Sequence[str],
    seed: int,
    actions: Iterable[Action],
    *,
    card_count: int,
    options: Options | None = None,
) -> GameState:
    """Rebuild a game from its seed and action log (the log holds only legal actions)."""
    state = new_game(variant, players, seed, card_count=card_count, options=options)
    for action in actions:
        state = apply(state, action).state
    return state
