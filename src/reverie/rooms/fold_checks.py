"""The checks the parts of the fold share (rooms/state.py, lobby.py, removal.py): a
seat that exists, a room in its lobby, a game played in teams, a known family."""

from __future__ import annotations

from typing import TYPE_CHECKING

from reverie.errors import RoomError
from reverie.games import AnyFamily, TeamSpec, family_of

if TYPE_CHECKING:
    from reverie.rooms.state import Player, RoomState

__all__ = ["family_checked", "in_lobby", "player_at", "team_game"]


def family_checked(variant: str) -> AnyFamily:
    """The family playing ``variant``, or the fold's refusal (``bad_options``)."""
    try:
        return family_of(variant)
    except LookupError as exc:
        raise RoomError("bad_options", str(exc)) from None


def team_game(room: RoomState) -> TeamSpec:
    """The room's teams, or a refusal if its game is not played in teams."""
    spec = room.family.teams
    if spec is None:
        raise RoomError("bad_message", "This game is not played in teams.")
    return spec


def in_lobby(room: RoomState) -> None:
    """Refuse unless the room is in its lobby."""
    if room.status != "lobby":
        raise RoomError("not_in_lobby", "The game has already started.")


def player_at(room: RoomState, seat: int) -> Player:
    """The player in ``seat``, or a refusal if there is no such seat."""
    if not 0 <= seat < len(room.players):
        raise RoomError("unknown_seat", "There is no such seat.")
    return room.players[seat]
