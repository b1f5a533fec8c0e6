"""Stores to run the contract against: SQLite in a temporary file, PostgreSQL in a
fresh schema of the test database (see ``tests/pg.py``)."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Each store's URL in turn."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'reverie.db'}"
    url: str = request.getfixturevalue("postgres_url")
    return url
