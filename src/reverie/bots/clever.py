"""Bots that play association games as good players do (levels ``normal`` and
``clever``).

They see only their seat's view plus the public past clues. As storyteller, a clever
bot weighs, for each card it may tell and each association the lexicon has for it, how
many of the table would find the card against the cards others are likely to put down
(a model of noisy voters), and says the clue worth most under the variant's own scoring;
a normal bot tells a fitting association of a card without that planning. Both read
clues by how well they fit what each card shows, each with its own personality.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from reverie.bots import reading
from reverie.bots.phrasing import capitalise, shape
from reverie.bots.reading import CardBook, Persona, as_read, seed_of
from reverie.rules.association.actions import Action, Clue, Submit, Vote
from reverie.rules.association.scoring import RoundInput
from reverie.rules.association.variants import find_variant

#: Turns a clue may not come back in (counted over the revealed rounds).
NO_REPEAT_TURNS = 30
#: Cards of the deck the storyteller imagines the others' hands are drawn from.
BACKGROUND = 36
#: Voters the storyteller imagines (each imagined table seats some of them).
IMAGINED = 10
#: Cards in a hand: a player puts down the one of its hand that fits the clue best.
HAND = 6
#: Tables the storyteller imagines for each clue (hands drawn from the background).
SCENARIOS = 128
#: Options the storyteller plays out a second time, on fresh imagined tables.
SHORTLIST = 4
#: Options the storyteller weighs at most (a random share of them when it has more): a
#: hand of six cards has 300-600 associations, and playing every one out costs time in
#: proportion (all of them, when a hand had 180-400: a move's p95 45 ms on the second
#: edition, the planning's 60 ms), while the best of two hundred drawn at random is
#: about as good a clue. With 96, six-player tables missed their goals ("some found"
#: 0.83, "all" 0.13 in English).
PLAN_OPTIONS = 192


@dataclass(frozen=True)
class Seat:
    """What a bot knows besides its view: its level, personality, the book it reads the
    cards with, the public clues of the last turns and the table's language."""

    level: str
    persona: Persona
    book: CardBook
    past_clues: tuple[str, ...]
    lang: str


def choose_action(view: dict[str, Any], seat: Seat) -> Action | None:
    """The bot's move for its seat's ``view``, or None if it has nothing to do now."""
    me = view["you"]
    if me is None or me not in view["waiting_for"]:
        return None
    rng = random.Random(seed_of(seat.persona.seed, view["turn"], view["phase"], view["version"]))
    phase = view["phase"]
    if phase == "clue":
        return _tell(view, seat, rng)
    if phase == "submit":
        hand = list(view["hand"])
        pick = _pick(view["clue"] or "", hand, seat, rng, view["restriction"])
        return Submit(me, hand[pick])
    if phase == "vote":
        own = view["my_position"]
        table = [t for t in view["table"] if t["position"] != own]
        cards = [t["card"] for t in table]
        i = _pick(view["clue"] or "", cards, seat, rng, view["restriction"])
        return Vote(me, table[i]["position"])
    return None


def _pick(
    clue: str, cards: Sequence[int], seat: Seat, rng: random.Random, restriction: str | None = None
) -> int:
    """Index of the card of ``cards`` that fits ``clue`` best to this bot's eyes."""
    book = seat.book
    if book.bot_may_say(clue, restriction):
        # A clue a bot may have told: read it as the storyteller's imagined voters do
        # (see ``_plan``), so that its plan holds at the table.
        vec = book.encode([clue or "?"])
        fits = book.fits(vec, cards, seat.persona, book.knows(seat.persona))[0]
    else:
        # A person's clue. Read with more evidence: the clue as heard (case folded), the
        # cards side by side (what they all share tells nothing), and the reverse lookup
        # of its words in what each card's elements bring to mind; in Russian and
        # Italian also against the card's English associations. Bots' clues are not
        # read this way, on purpose: the storyteller's planner, fed the same reading,
        # still misjudged the tables (more nobody/all found); a bot's clue never needs
        # it, being an association the deck itself gives the card.
        vec = book.encode([as_read(clue) or "?"])
        fits = book.fits_of_persons_clue(vec, cards, seat.persona)[0]
        words = book.word_fits([clue], cards, [seat.persona], contrast=True)[0, 0]
        fits = fits + reading.WORD_WEIGHT * words
    noisy = [f + rng.gauss(0, seat.persona.noise) for f in fits]
    return max(range(len(cards)), key=lambda i: (noisy[i], -i))


# ---------------------------------------------------------------- the storyteller


def _tell(view: dict[str, Any], seat: Seat, rng: random.Random) -> Clue | None:
    me = view["you"]
    gallery = bool(view["table"])
    if gallery:
        cards = [t["card"] for t in view["table"]]
        lockable: list[int | None] = list(cards)
    elif view["story_card"] is not None:  # Pictoric: the card is drawn for the teller
        cards = [view["story_card"]]
        lockable = [None]
    else:
        cards = list(view["hand"])
        lockable = list(cards)
    options = _options(view, seat, cards)
    if not options:
        return None
    if seat.level == "clever":
        best = _plan(view, seat, cards, options, gallery, rng)
    else:
        best = _casual(seat, cards, options, rng)
    i, _core, text = best
    return Clue(me, capitalise(text), lockable[i])


def _options(view: dict[str, Any], seat: Seat, cards: list[int]) -> list[tuple[int, str, str]]:
    """(card index, association, clue text) that meet the turn's restriction and were not
    said in the last turns."""
    said = [c.lower() for c in seat.past_clues]
    out = []
    for i, card in enumerate(cards):
        for core in seat.book.clues(card):
            low = core.lower()
            if any(low == s or low in s for s in said):
                continue
            text = shape(core, view["restriction"], seat.lang)
            if text is not None:
                out.append((i, core, text))
    return out


def _casual(
    seat: Seat, cards: list[int], options: list[tuple[int, str, str]], rng: random.Random
) -> tuple[int, str, str]:
    """A normal bot: a card at random, and one of the associations that fit it best."""
    book = seat.book
    i = rng.choice(sorted({o[0] for o in options}))
    mine = [o for o in options if o[0] == i]
    fits = book.fits(book.encode([o[1] for o in mine]), [cards[i]])[:, 0]
    ranked = sorted(range(len(mine)), key=lambda k: -fits[k])
    return mine[rng.choice(ranked[: max(1, len(ranked) // 3)])]


def _plan(
    view: dict[str, Any],
    seat: Seat,
    cards: list[int],
    options: list[tuple[int, str, str]],
    gallery: bool,
    rng: random.Random,
) -> tuple[int, str, str]:
    """A clever bot: the option with the most expected points for the storyteller.

    Every option is played out on the same imagined tables; the few that look best are
    then played out again on fresh ones, and the best of that second look is told. The
    first look alone would favour options whose imagined tables happened to go well (the
    best of many noisy estimates is an optimistic one), which at the real table shows as
    more "nobody" and "everyone found" than the plan expected."""
    import numpy as np

    players = view["players"]
    voters = len(players) - 1 - len(view["sat_out"])
    if voters < 1:
        return options[0]
    book = seat.book
    gen = np.random.default_rng(rng.getrandbits(63))
    # The voters as the storyteller imagines them: bots like itself, each with a taste
    # (which associations it shares), a literalness and a noise of its own. Each
    # imagined table seats some of them, so no option wins on one reader's taste.
    imagined = [Persona.of(int(gen.integers(2**62)), j, "clever") for j in range(IMAGINED)]
    # Who shares which association, spread evenly: each imagined voter shares each
    # association with its own chance, but an association is shared by the expected
    # number of them, not by a lucky few (the storyteller would otherwise favour clues
    # that happen to look hard to its imagined voters and are easy for real ones).
    spin = gen.random(len(book.vectors))
    known = [(spin + j / IMAGINED) % 1.0 < v.know for j, v in enumerate(imagined)]
    table = np.asarray(_points_by_finders(view["variant"], len(players), voters, gallery))

    def expected(chosen: list[tuple[int, str, str]]) -> Any:
        finders = _imagine(view, book, cards, chosen, gallery, voters, imagined, known, gen, rng)
        return table[finders].mean(axis=1)

    if len(options) > PLAN_OPTIONS:
        options = [options[i] for i in sorted(rng.sample(range(len(options)), PLAN_OPTIONS))]
    first = expected(options)
    shortlist = [int(i) for i in np.argsort(-first, kind="stable")[:SHORTLIST]]
    second = expected([options[i] for i in shortlist])
    jitter = np.array([rng.random() * 1e-6 for _ in shortlist])
    return options[shortlist[int(np.argmax(second + jitter))]]


def _imagine(
    view: dict[str, Any],
    book: CardBook,
    cards: list[int],
    options: list[tuple[int, str, str]],
    gallery: bool,
    voters: int,
    imagined: list[Persona],
    known: list[Any],
    gen: Any,
    rng: random.Random,
) -> Any:
    """How many voters find the storyteller's card, for each option on each of
    ``SCENARIOS`` imagined tables: (options × scenarios)."""
    import numpy as np

    vecs = book.encode([capitalise(o[2]) for o in options])  # as the voters will read it
    n = len(options)
    noise = np.array([v.noise for v in imagined])
    seats = np.argsort(gen.random((SCENARIOS, IMAGINED)), axis=1)[:, :voters]  # (scen × voters)
    mine = [o[0] for o in options]
    at = np.arange(n)[:, None, None]
    if gallery:
        # The six cards face up are all the storyteller's: a voter finds the card if,
        # to its eyes and with its noise, the clue fits it better than the five others.
        reads = book.fits_of_many(vecs, cards, imagined, known)  # (imagined × options × cards)
        seen = reads[seats].transpose(2, 0, 1, 3)  # (options × scenarios × voters × cards)
        seen = seen + gen.normal(size=seen.shape[1:]) * noise[seats][..., None]
        story = seen[np.arange(n), :, :, mine]
        seen[np.arange(n), :, :, mine] = -np.inf
        return (story > seen.max(axis=-1)).sum(axis=-1)
    hidden = [c for c in range(book.deck.count) if c not in set(view["hand"] or [])]
    background = rng.sample(hidden, min(BACKGROUND, len(hidden)))
    reads = book.fits_of_many(vecs, [*cards, *background], imagined, known)
    story = reads[:, np.arange(n), mine]  # (imagined × options)
    decks = reads[:, :, len(cards) :]  # (imagined × options × background)
    # Imagined tables: each other player puts down the card of its hand (HAND
    # background cards) that fits the clue best to its eyes; each voter then looks
    # at the storyteller's card and the others' but their own. The same draws serve
    # every option, so options are compared on the same tables.
    hands = gen.integers(0, len(background), size=(SCENARIOS, voters, HAND))
    put = np.empty((n, SCENARIOS, voters), dtype=np.int64)
    for j in range(voters):
        who = seats[:, j]
        look = decks[who[:, None], :, hands[:, j, :]].transpose(2, 0, 1)  # (opt × scen × HAND)
        look = look + gen.normal(size=(SCENARIOS, HAND)) * noise[who][:, None]
        put[:, :, j] = hands[:, j, :][np.arange(SCENARIOS), look.argmax(axis=-1)]
    finders = np.zeros((n, SCENARIOS), dtype=np.int64)
    for i in range(voters):
        who = seats[:, i]
        rivals = decks[who[None, :, None], at, put]  # (options × scenarios × voters)
        rivals = rivals + gen.normal(size=(SCENARIOS, voters)) * noise[who][:, None]
        rivals[:, :, i] = -np.inf  # not its own card
        mark = story[who].T + gen.normal(size=SCENARIOS) * noise[who]
        finders += mark > rivals.max(axis=-1)
    return finders


@functools.cache
def _points_by_finders(variant: str, seats: int, voters: int, gallery: bool) -> tuple[float, ...]:
    """The storyteller's points when k of ``voters`` find the card, by the variant's own
    scorer (the others' votes spread over the other cards)."""
    score = find_variant(variant).score
    storyteller = 0
    voter_seats = list(range(1, voters + 1))
    positions = 6 if gallery else seats
    owners = tuple(0 for _ in range(positions)) if gallery else tuple(range(seats))
    out = []
    for k in range(voters + 1):
        votes = {}
        for j, s in enumerate(voter_seats):
            if j < k:
                votes[s] = 1
            else:  # a decoy that is not the voter's own card
                choices = [p for p in range(2, positions + 1) if gallery or owners[p - 1] != s]
                votes[s] = choices[j % len(choices)]
        r = RoundInput(seats, storyteller, owners, story_position=1, votes=votes)
        out.append(float(score(r)[storyteller]))
    return tuple(out)
