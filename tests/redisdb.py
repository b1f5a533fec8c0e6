"""Redis for the tests: a redis-server of the test session's own (``tests/services.py``:
a free port, nothing on disk; one per pytest-xdist worker, started by the first test that
needs it and stopped at the end), or the database at ``REVERIE_TEST_REDIS_URL`` when that
is set. Each test starts on an emptied database. Missing binaries or an unreachable
server fail the tests that need them; they are never skipped.

A given server is shared by every worker, and Redis's pub/sub channels are the whole
server's (not one database's): the tests using it are then run by one worker, one at a
time (``tests/conftest.py`` groups them)."""

from __future__ import annotations

import atexit
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from redis.exceptions import RedisError

from tests.services import RedisServer

ENV = "REVERIE_TEST_REDIS_URL"
MARK = "redis"


def _require_mark(request: pytest.FixtureRequest) -> None:
    """The quick run (``-m "not redis"``) relies on the marker (see ``tests/pg.py``)."""
    if request.node.get_closest_marker(MARK) is None:
        pytest.fail(f"{request.node.nodeid} uses Redis: mark it @pytest.mark.{MARK}")


@pytest.fixture(scope="session")
def redis_server_url() -> Iterator[str]:
    """The URL of the session's Redis database (``REVERIE_TEST_REDIS_URL`` or database 0
    of a redis-server started for this session and stopped after it)."""
    given = os.environ.get(ENV)
    if given:
        yield given
        return
    with tempfile.TemporaryDirectory(prefix="reverie-test-redis-") as folder:
        server = RedisServer(Path(folder))
        atexit.register(server.kill)
        try:
            server.start()
        except RuntimeError as exc:
            pytest.fail(str(exc))
        try:
            yield server.url
        finally:
            server.stop()
            atexit.unregister(server.kill)


@pytest.fixture
def redis_url(request: pytest.FixtureRequest, redis_server_url: str) -> str:
    """The URL of an emptied Redis database."""
    _require_mark(request)
    try:
        client = redis.Redis.from_url(redis_server_url, socket_connect_timeout=3)
        client.flushdb()
        client.close()
    except RedisError as exc:
        pytest.fail(f"Redis is needed at {redis_server_url} ({ENV}): {exc}")
    return redis_server_url


@pytest.fixture
def redis_server(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[RedisServer]:
    """A running redis-server of the test's own, for a test that kills it (or drops its
    clients) under the servers."""
    _require_mark(request)
    server = RedisServer(tmp_path)
    try:
        server.start()
    except RuntimeError as exc:
        pytest.fail(str(exc))
    try:
        yield server
    finally:
        server.kill()
