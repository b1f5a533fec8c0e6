"""What a person writes at a table: their name and their chat lines, checked when they
are said (:func:`check_new_name`, :func:`clean_chat`) and, leniently, when the fold replays
them (:func:`check_name`)."""

from __future__ import annotations

import unicodedata
from typing import TYPE_CHECKING

from reverie.content.textfilter import DEFAULT_LEVEL, LEVELS, Level, lookalike, word_filter
from reverie.errors import RoomError

if TYPE_CHECKING:
    from reverie.rooms.state import Player, RoomState

MAX_NAME = 24
MAX_CHAT = 300


def check_filter_level(level: str) -> Level:
    """A text filter level the table may have (off, mild, strict)."""
    for known in LEVELS:
        if level == known:
            return known
    raise RoomError("bad_options", f"The text filter is {', '.join(LEVELS)}.")


def check_name(name: str) -> str:
    """A display name, trimmed, 1 to 24 characters without control characters.

    This is the fold's check (:func:`evolve`), and the fold replays every log ever
    written: it must keep accepting what it once accepted, so it stays this lenient.
    The stricter rules for names chosen now (:func:`check_new_name`) are applied when
    a person creates a room or joins, before the event is written.
    """
    clean = " ".join(name.split())
    if not clean or len(clean) > MAX_NAME or any(not ch.isprintable() for ch in clean):
        raise RoomError("bad_name", f"Choose a name of 1 to {MAX_NAME} characters.")
    return clean


#: Code points that render as nothing (or as blank space) although they are letters or
#: symbols: a name made of them looks empty.
INVISIBLE = frozenset("\u115f\u1160\u3164\uffa0\u2800\u180e\u17b4\u17b5")
#: Categories never allowed in a name: controls, format characters (zero-width, bidi
#: overrides), private use, surrogates, line/paragraph separators, unassigned.
REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Co", "Cs", "Zl", "Zp", "Cn"})
#: Combining marks allowed on one base character (enough for any script's accents;
#: stacks of dozens are "Zalgo" text that spills over the lines around it).
MAX_MARKS = 2
#: What bots' names ended with in older logs: a person still may not take such a name and
#: pose as a bot (a bot is now named plainly, and tagged as one by the page).
BOT_MARK = "(bot)"


def name_key(name: str) -> str:
    """What two names are compared by: compatibility-normalised and case-folded, so
    "Ann", "ANN" and the full-width "Ａｎｎ" are one name.

    >>> name_key("Ａｎｎ") == name_key("ann")
    True
    """
    return unicodedata.normalize("NFKC", name).casefold()


def _too_many_marks(text: str) -> bool:
    run = 0
    for ch in text:
        run = run + 1 if unicodedata.combining(ch) or unicodedata.category(ch) == "Me" else 0
        if run > MAX_MARKS:
            return True
    return False


def check_new_name(room: RoomState | None, name: str, level: str = DEFAULT_LEVEL) -> str:
    r"""A name a person chooses now (creating a room or joining): :func:`check_name`
    and more. NFC-normalised; no control, format or invisible characters; at most
    ``MAX_MARKS`` combining marks on a character; not posing as a bot; not the name of
    someone already at the table (``name_taken``; compared by :func:`name_key`); nothing
    the table's text filter hides (``name_not_allowed``; ``level`` before the room
    exists); not a name that only looks like another at the table (``name_lookalike``).

    >>> check_new_name(None, "  Zoe\u0301  ")  # NFC: e + acute is one character
    'Zoé'
    >>> check_new_name(None, "Luna (BOT)")
    Traceback (most recent call last):
    ...
    reverie.errors.RoomError: Names ending in "(bot)" are for bots.
    """
    clean = check_name(unicodedata.normalize("NFC", name))
    if any(unicodedata.category(ch) in REFUSED_CATEGORIES or ch in INVISIBLE for ch in clean):
        raise RoomError("bad_name", "Names cannot contain invisible or control characters.")
    if _too_many_marks(clean) or unicodedata.combining(clean[0]):
        raise RoomError("bad_name", f"At most {MAX_MARKS} accents on a letter, please.")
    key = name_key(clean)
    if BOT_MARK in key:
        raise RoomError("bad_name", f'Names ending in "{BOT_MARK}" are for bots.')
    # The people queued for a bot's seat (rooms/takeover.py) are at the table soon.
    seated = [] if room is None else [*room.players, *room.waiting]
    taken = [n for p in seated for n in _names(p)]
    if any(name_key(n) == key for n in taken):
        raise RoomError("name_taken", "Someone at the table already has that name.")
    if not word_filter().allows(clean, room.text_filter if room else check_filter_level(level)):
        raise RoomError("name_not_allowed", "That name is not allowed here; choose another.")
    if room is not None and lookalike(clean, taken) is not None:
        raise RoomError(
            "name_lookalike", "That name looks just like the name of someone at the table."
        )
    return clean


def _names(player: Player) -> list[str]:
    """The names of everyone who plays a seat (a team seat's members too)."""
    return [player.name, *(m.name for m in player.members)]


_ZWJ = "\u200d"


def clean_chat(text: str) -> str:
    r"""A chat line as said now: NFC, without control characters, bidi overrides,
    zero-width and other invisible characters (a zero-width joiner stays between two
    symbols, where it joins emoji), at most ``MAX_MARKS`` combining marks on a
    character, whitespace collapsed. Raises if nothing is left or it is too long.

    Like names, this applies when a line is said (the fold keeps replaying old ones).

    >>> clean_chat("hi\u202e there\x00\x07 \U0001f468\u200d\U0001f469")
    'hi there \U0001f468\u200d\U0001f469'
    """
    kept: list[str] = []
    marks = 0
    normal = unicodedata.normalize("NFC", text)
    for i, ch in enumerate(normal):
        if ch.isspace():
            kept.append(" ")
            marks = 0
            continue
        category = unicodedata.category(ch)
        if ch == _ZWJ:
            after = normal[i + 1 : i + 2]
            if kept and after and unicodedata.category(after) == "So":
                kept.append(ch)
            continue
        if category in REFUSED_CATEGORIES or ch in INVISIBLE:
            continue
        if unicodedata.combining(ch) or category == "Me":
            marks += 1
            if marks > MAX_MARKS or not kept:
                continue
        else:
            marks = 0
        kept.append(ch)
    clean = " ".join("".join(kept).split())
    if not clean or len(clean) > MAX_CHAT:
        raise RoomError("bad_message", f"Chat lines are 1 to {MAX_CHAT} characters.")
    return clean
