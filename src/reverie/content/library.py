"""What the server holds for the games to deal from, beside their rules.

The rooms hold one :class:`Library` and hand it to the room's game family whenever the
family loads content (a room opens, its options change, a bot moves); they never look
inside. Today it holds the picture decks that the association games share.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field

from reverie.content.decks import DEFAULT_DECK, Deck


async def _nothing(*_: str) -> None:
    return None


@dataclass(frozen=True, slots=True)
class Library:
    """The content a server offers its games.

    ``decks``: every picture deck by name (the server's, and the players' it has read);
    ``default_deck``: the one a table plays unless it chooses. ``open_deck(name)`` checks
    that a new room may play a player's deck (raising ``RoomError``) and reads it into
    ``decks``; ``deck_played(name, code)`` records that room ``code`` plays it;
    ``words_named(list_id, code)`` that room ``code`` names a table's own word list (it
    is then kept while the room is). They are the web app's (players' decks and lists
    live in its database); the defaults do nothing.
    """

    decks: Mapping[str, Deck] = field(default_factory=dict)
    default_deck: str = DEFAULT_DECK
    open_deck: Callable[[str], Awaitable[None]] = _nothing
    deck_played: Callable[[str, str], Awaitable[None]] = _nothing
    words_named: Callable[[str, str], Awaitable[None]] = _nothing
