"""The Visual Game with paper and pencil (``visual-companion``): the drawing game's
rules (:mod:`reverie.rules.visual`, the online game's own engine) with the drawings on
paper and one shared device on the table.

The host's device is the table's: it stays outside the teams (``TeamSpec.host_aside``)
and enters the table's moves, which this family gives to the seat the rules expect (the
drawer chooses the category, a member of the deciding team moves, keeps, steals or gives
up a token). The drawer reads the word card on their own phone; the team says aloud what
it guesses, and the table taps "guessed" (a :class:`~reverie.rules.visual.Declare` by
that team's drawer) or "time ran out" (:class:`~reverie.rules.visual.GiveUp`). The
think and draw timers are the sand timer: the room's deadline. The other phases wait for
the table, as the box does.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence

from reverie.content.library import Library
from reverie.errors import RoomError
from reverie.games.base import GameCommand, RoomLike, TeamSpec, VariantInfo
from reverie.games.visual.family import (
    MAX_PLAYERS,
    TEAMS,
    ChooseCmd,
    ForfeitCmd,
    KeepCmd,
    MoveCmd,
    StealCmd,
    VisualFamily,
    VisualOptions,
    choose_action,
)
from reverie.games.visual.family import (
    NAME as ONLINE,
)
from reverie.rules.errors import SetupError
from reverie.rules.visual import (
    Action,
    Card,
    Declare,
    Forfeit,
    GameState,
    GiveUp,
    Keep,
    Move,
    Options,
    Phase,
    Steal,
    new_game,
    paper_views,
)
from reverie.rules.visual.playouts import random_action

NAME = "visual-companion"
#: The teams of the online game, with the host's seat aside: the shared device.
COMPANION_TEAMS = TeamSpec(
    min_teams=TEAMS.min_teams,
    max_teams=TEAMS.max_teams,
    min_size=TEAMS.min_size,
    colors=TEAMS.colors,
    host_aside=True,
)
#: Two teams of two, and the shared device.
MIN_PLAYERS = COMPANION_TEAMS.min_teams * COMPANION_TEAMS.min_size + 1
#: The phases the room times: the sand timer (think, then draw). Choosing, moving after a
#: proverb and the tokens wait for the table.
TIMED = frozenset({Phase.THINK, Phase.DRAW})
#: The table options that mean something on paper (no timers for the table's decisions).
OFFERED = (
    "language",
    "think_seconds",
    "draw_seconds",
    "overshoot",
    "blank_share",
    "turn_limit",
    "words",
    "word_mode",
)


class GuessedCmd(GameCommand, frozen=True, tag="guessed"):
    """The table: team ``team`` guessed the word (in a proverb round, any team)."""

    team: int = -1


class RanOutCmd(GameCommand, frozen=True, tag="ran_out"):
    """The table: the drawing ends unsolved (the sand timer ran out, or the team gave up)."""


def _drawer_of(game: GameState, team: int) -> int:
    """The seat drawing for ``team`` now (a guess heard is declared in its name)."""
    turn = game.turn
    if not 0 <= team < len(game.teams):
        raise RoomError("bad_team", f"There is no team {team + 1}.")
    if turn.proverb and team < len(turn.drawers):
        return turn.drawers[team]
    if team != turn.team:
        raise RoomError(
            "not_your_turn", "Only the team whose turn it is guesses (all teams, for a proverb)."
        )
    return turn.drawer


def _member_of(game: GameState, team: int | None) -> int:
    """A seat of the deciding ``team`` (the rules take a team's decision from any of its
    members); the drawer when no team decides now, so the rules say why not."""
    return game.turn.drawer if team is None else game.teams[team][0]


class VisualCompanionFamily(VisualFamily):
    """The Visual Game played on paper with one shared device."""

    name = "visual-companion"
    # Played on paper around one device: nobody joins a game under way.
    joins_mid_game = False
    commands = (
        ChooseCmd,
        GuessedCmd,
        RanOutCmd,
        MoveCmd,
        KeepCmd,
        StealCmd,
        ForfeitCmd,
    )
    channels = ()  # the drawings are on paper
    teams = COMPANION_TEAMS

    def variant_names(self) -> tuple[str, ...]:
        return (NAME,)

    def variant(self, name: str) -> VariantInfo:
        if name != NAME:
            raise LookupError(name)
        online = super().variant(ONLINE)
        teams = COMPANION_TEAMS.as_dict()
        return VariantInfo(
            name=NAME,
            title=online.title,
            family=self.name,
            min_players=MIN_PLAYERS,
            max_players=MAX_PLAYERS,
            details={"teams": teams, "companion_of": online.name},
            capabilities={
                **online.capabilities,
                "client": self.name,
                "teams": teams,
                "canvas": None,
                "options": list(OFFERED),
                "companion_of": online.name,
                "table_screen": True,
            },
        )

    def check_setup(self, room: RoomLike[Options], players: int) -> None:
        count = max(players, MIN_PLAYERS)
        names = [f"p{i}" for i in range(count)]
        teams = [None, *(s % COMPANION_TEAMS.min_teams for s in range(count - 1))]
        # The default lists only, as the online game checks (a table's own list is read
        # when its game starts).
        self.new_game(room, names, teams, 0, self._deal(room, 0, own=False))

    def new_game(
        self,
        room: RoomLike[Options],
        names: Sequence[str],
        teams: Sequence[int | None],
        seed: int,
        content: tuple[Card, ...],
    ) -> GameState:
        count = max((t for t in teams if t is not None), default=-1) + 1
        members = [[s for s, t in enumerate(teams) if t == team] for team in range(count)]
        small = [t + 1 for t, m in enumerate(members) if len(m) < COMPANION_TEAMS.min_size]
        if count < COMPANION_TEAMS.min_teams or small:
            raise RoomError(
                "not_enough_players",
                f"The Visual Game needs at least {COMPANION_TEAMS.min_teams} teams of "
                f"{COMPANION_TEAMS.min_size} besides the table's device"
                + (f"; team {small[0]} is too small." if small else "."),
            )
        aside = [s for s, t in enumerate(teams) if t is None]
        options = room.options
        rules = options.rules_options() if isinstance(options, VisualOptions) else options
        try:
            cards = content or self.deal(room, seed)
            return new_game(list(names), members, seed, cards=cards, options=rules, aside=aside)
        except SetupError as exc:
            raise RoomError("bad_options", str(exc)) from None

    def action_for(self, game: GameState, seat: int, cmd: GameCommand) -> Action:
        # The shared device (no team) acts in the name of the seat the rules expect; a
        # phone acts for itself, and the rules judge it as in the online game.
        table = game.team_of(seat) is None
        turn = game.turn
        if isinstance(cmd, ChooseCmd):
            return choose_action(turn.drawer if table else seat, cmd)
        if isinstance(cmd, GuessedCmd):
            if table:
                return Declare(_drawer_of(game, cmd.team))
            if cmd.team != game.team_of(seat):
                raise RoomError("not_your_team", "Say your own team guessed.")
            return Declare(seat)
        if isinstance(cmd, RanOutCmd):
            return GiveUp(turn.drawer if table else seat)
        if isinstance(cmd, MoveCmd):
            actor = _member_of(game, turn.solved_by) if table else seat
            return Move(actor, cmd.steps, cmd.direction)
        if isinstance(cmd, KeepCmd):
            return Keep(_member_of(game, turn.solved_by) if table else seat)
        if isinstance(cmd, StealCmd):
            return Steal(_member_of(game, turn.solved_by) if table else seat, cmd.token)
        if isinstance(cmd, ForfeitCmd):
            return Forfeit(_member_of(game, turn.team) if table else seat, cmd.token)
        raise RoomError("bad_message", "That move is not part of this game.")

    def random_action(self, game: GameState, rng: random.Random) -> Action | None:
        # On paper nothing is typed: a drawer declares the guess heard at the table.
        return None if game.phase is Phase.OVER else random_action(game, rng, paper=True)

    def views(self, game: GameState, seats: Iterable[int | None]) -> Mapping[int | None, object]:
        # The typed view of a paper game: redactions are the rules' (rules/visual/views).
        return paper_views(game, seats)

    def timer(self, game: GameState) -> tuple[str, float] | None:
        return super().timer(game) if game.phase in TIMED else None

    def bot_seats(self, game: GameState, bots: Sequence[bool]) -> list[int]:
        return []  # the table's device takes every decision

    def bot_action(
        self,
        game: GameState,
        seat: int,
        rng: random.Random,
        room: RoomLike[Options],
        library: Library,
        level: str = "easy",
    ) -> Action | None:
        return None


VISUAL_COMPANION = VisualCompanionFamily()
