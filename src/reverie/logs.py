"""Logging for ``reverie serve``: the standard library, set up once, one readable line a record.

Every logger (Reverie's ``reverie.*`` and uvicorn's) writes through one handler on the
root logger, so the lines look alike and a level set here applies to all of them::

    2025-05-01 18:04:12 INFO    reverie.rooms: room K7QMXP created: dixit, 6 seats, deck default

uvicorn is run with ``log_config=None`` so that it leaves this setup alone.
"""

from __future__ import annotations

import logging
import sys
from typing import TextIO

LEVELS = ("debug", "info", "warning", "error", "critical")
FORMAT = "%(asctime)s %(levelname)-7s %(name)s: %(message)s"
DATE_FORMAT = "%Y-%m-%d %H:%M:%S"
_HANDLER_NAME = "reverie"
# uvicorn's server messages; its access log is handled apart.
_UVICORN = ("uvicorn", "uvicorn.error", "uvicorn.asgi")
_ACCESS = "uvicorn.access"
# What uvicorn and the websockets library log at info for every WebSocket: the
# handshake line, "connection open" and "connection closed". With thousands of sockets
# that is an access log in all but name, so it follows the access-log switch.
_SOCKET_LINES = ('%s - "WebSocket %s"', "connection open", "connection closed")


def parse_level(name: str) -> int:
    """The ``logging`` level for a name in :data:`LEVELS` (any case).

    >>> parse_level("Warning") == logging.WARNING
    True
    """
    key = name.strip().lower()
    if key not in LEVELS:
        raise ValueError(f"unknown log level {name!r}; use one of {', '.join(LEVELS)}")
    return logging.getLevelNamesMapping()[key.upper()]


class _NoSocketAccess(logging.Filter):
    """Drops uvicorn's per-WebSocket info lines (see ``_SOCKET_LINES``)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno != logging.INFO or not isinstance(record.msg, str):
            return True
        return not record.msg.startswith(_SOCKET_LINES)


def setup_logging(
    level: str = "info", *, access_log: bool = False, stream: TextIO | None = None
) -> logging.Handler:
    """Send every log record at ``level`` or above to ``stream`` (stderr) in one format.

    uvicorn's loggers get the same level and no handlers of their own; its access log
    (one line per HTTP request and per WebSocket) is written only with ``access_log``.
    Calling this again replaces the earlier setup instead of doubling the lines.
    Returns the handler it installed.
    """
    numeric = parse_level(level)
    root = logging.getLogger()
    for old in [h for h in root.handlers if h.get_name() == _HANDLER_NAME]:
        root.removeHandler(old)
        old.close()
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.set_name(_HANDLER_NAME)
    handler.setFormatter(logging.Formatter(FORMAT, DATE_FORMAT))
    root.addHandler(handler)
    root.setLevel(numeric)

    for name in (*_UVICORN, _ACCESS):
        logger = logging.getLogger(name)
        logger.handlers.clear()
        logger.setLevel(numeric)
        logger.propagate = True
        for f in [f for f in logger.filters if isinstance(f, _NoSocketAccess)]:
            logger.removeFilter(f)
        if not access_log and name != _ACCESS:
            logger.addFilter(_NoSocketAccess())
    logging.getLogger(_ACCESS).disabled = not access_log
    return handler
