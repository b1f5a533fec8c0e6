"""Snapshots of a room's fold, so a long log replays from its latest one.

A snapshot is a cache: the log stays the truth. A room's state at version N, written
with the format number below, plus the events after N folds to exactly the state the
whole log folds to (``tests/rooms/test_snapshots.py`` checks it for every N). A
snapshot that cannot be read (an older format, a family that does not name its types)
is ignored, and the room replays its whole log.
"""

from __future__ import annotations

from dataclasses import replace

import msgspec

from reverie.games import family_of
from reverie.rooms.state import RoomState

#: Raise when ``RoomState`` or a game state changes shape or meaning: older snapshots
#: are then ignored rather than misread. 2: the family's ``setup`` took the place of
#: ``deck`` and ``card_count``.
FORMAT = 2


class Snapshot(msgspec.Struct, frozen=True):
    """What the store keeps: the room, and when its current game phase began."""

    format: int
    room: RoomState
    phase_started: float = 0.0


class UnusableSnapshot(ValueError):
    """The snapshot cannot stand for the log's fold."""


def encode_snapshot(room: RoomState, phase_started: float) -> bytes:
    """A room's state as the snapshot the store keeps."""
    return msgspec.json.encode(Snapshot(FORMAT, room, phase_started))


def decode_snapshot(data: bytes) -> tuple[RoomState, float]:
    """The room and its phase start from a snapshot; ``UnusableSnapshot`` if it cannot
    be read back exactly."""
    try:
        snap = msgspec.json.decode(data, type=Snapshot)
    except (msgspec.ValidationError, msgspec.DecodeError) as exc:
        raise UnusableSnapshot(str(exc)) from None
    if snap.format != FORMAT:
        raise UnusableSnapshot(f"format {snap.format}, this server reads {FORMAT}")
    room = snap.room
    try:
        family = family_of(room.variant)
    except LookupError as exc:
        raise UnusableSnapshot(str(exc)) from None
    if family.game_type is None or family.options_type is None:
        raise UnusableSnapshot(f"the {family.name} family does not name its state types")
    try:
        options = msgspec.convert(room.options, family.options_type, str_keys=True)
        setup = None
        if family.setup_type is not None:
            setup = msgspec.convert(room.setup, family.setup_type, str_keys=True)
        game = None
        if room.game is not None:
            game = msgspec.convert(room.game, family.game_type, str_keys=True)
    except msgspec.ValidationError as exc:
        raise UnusableSnapshot(str(exc)) from None
    return replace(room, options=options, setup=setup, game=game), snap.phase_started
