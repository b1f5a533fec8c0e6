"""PostgreSQL for the tests: a cluster of the test session's own (``tests/services.py``:
initdb in a temporary folder, a free port; one per pytest-xdist worker, started by the
first test that needs it and deleted at the end), or the server at
``REVERIE_TEST_POSTGRES_URL`` when that is set. Each test gets a fresh schema, dropped
afterwards. Missing binaries or an unreachable server fail the tests that need them;
they are never skipped."""

from __future__ import annotations

import atexit
import os
import secrets
from collections.abc import Iterator
from urllib.parse import quote

import psycopg
import pytest

from tests.services import PostgresServer

ENV = "REVERIE_TEST_POSTGRES_URL"
MARK = "postgres"


def _require_mark(request: pytest.FixtureRequest) -> None:
    """The quick run (``-m "not postgres"``) relies on the marker: a test reaching
    PostgreSQL without it (a fixture asked for by ``getfixturevalue``) must say so."""
    if request.node.get_closest_marker(MARK) is None:
        pytest.fail(f"{request.node.nodeid} uses PostgreSQL: mark it @pytest.mark.{MARK}")


@pytest.fixture(scope="session")
def postgres_server_url() -> Iterator[str]:
    """The URL of the session's PostgreSQL database (``REVERIE_TEST_POSTGRES_URL`` or a
    cluster started for this session and removed after it, even on Ctrl+C)."""
    given = os.environ.get(ENV)
    if given:
        yield given
        return
    server = _started_cluster(on_exit=True)
    try:
        yield server.url
    finally:
        server.remove()
        atexit.unregister(server.remove)


def _started_cluster(*, on_exit: bool) -> PostgresServer:
    """A new cluster, initialised and running (``on_exit``: removed when the test
    process ends, whatever happens); a cluster that cannot start fails the test."""
    server: PostgresServer | None = None
    try:
        server = PostgresServer()
        if on_exit:
            atexit.register(server.remove)
        server.init().start()
    except RuntimeError as exc:
        if server is not None:
            server.remove()
        pytest.fail(str(exc))
    return server


@pytest.fixture
def postgres_url(request: pytest.FixtureRequest, postgres_server_url: str) -> Iterator[str]:
    """A PostgreSQL URL whose tables live in a schema of their own, dropped afterwards."""
    _require_mark(request)
    schema = f"reverie_test_{secrets.token_hex(6)}"
    try:
        admin = psycopg.connect(postgres_server_url, autocommit=True, connect_timeout=5)
    except psycopg.OperationalError as exc:
        pytest.fail(f"PostgreSQL is needed at {postgres_server_url} ({ENV}): {exc}")
    with admin:
        admin.execute(f'CREATE SCHEMA "{schema}"')
        sep = "&" if "?" in postgres_server_url else "?"
        try:
            yield f"{postgres_server_url}{sep}options={quote(f'-csearch_path={schema}')}"
        finally:
            admin.execute(f'DROP SCHEMA "{schema}" CASCADE')


@pytest.fixture
def postgres_server(request: pytest.FixtureRequest) -> Iterator[PostgresServer]:
    """A running PostgreSQL cluster of the test's own, for a test that stops the
    database under the server and starts it again."""
    _require_mark(request)
    server = _started_cluster(on_exit=False)
    try:
        yield server
    finally:
        server.remove()
