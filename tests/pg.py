"""A fresh PostgreSQL schema per test (``REVERIE_TEST_POSTGRES_URL``, by default the
local server's ``test`` database). A missing server fails the tests that need it; it
never skips them."""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from urllib.parse import quote

import psycopg
import pytest

POSTGRES_URL = os.environ.get(
    "REVERIE_TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/test"
)


@pytest.fixture
def postgres_url() -> Iterator[str]:
    """A PostgreSQL URL whose tables live in a schema of their own, dropped afterwards."""
    schema = f"reverie_test_{secrets.token_hex(6)}"
    try:
        admin = psycopg.connect(POSTGRES_URL, autocommit=True, connect_timeout=5)
    except psycopg.OperationalError as exc:
        pytest.fail(
            f"PostgreSQL is needed at {POSTGRES_URL} (set REVERIE_TEST_POSTGRES_URL): {exc}"
        )
    with admin:
        admin.execute(f'CREATE SCHEMA "{schema}"')
        sep = "&" if "?" in POSTGRES_URL else "?"
        try:
            yield f"{POSTGRES_URL}{sep}options={quote(f'-csearch_path={schema}')}"
        finally:
            admin.execute(f'DROP SCHEMA "{schema}" CASCADE')
