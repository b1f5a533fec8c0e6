"""The retry of a room's own writes (timeouts, bot moves, stand-ins): a write the room
refuses is not retried; one the store fails is, after a growing pause; a success
resets the count."""

from __future__ import annotations

import logging

import pytest

from reverie.errors import RoomError
from reverie.rooms import retry
from reverie.rooms.live import LiveRoom
from reverie.rooms.retry import backoff, write_or_retry
from reverie.rooms.state import RoomState
from reverie.store import StoreUnavailable
from tests.aio import run_async


def _live() -> LiveRoom:
    room = RoomState(
        code="ROOM01",
        variant="dixit",
        seats=3,
        options=None,
        setup=None,
        seed=1,
        created_at=0.0,
        players=(),
    )
    return LiveRoom(room)


async def _written() -> None:
    return None


async def _refused() -> None:
    raise RoomError("wrong_phase", "The phase ended meanwhile.")


async def _store_failed() -> None:
    raise StoreUnavailable("disk full")


def test_the_pause_grows_with_each_failure_and_stops_growing() -> None:
    delays = [backoff(n) for n in range(1, len(retry.RETRY_DELAYS) + 3)]
    assert delays[: len(retry.RETRY_DELAYS)] == list(retry.RETRY_DELAYS)
    assert delays == sorted(delays)
    assert delays[-1] == delays[-2] == retry.RETRY_DELAYS[-1]


def test_a_failed_write_is_retried_later_and_a_success_resets_the_count(
    caplog: pytest.LogCaptureFixture,
) -> None:
    async def main() -> None:
        live = _live()
        assert await write_or_retry(live, _store_failed(), "timeout") == retry.RETRY_DELAYS[0]
        assert await write_or_retry(live, _store_failed(), "timeout") == retry.RETRY_DELAYS[1]
        assert live.failures == 2
        # Refused (the phase moved on): nothing to retry, and the count stays.
        assert await write_or_retry(live, _refused(), "timeout") is None
        assert live.failures == 2
        assert await write_or_retry(live, _written(), "timeout") is None
        assert live.failures == 0

    caplog.set_level(logging.DEBUG, logger="reverie.rooms")
    run_async(main())
    failed = [r for r in caplog.records if "not written" in r.getMessage()]
    assert len(failed) == 2 and all(r.exc_info for r in failed)
    assert failed[0].getMessage() == "timeout in ROOM01 not written; retrying in 0.5s"
    refused = [r for r in caplog.records if "not made" in r.getMessage()]
    assert [r.levelno for r in refused] == [logging.DEBUG]


def test_a_refusal_is_logged_at_the_level_asked(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG, logger="reverie.rooms")
    assert run_async(write_or_retry(_live(), _refused(), "stand-in", refused=logging.INFO)) is None
    [record] = [r for r in caplog.records if "not made" in r.getMessage()]
    assert record.levelno == logging.INFO and "stand-in in ROOM01" in record.getMessage()


def test_the_delays_are_read_when_used(monkeypatch: pytest.MonkeyPatch) -> None:
    # Tests shorten them (tests/rooms/test_deadlines.py): patching the module must work.
    monkeypatch.setattr(retry, "RETRY_DELAYS", (0.01, 0.02))
    assert [backoff(n) for n in (1, 2, 3)] == [0.01, 0.02, 0.02]
