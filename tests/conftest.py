"""Fixtures shared by every test folder."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings
from playwright.sync_api import Browser, expect, sync_playwright

from tests import pg, redisdb
from tests.pg import postgres_server, postgres_server_url, postgres_url
from tests.redisdb import redis_server, redis_server_url, redis_url
from tools.chromium import CHROMIUM, CHROMIUM_ARGS

__all__ = [
    "postgres_server",
    "postgres_server_url",
    "postgres_url",
    "redis_server",
    "redis_server_url",
    "redis_url",
]

# No wall-clock limit on a hypothesis example (the project's rule for tests): the 200 ms
# default fails a quick example that a busy machine paused (make test runs parallel workers).
settings.register_profile("reverie", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("reverie")

BROWSER_TESTS = Path(__file__).resolve().parent / "browser"

# The fixtures that reach each service, and the marker their tests get.
SERVICES = {
    pg.MARK: {"postgres_url", "postgres_server"},
    redisdb.MARK: {"redis_url", "redis_server"},
}
# A Redis given by REVERIE_TEST_REDIS_URL is shared by the workers (tests/redisdb.py).
SHARED_REDIS_GROUP = "shared-redis"


def _shares_a_module_fixture(item: pytest.Item) -> bool:
    """Whether the test uses a fixture set up once per module (or class): a deck read,
    a model loaded, a deck built."""
    info = getattr(item, "_fixtureinfo", None)
    if info is None:  # a doctest
        return False
    return any(
        defs and defs[-1].scope in ("module", "class", "package")
        for defs in info.name2fixturedefs.values()
    )


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist reads the xdist_group marks
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark as ``browser`` every test that needs Chromium, and as ``postgres`` / ``redis``
    every test that needs that service, so that ``-m "not browser and not postgres and
    not redis"`` leaves them out.

    A hook rather than a ``pytestmark`` per module: a new test module, or a test elsewhere
    that asks for one of those fixtures, is marked without anyone remembering to. (A test
    asking for one with ``request.getfixturevalue`` is marked by hand; the fixture fails it
    otherwise.)

    For ``make test``'s workers (pytest-xdist, ``--dist loadgroup``): the tests sharing a
    module-scoped fixture run on one worker (handed out one by one, they would each set it
    up again on whichever worker took them), and the long tests (``slow``, ``browser``)
    come first, so that no worker is left with one at the end while the others idle.
    """
    shared_redis = bool(os.environ.get(redisdb.ENV))
    for item in items:
        fixtures = set(getattr(item, "fixturenames", ()))
        if BROWSER_TESTS in item.path.parents or "browser" in fixtures:
            item.add_marker(pytest.mark.browser)
        for mark, names in SERVICES.items():
            if fixtures & names:
                item.add_marker(mark)
        if shared_redis and "redis_url" in fixtures:
            # One worker runs them, one at a time (see tests/redisdb.py).
            item.add_marker(pytest.mark.xdist_group(SHARED_REDIS_GROUP))
        elif _shares_a_module_fixture(item):
            item.add_marker(pytest.mark.xdist_group(item.nodeid.split("::")[0]))
    # A stable sort: within each kind, the order of the files.
    items.sort(
        key=lambda i: (
            0 if i.get_closest_marker("slow") else 1 if i.get_closest_marker("browser") else 2
        )
    )


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    """One headless Debian Chromium for the whole session (Playwright's sync API allows
    one running instance per thread). A missing Chromium fails the tests; never skips."""
    if not Path(CHROMIUM).exists():
        pytest.fail(
            f"Chromium is missing at {CHROMIUM}: apt-get install -y chromium fonts-dejavu-core"
        )
    expect.set_options(timeout=30_000)  # a bound (see tests/browser/conftest.py), not 5 s
    with sync_playwright() as p:
        # The session's browser tests all hang on this launch (one per worker, started
        # together): a long bound rather than Playwright's 30 s.
        b = p.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS, timeout=120_000
        )
        try:
            yield b
        finally:
            b.close()
