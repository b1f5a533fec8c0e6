"""Logging for ``reverie serve``: the standard library, set up once, one readable line a record.

Every logger (Reverie's ``reverie.*`` and uvicorn's) writes through one handler on the
root logger, so the lines look alike and a level set here applies to all of them::

    2025-05-01 18:04:12 INFO    reverie.rooms: room K7QMXP created: dixit, 6 seats, deck default

uvicorn is run with ``log_config=None`` so that it leaves this setup alone. With
``json_lines`` each record is one JSON object instead, for a log collector, carrying this
process's id and, for a line about a room, its code::

    {"time": "2025-05-01T18:04:12", "level": "INFO", "logger": "reverie.rooms",
     "message": "room K7QMXP created: ...", "process": "a1b2c3d4e5f6", "room": "K7QMXP"}
"""

from __future__ import annotations

import logging
import secrets
import sys
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, TextIO

from pythonjsonlogger.json import JsonFormatter

LEVELS = ("debug", "info", "warning", "error", "critical")
#: This server process's id: in every JSON log line and every message it sends other
#: processes over the bus, so the two can be matched.
PROCESS_ID = secrets.token_hex(6)
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


class _RoomField(logging.Filter):
    """Gives a record the room it is about: Reverie's lines about a room start with
    ``"room %s"`` and the code as the first argument."""

    def filter(self, record: logging.LogRecord) -> bool:
        args: Any = record.args
        if (
            isinstance(record.msg, str)
            and record.msg.startswith("room %s")
            and isinstance(args, tuple)
            and args
        ):
            record.room = str(args[0])
        return True


class RepeatThrottle(logging.Filter):
    """Lets through at most ``limit`` identical lines (same logger, level and text) in
    each ``interval`` seconds; the rest are counted, and the next such line that passes
    after the window says how many were left out.

    A script hammering the server repeats one warning (20,550 "refused a connection"
    lines, 1.9 MB, in 4 s from one address, issue #24): the log must stay readable and
    small. At most ``max_keys`` lines are tracked (the oldest are forgotten first).

    >>> now = [0.0]
    >>> t = RepeatThrottle(limit=2, interval=10, clock=lambda: now[0])
    >>> rec = lambda: logging.LogRecord("x", logging.WARNING, "", 0, "same %s", ("a",), None)
    >>> [t.filter(rec()) for _ in range(4)]
    [True, True, False, False]
    >>> now[0] = 11.0
    >>> r = rec(); t.filter(r), r.getMessage()
    (True, 'same a [2 more of this line were suppressed in the last 10 s]')
    """

    def __init__(
        self,
        limit: int = 5,
        interval: float = 10.0,
        *,
        max_keys: int = 1024,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__()
        self.limit = limit
        self.interval = interval
        self.max_keys = max_keys
        self.clock = clock
        # key -> [window start, lines passed in the window, lines suppressed]
        self._seen: OrderedDict[tuple[str, int, str], list[float]] = OrderedDict()
        self._lock = threading.Lock()

    def filter(self, record: logging.LogRecord) -> bool:
        text = record.getMessage()
        with self._lock:  # threads log too (uvicorn's, the store's executors)
            return self._count(record, (record.name, record.levelno, text), text)

    def _count(self, record: logging.LogRecord, key: tuple[str, int, str], text: str) -> bool:
        now = self.clock()
        entry = self._seen.get(key)
        if entry is None or now - entry[0] >= self.interval:
            suppressed = int(entry[2]) if entry is not None else 0
            self._seen[key] = [now, 1, 0]
            self._seen.move_to_end(key)
            while len(self._seen) > self.max_keys:
                self._seen.popitem(last=False)
            if suppressed:
                # The record is the next of its kind: it carries the count of the last
                # window, so a reader sees how loud it was without the lines.
                record.msg = "%s [%d more of this line were suppressed in the last %g s]"
                record.args = (text, suppressed, self.interval)
            return True
        if entry[1] < self.limit:
            entry[1] += 1
            return True
        entry[2] += 1
        return False


def json_formatter() -> logging.Formatter:
    """One JSON object a line: time, level, logger, message, process id and, for lines
    about a room, ``room``.

    >>> import json
    >>> rec = logging.LogRecord("reverie.rooms", logging.INFO, "", 0, "room %s: hi", ("AB",), None)
    >>> _ = _RoomField().filter(rec)
    >>> line = json.loads(json_formatter().format(rec))
    >>> line["room"], line["message"], line["level"], line["process"] == PROCESS_ID
    ('AB', 'room AB: hi', 'INFO', True)
    """
    return JsonFormatter(
        "%(asctime)s %(levelname)s %(name)s %(message)s",
        rename_fields={"asctime": "time", "levelname": "level", "name": "logger"},
        static_fields={"process": PROCESS_ID},
        datefmt="%Y-%m-%dT%H:%M:%S",
    )


def setup_logging(
    level: str = "info",
    *,
    access_log: bool = False,
    stream: TextIO | None = None,
    json_lines: bool = False,
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
    if json_lines:
        handler.setFormatter(json_formatter())
        handler.addFilter(_RoomField())
    else:
        handler.setFormatter(logging.Formatter(FORMAT, DATE_FORMAT))
    handler.addFilter(RepeatThrottle())
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
