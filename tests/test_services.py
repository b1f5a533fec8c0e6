"""The tests' own PostgreSQL and Redis (tests/services.py, tests/pg.py, tests/redisdb.py):
a session uses servers it started itself, never the machine's, and leaves none of them
running, nor their folders, when it ends, or when its process is killed."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# A session of its own, run by a pytest of its own: its conftest takes the fixtures from
# tests/ and its test writes down what it was given.
CONFTEST = """
from tests.pg import postgres_server_url, postgres_url
from tests.redisdb import redis_server_url, redis_url
"""
TEST = """
import json, os
import psycopg, pytest, redis

@pytest.mark.postgres
@pytest.mark.redis
def test_both(postgres_url, redis_url):
    with psycopg.connect(postgres_url) as con:
        backend = con.execute("SELECT pg_backend_pid()").fetchone()[0]
        data = con.execute("SHOW data_directory").fetchone()[0]
    info = redis.Redis.from_url(redis_url).info("server")
    with open(os.environ["OUT"], "w") as out:
        json.dump({"pytest": os.getpid(), "pg_backend": backend, "pg_data": data,
                   "pg_url": postgres_url, "redis_pid": info["process_id"],
                   "redis_url": redis_url}, out)
"""


def parent_of(pid: int) -> int:
    # /proc/<pid>/stat: "pid (comm) state ppid ...", comm may hold spaces.
    stat = Path(f"/proc/{pid}/stat").read_text()
    return int(stat.rsplit(")", 1)[1].split()[1])


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return False
    return state != "Z"


def wait_gone(pid: int) -> bool:
    end = time.monotonic() + 30
    while alive(pid):
        if time.monotonic() > end:
            return False
        time.sleep(0.05)
    return True


@pytest.mark.postgres
@pytest.mark.redis
def test_a_session_starts_its_own_servers_and_leaves_nothing_behind(tmp_path: Path) -> None:
    (tmp_path / "conftest.py").write_text(CONFTEST)
    (tmp_path / "test_inner.py").write_text(TEST)
    out = tmp_path / "seen.json"
    env = {k: v for k, v in os.environ.items() if not k.startswith("REVERIE_TEST_")}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(tmp_path)],
        cwd=ROOT, env={**env, "OUT": str(out), "PYTHONPATH": str(ROOT)},
        capture_output=True, text=True,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    seen = json.loads(out.read_text())
    # Not the machine's servers: the URLs are a free port's, not the usual ones.
    assert ":5432/" not in seen["pg_url"] and ":6379/" not in seen["redis_url"]
    # The cluster's folder was a temporary one, now deleted; no server is left running.
    data = Path(seen["pg_data"])
    assert data.name == "data" and data.parent.name.startswith("reverie-test-pg-")
    assert not data.parent.exists()
    assert wait_gone(seen["pg_backend"]) and wait_gone(seen["redis_pid"])


@pytest.mark.postgres
@pytest.mark.redis
def test_the_servers_die_with_a_killed_test_process(tmp_path: Path) -> None:
    script = textwrap.dedent(
        f"""
        import json, sys, time
        from pathlib import Path
        from tests.services import PostgresServer, RedisServer
        pg = PostgresServer().init().start()
        rd = RedisServer(Path({str(tmp_path)!r})).start()
        print(json.dumps([pg.proc.pid, rd.proc.pid, str(pg.folder)]), flush=True)
        time.sleep(600)
        """
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", script], cwd=ROOT, stdout=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )  # fmt: skip
    assert proc.stdout is not None
    pg_pid, redis_pid, folder = json.loads(proc.stdout.readline())
    try:
        assert parent_of(pg_pid) == proc.pid and parent_of(redis_pid) == proc.pid
        proc.send_signal(signal.SIGKILL)  # no finalizer, no atexit
        proc.wait()
        assert wait_gone(pg_pid) and wait_gone(redis_pid)
    finally:
        for pid in (pg_pid, redis_pid):
            if alive(pid):
                os.kill(pid, signal.SIGKILL)
        # Killed without a word, it could not delete its folder: this test does.
        shutil.rmtree(folder, ignore_errors=True)
