"""A Redis database for tests (``REVERIE_TEST_REDIS_URL``, by default the local server's
database 15, emptied first). A missing server fails the tests that need it; it never
skips them."""

from __future__ import annotations

import os

import pytest
import redis
from redis.exceptions import RedisError

REDIS_URL = os.environ.get("REVERIE_TEST_REDIS_URL", "redis://127.0.0.1:6379/15")


@pytest.fixture
def redis_url() -> str:
    """The URL of an emptied Redis database."""
    try:
        client = redis.Redis.from_url(REDIS_URL, socket_connect_timeout=3)
        client.flushdb()
        client.close()
    except RedisError as exc:
        pytest.fail(f"Redis is needed at {REDIS_URL} (set REVERIE_TEST_REDIS_URL): {exc}")
    return REDIS_URL
