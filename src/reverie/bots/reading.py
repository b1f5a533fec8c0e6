"""How a bot reads cards: what each picture brings to mind (the lexicon's associations
for what it shows, its caption and the names of its elements, as a person looking at it
would see them), embedded once per deck and language, and how well a clue fits a card.

A bot's personality (:class:`Persona`) changes the reading: each bot knows only some of
the associations (taste), leans more or less on what is literally drawn, and is more or
less noisy; it comes from the room's seed and the seat, so a table's bots disagree but a
replay plays the same.
"""

from __future__ import annotations

import hashlib
import logging
import math
import multiprocessing
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from reverie.bots.encoder import Encoder, Vectors, get_encoder, one_blas_thread
from reverie.bots.phrasing import capitalise, shape
from reverie.content.decks import Deck
from reverie.content.lexicon import card_associations, card_keys, content_stems, load_lexicon

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    Ints = npt.NDArray[np.int64]
    Floats = npt.NDArray[np.float64]
    Bools = npt.NDArray[np.bool_]
else:
    Ints = Floats = Bools = Any

log = logging.getLogger("reverie.bots")

#: Weight of the best association and of the literal reading (caption, element names).
ASSOCIATION_WEIGHT = 0.75
LITERAL_WEIGHT = 0.25
#: How much less an association a reader does not share counts (it still half-rings).
UNKNOWN_PENALTY = 0.35
#: Weight of the words a clue shares with what a card brings to mind (see
#: :meth:`CardBook.word_fits`), added to the encoder's reading.
WORD_WEIGHT = 0.25


def seed_of(*parts: object) -> int:
    """A stable 64-bit seed from ``parts`` (Python's hash() changes between runs)."""
    digest = hashlib.blake2b(repr(parts).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


def as_read(clue: str) -> str:
    """A clue as a reader takes it in: without the capital a sentence starts with and
    the punctuation around it (a player hears "Fear!" as the word fear; the encoder
    would not: "Страх" and "страх" are as far apart to it as two near synonyms).
    A capital that marks a name or an acronym stays.

    >>> as_read("Temptation behind every door."), as_read("  Van Gogh "), as_read("NASA")
    ('temptation behind every door', 'Van Gogh', 'NASA')
    """
    text = clue.strip().strip(".!…").strip()
    words = text.split()
    if words:
        first = words[0]
        rest_lower = first[1:] == first[1:].lower()
        later_capital = any(w[:1].isupper() for w in words[1:])
        if first[:1].isupper() and rest_lower and len(first) > 1 and not later_capital:
            text = first[:1].lower() + text[1:]
    return text


@dataclass(frozen=True)
class Persona:
    """One bot's way of reading: ``know`` the share of associations it shares with the
    lexicon, ``literal`` how much it looks at what is drawn, ``noise`` how erratic its
    picks are."""

    seed: int
    know: float
    literal: float
    noise: float

    @classmethod
    def of(cls, room_seed: int, seat: int, level: str) -> Persona:
        """The personality of the bot at ``seat`` of the room seeded ``room_seed``."""
        import random

        rng = random.Random(seed_of("persona", room_seed, seat))
        if level == "clever":
            return cls(rng.getrandbits(63), rng.uniform(0.6, 0.85), rng.uniform(0.2, 0.35),
                       rng.uniform(0.025, 0.045))  # fmt: skip
        return cls(rng.getrandbits(63), rng.uniform(0.45, 0.7), rng.uniform(0.25, 0.45),
                   rng.uniform(0.04, 0.07))  # fmt: skip


@dataclass
class _Card:
    clues: list[str]  # associations a storyteller may say for it
    rows: Ints  # rows of the book's matrix: its associations
    literal: Ints  # rows: its caption and element names
    stems: frozenset[str]  # every word the lexicon has for what it shows, and its own


@dataclass
class CardBook:
    """Every card of one deck as read in one language, with the embeddings."""

    deck: Deck
    lang: str
    encoder: Encoder
    #: How the whole deck's texts are embedded (default: ``encoder.encode`` here).
    encode_all: Callable[[Sequence[str]], Vectors] | None = None
    vectors: Vectors = field(init=False)
    cards: list[_Card] = field(init=False)
    #: Row of the book's matrix of each text it has read.
    row_of: dict[str, int] = field(init=False)
    #: The same deck read in English, for a book in another language (see
    #: :meth:`fits_of_persons_clue`); None for the English book itself.
    english: CardBook | None = field(default=None, init=False)

    def __post_init__(self) -> None:
        import numpy as np

        self._stem_cache: dict[str, frozenset[str]] = {}
        self._columns: dict[str, Bools] = {}
        self._spins: dict[str, float] = {}
        self._sayable: dict[str | None, frozenset[str]] = {}
        one_blas_thread()  # every bot reading through this book: see one_blas_thread
        lex = load_lexicon()
        lang = self.lang
        index: dict[str, int] = {}

        def rows(texts: Sequence[str]) -> Ints:
            return np.array([index.setdefault(t, len(index)) for t in texts], dtype=np.int64)

        self.cards = []
        for i in range(self.deck.count):
            m = self.deck.meta(i)
            caption = m.caption.get(lang) or m.caption.get("en", "")
            labels = [
                str(e["label"].get(lang) or e["label"].get("en", ""))
                for e in m.elements
                if isinstance(e.get("label"), dict)
            ]
            keys = card_keys(m.elements, m.setting.get("id", ""), m.layout)
            pairs = card_associations(lex, keys, caption, lang, labels)
            assoc = [a for _, a in pairs]
            # A storyteller speaks of the scene and what is in it: the backdrop (a sky, a
            # season) is shared by many cards, and clues taken from it alone read as
            # arbitrary. Readers still see the backdrop.
            told = [a for k, a in pairs if not k.startswith("setting:")] or assoc
            literal = [caption, *labels] if caption else labels
            # Words for the reverse lookup: all the lexicon says of its scene, elements
            # and backdrop (even what names them: a reader may say "winter" of a snowman).
            words = {w for t in literal for w in content_stems(t, lang)}
            for key in keys:
                for a in lex.get(key, lang):
                    words |= content_stems(a, lang)
            self.cards.append(_Card(told, rows(assoc), rows(literal or ["?"]), frozenset(words)))
            # What a bot says for it, as said (capitalised): read now, with the rest,
            # so that a move never waits for the encoder on a clue a bot may say.
            rows([capitalise(a) for a in told])
        # How telling a word is: rarer over the deck's cards, more telling.
        df: dict[str, int] = {}
        for card in self.cards:
            for w in card.stems:
                df[w] = df.get(w, 0) + 1
        n = max(1, len(self.cards))
        self.telling = {w: math.log(n / d) for w, d in df.items() if d < n}
        self.row_of = index
        texts = sorted(index, key=index.__getitem__)
        self.vectors = (self.encode_all or self.encoder.encode)(texts)

    def encode(self, texts: Sequence[str]) -> Vectors:
        """Rows for ``texts``: the book's own for a text it has read, the encoder's for
        any other (a person's clue)."""
        import numpy as np

        missing = [t for t in texts if t not in self.row_of]
        fresh = dict(zip(missing, self.encoder.encode(missing), strict=True)) if missing else {}
        if not texts:
            return self.encoder.encode([])
        out: Vectors = np.stack(
            [self.vectors[self.row_of[t]] if t in self.row_of else fresh[t] for t in texts]
        )
        return out

    def clues(self, card: int) -> list[str]:
        """What a storyteller might say for ``card`` (never a word of its caption)."""
        return self.cards[card].clues if 0 <= card < len(self.cards) else []

    def bot_may_say(self, clue: str, restriction: str | None = None) -> bool:
        """Whether ``clue`` is one a bot may say under ``restriction`` (an association
        of a card, shaped and capitalised as a bot says it). A person who types exactly
        that is read as a bot would be; no harm: such a clue is the deck's own."""
        found = self._sayable.get(restriction)
        if found is None:
            said = (shape(a, restriction, self.lang) for card in self.cards for a in card.clues)
            found = frozenset(capitalise(t) for t in said if t is not None)
            self._sayable[restriction] = found
        return clue in found

    def word_fits(
        self,
        clues: Sequence[str],
        cards: Sequence[int],
        personas: Sequence[Persona],
        contrast: bool = False,
    ) -> Floats:
        """The reverse lookup: how much of what each clue's words tell (each word by
        how rare it is over the deck) is among the words the lexicon has for each card's
        scene, elements and backdrop, 0–1: (readers × clues × cards). "Winter came
        through the back door" points at the cards whose elements bring winter to mind.
        Each reader links only its share (``know``) of the words to what they evoke, so
        readers disagree here too. ``contrast``: words every card has tell nothing (see
        :meth:`fits`)."""
        import numpy as np

        out: Floats = np.zeros((len(personas), len(clues), len(cards)))
        known = [0 <= c < len(self.cards) for c in cards]
        rows = [c if ok else 0 for c, ok in zip(cards, known, strict=True)]
        common: frozenset[str] = frozenset()
        if contrast and len(cards) > 1 and all(known):
            common = frozenset.intersection(*(self.cards[c].stems for c in cards))
        said = [
            [w for w in self._stems(clue) if w in self.telling and w not in common]
            for clue in clues
        ]
        vocab = sorted({w for words in said for w in words})
        if not vocab:
            return out
        at = {w: i for i, w in enumerate(vocab)}
        weights = np.zeros((len(clues), len(vocab)))
        for i, words in enumerate(said):
            for w in words:
                weights[i, at[w]] = self.telling[w]
        weights /= np.maximum(weights.sum(axis=1, keepdims=True), 1e-9)
        columns = [self._column(w) for w in vocab]
        has = np.stack(columns, axis=1)[rows]  # (cards × vocab): the card has the word
        # Which words each reader links (spread evenly, as in the storyteller's model).
        spin = np.array([self._spin(w) for w in vocab])
        turn = np.array([(p.seed % 4096) / 4096 for p in personas])
        know = np.array([p.know for p in personas])
        links = (spin[None, :] + turn[:, None]) % 1.0 < know[:, None]
        out = np.einsum("cv,pv,kv->pck", weights, links.astype(float), has.astype(float))
        out[:, :, ~np.array(known)] = 0.0
        return out

    def _spin(self, word: str) -> float:
        """A fixed number in [0, 1) for ``word``: which readers link it (see word_fits)."""
        found = self._spins.get(word)
        if found is None:
            found = seed_of("word", word) / 2**64
            self._spins[word] = found
        return found

    def _column(self, word: str) -> Bools:
        """Which of the deck's cards have ``word`` (cached)."""
        import numpy as np

        found = self._columns.get(word)
        if found is None:
            found = np.array([word in card.stems for card in self.cards], dtype=bool)
            self._columns[word] = found
        return found

    def _stems(self, clue: str) -> frozenset[str]:
        found = self._stem_cache.get(clue)
        if found is None:
            found = frozenset(content_stems(as_read(clue), self.lang))
            if len(self._stem_cache) < 100_000:
                self._stem_cache[clue] = found
        return found

    def knows(self, persona: Persona | None) -> Bools | None:
        """Which of the book's associations ``persona`` shares (None: all of them)."""
        if persona is None:
            return None
        import numpy as np

        rng = np.random.default_rng(persona.seed % 2**63)
        known: Bools = rng.random(len(self.vectors)) < persona.know
        return known

    def fits(
        self,
        clues: Vectors,
        cards: Sequence[int],
        persona: Persona | None = None,
        known: Bools | None = None,
        contrast: bool = False,
    ) -> Floats:
        """How well each clue (row of ``clues``) fits each card: (clues × cards).

        The best association the reader shares, blended with the literal reading.
        ``contrast``: the cards are side by side, and the reading is the careful one of
        :func:`side_by_side`: what all of them bring to mind (six pictures of one scene)
        cannot tell them apart, what most of them do tells little, and a card is read by
        its two best associations."""
        import numpy as np

        if not cards:
            return np.zeros((len(clues), 0))
        parts = [self.cards[c] if 0 <= c < len(self.cards) else None for c in cards]
        literal_w = persona.literal if persona else LITERAL_WEIGHT
        groups = [p.rows if p else None for p in parts]
        if contrast and len(parts) > 1 and all(p is not None for p in parts):
            assoc = side_by_side(clues, self.vectors, groups, known)
        else:
            assoc = self._best(clues, groups, known)
        lit = self._best(clues, [p.literal if p else None for p in parts], None)
        # A card with no associations (another deck) is read literally only.
        has = np.array([p is not None and len(p.rows) > 0 for p in parts])
        blended = (1 - literal_w) * assoc + literal_w * lit
        out: Floats = np.where(has[None, :], blended, lit)
        return out

    def fits_of_persons_clue(self, clue: Vectors, cards: Sequence[int], persona: Persona) -> Floats:
        """How well a person's clue (one row, read with :func:`as_read`) fits each card,
        the cards side by side (see ``contrast`` in :meth:`fits`).

        In Russian or Italian the clue is also read against the card's associations in
        English, and the two readings are averaged: the encoder is multilingual, so a
        person's phrase that the table language's few associations of a card happen to
        miss often meets one of its English ones (on the tune half of the people's clues:
        0.61 to 0.69 of Russian clues found among six random cards of the second edition,
        0.63 to 0.71 of Italian ones). A bot's own clues are not read this way (see
        ``clever._pick``)."""
        fits = self.fits(clue, cards, persona, self.knows(persona), contrast=True)
        if self.english is not None:
            en = self.english
            fits = (fits + en.fits(clue, cards, persona, en.knows(persona), contrast=True)) / 2
        return fits

    def fits_of_many(
        self,
        clues: Vectors,
        cards: Sequence[int],
        personas: Sequence[Persona],
        known: Sequence[Bools] | None = None,
    ) -> Floats:
        """:meth:`fits` for several readers at once: (readers × clues × cards). The
        similarities are worked out once; each reader then counts only what it shares
        (``known[r]``, by default :meth:`knows` of its persona)."""
        import numpy as np

        parts = [self.cards[c] if 0 <= c < len(self.cards) else None for c in cards]
        flat, sizes = _end_to_end([p.rows if p else None for p in parts])
        lit = self._best(clues, [p.literal if p else None for p in parts], None)
        has = np.array([p is not None and len(p.rows) > 0 for p in parts])
        sims = clues @ self.vectors[flat].T if len(flat) else None
        out: Floats = np.empty((len(personas), len(clues), len(cards)))
        for r, persona in enumerate(personas):
            best = np.full((len(clues), len(cards)), -1.0)
            if sims is not None:
                shared = known[r] if known is not None else self.knows(persona)
                assert shared is not None
                best = _best_of_groups(sims - _penalties(shared[flat], sims.dtype), sizes)
            blended = (1 - persona.literal) * best + persona.literal * lit
            out[r] = np.where(has[None, :], blended, lit)
        return out

    def _best(self, clues: Vectors, groups: Sequence[Ints | None], known: Bools | None) -> Floats:
        import numpy as np

        flat, sizes = _end_to_end(groups)
        if not len(flat):
            return np.full((len(clues), len(groups)), -1.0)
        sims = clues @ self.vectors[flat].T
        if known is not None:
            sims = sims - _penalties(known[flat], sims.dtype)
        return _best_of_groups(sims, sizes)


def _penalties(shared: Bools, dtype: Any) -> Vectors:
    """What each association counts less, by whether the reader shares it: 0, or
    ``UNKNOWN_PENALTY`` (in ``dtype``, so that subtracting the row gives to the bit
    what ``np.where(shared, sims, sims - UNKNOWN_PENALTY)`` gives, in one pass over the
    similarities instead of three: the storyteller's planning does this for ten imagined
    readers a move).

    >>> import numpy as np
    >>> sims = np.array([[0.5, 0.9]], dtype=np.float32)
    >>> shared = np.array([True, False])
    >>> marked = np.where(shared, sims, sims - UNKNOWN_PENALTY)
    >>> bool((sims - _penalties(shared, sims.dtype) == marked).all())
    True
    """
    import numpy as np

    out: Vectors = np.where(shared, 0.0, UNKNOWN_PENALTY).astype(dtype)
    return out


def _end_to_end(groups: Sequence[Ints | None]) -> tuple[Ints, list[int]]:
    """The rows of ``groups`` one after another, and how many each group has."""
    import numpy as np

    sizes = [len(g) if g is not None else 0 for g in groups]
    flat: Ints = np.concatenate(
        [g for g in groups if g is not None and len(g)] or [np.zeros(0, int)]
    )
    return flat, sizes


def _best_of_groups(sims: Vectors, sizes: Sequence[int]) -> Floats:
    """The best of each group of columns of ``sims`` (groups of ``sizes``, one after
    another), row by row; -1 for an empty group."""
    import numpy as np

    out: Floats = np.full((sims.shape[0], len(sizes)), -1.0)
    nonempty = np.array(sizes) > 0
    if nonempty.any():
        starts = np.cumsum([0, *sizes[:-1]])
        out[:, nonempty] = np.maximum.reduceat(sims, starts[nonempty], axis=1)
    return out


#: How much an association counts less for each other card on the table that has it
#: too (times the share of the others that do): one that five of six cards bring to mind
#: hardly tells them apart. Chosen on the tune half of the people's clues.
SHARED_PENALTY = 0.2
#: A card side by side with others is read by the mean of its this many best
#: associations: a clue two of a card's associations meet is likelier meant for it than
#: one a single association happens to meet (a card has forty or more of them, and a
#: stray near miss among so many is common).
TOP_READINGS = 2


def side_by_side(
    clues: Vectors, vectors: Vectors, groups: Sequence[Ints | None], known: Bools | None
) -> Floats:
    """How well each clue fits each card's associations (``groups``: rows of
    ``vectors``), read with the cards side by side: (clues × cards).

    An association that every card has counts as one the reader does not share, and
    one that ``m`` of the ``n`` cards have counts ``SHARED_PENALTY * (m - 1) / (n - 1)``
    less; a card's reading is the mean of its ``TOP_READINGS`` best associations (-1 for
    a card with none). On the tune half of the people's clues (both editions, three
    languages, six random and six look-alike cards: twelve rates) this lifted their sum
    from 7.73 to 8.01 (7.78 to 7.93 with today's lexicon); either change alone gave
    about half of that. On the blind set's tune half it is even (4.29 to 4.30).

    >>> import numpy as np
    >>> vecs = np.eye(3)
    >>> side_by_side(np.array([[1.0, 0.0, 0.0]]), vecs, [np.array([0, 1]), np.array([2])], None)
    array([[0.5, 0. ]])
    """
    import numpy as np

    n = len(groups)
    out: Floats = np.full((len(clues), n), -1.0)
    flat, sizes = _end_to_end(groups)
    if not len(flat):
        return out
    counts: dict[int, int] = {}
    for g in groups:
        for r in set(g.tolist()) if g is not None else ():
            counts[r] = counts.get(r, 0) + 1
    m = np.array([counts[r] for r in flat.tolist()])
    shares = known[flat] if known is not None else np.ones(len(flat), dtype=bool)
    sims = clues @ vectors[flat].T
    sims = sims - _penalties(shares & (m < n), sims.dtype)
    sims = sims - SHARED_PENALTY * (m - 1) / max(1, n - 1)
    start = 0
    for j, size in enumerate(sizes):
        if size:
            top = -np.sort(-sims[:, start : start + size], axis=1)[:, :TOP_READINGS]
            out[:, j] = top.mean(axis=1)
        start += size
    return out


_books: dict[tuple[str, int, str], CardBook] = {}
#: Guards the dictionaries only, never held while a book is built: a bot asking whether
#: a book is ready must get its answer at once (it holds its room's lock meanwhile).
_books_lock = threading.Lock()
_building: dict[tuple[str, int, str], threading.Lock] = {}


def card_book(
    deck: Deck,
    lang: str,
    encoder: Encoder,
    encode_all: Callable[[Sequence[str]], Vectors] | None = None,
) -> CardBook:
    """The (cached) book of ``deck`` in ``lang``; built once per process (this call
    waits for it). A book in another language than English comes with the English one
    (:attr:`CardBook.english`), built first, so that both are ready together."""
    key = (str(deck.path), deck.count, lang)
    book = _books.get(key)
    if book is not None:
        return book
    english = card_book(deck, "en", encoder, encode_all) if lang != "en" else None
    with _books_lock:
        building = _building.setdefault(key, threading.Lock())
    with building:  # one build per book; other callers of this book wait here
        book = _books.get(key)
        if book is None:
            book = CardBook(deck, lang, encoder, encode_all)
            book.english = english
            with _books_lock:
                _books[key] = book
    return book


def _encode_in_child(texts: Sequence[str]) -> Vectors:
    encoder = get_encoder()
    if encoder is None:
        raise RuntimeError("the sentence encoder is not installed")
    return encoder.encode(texts)


def _leave_with_parent() -> None:
    """In the child: exit as soon as the server that started it is gone.

    A pool's worker waits for its next job for ever, and only its parent tells it to
    stop: a server killed while it read a deck (``kill -9``, the out-of-memory killer, a
    container stopped) would leave a child of a few hundred megabytes behind at every
    restart. The parent's sentinel becomes readable when the parent ends, whatever
    ended it."""
    import os
    from multiprocessing.connection import wait

    parent = multiprocessing.parent_process()
    if parent is None:
        return

    def watch() -> None:
        wait([parent.sentinel])
        os._exit(0)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def reading_pool() -> ProcessPoolExecutor:
    """One child process to embed a deck's texts in (see :func:`encode_elsewhere`),
    which ends with the process that made it, however that one ends."""
    context = multiprocessing.get_context("spawn")
    return ProcessPoolExecutor(max_workers=1, mp_context=context, initializer=_leave_with_parent)


def encode_elsewhere(texts: Sequence[str]) -> Vectors:
    """Embed a whole deck's texts in a child process (thousands of texts, seconds of
    pure-Python tokenising): a thread of the server would hold its interpreter lock
    that long and stall every table. Falls back to this process if no child starts."""
    try:
        with reading_pool() as pool:
            return pool.submit(_encode_in_child, list(texts)).result()
    except Exception as exc:  # no child process here (a sandbox, a frozen build)
        log.warning("bots: reading the deck here, not in a child process (%s)", exc)
        encoder = get_encoder()
        if encoder is None:
            raise
        return encoder.encode(texts)


_warming: set[tuple[str, int, str]] = set()


def ready_book(deck: Deck, lang: str) -> CardBook | None:
    """The book of ``deck`` in ``lang`` if it is built, else None, having started to
    build it (and to load the encoder) in the background: a table never waits seconds
    for a bot's first move; until the book is ready its bots play as easy ones."""
    key = (str(deck.path), deck.count, lang)
    book = _books.get(key)
    if book is not None:
        return book
    with _books_lock:
        if key in _warming:
            return None
        _warming.add(key)

    def build() -> None:
        try:
            encoder = get_encoder()
            if encoder is not None:
                card_book(deck, lang, encoder, encode_elsewhere)
        finally:
            with _books_lock:
                _warming.discard(key)

    threading.Thread(target=build, name=f"bots-{lang}", daemon=True).start()
    return None
