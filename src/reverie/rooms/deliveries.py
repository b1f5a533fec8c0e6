"""What a room tells the connections of this process (``Bus.deliver``), as typed
messages: a new state, a chat line, a side channel's frame, a side channel to send
again whole, a link revoked.

They never leave the process (what travels between processes is rooms/messages.py's):
each holds the audience it is for as the object itself, which each connection's
filter (:meth:`reverie.rooms.visibility.Visibility.passes`) judges.
"""

from __future__ import annotations

from typing import Any

import msgspec

from reverie.games import Audience

__all__ = ["ChatSaid", "Delivery", "Revoked", "SideFrame", "SideResync", "StateChanged"]


class StateChanged(msgspec.Struct, frozen=True):
    """The room moved on to ``version``: each connection sends its seat's fresh view."""

    version: int = 0


class ChatSaid(msgspec.Struct, frozen=True):
    """A chat line (``message``, as a ``chat`` frame lists it) for ``audience``."""

    audience: Audience
    message: dict[str, Any]


class SideFrame(msgspec.Struct, frozen=True):
    """A side channel's frame (``frame``, encoded) for ``audience``, never back to the
    connection that sent it (``sender``; None: from another process)."""

    audience: Audience
    sender: int | None
    frame: str


class SideResync(msgspec.Struct, frozen=True):
    """Frames of a side channel were missed: each connection sends the channels whole."""


class Revoked(msgspec.Struct, frozen=True):
    """The link ``token_hash`` was replaced: the sockets that used it close, but the
    one that asked for the new link (``sender``; None: asked in another process)."""

    token_hash: str | None
    sender: int | None


#: Everything a room delivers to its connections.
Delivery = StateChanged | ChatSaid | SideFrame | SideResync | Revoked
