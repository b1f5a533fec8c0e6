"""How well a room's bots play: the levels, the level a stand-in gets, the check a
level named in a command or an event passes, and the fold of a seat handed to a bot or
back (``BotSeat``) and of a bot's level changed (``BotLevelSet``)."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from reverie.errors import RoomError
from reverie.rooms.events import BotLevelSet, BotSeat
from reverie.rooms.fold_checks import player_at

if TYPE_CHECKING:
    from reverie.rooms.state import RoomState

__all__ = [
    "BOT_LEVELS",
    "DEFAULT_BOT_LEVEL",
    "bot_level_set",
    "bot_seat",
    "check_level",
    "stand_in_level",
]

#: How well a bot plays, weakest first; a family offers some of them (``bot_levels``).
BOT_LEVELS = ("easy", "normal", "clever")
#: The level of a bot the host adds or that stands in, unless one is asked for.
DEFAULT_BOT_LEVEL = "normal"


def stand_in_level(room: RoomState) -> str:
    """The level of the bot the room seats for a person gone past ``away_seconds``.

    The highest level among the bots already playing at the table: the host chose the
    table's strength (a family with children picks easy bots, and a stand-in that
    outplays them would spoil it). With no bot at the table, the best level the game
    has: the stand-in plays for a person whose score still counts, and who expects
    the seat to be played well until they are back. A game whose bots have no levels
    gets the default (its bots ignore it).
    """
    offered = [level for level in BOT_LEVELS if level in room.family.bot_levels]
    if not offered:
        return DEFAULT_BOT_LEVEL
    chosen = [p.bot_level for p in room.players if p.controlled_by_bot]
    at_table = [level for level in offered if level in chosen]
    return (at_table or offered)[-1]


def check_level(level: str) -> str:
    """``level`` if it is a bot level, else a clear error.

    >>> check_level("clever")
    'clever'
    """
    if level not in BOT_LEVELS:
        raise RoomError("bad_message", f"A bot's level is one of: {', '.join(BOT_LEVELS)}.")
    return level


def bot_seat(room: RoomState, e: BotSeat) -> RoomState:
    """The room once a person's seat is handed to a bot (``on``) or taken back."""
    player = player_at(room, e.seat)
    if player.bot:
        raise RoomError("bad_message", "That seat is a bot already.")
    seated = list(room.players)
    level = check_level(e.level) if e.on else player.bot_level
    seated[e.seat] = replace(player, bot_playing=e.on, bot_level=level)
    return replace(room, players=tuple(seated))


def bot_level_set(room: RoomState, e: BotLevelSet) -> RoomState:
    """The room once the bot playing a seat plays at another level."""
    player = player_at(room, e.seat)
    if not player.controlled_by_bot:
        raise RoomError("bad_message", "No bot plays that seat.")
    if check_level(e.level) not in room.family.bot_levels:
        raise RoomError("bad_message", "This game's bots have no such level.")
    seated = list(room.players)
    seated[e.seat] = replace(player, bot_level=e.level)
    return replace(room, players=tuple(seated))
