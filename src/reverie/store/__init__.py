"""The event log of every room, behind one small interface.

``open_store(url)`` picks the backend from a URL: ``sqlite:///path/to/file.db`` (the
embedded default) or ``postgresql://user@host:5432/db`` (for several server processes).
Another database plugs in by implementing :class:`EventStore`.
"""

from reverie.store.base import (
    EventStore,
    RoomDeletion,
    StoredEvent,
    StoreUnavailable,
    VersionConflict,
    check_store,
    open_store,
    redact,
)

__all__ = [
    "EventStore",
    "RoomDeletion",
    "StoreUnavailable",
    "StoredEvent",
    "VersionConflict",
    "check_store",
    "open_store",
    "redact",
]
