"""Pebbles: a toy game that plugs into the rooms and the web through the registry alone.

Its rules (a pile of pebbles; in turn each player takes one to three; who takes the last
loses; each player holds a secret lucky number only they may see), its adapter, its move
(``take``) and its side channel (``signal``: a symbol shown only to the sender's two
neighbours at the table) all live in this file, which is the point: nothing outside it
names the game.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Annotated, Any

import msgspec

from reverie.errors import RoomError
from reverie.games import (
    Admits,
    Audience,
    GameCommand,
    GameFamily,
    Limit,
    RoomLike,
    SideChannel,
    SideCommand,
    VariantInfo,
    seats_only,
)
from reverie.rules.errors import IllegalAction

VARIANT = "pebbles"

# ---------------------------------------------------------------------- rules (pure)


class Options(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """How many pebbles the pile starts with."""

    pile: Annotated[int, msgspec.Meta(ge=3, le=50)] = 7


class Take(msgspec.Struct, frozen=True, tag="take"):
    """``seat`` takes ``count`` pebbles."""

    seat: int
    count: int


@dataclass(frozen=True, slots=True)
class Game:
    """The pile, whose turn it is, each seat's secret, and the loser once it is over."""

    pile: int
    turn: int
    secrets: tuple[int, ...]
    taken: tuple[int, ...]
    loser: int | None = None


def new_game(players: int, pile: int, seed: int) -> Game:
    """A fresh pile; the secrets come from the seed."""
    rng = random.Random(seed)
    return Game(pile, 0, tuple(rng.randint(1, 99) for _ in range(players)), (0,) * players)


def apply(game: Game, action: Take) -> Game:
    """The game after a take (``IllegalAction`` if it is not allowed)."""
    if game.loser is not None:
        raise IllegalAction("wrong_phase", "The game is over.")
    if action.seat != game.turn:
        raise IllegalAction("not_your_turn", "Wait for your turn.")
    if not 1 <= action.count <= min(3, game.pile):
        raise IllegalAction("bad_count", "Take one to three pebbles, no more than are left.")
    pile = game.pile - action.count
    taken = list(game.taken)
    taken[action.seat] += action.count
    loser = action.seat if pile == 0 else None
    turn = (game.turn + 1) % len(game.secrets)
    return replace(game, pile=pile, turn=turn, taken=tuple(taken), loser=loser)


def view(game: Game, seat: int | None) -> dict[str, Any]:
    """What ``seat`` sees: everything but the others' secrets."""
    return {
        "phase": "over" if game.loser is not None else "take",
        "pile": game.pile,
        "turn": game.turn,
        "taken": list(game.taken),
        "loser": game.loser,
        "secret": None if seat is None else game.secrets[seat],
    }


# ---------------------------------------------------------------------- adapter


class TakeCmd(GameCommand, frozen=True, tag="take"):
    """Take pebbles from the pile."""

    count: int = 0


class SignalCmd(SideCommand, frozen=True, tag="signal"):
    """Show a symbol (0 to 9) to your neighbours."""

    symbol: int = -1


#: The latest symbol each seat signalled in this game.
Signals = dict[int, int]


class SignalChannel(SideChannel[Game, Signals]):
    """Signals go to the sender's two neighbours only, live and on a reconnect."""

    name = "signal"
    command = SignalCmd
    limit = Limit(rate=5, burst=5)
    harmless = frozenset({"wrong_phase"})
    resync = frozenset({"bad_signal"})

    def key(self, game: Game, games: int) -> Hashable:
        return games

    def new_state(self) -> Signals:
        return {}

    @staticmethod
    def audience(game: Game, sender: int) -> Audience:
        """The seats on either side of ``sender``."""
        n = len(game.secrets)
        return seats_only((sender - 1) % n, (sender + 1) % n)

    def accept(
        self, game: Game, games: int, state: Signals, seat: int, cmd: SideCommand
    ) -> tuple[dict[str, Any], Audience]:
        assert isinstance(cmd, SignalCmd)
        if game.loser is not None:
            raise RoomError("wrong_phase", "The game is over.")
        if not 0 <= cmd.symbol <= 9:
            raise RoomError("bad_signal", "A signal is a symbol from 0 to 9.")
        state[seat] = cmd.symbol
        frame = {"type": "signal", "seat": seat, "symbol": cmd.symbol}
        return frame, self.audience(game, seat)

    def replay(
        self, game: Game, games: int, state: Signals, admits: Admits
    ) -> dict[str, Any] | None:
        seen = {str(s): sym for s, sym in state.items() if admits(self.audience(game, s))}
        return {"type": "signals", "signals": seen}

    def sample(self, game: Game, seat: int, rng: random.Random) -> SignalCmd | None:
        return None if game.loser is not None else SignalCmd(symbol=rng.randrange(10))


class PebblesFamily(GameFamily[Game, Take, Options, object]):
    """The toy game's side of the seam."""

    name = "pebbles"
    action_type = Take
    options_type = Options
    commands = (TakeCmd,)
    channels = (SignalChannel(),)
    bots_allowed = False

    def variant_names(self) -> tuple[str, ...]:
        return (VARIANT,)

    def variant(self, name: str) -> VariantInfo:
        if name != VARIANT:
            raise LookupError(name)
        return VariantInfo(
            name=VARIANT,
            title="Pebbles",
            family=self.name,
            min_players=2,
            max_players=6,
            details={},
            capabilities={"client": self.name, "options": ["pile"]},
        )

    def new_game(
        self,
        room: RoomLike[Options],
        names: Sequence[str],
        teams: Sequence[int | None],
        seed: int,
        content: tuple[object, ...],
    ) -> Game:
        return new_game(len(names), room.options.pile, seed)

    def action_for(self, game: Game, seat: int, cmd: GameCommand) -> Take:
        if not isinstance(cmd, TakeCmd):
            raise RoomError("bad_message", "That move is not part of this game.")
        return Take(seat, cmd.count)

    def apply(self, game: Game, action: Take) -> Game:
        return apply(game, action)

    def is_over(self, game: Game) -> bool:
        return game.loser is not None

    def phase_key(self, game: Game) -> tuple[int, str]:
        return (sum(game.taken), "over" if game.loser is not None else "take")

    def views(self, game: Game, seats: Iterable[int | None]) -> Mapping[int | None, object]:
        return {s: view(game, s) for s in seats}

    def scramble(self, game: Game, seat: int | None, rng: random.Random) -> Game:
        # The secret numbers of the other seats are all a seat may not know.
        secrets = tuple(x if s == seat else rng.randint(1, 99) for s, x in enumerate(game.secrets))
        return replace(game, secrets=secrets)

    def random_action(self, game: Game, rng: random.Random) -> Take | None:
        return None if game.loser is not None else Take(game.turn, rng.randint(1, 3))


PEBBLES = PebblesFamily()
