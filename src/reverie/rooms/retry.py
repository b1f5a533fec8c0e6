"""Writing a room's own move again after the store failed: a phase's timeout, a bot's
move, a stand-in for someone gone. Nobody is waiting on the other end to retry them, so
the room does, after a growing pause: the store may be back, and a table whose phase
never ends would stay frozen."""

from __future__ import annotations

import logging
from collections.abc import Awaitable

from reverie.errors import ReverieError
from reverie.rooms.live import LiveRoom

log = logging.getLogger("reverie.rooms")

#: Waits before trying a failed timeout, bot move or stand-in again (the store may be
#: back).
RETRY_DELAYS = (0.5, 1.0, 2.0, 5.0, 10.0, 30.0)


def backoff(failures: int) -> float:
    """How long to wait after ``failures`` failed writes in a row."""
    return RETRY_DELAYS[min(failures, len(RETRY_DELAYS)) - 1]


async def write_or_retry(
    live: LiveRoom, write: Awaitable[object], what: str, *, refused: int = logging.DEBUG
) -> float | None:
    """Await ``write`` (a commit of the room's own ``what``) and keep the room's count of
    failed writes in a row (``live.failures``): None when the write is done or the room
    refused it (the phase moved on: logged at level ``refused``, nothing to retry), else
    the seconds to wait before trying again (the store failed)."""
    try:
        await write
    except ReverieError as exc:
        log.log(refused, "%s in %s not made: %s", what, live.state.code, exc)
        return None
    except Exception:
        live.failures += 1
        delay = backoff(live.failures)
        log.exception("%s in %s not written; retrying in %.1fs", what, live.state.code, delay)
        return delay
    live.failures = 0
    return None
