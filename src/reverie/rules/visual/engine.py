"""The turn of the drawing game: setup, actions, moves, tokens and the end.

``apply(state, action)`` returns a :class:`Transition` (the new state and the public
events) or raises :class:`~reverie.rules.errors.IllegalAction`; the old state is
immutable, so a rejected action changes nothing. The engine never reads files, a clock or
the global random: the room passes the cards in (:func:`.cards.build_deck`) and sends
:class:`~.actions.TimeUp` when the timer named by ``Turn.timer`` runs out.

**Every phase has a timer** (all but ``over``; ``Turn.timer`` names it, its length is
``Options.<phase>_seconds``), so a game ends even if players walk away. ``TimeUp`` in
each phase:

* ``choose`` (default 20 s): a category is picked at random among the first four, from
  the seed (``rng_for(seed, "time_up", "choose", turn_number)``), as if the drawer chose it.
* ``think`` (5 s): the drawing starts.
* ``draw`` (60 s): nobody guessed; the turn fails (see below).
* ``move`` (30 s): the team that guessed the proverb makes the largest forward move that
  lands on the board (8 squares, or fewer to land exactly on 40).
* ``bonus`` (30 s): the team keeps the bonus token.
* ``lose`` (30 s): the team loses its lowest-value token (ties: the first it took).

The clock's decisions in ``choose``, ``move``, ``bonus`` and ``lose`` are announced by a
:class:`~.events.TimedOut` event before their usual events.

Decisions taken here (docs/specification.md §3 leaves them open):

* Guesses during the think time are refused (drawing has not started).
* A guess that matches (:mod:`.matching`) solves the turn at once; the drawer may also
  ``Accept`` any guess of their own team, or mark it ``Synonym`` (a hint only).
* Played on paper (the companion mode), nothing is typed: a drawer declares
  (``Declare``) that their team guessed aloud, which solves the turn like an accepted
  guess, and the turn's drawer may ``GiveUp`` (the table's own sand timer ran out),
  which fails the drawing exactly as its timer running out does.
* A **bonus** token: the team keeps it, or steals one token from an opposing team, and
  the bonus token then leaves the game (``GameState.removed``). With no token to steal
  the bonus token is kept without asking.
* A failed turn: the team picks the token it loses; the lost token leaves the game. No
  choice is asked when the team holds no token, or when all its tokens are alike (same
  value and kind).
* Proverb round: each other team's drawer is the member who draws next in its rotation
  (that does not use up its turn). The team that guesses first moves exactly 1–8 squares
  either way; a move off the board (past 40 or before 1) is refused, since the team picks
  where it lands. It then plays the next turn, and the fixed order resumes after it.
  Nobody guessing: the card is discarded and the usual next team plays.
* End: reaching exactly square 40 ends the game once its token is settled; with the
  ``"stay"`` option a pawn on 38 or 39 can only get there through a proverb round.
  ``turn_limit`` optionally ends a game that nobody finishes. Winners: highest token
  total, then the team that reached 40, then the team further along; teams still tied
  share the win.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NamedTuple

from msgspec.structs import replace

from reverie.rules.errors import IllegalAction, SetupError
from reverie.rules.seeded import rng_for
from reverie.rules.visual import events as ev
from reverie.rules.visual.actions import (
    Accept,
    Action,
    Choose,
    Declare,
    Forfeit,
    GiveUp,
    Guess,
    Keep,
    Move,
    Steal,
    Synonym,
    TimeUp,
)
from reverie.rules.visual.board import (
    FIRST_SQUARE,
    LAST_SQUARE,
    TOKEN_SQUARES,
    advance,
    deal_tokens,
    make_tokens,
)
from reverie.rules.visual.cards import CHOOSABLE, Card, category_value
from reverie.rules.visual.categories import CATEGORIES
from reverie.rules.visual.matching import Verdict, match_guess
from reverie.rules.visual.state import (
    GameState,
    GuessRecord,
    Options,
    Phase,
    Timer,
    Turn,
    TurnResult,
)

__all__ = [
    "MAX_GUESSES_PER_SEAT",
    "MAX_GUESS_LENGTH",
    "MAX_PROVERB_GUESSES_PER_SEAT",
    "Transition",
    "apply",
    "new_game",
    "replay",
    "subject",
    "waiting_for",
]

MAX_GUESS_LENGTH = 200
#: Guesses one seat may make in one turn: plenty for a minute of drawing, and it keeps
#: a flood of guesses from growing every frame of the room without end.
MAX_GUESSES_PER_SEAT = 40
#: In a proverb round every team guesses at once and a hit ends the round: fewer tries,
#: so a seat cannot sweep the language's proverbs by brute force.
MAX_PROVERB_GUESSES_PER_SEAT = 15
PROVERB_MAX_STEPS = 8

Events = tuple[ev.Event, ...]


class Transition(NamedTuple):
    """The result of a legal action: the new state and what happened, publicly."""

    state: GameState
    events: Events


# ---------------------------------------------------------------------------- setup


def new_game(
    players: Sequence[str],
    teams: Sequence[Sequence[int]],
    seed: int,
    *,
    cards: Sequence[Card],
    options: Options | None = None,
    aside: Sequence[int] = (),
) -> GameState:
    """Set up a game: deal the tokens, shuffle the cards, draw the first team by lot.

    ``teams`` lists the seats of each team; every seat plays in exactly one team, but
    the seats in ``aside``, which play in none (a shared device at a table playing on
    paper: it enters the table's decisions and never sees a subject).
    Raises :class:`SetupError` with a readable message for an impossible table.

    >>> from reverie.rules.visual.cards import Card
    >>> deck = [Card(("cup", "run", "port", "kite", "all is well"))]
    >>> g = new_game(["A", "B", "C", "D"], [[0, 1], [2, 3]], seed=1, cards=deck)
    >>> g.phase.value, g.pawns, sum(t is not None for t in g.squares)
    ('choose', (1, 1), 39)
    """
    opts = options or Options()
    team_tuple = tuple(tuple(members) for members in teams)
    _check_table(players, team_tuple, aside)
    _check_cards(cards)
    _check_options(opts)
    tokens = make_tokens(opts.token_values, opts.bonus_tokens, opts.bonus_value)
    deck = list(range(len(cards)))
    rng_for(seed, "deck").shuffle(deck)
    first = rng_for(seed, "first").randrange(len(team_tuple))
    state = GameState(
        players=tuple(players),
        teams=team_tuple,
        seed=seed,
        options=opts,
        cards=tuple(cards),
        tokens=tokens,
        squares=deal_tokens(len(tokens), seed),
        pawns=(FIRST_SQUARE,) * len(team_tuple),
        held=((),) * len(team_tuple),
        removed=(),
        deck=tuple(deck),
        discard=(),
        first_team=first,
        next_drawer=(0,) * len(team_tuple),
        phase=Phase.CHOOSE,
        turn=Turn(number=0, team=first, drawer=team_tuple[first][0]),
    )
    state, _ = _start_turn(state, first, 1)
    return state


def _check_table(
    players: Sequence[str], teams: tuple[tuple[int, ...], ...], aside: Sequence[int]
) -> None:
    n = len(players)
    if len(teams) < 2:
        raise SetupError(f"The drawing game needs at least 2 teams, not {len(teams)}.")
    seen: set[int] = set()
    for t, members in enumerate(teams, 1):
        if len(members) < 2:
            raise SetupError(f"Team {t} has {len(members)} player(s); a team needs at least 2.")
        for seat in members:
            if not 0 <= seat < n:
                raise SetupError(f"Team {t} lists seat {seat}, but seats go from 0 to {n - 1}.")
            if seat in seen:
                raise SetupError(f"{players[seat]} is in more than one team.")
            seen.add(seat)
    for seat in aside:
        if not 0 <= seat < n or seat in seen:
            raise SetupError(f"Seat {seat} cannot stand aside: it is no seat, or in a team.")
    missing = [players[s] for s in range(n) if s not in seen and s not in aside]
    if missing:
        raise SetupError(f"Every player must be in a team; not yet: {', '.join(missing)}.")


def _check_cards(cards: Sequence[Card]) -> None:
    if not cards:
        raise SetupError("The drawing game needs at least one card.")
    for i, card in enumerate(cards):
        if len(card.subjects) != len(CATEGORIES):
            raise SetupError(f"Card {i} has {len(card.subjects)} sectors instead of 5.")
        if card.blank is not None and not 0 <= card.blank < len(CHOOSABLE):
            raise SetupError(f"Card {i} has its blank outside the first four sectors.")
        if any(not s.strip() for k, s in enumerate(card.subjects) if k != card.blank):
            raise SetupError(f"Card {i} has an empty sector that is not its blank.")


def _check_options(o: Options) -> None:
    if o.think_seconds < 0 or o.draw_seconds < 1:
        raise SetupError("The think time cannot be negative and the drawing time must be ≥ 1 s.")
    if min(o.choose_seconds, o.move_seconds, o.bonus_seconds, o.lose_seconds) < 1:
        raise SetupError("The times to choose, move, keep or steal and lose must be ≥ 1 s.")
    count = len(o.token_values) + o.bonus_tokens
    if o.bonus_tokens < 0 or count > TOKEN_SQUARES:
        raise SetupError(f"The board holds at most {TOKEN_SQUARES} tokens, not {count}.")
    if any(v < 0 for v in o.token_values) or o.bonus_value < 0:
        raise SetupError("Token values cannot be negative.")
    if not 0.0 <= o.blank_share <= 1.0:
        raise SetupError("The share of cards with a blank must be between 0 and 1.")
    if o.turn_limit is not None and o.turn_limit < 1:
        raise SetupError("The turn limit must be at least 1.")


# ---------------------------------------------------------------------------- queries


def subject(state: GameState) -> str | None:
    """The secret of the current turn (the word or the proverb), once a card is drawn."""
    turn = state.turn
    if turn.card is None or turn.category is None:
        return None
    card = state.cards[turn.card]
    if turn.proverb:
        return card.proverb
    return card.subject(turn.category)


def guessers(state: GameState) -> tuple[int, ...]:
    """The seats that may guess now (empty outside the drawing phase)."""
    turn = state.turn
    if state.phase is not Phase.DRAW:
        return ()
    teams = range(len(state.teams)) if turn.proverb else (turn.team,)
    return tuple(s for t in teams for s in state.teams[t] if s not in turn.drawers)


def waiting_for(state: GameState) -> tuple[int, ...]:
    """The seats that may act now (the timer aside)."""
    phase, turn = state.phase, state.turn
    if phase is Phase.CHOOSE:
        return (turn.drawer,)
    if phase is Phase.DRAW:
        return tuple(sorted((*turn.drawers, *guessers(state))))
    if phase in (Phase.MOVE, Phase.BONUS) and turn.solved_by is not None:
        return state.teams[turn.solved_by]
    if phase is Phase.LOSE:
        return state.teams[turn.team]
    return ()


# ---------------------------------------------------------------------------- turns


def _start_turn(state: GameState, team: int, number: int) -> tuple[GameState, Events]:
    limit = state.options.turn_limit
    if limit is not None and number > limit:
        return _end_game(state)
    members = state.teams[team]
    index = state.next_drawer[team]
    drawer = members[index % len(members)]
    next_drawer = list(state.next_drawer)
    next_drawer[team] = (index + 1) % len(members)
    state = replace(
        state,
        phase=Phase.CHOOSE,
        turn=Turn(number=number, team=team, drawer=drawer, timer=Timer.CHOOSE),
        next_drawer=tuple(next_drawer),
    )
    return state, (ev.TurnStarted(number, team, drawer),)


def _end_turn(state: GameState, next_team: int) -> tuple[GameState, Events]:
    """Reveal and file the turn, then end the game or start the next turn."""
    turn = state.turn
    result = TurnResult(
        number=turn.number,
        team=turn.team,
        drawer=turn.drawer,
        category=turn.category,
        subject=subject(state),
        proverb=turn.proverb,
        solved_by=turn.solved_by,
        moved_from=turn.moved_from,
        moved_to=turn.landed,
        drawers=turn.drawers or (turn.drawer,),
        lost_token=turn.lost_token,
    )
    discard = state.discard if turn.card is None else (*state.discard, turn.card)
    state = replace(
        state, history=(*state.history, result), discard=discard, turn=replace(turn, timer=None)
    )
    events: Events = (ev.TurnEnded(turn.number, result.subject, turn.solved_by),)
    if LAST_SQUARE in state.pawns:
        finisher = state.pawns.index(LAST_SQUARE)
        state = replace(state, finisher=finisher)
        state, more = _end_game(state)
        return state, events + more
    state, more = _start_turn(state, next_team, turn.number + 1)
    return state, events + more


def _end_game(state: GameState) -> tuple[GameState, Events]:
    totals = [state.total(t) for t in range(len(state.teams))]
    best = max(totals)
    tied = [t for t, total in enumerate(totals) if total == best]
    if state.finisher in tied:
        winners: tuple[int, ...] = (state.finisher,)
    else:
        furthest = max(state.pawns[t] for t in tied)
        winners = tuple(t for t in tied if state.pawns[t] == furthest)
    state = replace(state, phase=Phase.OVER, winners=winners, turn=replace(state.turn, timer=None))
    return state, (ev.GameOver(winners, state.finisher),)


def _next_in_order(state: GameState, team: int) -> int:
    return (team + 1) % len(state.teams)


# ---------------------------------------------------------------------------- actions


def apply(state: GameState, action: Action) -> Transition:
    """Apply one action; raise :class:`IllegalAction` if the rules do not allow it."""
    if state.phase is Phase.OVER:
        raise IllegalAction("game_over", "The game is over.")
    if isinstance(action, TimeUp):
        new, events = _time_up(state)
    else:
        if not 0 <= action.seat < len(state.players):
            raise IllegalAction("no_such_seat", f"There is no seat {action.seat}.")
        if isinstance(action, Choose):
            new, events = _choose(state, action)
        elif isinstance(action, Guess):
            new, events = _guess(state, action)
        elif isinstance(action, Accept):
            new, events = _accept(state, action)
        elif isinstance(action, Synonym):
            new, events = _synonym(state, action)
        elif isinstance(action, Declare):
            new, events = _declare(state, action)
        elif isinstance(action, GiveUp):
            new, events = _give_up(state, action)
        elif isinstance(action, Move):
            new, events = _move(state, action)
        elif isinstance(action, Keep):
            new, events = _keep(state, action)
        elif isinstance(action, Steal):
            new, events = _steal(state, action)
        else:
            new, events = _forfeit(state, action)
    return Transition(replace(new, version=state.version + 1), events)


def _need_phase(state: GameState, phase: Phase, what: str) -> None:
    if state.phase is not phase:
        raise IllegalAction("wrong_phase", f"You cannot {what} now (the turn is at {state.phase}).")


def _choose(state: GameState, a: Choose) -> tuple[GameState, Events]:
    _need_phase(state, Phase.CHOOSE, "choose a category")
    turn = state.turn
    if a.seat != turn.drawer:
        raise IllegalAction("not_drawer", "Only this turn's drawer chooses the category.")
    if a.category not in CHOOSABLE:
        raise IllegalAction(
            "not_choosable", "Choose objects, actions, places or luck; proverbs come from blanks."
        )
    events: list[ev.Event] = []
    deck, discard, reshuffles = state.deck, state.discard, state.reshuffles
    if not deck:
        cards = list(discard)
        rng_for(state.seed, "reshuffle", reshuffles).shuffle(cards)
        deck, discard, reshuffles = tuple(cards), (), reshuffles + 1
        events.append(ev.DeckReshuffled(len(deck)))
    card = deck[0]
    proverb = state.cards[card].blank == CATEGORIES.index(a.category)
    if proverb:
        drawers = tuple(
            turn.drawer if t == turn.team else members[state.next_drawer[t] % len(members)]
            for t, members in enumerate(state.teams)
        )
    else:
        drawers = (turn.drawer,)
    value = category_value("proverbs" if proverb else a.category)
    new_turn = replace(
        turn, category=a.category, card=card, proverb=proverb, drawers=drawers, timer=Timer.THINK
    )
    state = replace(
        state,
        deck=deck[1:],
        discard=discard,
        reshuffles=reshuffles,
        phase=Phase.THINK,
        turn=new_turn,
    )
    events.append(ev.CategoryChosen(turn.team, a.category, value, proverb, drawers))
    return state, tuple(events)


def _time_up(state: GameState) -> tuple[GameState, Events]:
    turn = state.turn
    if state.phase in (Phase.CHOOSE, Phase.MOVE, Phase.BONUS, Phase.LOSE):
        decided, done = _clock_decides(state)
        return decided, (ev.TimedOut(state.phase.value), *done)
    if state.phase is Phase.THINK:
        seconds = state.options.draw_seconds
        state = replace(state, phase=Phase.DRAW, turn=replace(turn, timer=Timer.DRAW))
        return state, (ev.DrawingStarted(seconds),)
    if state.phase is not Phase.DRAW:
        raise IllegalAction("no_timer", "No timer is running now.")
    return _drawing_failed(state)


def _drawing_failed(state: GameState) -> tuple[GameState, Events]:
    """Nobody guessed in time: a proverb's card is discarded; a usual turn fails, and the
    team loses a token (choosing which when its tokens differ)."""
    turn = state.turn
    if turn.proverb:
        return _end_turn(state, _next_in_order(state, turn.team))
    held = state.held[turn.team]
    kinds = {(state.tokens[k].value, state.tokens[k].bonus) for k in held}
    if len(kinds) > 1:
        state = replace(state, phase=Phase.LOSE, turn=replace(turn, timer=Timer.LOSE))
        return state, ()
    events: Events = ()
    if held:
        state, events = _lose(state, turn.team, held[-1])
    state, more = _end_turn(state, _next_in_order(state, turn.team))
    return state, events + more


def _clock_decides(state: GameState) -> tuple[GameState, Events]:
    """The default decision when a choose, move, bonus or lose timer runs out."""
    turn = state.turn
    if state.phase is Phase.CHOOSE:
        category = rng_for(state.seed, "time_up", "choose", turn.number).choice(CHOOSABLE)
        return _choose(state, Choose(turn.drawer, category))
    if state.phase is Phase.MOVE:
        team = turn.solved_by
        assert team is not None
        start = state.pawns[team]
        return _land(state, team, start, min(start + PROVERB_MAX_STEPS, LAST_SQUARE))
    if state.phase is Phase.BONUS:
        return _kept(state)
    tokens = state.tokens
    token = min(state.held[turn.team], key=lambda k: tokens[k].value)  # the first lowest
    state, events = _lose(state, turn.team, token)
    state, more = _end_turn(state, _next_in_order(state, turn.team))
    return state, events + more


def _lose(state: GameState, team: int, token: int) -> tuple[GameState, Events]:
    held = list(state.held)
    held[team] = tuple(k for k in held[team] if k != token)
    turn = replace(state.turn, lost_token=token)
    state = replace(state, held=tuple(held), removed=(*state.removed, token), turn=turn)
    return state, (ev.TokenLost(team, token),)


def _guess(state: GameState, a: Guess) -> tuple[GameState, Events]:
    if state.phase is Phase.THINK:
        raise IllegalAction("not_drawing_yet", "Wait: the drawing has not started yet.")
    _need_phase(state, Phase.DRAW, "guess")
    turn = state.turn
    team = state.team_of(a.seat)
    if a.seat in turn.drawers:
        raise IllegalAction("drawer_cannot_guess", "You are drawing: you cannot guess.")
    if team is None or (not turn.proverb and team != turn.team):
        raise IllegalAction(
            "not_your_turn", "It is another team's turn: only its players may guess."
        )
    text = " ".join(a.text.split())
    if not text:
        raise IllegalAction("empty_guess", "Type a guess first.")
    cap = MAX_PROVERB_GUESSES_PER_SEAT if turn.proverb else MAX_GUESSES_PER_SEAT
    if sum(g.seat == a.seat for g in turn.guesses) >= cap:
        raise IllegalAction(
            "too_many_guesses", f"That is {cap} guesses this turn: let the others try."
        )
    if len(text) > MAX_GUESS_LENGTH:
        raise IllegalAction("guess_too_long", f"A guess is at most {MAX_GUESS_LENGTH} characters.")
    answer = subject(state)
    assert answer is not None
    verdict = match_guess(text, answer, state.options.language, proverb=turn.proverb)
    record = GuessRecord(a.seat, team, text, close=verdict is Verdict.CLOSE)
    index = len(turn.guesses)
    state = replace(state, turn=replace(turn, guesses=(*turn.guesses, record)))
    events: Events = (ev.Guessed(a.seat, team, index),)
    if verdict is Verdict.CORRECT:
        state, more = _solved(state, team, a.seat, index, accepted=False)
        events += more
    return state, events


def _marked_guess(state: GameState, seat: int, index: int, what: str) -> GuessRecord:
    _need_phase(state, Phase.DRAW, what)
    turn = state.turn
    if seat not in turn.drawers:
        raise IllegalAction("not_drawer", "Only a drawer marks guesses.")
    if not 0 <= index < len(turn.guesses):
        raise IllegalAction("no_such_guess", f"There is no guess number {index}.")
    guess = turn.guesses[index]
    if guess.team != state.team_of(seat):
        raise IllegalAction("not_your_team", "You can only mark the guesses of your own team.")
    return guess


def _accept(state: GameState, a: Accept) -> tuple[GameState, Events]:
    guess = _marked_guess(state, a.seat, a.index, "accept a guess")
    return _solved(state, guess.team, guess.seat, a.index, accepted=True)


def _declare(state: GameState, a: Declare) -> tuple[GameState, Events]:
    if state.phase is Phase.THINK:
        raise IllegalAction("not_drawing_yet", "Wait: the drawing has not started yet.")
    _need_phase(state, Phase.DRAW, "say your team guessed")
    team = state.team_of(a.seat)
    if a.seat not in state.turn.drawers or team is None:
        raise IllegalAction("not_drawer", "Only a drawer says their team guessed.")
    return _solved(state, team, a.seat, None, accepted=True)


def _give_up(state: GameState, a: GiveUp) -> tuple[GameState, Events]:
    _need_phase(state, Phase.DRAW, "end the drawing")
    if a.seat != state.turn.drawer:
        raise IllegalAction("not_drawer", "Only the turn's drawer ends the drawing.")
    state, events = _drawing_failed(state)
    return state, (ev.GaveUp(a.seat), *events)


def _synonym(state: GameState, a: Synonym) -> tuple[GameState, Events]:
    _marked_guess(state, a.seat, a.index, "mark a synonym")
    turn = state.turn
    guesses = list(turn.guesses)
    guesses[a.index] = replace(guesses[a.index], synonym=True)
    state = replace(state, turn=replace(turn, guesses=tuple(guesses)))
    return state, (ev.MarkedSynonym(a.seat, a.index),)


def _solved(
    state: GameState, team: int, seat: int, index: int | None, *, accepted: bool
) -> tuple[GameState, Events]:
    turn = replace(state.turn, solved_by=team, solved_guess=index, timer=None)
    events: Events = (ev.Solved(team, seat, index, accepted),)
    if turn.proverb:
        return replace(state, phase=Phase.MOVE, turn=replace(turn, timer=Timer.MOVE)), events
    assert turn.category is not None
    start = state.pawns[team]
    end = advance(start, category_value(turn.category), bounce=state.options.overshoot == "bounce")
    state, more = _land(replace(state, turn=turn), team, start, end)
    return state, events + more


def _land(state: GameState, team: int, start: int, end: int) -> tuple[GameState, Events]:
    """Put the pawn on ``end`` and take the token there (asking about a bonus token)."""
    pawns = list(state.pawns)
    pawns[team] = end
    turn = replace(state.turn, moved_from=start, landed=end)
    state = replace(state, pawns=tuple(pawns), turn=turn)
    events: Events = (ev.PawnMoved(team, start, end),)
    token = state.squares[end - 1]
    if token is None:
        return _settled(state, events)
    squares = list(state.squares)
    squares[end - 1] = None
    bonus = state.tokens[token].bonus
    events += (ev.TokenTaken(team, token, end, bonus),)
    state = replace(state, squares=tuple(squares))
    stealable = any(state.held[t] for t in range(len(state.teams)) if t != team)
    if bonus and stealable:
        turn = replace(turn, bonus_token=token, timer=Timer.BONUS)
        state = replace(state, phase=Phase.BONUS, turn=turn)
        return state, events
    state = _give(state, team, token)
    if bonus:
        events += (ev.BonusKept(team, token),)
    return _settled(state, events)


def _give(state: GameState, team: int, token: int) -> GameState:
    held = list(state.held)
    held[team] = (*held[team], token)
    return replace(state, held=tuple(held))


def _settled(state: GameState, events: Events) -> tuple[GameState, Events]:
    """The move and its token are settled: end the turn and pick who plays next."""
    turn = state.turn
    assert turn.solved_by is not None
    next_team = turn.solved_by if turn.proverb else _next_in_order(state, turn.team)
    state, more = _end_turn(state, next_team)
    return state, events + more


def _deciding_team(state: GameState, seat: int, team: int | None) -> int:
    if team is None or state.team_of(seat) != team:
        raise IllegalAction("not_your_team", "This decision belongs to another team.")
    return team


def _move(state: GameState, a: Move) -> tuple[GameState, Events]:
    _need_phase(state, Phase.MOVE, "move the pawn")
    team = _deciding_team(state, a.seat, state.turn.solved_by)
    # "May move ... up to 8": staying put (0) is a move too.
    if not 0 <= a.steps <= PROVERB_MAX_STEPS:
        raise IllegalAction("bad_steps", f"Move from 0 to {PROVERB_MAX_STEPS} squares.")
    start = state.pawns[team]
    end = start + a.steps if a.direction == "forward" else start - a.steps
    if not FIRST_SQUARE <= end <= LAST_SQUARE:
        raise IllegalAction(
            "off_board", f"That move leaves the board (squares {FIRST_SQUARE}–{LAST_SQUARE})."
        )
    return _land(state, team, start, end)


def _keep(state: GameState, a: Keep) -> tuple[GameState, Events]:
    _need_phase(state, Phase.BONUS, "keep a bonus token")
    _deciding_team(state, a.seat, state.turn.solved_by)
    return _kept(state)


def _kept(state: GameState) -> tuple[GameState, Events]:
    team = state.turn.solved_by
    token = state.turn.bonus_token
    assert team is not None
    assert token is not None
    state = _give(state, team, token)
    return _settled(state, (ev.BonusKept(team, token),))


def _steal(state: GameState, a: Steal) -> tuple[GameState, Events]:
    _need_phase(state, Phase.BONUS, "steal a token")
    team = _deciding_team(state, a.seat, state.turn.solved_by)
    victim = next((t for t, held in enumerate(state.held) if a.token in held), None)
    if victim is None or victim == team:
        raise IllegalAction("not_stealable", "Pick a token that an opposing team holds.")
    bonus = state.turn.bonus_token
    assert bonus is not None
    held = list(state.held)
    held[victim] = tuple(k for k in held[victim] if k != a.token)
    held[team] = (*held[team], a.token)
    state = replace(state, held=tuple(held), removed=(*state.removed, bonus))
    return _settled(state, (ev.TokenStolen(team, victim, a.token, bonus),))


def _forfeit(state: GameState, a: Forfeit) -> tuple[GameState, Events]:
    _need_phase(state, Phase.LOSE, "give up a token")
    team = _deciding_team(state, a.seat, state.turn.team)
    if a.token not in state.held[team]:
        raise IllegalAction("not_yours", "Pick one of your own team's tokens.")
    state, events = _lose(state, team, a.token)
    state, more = _end_turn(state, _next_in_order(state, team))
    return state, events + more


# ---------------------------------------------------------------------------- replay


def replay(
    players: Sequence[str],
    teams: Sequence[Sequence[int]],
    seed: int,
    actions: Iterable[Action],
    *,
    cards: Sequence[Card],
    options: Options | None = None,
    aside: Sequence[int] = (),
) -> GameState:
    """The state after playing ``actions`` from a new game: the event log rebuilds it."""
    state = new_game(players, teams, seed, cards=cards, options=options, aside=aside)
    for action in actions:
        state = apply(state, action).state
    return state
