"""The team drawing game ``visual``: its adapter (:mod:`.family`), canvas (:mod:`.canvas`),
and the game on paper with a shared device (:mod:`.companion`)."""

from reverie.games.visual.companion import VISUAL_COMPANION, VisualCompanionFamily
from reverie.games.visual.family import VISUAL, VisualFamily

__all__ = ["VISUAL", "VISUAL_COMPANION", "VisualCompanionFamily", "VisualFamily"]
