"""The team drawing game ``visual``: rooms' side of :mod:`reverie.rules.visual`."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import Any

import msgspec

from reverie.content.decks import Deck
from reverie.content.words import CATEGORIES, Category, is_language, load_words
from reverie.rooms import canvas
from reverie.rooms.errors import RoomError
from reverie.rooms.games.base import RoomLike, VariantInfo
from reverie.rooms.teams import MAX_TEAMS, MIN_TEAM_SIZE, MIN_TEAMS, TEAM_COLORS
from reverie.rules.errors import SetupError
from reverie.rules.visual import (
    Accept,
    Action,
    Choose,
    Forfeit,
    GameState,
    Guess,
    Keep,
    Move,
    Options,
    Phase,
    Steal,
    Synonym,
    TimeUp,
    apply,
    build_deck,
    new_game,
    views,
)
from reverie.rules.visual.board import LAST_SQUARE
from reverie.rules.visual.cards import CHOOSABLE, Card, category_value

NAME = "visual"
TITLE = "Visual Game"
MIN_PLAYERS = MIN_TEAMS * MIN_TEAM_SIZE
MAX_PLAYERS = 12  # one piece colour each
_ACTIONS = (Choose, Guess, Accept, Synonym, Move, Keep, Steal, Forfeit, TimeUp)
#: While these run, the turn's secret is being drawn: its drawers may not chat.
_DRAWING = frozenset({Phase.THINK, Phase.DRAW})


@lru_cache(maxsize=8)
def _words(lang: str) -> dict[Category, tuple[str, ...]]:
    """The word lists of one language (read once per process)."""
    return {c: load_words(lang, c) for c in CATEGORIES}


class VisualFamily:
    """Teams, the word cards and the timers of the drawing game."""

    name = "visual"
    has_teams = True
    bots_allowed = False  # a bot can neither draw nor guess

    def variant_names(self) -> tuple[str, ...]:
        return (NAME,)

    def variants(self) -> list[VariantInfo]:
        return [self.variant(NAME)]

    def variant(self, name: str) -> VariantInfo:
        if name != NAME:
            raise LookupError(name)
        teams = {
            "min": MIN_TEAMS,
            "max": MAX_TEAMS,
            "min_size": MIN_TEAM_SIZE,
            "colors": list(TEAM_COLORS),
        }
        return VariantInfo(
            name=NAME,
            title=TITLE,
            family=self.name,
            min_players=MIN_PLAYERS,
            max_players=MAX_PLAYERS,
            details={"teams": teams},
            capabilities={
                "client": self.name,
                "story_source": None,
                "first_storyteller": None,
                "board": {"name": "visual-track", "length": LAST_SQUARE, "loops": False},
                "teams": teams,
                "canvas": {
                    "width": canvas.WIDTH,
                    "height": canvas.HEIGHT,
                    "colors": canvas.COLORS,
                    "sizes": canvas.SIZES,
                },
                "bots": self.bots_allowed,
                "restrictions": [],
                "categories": [
                    {"name": c, "points": category_value(c), "choosable": c in CHOOSABLE}
                    for c in CATEGORIES
                ],
                "options": list(Options.__struct_fields__),
            },
        )

    def parse_options(self, raw: dict[str, Any], lang: str) -> Options:
        data = dict(raw)
        if "language" not in data and is_language(lang):
            data["language"] = lang
        try:
            return msgspec.convert(data, Options)
        except msgspec.ValidationError as exc:
            raise RoomError("bad_options", f"Invalid option: {exc}") from None

    def check_setup(self, room: RoomLike, players: int) -> None:
        count = max(players, MIN_PLAYERS)
        names = [f"p{i}" for i in range(count)]
        teams = [s % MIN_TEAMS for s in range(count)]
        self.new_game(room, names, teams, 0, self.deal(room, 0))

    def deal(self, room: RoomLike, seed: int) -> tuple[Card, ...]:
        options: Options = room.options
        try:
            return build_deck(_words(options.language), seed, blank_share=options.blank_share)
        except ValueError as exc:
            raise RoomError("bad_options", str(exc)) from None

    def new_game(
        self,
        room: RoomLike,
        names: Sequence[str],
        teams: Sequence[int | None],
        seed: int,
        content: tuple[Any, ...],
    ) -> GameState:
        options: Options = room.options
        count = max((t for t in teams if t is not None), default=-1) + 1
        members = [[s for s, t in enumerate(teams) if t == team] for team in range(count)]
        small = [t + 1 for t, m in enumerate(members) if len(m) < MIN_TEAM_SIZE]
        if count < MIN_TEAMS or small or None in teams:
            raise RoomError(
                "not_enough_players",
                f"The drawing game needs at least {MIN_TEAMS} teams of {MIN_TEAM_SIZE}"
                + (f"; team {small[0]} is too small." if small else "."),
            )
        try:
            # A start logged before cards were recorded deals them again from the lists.
            cards = content or self.deal(room, seed)
            return new_game(list(names), members, seed, cards=cards, options=options)
        except SetupError as exc:
            raise RoomError("bad_options", str(exc)) from None

    def accepts(self, action: object) -> bool:
        return isinstance(action, _ACTIONS)

    def apply(self, game: GameState, action: Action) -> GameState:
        return apply(game, action).state

    def is_over(self, game: GameState) -> bool:
        return game.phase is Phase.OVER

    def phase_key(self, game: GameState) -> tuple[int, str]:
        return (game.turn.number, game.phase.value)

    def views(self, game: GameState, seats: Iterable[int | None]) -> dict[int | None, Any]:
        return views(game, seats)

    def timer(self, game: GameState) -> tuple[str, float] | None:
        timer = game.turn.timer
        if timer is None or game.phase is Phase.OVER:
            return None
        return (timer.value, float(game.options.seconds(timer)))

    def timeout(self) -> TimeUp:
        return TimeUp()

    def may_chat(self, game: GameState, seat: int) -> bool:
        return not (game.phase in _DRAWING and seat in game.turn.drawers)

    def team_of(self, game: GameState, seat: int) -> int | None:
        return game.team_of(seat)

    def bot_seats(self, game: GameState, bots: Sequence[bool]) -> list[int]:
        turn = game.turn
        if game.phase is Phase.CHOOSE:
            return [turn.drawer] if bots[turn.drawer] else []
        deciding = {Phase.MOVE: turn.solved_by, Phase.BONUS: turn.solved_by}.get(
            game.phase, turn.team if game.phase is Phase.LOSE else None
        )
        # A team decision is the people's; a bot takes it only for a team of bots.
        if deciding is not None and all(bots[s] for s in game.teams[deciding]):
            return [game.teams[deciding][0]]
        return []

    def bot_action(
        self, game: GameState, seat: int, rng: random.Random, deck: Deck | None, lang: str
    ) -> Action | None:
        turn = game.turn
        if game.phase is Phase.CHOOSE and seat == turn.drawer:
            return Choose(seat, rng.choice(CHOOSABLE))
        team = game.team_of(seat)
        if game.phase is Phase.MOVE and team is not None:
            return Move(seat, max(1, min(8, LAST_SQUARE - game.pawns[team])), "forward")
        if game.phase is Phase.BONUS:
            return Keep(seat)
        if game.phase is Phase.LOSE and team is not None and game.held[team]:
            lowest = min(game.held[team], key=lambda k: game.tokens[k].value)
            return Forfeit(seat, lowest)
        return None


VISUAL = VisualFamily()
