"""The five association variants (Dixit, Imaginarium, Harmony, Pictoric, gallery): the
rooms' side of :mod:`reverie.rules.association`, with the client frames that are its
moves (``clue``, ``submit``, ``vote``), the picture deck a room plays (its setup) and the
bots' pace."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import msgspec

from reverie.bots import clever
from reverie.bots.encoder import known_missing
from reverie.bots.reading import Persona, ready_book
from reverie.bots.simple import choose_action
from reverie.content.decks import Deck
from reverie.content.lexicon import LANGS
from reverie.content.library import Library
from reverie.errors import RoomError
from reverie.games.base import GameCommand, GameFamily, RoomLike, VariantInfo
from reverie.rules.association import (
    VARIANTS,
    GameState,
    Options,
    Phase,
    Timeout,
    apply,
    find_variant,
    new_game,
    view,
    views,
)
from reverie.rules.association import actions as act
from reverie.rules.association.clues import Restriction
from reverie.rules.association.deck_fit import most_players, rounds_with
from reverie.rules.association.engine import waiting_for
from reverie.rules.association.playouts import random_action
from reverie.rules.association.secrecy import scramble
from reverie.rules.association.variants import StorySource, Variant
from reverie.rules.errors import SetupError

_PHASE_SECONDS = {
    Phase.CLUE: "clue_seconds",
    Phase.SUBMIT: "card_seconds",
    Phase.VOTE: "vote_seconds",
}
#: A person's usual time in seconds (shortest, longest) over each phase's move: a clue
#: takes longer than a vote.
_PACE = {
    Phase.CLUE: (2.5, 6.0),
    Phase.SUBMIT: (1.2, 3.5),
    Phase.VOTE: (1.5, 4.0),
}


class PictureDeck(msgspec.Struct, frozen=True):
    """A room's setup: the picture deck it plays and its number of cards, fixed when the
    room opens (the rules deal card numbers from the seed, so a replay deals the same
    cards whatever became of the deck since)."""

    deck: str
    card_count: int


class ClueCmd(GameCommand, frozen=True, tag="clue"):
    """Storyteller: lock a card and say the clue."""

    text: str = ""
    card: int | None = None


class SubmitCmd(GameCommand, frozen=True, tag="submit"):
    """Put a card face down."""

    card: int = -1


class VoteCmd(GameCommand, frozen=True, tag="vote"):
    """Vote for a position."""

    position: int = 0


class AssociationFamily(GameFamily[GameState, act.Action, Options, object]):
    """Rooms' side of :mod:`reverie.rules.association`."""

    name = "association"
    action_type = act.Action
    game_type = GameState
    options_type = Options
    setup_type = PictureDeck
    uses_deck = True
    commands = (ClueCmd, SubmitCmd, VoteCmd)
    # easy: names a thing on a card; normal and clever read clues (reverie.bots.clever).
    bot_levels = ("easy", "normal", "clever")

    def variant_names(self) -> tuple[str, ...]:
        return tuple(VARIANTS)

    def variant(self, name: str) -> VariantInfo:
        try:
            v = find_variant(name)
        except SetupError as exc:
            raise LookupError(str(exc)) from None
        board = {
            "name": v.board.name,
            "length": v.board.length,
            "loops": v.board.loops,
            "specials": {str(k): r.value for k, r in v.board.specials.items()},
        }
        return VariantInfo(
            name=v.name,
            title=v.title,
            family=self.name,
            min_players=v.min_players,
            max_players=v.max_players,
            details={
                "first_storyteller": v.first_storyteller.value,
                "board": board,
            },
            capabilities={
                "client": self.name,
                "story_source": v.story_source.value,
                "first_storyteller": v.first_storyteller.value,
                "board": board,
                "teams": None,
                "canvas": None,
                "deck": self.uses_deck,
                "bots": self.bots_allowed,
                "bot_levels": list(self.bot_levels),
                "restrictions": [r.value for r in Restriction],
                "categories": None,
                "options": _option_names(v),
            },
        )

    async def prepare(self, choices: Mapping[str, Any], library: Library) -> dict[str, Any]:
        name = choices.get("deck") or library.default_deck
        if not isinstance(name, str):
            raise RoomError("bad_options", "A deck is chosen by its name.")
        await library.open_deck(name)  # a player's deck: published, not deleted
        deck = library.decks.get(name)
        if deck is None:
            raise RoomError("bad_options", f"There is no deck called {name!r}.")
        return msgspec.structs.asdict(PictureDeck(name, deck.count))

    async def opened(self, code: str, setup: PictureDeck, library: Library) -> None:
        await library.deck_played(setup.deck, code)

    def setup_facts(self, room: RoomLike[Options]) -> dict[str, Any]:
        setup: PictureDeck = room.setup
        return {"deck": setup.deck}

    def deck_fit(self, room: RoomLike[Options], seats: int) -> dict[str, Any] | None:
        v = find_variant(room.variant)
        cards = room.setup.card_count
        return {
            "cards": cards,
            "max_players": most_players(v, cards),
            "rounds": rounds_with(v, seats, cards),
        }

    # The deck's cards are numbers and the rules shuffle them from the seed: no ``deal``.

    def new_game(
        self,
        room: RoomLike[Options],
        names: Sequence[str],
        teams: Sequence[int | None],
        seed: int,
        content: tuple[object, ...],
    ) -> GameState:
        try:
            return new_game(
                room.variant,
                list(names),
                seed,
                card_count=room.setup.card_count,
                options=room.options,
            )
        except SetupError as exc:
            code = "deck_too_small" if exc.code == "deck_too_small" else "bad_options"
            raise RoomError(code, str(exc), exc.params) from None

    def action_for(self, game: GameState, seat: int, cmd: GameCommand) -> act.Action:
        if isinstance(cmd, ClueCmd):
            return act.Clue(seat, cmd.text, cmd.card)
        if isinstance(cmd, SubmitCmd):
            return act.Submit(seat, cmd.card)
        if isinstance(cmd, VoteCmd):
            return act.Vote(seat, cmd.position)
        raise RoomError("bad_message", "That move is not part of this game.")

    def apply(self, game: GameState, action: act.Action) -> GameState:
        return apply(game, action).state

    def is_over(self, game: GameState) -> bool:
        return game.phase is Phase.OVER

    def progress(self, game: GameState) -> float:
        # The nearer of the two ends: a score reaching the target (or the end of the
        # track), or the deck running out (the hands are dealt from it at the start).
        if game.phase is Phase.OVER:
            return 1.0
        options = game.options
        target = options.target_score or options.track_length
        by_score = max(game.scores, default=0) / max(1, target)
        # The cards this game took from the content deck (older states: the whole deck).
        taken = game.in_play or game.card_count
        start = taken - len(game.players) * max((len(h) for h in game.hands), default=0)
        by_deck = 1 - len(game.deck) / max(1, start) if start > 0 else 0.0
        return max(0.0, min(1.0, max(by_score, by_deck)))

    def phase_key(self, game: GameState) -> tuple[int, str]:
        # A first turn open to claim and the same turn once its storyteller is drawn are
        # two phases: the drawn storyteller's clock starts at the draw (§2.1).
        if game.phase is Phase.CLUE and game.round.storyteller is None:
            return (game.round.number, "claim")
        return (game.round.number, game.phase.value)

    def views(self, game: GameState, seats: Iterable[int | None]) -> Mapping[int | None, object]:
        return views(game, seats)

    def timer(self, game: GameState) -> tuple[str, float] | None:
        if game.phase is Phase.OVER:
            return None
        seconds = getattr(game.options, _PHASE_SECONDS.get(game.phase, ""), None)
        return (game.phase.value, float(seconds)) if seconds else None

    def timeout(self) -> act.Timeout:
        return Timeout()

    def scramble(self, game: GameState, seat: int | None, rng: random.Random) -> GameState:
        return scramble(game, seat, rng)

    def random_action(self, game: GameState, rng: random.Random) -> act.Action | None:
        return None if game.phase is Phase.OVER else random_action(game, rng, 0.05)

    def bot_seats(self, game: GameState, bots: Sequence[bool]) -> list[int]:
        # The first clue of Dixit is for the people at the table to claim.
        claim_open = game.phase is Phase.CLUE and game.round.storyteller is None
        if claim_open and not all(bots):
            return []
        return [s for s in waiting_for(game) if bots[s]]

    def bot_pace(self, game: GameState) -> tuple[float, float]:
        return _PACE.get(game.phase, super().bot_pace(game))

    def bot_action(
        self,
        game: GameState,
        seat: int,
        rng: random.Random,
        room: RoomLike[Options],
        library: Library,
        level: str = "easy",
    ) -> act.Action | None:
        setup: PictureDeck = room.setup
        return self.bot_move(game, seat, rng, library.decks.get(setup.deck), room.lang, level)

    def bot_move(
        self,
        game: GameState,
        seat: int,
        rng: random.Random,
        deck: Deck | None,
        lang: str,
        level: str = "easy",
    ) -> act.Action | None:
        """A bot's move for ``seat`` with ``deck``'s pictures (None: a deck not read yet;
        the bot then plays as the easy one does) in the table's language ``lang``."""
        seen = view(game, seat)  # all a bot may know of the game, with the public past
        read = lang if lang in LANGS else "en"
        book = None
        if level in ("normal", "clever") and deck is not None and not known_missing():
            book = ready_book(deck, read)
        if book is None:  # easy, no encoder installed, or still loading: the simple bot
            return choose_action(seen, _describer(deck, lang), rng, lang)
        past = tuple(r.clue for r in game.history[-clever.NO_REPEAT_TURNS :] if r.clue)
        persona = Persona.of(game.seed, seat, level)
        return clever.choose_action(seen, clever.Seat(level, persona, book, past, read))


def _option_names(v: Variant) -> list[str]:
    """The table options that mean something in ``v`` (a gallery has no card timer: the
    storyteller's pick is the only card; only a track that ends has a length to set)."""
    names = list(Options.__struct_fields__)
    if v.story_source is StorySource.GALLERY:
        names.remove("card_seconds")
    if v.board.loops:
        names.remove("track_length")
    return names


def _describer(deck: Deck | None, lang: str) -> Callable[[int], list[str]]:
    """What a card's picture shows, in ``lang`` (the deck's element labels)."""

    def describe(card: int) -> list[str]:
        if deck is None or not 0 <= card < deck.count:
            return []
        labels = [e.get("label") for e in deck.meta(card).elements]
        return [lab.get(lang) or lab["en"] for lab in labels if isinstance(lab, dict)]

    return describe


ASSOCIATION = AssociationFamily()
