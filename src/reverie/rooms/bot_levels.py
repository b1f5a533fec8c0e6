"""How well a room's bots play: the levels, the level a stand-in gets, and the check a
level named in a command or an event passes."""

from __future__ import annotations

from typing import TYPE_CHECKING

from reverie.errors import RoomError

if TYPE_CHECKING:
    from reverie.rooms.state import RoomState

__all__ = ["BOT_LEVELS", "DEFAULT_BOT_LEVEL", "check_level", "stand_in_level"]

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
