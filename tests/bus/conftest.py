"""Buses to run the contract against: the in-memory bus, and the Redis bus on an emptied
database of the test Redis (see ``tests/redisdb.py``)."""

from __future__ import annotations

import pytest


@pytest.fixture(params=["memory", pytest.param("redis", marks=pytest.mark.redis)])
def bus_url(request: pytest.FixtureRequest) -> str:
    """Each bus's URL in turn."""
    if request.param == "memory":
        return "memory://"
    url: str = request.getfixturevalue("redis_url")
    return url
