"""Fan-out of room changes to every connection that watches the room, in this process
and (with Redis) in every other process serving the same rooms.

``open_bus(url)``: ``memory://`` (one process, the default) or ``redis://…``.
"""

from reverie.bus.base import Bus, BusUnavailable, MemoryBus, Subscriber, open_bus

__all__ = ["Bus", "BusUnavailable", "MemoryBus", "Subscriber", "open_bus"]
