"""The check a room makes of a word list its options name (the drawing game's own
lists, kept on the shelf of ``reverie.content.custom_words``)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from reverie.content.custom_words import SHELF as WORD_SHELF
from reverie.errors import RoomError

#: A stored word list's id (``reverie.web.words_api``).
WORD_LIST_ID = re.compile(r"^w-[a-z2-7]{26}$")


async def check_word_list(options: Mapping[str, Any]) -> None:
    """Refuse options naming a word list of the table's own (the drawing game's
    ``words``) that does not exist, when the room is opened or its options change: once
    accepted, such a room would answer "still being loaded" at every start."""
    list_id = options.get("words") if isinstance(options, Mapping) else None
    # A malformed id is the options' own check (``bad_options``): no read for it.
    if isinstance(list_id, str) and WORD_LIST_ID.match(list_id) is None:
        return
    if isinstance(list_id, str) and await WORD_SHELF.fetch(list_id) is None:
        raise RoomError("unknown_words", "There is no such word list.")
