"""Companion rooms: the five association variants played with a real box on the table
(``dixit-companion``, ``imaginarium-companion``, …), the rooms' side of
:mod:`reverie.rules.companion`. No digital cards: the phones hold the turn, the secret
positions and votes, the scores and the board; the scorers and boards are the online
game's own."""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import msgspec

from reverie.errors import RoomError
from reverie.games.association import ASSOCIATION
from reverie.games.base import GameCommand, GameFamily, RoomLike, VariantInfo
from reverie.rules import companion as rules
from reverie.rules.association import VARIANTS
from reverie.rules.companion import playouts
from reverie.rules.errors import SetupError

#: A companion variant's name is its association variant's plus this.
SUFFIX = "-companion"


def base_variant(name: str) -> str:
    """The association variant a companion variant plays (``LookupError`` if none).

    >>> base_variant("pictoric-gallery-companion")
    'pictoric-gallery'
    """
    base = name.removesuffix(SUFFIX)
    if base == name or base not in VARIANTS:
        raise LookupError(f"Unknown variant {name!r}.")
    return base


class RollCmd(GameCommand, frozen=True, tag="roll"):
    """Roll one's die for the first storyteller."""


class TellCmd(GameCommand, frozen=True, tag="tell"):
    """Storyteller: the clue is told (``text`` for the log, may be empty)."""

    text: str = ""


class CountCmd(GameCommand, frozen=True, tag="count"):
    """Storyteller: how many cards lie on the table."""

    cards: int = 0


class PlaceCmd(GameCommand, frozen=True, tag="place"):
    """The position of one's own card."""

    position: int = 0


class VoteCmd(GameCommand, frozen=True, tag="vote"):
    """A secret vote for a position."""

    position: int = 0


class UndoCmd(GameCommand, frozen=True, tag="undo"):
    """The table takes the last reveal back."""


class FinishCmd(GameCommand, frozen=True, tag="finish"):
    """The table's cards ran out: end the game."""


class CompanionFamily(GameFamily[rules.GameState, rules.Action, rules.Options, object]):
    """Association games with physical cards: one family, parametrised by the variant."""

    name = "companion"
    action_type = rules.Action
    game_type = rules.GameState
    options_type = rules.Options
    commands = (RollCmd, TellCmd, CountCmd, PlaceCmd, VoteCmd, UndoCmd, FinishCmd)
    bots_allowed = False  # a bot cannot hold a real card

    def variant_names(self) -> tuple[str, ...]:
        return tuple(f"{name}{SUFFIX}" for name in VARIANTS)

    def variant(self, name: str) -> VariantInfo:
        online = ASSOCIATION.variant(base_variant(name))
        options = ["first_storyteller", "restrictions", "target_score", "team_seats"]
        if not online.capabilities["board"]["loops"]:
            options.append("track_length")
        return VariantInfo(
            name=name,
            title=online.title,
            family=self.name,
            min_players=online.min_players,
            max_players=online.max_players,
            details={**online.details, "companion_of": online.name},
            capabilities={
                **online.capabilities,
                "client": self.name,
                "bots": self.bots_allowed,
                "bot_levels": list(self.bot_levels),
                "deck": self.uses_deck,  # the box's cards are on the table
                "options": options,
                "companion_of": online.name,
                "table_screen": True,
            },
        )

    def parse_options(self, raw: Mapping[str, Any], lang: str) -> rules.Options:
        """The table's options; team seats are one member's confirm ("agree" is taken
        as "one"): with the box, a team sits at the table together and talks, so a team
        seat is simply one seat entered from any member's phone."""
        options = super().parse_options(raw, lang)
        if options.team_seats == "agree":
            return msgspec.structs.replace(options, team_seats="one")
        return options

    def new_game(
        self,
        room: RoomLike[rules.Options],
        names: Sequence[str],
        teams: Sequence[int | None],
        seed: int,
        content: tuple[object, ...],
    ) -> rules.GameState:
        try:
            return rules.new_game(base_variant(room.variant), list(names), seed, room.options)
        except SetupError as exc:
            raise RoomError("bad_options", str(exc)) from None

    def action_for(self, game: rules.GameState, seat: int, cmd: GameCommand) -> rules.Action:
        if isinstance(cmd, RollCmd):
            return rules.Roll(seat)
        if isinstance(cmd, TellCmd):
            return rules.Tell(seat, cmd.text)
        if isinstance(cmd, CountCmd):
            return rules.Count(seat, cmd.cards)
        if isinstance(cmd, PlaceCmd):
            return rules.Place(seat, cmd.position)
        if isinstance(cmd, VoteCmd):
            return rules.Vote(seat, cmd.position)
        if isinstance(cmd, UndoCmd):
            return rules.Undo(seat)
        if isinstance(cmd, FinishCmd):
            return rules.Finish(seat)
        raise RoomError("bad_message", "That move is not part of this game.")

    def apply(self, game: rules.GameState, action: rules.Action) -> rules.GameState:
        return rules.apply(game, action)

    def is_over(self, game: rules.GameState) -> bool:
        return game.phase is rules.Phase.OVER

    def acts_after_end(self, game: rules.GameState, action: rules.Action) -> bool:
        # The table may take back the reveal that ended the game (Pictoric's box, a
        # target score): the rules judge whether it still can.
        return isinstance(action, rules.Undo)

    def phase_key(self, game: rules.GameState) -> tuple[int, str]:
        # Each row of dice is a phase of its own: a tap meant for the last row is stale.
        if game.phase is rules.Phase.DICE:
            return (0, f"dice{len(game.rolls)}")
        return (game.round.number, game.phase.value)

    def views(
        self, game: rules.GameState, seats: Iterable[int | None]
    ) -> Mapping[int | None, object]:
        return rules.views(game, seats)

    def scramble(
        self, game: rules.GameState, seat: int | None, rng: random.Random
    ) -> rules.GameState:
        return playouts.scramble(game, seat, rng)

    def random_action(self, game: rules.GameState, rng: random.Random) -> rules.Action | None:
        return playouts.random_action(game, rng)


COMPANION = CompanionFamily()
