"""One secrecy property for every registered game, the toy included.

For each variant of each family, seeded random games are played with the family's own
``random_action``; at every step, for every seat and the spectator, the family's
``scramble`` changes all that seat may not know, and the seat's view must not change
(non-interference: nothing the seat may not know reaches its view). A new game is
checked by being registered: ``scramble`` and ``random_action`` are abstract members of
``GameFamily``. The property has teeth: each variant's scrambles must change some other
seat's view (they touch real secrets), and a toy whose views show every secret fails it.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import msgspec
import pytest

from reverie import games
from reverie.games import AnyFamily
from reverie.rules.errors import IllegalAction
from tests.games.toy import PEBBLES, Game, PebblesFamily

#: Steps of each random game (a game that ends sooner ends there); games are played
#: until this many (state, seat) pairs are checked for each variant.
STEPS = 160
CHECKS = 600


@dataclass(frozen=True)
class Table:
    """The parts of a room a family reads (``RoomLike``)."""

    variant: str
    options: Any
    setup: Any
    lang: str = "en"


#: A room's setup as the log records it: a family that plays a picture deck reads it,
#: the others ignore it.
SETUP = {"deck": "default", "card_count": 400}


def _families() -> Iterator[AnyFamily]:
    yield from games.families()
    yield PEBBLES


def _variants() -> list[tuple[AnyFamily, str]]:
    return [(f, name) for f in _families() for name in f.variant_names()]


def _seating(family: AnyFamily, variant: str) -> list[int | None]:
    """Each seat's team: two teams of three and two for a team game (the shared device
    aside first where the family has one), five seats or as many as the variant allows."""
    info = family.variant(variant)
    spec = family.teams
    if spec is None:
        return [None] * max(info.min_players, min(5, info.max_players))
    aside: list[int | None] = [None] if spec.host_aside else []
    return [*aside, *(s % spec.min_teams for s in range(5))]


def _json(shown: object) -> bytes:
    return msgspec.json.encode(shown)


def _views(family: AnyFamily, game: Any, seats: Iterable[int | None]) -> dict[int | None, bytes]:
    return {s: _json(v) for s, v in family.views(game, list(seats)).items()}


def _playout(family: AnyFamily, variant: str, seed: int) -> Iterator[Any]:
    """Every state of a seeded random game of ``variant``."""
    table = Table(variant, family.parse_options({}, "en"), family.parse_setup(SETUP))
    teams = _seating(family, variant)
    names = [f"P{s}" for s in range(len(teams))]
    game = family.new_game(table, names, teams, seed, family.deal(table, seed))
    rng = random.Random(seed)
    yield game
    for _ in range(STEPS):
        for _ in range(50):  # the rules may refuse a random draw: draw again
            action = family.random_action(game, rng)
            if action is None:
                return
            try:
                game = family.apply(game, action)
                break
            except IllegalAction:
                continue
        else:
            raise AssertionError(f"{variant}: fifty random moves in a row were refused")
        yield game


def check_secrecy(family: AnyFamily, variant: str, seed: int) -> tuple[int, int]:
    """Play one random game and check the property at every step; returns how many
    (state, seat) pairs were checked and how many scrambles changed another seat's view."""
    rng = random.Random(seed * 7919)
    checked = bites = 0
    for game in _playout(family, variant, seed):
        seats: list[int | None] = [None, *range(len(_seating(family, variant)))]
        shown = _views(family, game, seats)
        for seat in seats:
            scrambled = family.scramble(game, seat, rng)
            after = _views(family, scrambled, seats)
            assert after[seat] == shown[seat], (variant, seed, seat, game)
            checked += 1
            bites += any(after[s] != shown[s] for s in seats if s != seat)
    return checked, bites


@pytest.mark.parametrize(("family", "variant"), _variants(), ids=[name for _, name in _variants()])
def test_no_view_shows_what_its_seat_may_not_know(family: AnyFamily, variant: str) -> None:
    checked = bites = seed = 0
    while checked < CHECKS and seed < 50:
        seed += 1
        c, b = check_secrecy(family, variant, seed)
        checked, bites = checked + c, bites + b
    assert checked >= CHECKS, checked  # the games went somewhere
    assert bites > checked // 10, (bites, checked)  # the scrambles touch real secrets


def test_every_registered_family_is_checked() -> None:
    """The parametrisation is the registry's: a new family is in it by being registered."""
    listed = {name for _, name in _variants()}
    assert listed == {n for f in games.families() for n in f.variant_names()} | {"pebbles"}


class LeakyPebbles(PebblesFamily):
    """The toy, with a view that shows every seat's secret to everyone."""

    def views(self, game: Game, seats: Iterable[int | None]) -> Mapping[int | None, object]:
        return {s: {"secrets": list(game.secrets)} for s in seats}


def test_a_view_that_shows_a_secret_fails_the_property() -> None:
    with pytest.raises(AssertionError):
        check_secrecy(LeakyPebbles(), "pebbles", 1)
