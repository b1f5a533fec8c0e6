"""What the processes serving the same rooms tell each other over the bus, as typed
messages.

Each message is a struct tagged by its kind (the ``k`` field on the wire); the bus adds
the sender's process id (``pid``) to every message, and a shared side-channel frame's
position in its log (``n``). :func:`encode_message` makes the plain mapping the bus
sends, :func:`decode_message` reads one back or says clearly why it cannot.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import msgspec

__all__ = [
    "BadMessage",
    "Event",
    "Gone",
    "Head",
    "Message",
    "PresenceGone",
    "PresenceSaid",
    "Resync",
    "Side",
    "Who",
    "decode_message",
    "encode_message",
]


class _Message(msgspec.Struct, kw_only=True, tag_field="k", omit_defaults=True):
    #: The sending process (set by the bus on the way out).
    pid: str = ""


class Event(_Message, tag="ev"):
    """An event the sender wrote to the room's log as version ``v``, at ``at``."""

    v: int
    at: float
    e: str  # the event, encoded as in the log


class Head(_Message, tag="head"):
    """The room's log goes up to version ``v`` (news that could not be sent earlier)."""

    v: int


class PresenceSaid(_Message, tag="presence"):
    """The sockets the sender holds in the room: per seat token, and spectators."""

    tokens: dict[str, int] = {}
    spectators: int = 0


class PresenceGone(_Message, tag="presence_gone"):
    """The sender's sockets are gone from the room (queued here when it stopped)."""


class Who(_Message, tag="who"):
    """Ask every process to say which sockets of the room it holds."""


class Side(_Message, tag="side"):
    """A side-channel frame the sender took: entry ``x`` of the room's shared log
    ``log`` (channel ``ch``), at position ``n`` there (set by the bus)."""

    log: str
    ch: str
    x: str
    n: int = 0


class Resync(_Message, tag="resync"):
    """The bus lost its broker and may have missed messages: reload the room."""


class Gone(_Message, tag="gone"):
    """The process ``pid`` stopped (said bye, or went silent)."""


#: Every message between processes.
Message = Event | Head | PresenceSaid | PresenceGone | Who | Side | Resync | Gone


class BadMessage(ValueError):
    """A message from another process that cannot be read."""


def encode_message(message: Message) -> dict[str, Any]:
    """The mapping the bus sends for ``message``."""
    data: dict[str, Any] = msgspec.to_builtins(message)
    return data


def decode_message(data: Mapping[str, Any]) -> Message:
    """The message a mapping from the bus holds; :class:`BadMessage` says why not."""
    try:
        message: Message = msgspec.convert(data, Message)
    except msgspec.ValidationError as exc:
        kind = data.get("k") if isinstance(data, Mapping) else None
        raise BadMessage(f"message {kind!r} from another process not understood: {exc}") from None
    return message
