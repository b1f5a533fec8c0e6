"""The event log of every room, behind one small interface.

``open_store(url)`` picks the backend from a URL: ``sqlite:///path/to/file.db`` (the
embedded default) or ``postgresql://user@host:5432/db`` (for several server processes).
Another database plugs in by implementing :class:`EventStore`.
"""

from reverie.store.base import EventStore, StoredEvent, VersionConflict, open_store

__all__ = ["EventStore", "StoredEvent", "VersionConflict", "open_store"]
