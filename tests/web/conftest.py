"""Fixtures: a live server on a temporary database."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from .harness import ServerThread

__all__ = ["server"]


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerThread]:
    srv = ServerThread(tmp_path).start()
    try:
        yield srv
    finally:
        srv.stop()
