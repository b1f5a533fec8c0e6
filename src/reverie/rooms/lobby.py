"""The fold of a table being set up: the checks a room's settings pass (seats, timers,
stand-ins, the text filter) and the lobby's events: a person leaving their seat, the
seats' order, the options, the teams.

Part of the pure fold (:func:`reverie.rooms.state.evolve` calls it): no IO, no clock.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from reverie.errors import RoomError
from reverie.rooms import members as team_seats
from reverie.rooms import removal
from reverie.rooms import teams as team_rules
from reverie.rooms.events import TIME_FACTORS, Left, OptionsSet, Reordered, TeamChosen, TeamsSet
from reverie.rooms.fold_checks import family_checked, in_lobby, player_at, team_game
from reverie.rooms.texts import check_filter_level

if TYPE_CHECKING:
    from reverie.rooms.state import RoomState

__all__ = [
    "MAX_AWAY",
    "MIN_AWAY",
    "check_away",
    "check_factor",
    "check_public_filter",
    "check_seats",
    "left",
    "options_set",
    "reordered",
    "team_chosen",
    "teams_set",
]

#: The seconds a person may be gone before a bot stands in (or never: None).
MIN_AWAY, MAX_AWAY = 5, 3600


def check_seats(variant: str, seats: int, taken: int) -> None:
    """Refuse a seat count the variant is not played by, or below those ``taken``."""
    v = family_checked(variant).variant(variant)
    if not v.min_players <= seats <= v.max_players:
        raise RoomError(
            "bad_options",
            f"{v.title} is played by {v.min_players} to {v.max_players} players.",
        )
    if seats < taken:
        raise RoomError("bad_options", f"{taken} players are already seated.")


def check_public_filter(room: RoomState) -> None:
    """Refuse a public table whose text filter is off."""
    # Strangers meet at a public table: what they write is filtered at least mildly.
    if room.public and room.text_filter == "off":
        raise RoomError(
            "public_filter", "A public table keeps the text filter on (mild or strict)."
        )


def check_factor(factor: int) -> int:
    """``factor`` if the timers may run at it (TIME_FACTORS), else a refusal."""
    if factor not in TIME_FACTORS:
        choices = ", ".join(f"x{f}" for f in TIME_FACTORS)
        raise RoomError("bad_options", f"Timers run at {choices} their length.")
    return factor


def check_away(seconds: int | None) -> int | None:
    """``seconds`` if a stand-in may wait that long (or never: None), else a refusal."""
    if seconds is not None and not MIN_AWAY <= seconds <= MAX_AWAY:
        raise RoomError(
            "bad_options",
            f"A bot stands in after {MIN_AWAY} to {MAX_AWAY} seconds away, or never.",
        )
    return seconds


def left(room: RoomState, e: Left) -> RoomState:
    """The room once a seat's person leaves it in the lobby (the seat goes with them)."""
    in_lobby(room)
    player_at(room, e.seat)
    players = room.players[: e.seat] + room.players[e.seat + 1 :]
    if not any(not p.bot for p in players):
        raise RoomError("bad_message", "The last person cannot leave; close the room.")
    host = room.host
    if e.seat == host:
        host = next(s for s, p in enumerate(players) if not p.bot)
    elif e.seat < host:
        host -= 1
    vote = removal.without_target(room.vote, room.players[e.seat])
    after = replace(room, players=players, host=host, vote=vote)
    return team_seats.balanced(after) if e.balance else after


def reordered(room: RoomState, e: Reordered) -> RoomState:
    """The room with its seats in the host's new order."""
    in_lobby(room)
    if sorted(e.order) != list(range(len(room.players))):
        raise RoomError("bad_message", "The new order must list every seat once.")
    players = tuple(room.players[s] for s in e.order)
    return replace(room, players=players, host=e.order.index(room.host))


def options_set(room: RoomState, e: OptionsSet) -> RoomState:
    """The room with the host's new options, seats, timers and filter."""
    in_lobby(room)
    check_seats(room.variant, e.seats, len(room.players))
    new = replace(
        room,
        options=room.family.parse_options(e.options, room.lang),
        seats=e.seats,
        away_seconds=check_away(e.away_seconds),
        time_factor=check_factor(e.time_factor),
        text_filter=check_filter_level(e.text_filter),
    )
    check_public_filter(new)
    room.family.check_setup(new, e.seats)
    return new


def team_chosen(room: RoomState, e: TeamChosen) -> RoomState:
    """The room with one seat in the team chosen (None: no team yet)."""
    in_lobby(room)
    team_game(room)
    player = player_at(room, e.seat)
    if e.team is not None and not 0 <= e.team < room.team_count:
        raise RoomError("bad_team", f"Choose a team from 1 to {room.team_count}.")
    if e.team is not None and e.seat in room.aside():
        raise RoomError("bad_team", "The host's device is the table's: it plays in no team.")
    seated = list(room.players)
    seated[e.seat] = replace(player, team=e.team)
    return replace(room, players=tuple(seated))


def teams_set(room: RoomState, e: TeamsSet) -> RoomState:
    """The room with every seat's team and the number of teams set at once."""
    in_lobby(room)
    spec = team_game(room)
    if not spec.min_teams <= e.count <= spec.max_teams:
        raise RoomError("bad_team", f"Play with {spec.min_teams} to {spec.max_teams} teams.")
    if len(e.teams) != len(room.players):
        raise RoomError("bad_message", "The teams must list every seat.")
    aside = room.aside()
    teams = tuple(
        None if s in aside else t for s, t in enumerate(team_rules.trimmed(e.teams, e.count))
    )
    players = tuple(replace(p, team=t) for p, t in zip(room.players, teams, strict=True))
    return replace(room, players=players, team_count=e.count)
