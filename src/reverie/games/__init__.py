"""Game families and their registry.

A room plays one variant; each variant belongs to a family (the five association
variants share one, the drawing game ``visual`` is another). The rooms, the snapshot,
the timers, the bots and the WebSocket reach a game only through this registry and the
:class:`GameFamily` interface, so adding a game is adding a rules package and an
adapter that calls :func:`register`, nothing else on the server.
"""

from __future__ import annotations

from collections.abc import Callable

from reverie.games.association import ASSOCIATION
from reverie.games.base import (
    EVERYONE,
    Admits,
    AnyFamily,
    Audience,
    Frame,
    GameCommand,
    GameFamily,
    Limit,
    RoomLike,
    SideChannel,
    SideCommand,
    TeamSpec,
    VariantInfo,
    seats_only,
    team_only,
    union_of,
)
from reverie.games.companion import COMPANION
from reverie.games.visual import VISUAL, VISUAL_COMPANION

_FAMILIES: list[AnyFamily] = []
#: Each variant's family (a room asks for its family several times per stroke).
_BY_VARIANT: dict[str, AnyFamily] = {}
#: Called after the registry changes (caches built from it start again).
_LISTENERS: list[Callable[[], None]] = []


def register(family: AnyFamily) -> None:
    """Make ``family``'s variants playable; a variant name may belong to one family."""
    taken = [n for n in family.variant_names() if n in _BY_VARIANT]
    if taken or family in _FAMILIES:
        raise ValueError(f"variants already registered: {', '.join(taken) or family.name}")
    _FAMILIES.append(family)
    for name in family.variant_names():
        _BY_VARIANT[name] = family
    _changed()


def unregister(family: AnyFamily) -> None:
    """Remove a family (tests that plug in a game of their own clean up with this)."""
    if family in _FAMILIES:
        _FAMILIES.remove(family)
    for name in [n for n, f in _BY_VARIANT.items() if f is family]:
        del _BY_VARIANT[name]
    _changed()


def on_change(listener: Callable[[], None]) -> None:
    """Call ``listener`` whenever a family is registered or removed."""
    _LISTENERS.append(listener)


def _changed() -> None:
    for listener in _LISTENERS:
        listener()


def families() -> tuple[AnyFamily, ...]:
    """Every registered family, in registration order."""
    return tuple(_FAMILIES)


def family_of(variant: str) -> AnyFamily:
    """The family that plays ``variant``; raises ``LookupError`` for an unknown name."""
    family = _BY_VARIANT.get(variant)
    if family is None:
        known = ", ".join(_BY_VARIANT)
        raise LookupError(f"Unknown variant {variant!r}; choose one of: {known}.")
    return family


def all_variants() -> list[VariantInfo]:
    """Every playable variant, in registration order."""
    return [v for f in _FAMILIES for v in f.variants()]


register(ASSOCIATION)
register(VISUAL)
register(COMPANION)
register(VISUAL_COMPANION)

__all__ = [
    "EVERYONE",
    "Admits",
    "AnyFamily",
    "Audience",
    "Frame",
    "GameCommand",
    "GameFamily",
    "Limit",
    "RoomLike",
    "SideChannel",
    "SideCommand",
    "TeamSpec",
    "VariantInfo",
    "all_variants",
    "families",
    "family_of",
    "on_change",
    "register",
    "seats_only",
    "team_only",
    "union_of",
    "unregister",
]
