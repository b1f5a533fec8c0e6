"""Game families: what the room layer needs to know about a kind of game.

A room plays one variant; each variant belongs to a family (the five association
variants share one, the drawing game ``visual`` is another). The room service, the
snapshot and the timers talk to a game only through :class:`GameFamily`, so adding a
game means adding a family here, not editing the rooms.
"""

from __future__ import annotations

from reverie.rooms.games.association import ASSOCIATION
from reverie.rooms.games.base import GameFamily, RoomLike, VariantInfo
from reverie.rooms.games.visual import VISUAL

FAMILIES: tuple[GameFamily, ...] = (ASSOCIATION, VISUAL)


#: Each variant's family (a room asks for its family several times per stroke).
_BY_VARIANT: dict[str, GameFamily] = {n: f for f in FAMILIES for n in f.variant_names()}


def family_of(variant: str) -> GameFamily:
    """The family that plays ``variant``; raises ``LookupError`` for an unknown name."""
    family = _BY_VARIANT.get(variant)
    if family is None:
        known = ", ".join(_BY_VARIANT)
        raise LookupError(f"Unknown variant {variant!r}; choose one of: {known}.")
    return family


def all_variants() -> list[VariantInfo]:
    """Every playable variant, association games first."""
    return [v for f in FAMILIES for v in f.variants()]


__all__ = ["FAMILIES", "GameFamily", "RoomLike", "VariantInfo", "all_variants", "family_of"]
