"""Fan-out of room changes to every connection that watches the room.

``open_bus(url)``: ``memory://`` (one process, the default). Another broker plugs in by
implementing :class:`Bus`.
"""

from reverie.bus.base import Bus, Subscriber, open_bus

__all__ = ["Bus", "Subscriber", "open_bus"]
