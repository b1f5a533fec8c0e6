"""The team drawing game ``visual``: its adapter (:mod:`.family`) and canvas (:mod:`.canvas`)."""

from reverie.games.visual.family import VISUAL, VisualFamily

__all__ = ["VISUAL", "VisualFamily"]
