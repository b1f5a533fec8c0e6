"""A store that cannot be used stops `reverie serve` with one clear line."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

import pytest

from reverie.store import open_store
from tests.aio import run_async

from ..web.harness import free_port


def serve(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "reverie", "serve", "--port", str(free_port()), *args],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_a_second_server_on_one_sqlite_folder_is_refused(tmp_path: Path) -> None:
    async def hold() -> None:
        store = open_store(f"sqlite:///{tmp_path / 'reverie.db'}")  # a first server
        try:
            done = await asyncio.to_thread(serve, "--data-dir", str(tmp_path))
        finally:
            await store.close()
        assert done.returncode == 1
        assert "Another Reverie server is using" in done.stderr
        assert "Traceback" not in done.stderr

    run_async(hold())


@pytest.mark.slow
def test_an_unreachable_database_is_one_line_and_a_failure(tmp_path: Path) -> None:
    done = serve("--data-dir", str(tmp_path), "--database-url", "postgresql://nobody@127.0.0.1:1/x")
    assert done.returncode == 1
    assert "Cannot reach PostgreSQL at postgresql://nobody@127.0.0.1:1/x" in done.stderr
    assert "Traceback" not in done.stderr


def test_an_unreachable_redis_is_one_line_and_a_failure(tmp_path: Path) -> None:
    done = serve("--data-dir", str(tmp_path), "--bus-url", "redis://:secret@127.0.0.1:1/0")
    assert done.returncode == 1
    assert "Cannot start" in done.stderr and "cannot reach Redis at" in done.stderr
    assert "secret" not in done.stderr  # the password is not printed
    assert "Traceback" not in done.stderr


def test_an_unknown_bus_or_log_format_is_one_line_and_a_failure(tmp_path: Path) -> None:
    done = serve("--data-dir", str(tmp_path), "--bus-url", "kafka://x")
    assert done.returncode == 1 and "No bus for 'kafka' URLs" in done.stderr
    done = serve("--data-dir", str(tmp_path), "--log-format", "yaml")
    assert done.returncode != 0 and "unknown log format" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_truncated_database_file_is_one_line_and_a_failure(tmp_path: Path) -> None:
    # Issue #24, item 5: the server exited with a full traceback.
    async def fill() -> None:
        store = open_store(f"sqlite:///{tmp_path / 'reverie.db'}")
        for i in range(60):
            await store.create(f"ROOM{i:02d}", b'{"t":"created"}' + b" " * 2000, 1.0)
        await store.close()  # the last connection's close checkpoints the log in

    run_async(fill())
    db = tmp_path / "reverie.db"
    size = db.stat().st_size
    for kept in (size - 3 * 4096, size // 3):  # the last pages gone; most of it gone
        with db.open("r+b") as f:
            f.truncate(kept)
        done = serve("--data-dir", str(tmp_path))
        assert done.returncode == 1
        lines = [line for line in done.stderr.splitlines() if line.strip()]
        assert len(lines) == 1, done.stderr
        assert f"the event store at {db} is damaged: " in lines[0]
        assert "Traceback" not in done.stderr
