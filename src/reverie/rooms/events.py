"""What the event log of a room holds, one struct per kind of event.

Events are facts that have been accepted. Folding them in order with
:func:`reverie.rooms.state.evolve` rebuilds a room exactly, so a restarted server
resumes every room from its log.
"""

from __future__ import annotations

from typing import Any

import msgspec

from reverie.rules.association.actions import Action as AssociationAction
from reverie.rules.visual.actions import Action as VisualAction
from reverie.rules.visual.cards import Card


class Created(msgspec.Struct, frozen=True, tag="created"):
    """A room was opened; the creator sits in seat 0 as host."""

    code: str
    variant: str
    seats: int
    options: dict[str, Any]
    deck: str
    card_count: int
    seed: int
    name: str
    color: str
    token_hash: str
    at: float
    lang: str = "en"


class Joined(msgspec.Struct, frozen=True, tag="joined"):
    """A person took a free seat in the lobby."""

    name: str
    color: str
    token_hash: str


class Left(msgspec.Struct, frozen=True, tag="left"):
    """A player left the lobby or was removed by the host."""

    seat: int
    kicked: bool = False


class BotAdded(msgspec.Struct, frozen=True, tag="bot_added"):
    """The host filled a free seat with a bot."""

    name: str
    color: str


class Reordered(msgspec.Struct, frozen=True, tag="reordered"):
    """The host changed the seating order (``order[i]`` is the old seat now at ``i``)."""

    order: tuple[int, ...]


class HostChanged(msgspec.Struct, frozen=True, tag="host_changed"):
    """The host role passed to another seat."""

    seat: int


class OptionsSet(msgspec.Struct, frozen=True, tag="options_set"):
    """The host changed the table options or the number of seats."""

    options: dict[str, Any]
    seats: int


class Started(msgspec.Struct, frozen=True, tag="started"):
    """A game began with the players in their current seats.

    ``cards``: the drawing game's word cards as dealt from the word lists of the day, so
    a replay deals the same cards even after the lists change (empty for other games).
    """

    cards: tuple[Card, ...] = ()


class Acted(msgspec.Struct, frozen=True, tag="acted"):
    """A game action was accepted (the seat is inside the action; the families' action
    tags do not overlap, so one union decodes both)."""

    action: AssociationAction | VisualAction


class BotSeat(msgspec.Struct, frozen=True, tag="bot_seat"):
    """A bot took over a human's seat (``on``) or handed it back."""

    seat: int
    on: bool


class Chatted(msgspec.Struct, frozen=True, tag="chatted"):
    """A chat line (``team``: said to that team only)."""

    seat: int
    text: str
    at: float
    team: int | None = None


class TeamChosen(msgspec.Struct, frozen=True, tag="team_chosen"):
    """A player joined a team in the lobby (``None``: stands aside)."""

    seat: int
    team: int | None


class TeamsSet(msgspec.Struct, frozen=True, tag="teams_set"):
    """The host set the number of teams, and with it every seat's team."""

    count: int
    teams: tuple[int | None, ...]


RoomEvent = (
    Created
    | Joined
    | Left
    | BotAdded
    | Reordered
    | HostChanged
    | OptionsSet
    | Started
    | Acted
    | BotSeat
    | Chatted
    | TeamChosen
    | TeamsSet
)

_DECODER: msgspec.json.Decoder[RoomEvent] = msgspec.json.Decoder(RoomEvent)


def encode_event(event: RoomEvent) -> bytes:
    """An event as JSON for the log."""
    return msgspec.json.encode(event)


def decode_event(data: bytes) -> RoomEvent:
    """An event from the log."""
    event: RoomEvent = _DECODER.decode(data)
    return event
