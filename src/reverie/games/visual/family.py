"""The team drawing game ``visual``: rooms' side of :mod:`reverie.rules.visual`, with the
client frames that are its moves and its lobby teams (the canvas is in :mod:`.canvas`)."""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from typing import Annotated, Any, ClassVar, Literal

import msgspec
from msgspec import Meta

from reverie.content.custom_words import SHELF, WordMode, combine
from reverie.content.library import Library
from reverie.content.words import load_words
from reverie.errors import RoomError
from reverie.games.base import (
    GameCommand,
    GameFamily,
    Limit,
    RoomLike,
    SideChannel,
    TeamSpec,
    VariantInfo,
)
from reverie.games.visual import canvas
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
from reverie.rules.visual.categories import CATEGORIES, Category
from reverie.rules.visual.language import is_language
from reverie.rules.visual.playouts import random_action
from reverie.rules.visual.secrecy import scramble

NAME = "visual"
TITLE = "Visual Game"
TEAMS = TeamSpec(
    min_teams=2,
    max_teams=6,
    min_size=2,
    colors=("#e63946", "#1e88e5", "#43a047", "#fb8c00", "#8e24aa", "#00897b"),
)
MIN_PLAYERS = TEAMS.min_teams * TEAMS.min_size
MAX_PLAYERS = 12  # one piece colour each
#: A stored word list's id (``reverie.web.words_api``).
WORD_LIST_ID = re.compile(r"^w-[a-z2-7]{26}$")
#: While these run, the turn's secret is being drawn: its drawers may not chat.
_DRAWING = frozenset({Phase.THINK, Phase.DRAW})


@lru_cache(maxsize=8)
def _words(lang: str) -> dict[Category, tuple[str, ...]]:
    """The word lists of one language (read once per process)."""
    return {c: load_words(lang, c) for c in CATEGORIES}


class VisualOptions(Options, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The rules' options plus the table's own words: ``words`` names a stored list
    (:mod:`reverie.content.custom_words`; the words themselves stay out of the room's
    frames), played ``instead`` of the default lists of its categories or ``beside``
    them (``word_mode``)."""

    words: Annotated[str, Meta(pattern=r"^w-[a-z2-7]{26}$")] | None = None
    word_mode: WordMode = "beside"

    def rules_options(self) -> Options:
        """The options the rules know (a game's state keeps only those)."""
        return Options(**{f: getattr(self, f) for f in Options.__struct_fields__})


class ChooseCmd(GameCommand, frozen=True, tag="choose"):
    """Drawer: choose a category (then the card is drawn)."""

    category: str = ""


class GuessCmd(GameCommand, frozen=True, tag="guess"):
    """Guesser: a guess (an allowance of its own: guesses are cheap to send)."""

    text: str = ""
    limit = Limit(rate=2, burst=6)


class AcceptCmd(GameCommand, frozen=True, tag="accept"):
    """Drawer: this guess is right."""

    index: int = -1


class SynonymCmd(GameCommand, frozen=True, tag="synonym"):
    """Drawer: this guess is a synonym (a hint)."""

    index: int = -1


class MoveCmd(GameCommand, frozen=True, tag="move"):
    """The team that guessed the proverb: its move."""

    steps: int = 0
    direction: Literal["forward", "backward"] = "forward"


class KeepCmd(GameCommand, frozen=True, tag="keep"):
    """The team on a bonus token keeps it."""


class StealCmd(GameCommand, frozen=True, tag="steal"):
    """The team on a bonus token steals ``token`` instead."""

    token: int = -1


class ForfeitCmd(GameCommand, frozen=True, tag="forfeit"):
    """The team that failed gives up ``token``."""

    token: int = -1


def choose_action(seat: int, cmd: ChooseCmd) -> Choose:
    """The choice of ``cmd``'s category by ``seat`` (a category the log may hold)."""
    if cmd.category not in CHOOSABLE:  # checked here: the log must only hold valid actions
        raise RoomError("bad_category", f"Choose one of: {', '.join(CHOOSABLE)}.")
    return Choose(seat, cmd.category)


class VisualFamily(GameFamily[GameState, Action, Options, Card]):
    """Teams, the word cards, the canvas and the timers of the drawing game."""

    name = "visual"
    action_type = Action
    content_type = Card
    game_type = GameState
    options_type = VisualOptions
    commands: ClassVar[tuple[type[GameCommand], ...]] = (
        ChooseCmd,
        GuessCmd,
        AcceptCmd,
        SynonymCmd,
        MoveCmd,
        KeepCmd,
        StealCmd,
        ForfeitCmd,
    )
    channels: ClassVar[tuple[SideChannel[Any, Any], ...]] = (canvas.CANVAS,)
    teams = TEAMS
    bots_allowed = False  # a bot can neither draw nor guess
    # No bot's seat to take: a person arriving mid-game joins the smaller team.
    joins_mid_game = True
    bot_levels = ()  # a stand-in only chooses categories: there is no level to choose

    def variant_names(self) -> tuple[str, ...]:
        return (NAME,)

    def variant(self, name: str) -> VariantInfo:
        if name != NAME:
            raise LookupError(name)
        teams = TEAMS.as_dict()
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
                "deck": self.uses_deck,
                "canvas": {
                    "width": canvas.WIDTH,
                    "height": canvas.HEIGHT,
                    "colors": canvas.COLORS,
                    "sizes": canvas.SIZES,
                },
                "bots": self.bots_allowed,
                "bot_levels": list(self.bot_levels),
                "restrictions": [],
                "categories": [
                    {"name": c, "points": category_value(c), "choosable": c in CHOOSABLE}
                    for c in CATEGORIES
                ],
                "options": list(VisualOptions.__struct_fields__),
            },
        )

    def parse_options(self, raw: Mapping[str, Any], lang: str) -> Options:
        data = dict(raw)
        if "language" not in data and is_language(lang):
            data["language"] = lang  # guesses are normalised in the table's language
        return super().parse_options(data, lang)

    async def check_content(self, options: Mapping[str, Any], library: Library) -> None:
        # A room that names a list of its own that does not exist would answer "still
        # being loaded" at every start: refused when the room opens or its options change.
        list_id = options.get("words")
        # A malformed id is the options' own check (``bad_options``): no read for it.
        if isinstance(list_id, str) and WORD_LIST_ID.match(list_id) is None:
            return
        if isinstance(list_id, str) and await SHELF.fetch(list_id) is None:
            raise RoomError("unknown_words", "There is no such word list.")

    async def options_named(self, code: str, options: Mapping[str, Any], library: Library) -> None:
        list_id = options.get("words")
        if isinstance(list_id, str) and WORD_LIST_ID.match(list_id):
            await library.words_named(list_id, code)

    def check_setup(self, room: RoomLike[Options], players: int) -> None:
        count = max(players, MIN_PLAYERS)
        names = [f"p{i}" for i in range(count)]
        teams = [s % TEAMS.min_teams for s in range(count)]
        # The default lists only: a table's own list is read when its game starts (a
        # room replayed where the list is not held yet must still load).
        self.new_game(room, names, teams, 0, self._deal(room, 0, own=False))

    def deal(self, room: RoomLike[Options], seed: int) -> tuple[Card, ...]:
        return self._deal(room, seed, own=True)

    def _deal(self, room: RoomLike[Options], seed: int, *, own: bool) -> tuple[Card, ...]:
        options = room.options
        words: Mapping[Category, Sequence[str]] = _words(options.language)
        list_id = getattr(options, "words", None)
        if own and list_id is not None:
            mine = SHELF.get(list_id)
            if mine is None:  # being read now: the next start finds it
                raise RoomError(
                    "words_unavailable",
                    "The table's own words are still being loaded; start again in a moment.",
                )
            mode: WordMode = getattr(options, "word_mode", "beside")
            words = combine(words, mine.lists, mode, options.language)
        try:
            return build_deck(words, seed, blank_share=options.blank_share)
        except ValueError as exc:
            raise RoomError("bad_options", str(exc)) from None

    def new_game(
        self,
        room: RoomLike[Options],
        names: Sequence[str],
        teams: Sequence[int | None],
        seed: int,
        content: tuple[Card, ...],
    ) -> GameState:
        options: Options = room.options
        count = max((t for t in teams if t is not None), default=-1) + 1
        members = [[s for s, t in enumerate(teams) if t == team] for team in range(count)]
        small = [t + 1 for t, m in enumerate(members) if len(m) < TEAMS.min_size]
        if count < TEAMS.min_teams or small or None in teams:
            raise RoomError(
                "not_enough_players",
                f"The drawing game needs at least {TEAMS.min_teams} teams of {TEAMS.min_size}"
                + (f"; team {small[0]} is too small." if small else "."),
            )
        try:
            # A start logged before cards were recorded deals them again from the lists.
            cards = content or self.deal(room, seed)
            rules = options.rules_options() if isinstance(options, VisualOptions) else options
            return new_game(list(names), members, seed, cards=cards, options=rules)
        except SetupError as exc:
            raise RoomError("bad_options", str(exc)) from None

    def action_for(self, game: GameState, seat: int, cmd: GameCommand) -> Action:
        if isinstance(cmd, ChooseCmd):
            return choose_action(seat, cmd)
        if isinstance(cmd, GuessCmd):
            return Guess(seat, cmd.text)
        if isinstance(cmd, AcceptCmd):
            return Accept(seat, cmd.index)
        if isinstance(cmd, SynonymCmd):
            return Synonym(seat, cmd.index)
        if isinstance(cmd, MoveCmd):
            return Move(seat, cmd.steps, cmd.direction)
        if isinstance(cmd, KeepCmd):
            return Keep(seat)
        if isinstance(cmd, StealCmd):
            return Steal(seat, cmd.token)
        if isinstance(cmd, ForfeitCmd):
            return Forfeit(seat, cmd.token)
        raise RoomError("bad_message", "That move is not part of this game.")

    def apply(self, game: GameState, action: Action) -> GameState:
        return apply(game, action).state

    def is_over(self, game: GameState) -> bool:
        return game.phase is Phase.OVER

    def progress(self, game: GameState) -> float:
        # The leading pawn's way to the last square, or the turns played of a limit.
        if game.phase is Phase.OVER:
            return 1.0
        by_pawn = max(game.pawns, default=0) / LAST_SQUARE
        limit = game.options.turn_limit
        by_turns = game.turn.number / limit if limit else 0.0
        return max(0.0, min(1.0, max(by_pawn, by_turns)))

    def phase_key(self, game: GameState) -> tuple[int, str]:
        return (game.turn.number, game.phase.value)

    def add_player(self, game: GameState, name: str) -> tuple[GameState, int | None]:
        # The team with the fewest members (the first on ties), so teams stay even; the
        # newcomer draws after its other members (the rotation's index stays valid).
        team = min(range(len(game.teams)), key=lambda t: (len(game.teams[t]), t))
        seat = len(game.players)
        teams = tuple((*m, seat) if t == team else m for t, m in enumerate(game.teams))
        return msgspec.structs.replace(game, players=(*game.players, name), teams=teams), team

    def views(self, game: GameState, seats: Iterable[int | None]) -> Mapping[int | None, object]:
        return views(game, seats)

    def timer(self, game: GameState) -> tuple[str, float] | None:
        timer = game.turn.timer
        if timer is None or game.phase is Phase.OVER:
            return None
        return (timer.value, float(game.options.seconds(timer)))

    def timeout(self) -> TimeUp:
        return TimeUp()

    def scramble(self, game: GameState, seat: int | None, rng: random.Random) -> GameState:
        return scramble(game, seat, rng)

    def random_action(self, game: GameState, rng: random.Random) -> Action | None:
        return None if game.phase is Phase.OVER else random_action(game, rng)

    def check_chat(self, game: GameState, seat: int) -> None:
        if game.phase in _DRAWING and seat in game.turn.drawers:
            raise RoomError(
                "drawer_silent", "While you draw you may only mark guesses as synonyms."
            )

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
        self,
        game: GameState,
        seat: int,
        rng: random.Random,
        room: RoomLike[Options],
        library: Library,
        level: str = "easy",
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
