"""``reverie backup``: a consistent copy of a live SQLite store, from which a new server
goes on with every game where its last acknowledged move left it."""

from __future__ import annotations

import shlex
import shutil
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from reverie.store import open_store
from reverie.store.backup import BackupError, backup_sqlite, pg_restore_command
from reverie.store.sqlite import SQLiteStore
from tests.aio import run_async
from tests.services import PostgresServer
from tests.web.harness import Client, ServerThread, create_room, join, play, room_history

ROOT = Path(__file__).resolve().parents[2]


def _reverie(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "reverie", *map(str, args)],
        capture_output=True, text=True, cwd=ROOT,
    )  # fmt: skip


def _logs(path: Path) -> dict[str, list[tuple[int, bytes]]]:
    """Every room's (version, payload) in order; asserts each room's row says the same
    version as its log's last event (written in one transaction: a torn copy would not)."""
    db = sqlite3.connect(path)
    try:
        logs: dict[str, list[tuple[int, bytes]]] = {}
        for code, version in db.execute("SELECT code, version FROM rooms"):
            rows = db.execute(
                "SELECT version, payload FROM events WHERE code = ? ORDER BY version", (code,)
            ).fetchall()
            assert [v for v, _ in rows] == list(range(1, version + 1)), code
            logs[code] = [(v, bytes(p)) for v, p in rows]
        return logs
    finally:
        db.close()


def test_backups_taken_while_a_writer_appends_are_each_one_moment(tmp_path: Path) -> None:
    db = tmp_path / "reverie.db"
    stop = threading.Event()
    written = [0]

    def writer() -> None:
        async def main() -> None:
            store = SQLiteStore(str(db))
            try:
                await store.create("ROOMAA", b"first", 1.0)
                await store.create("ROOMBB", b"first", 1.0)
                version = 1
                while not stop.is_set():
                    for code in ("ROOMAA", "ROOMBB"):
                        await store.append(code, version, b"x" * (version % 700), 2.0)
                    version += 1
                    written[0] = version
            finally:
                await store.close()

        run_async(main())

    thread = threading.Thread(target=writer)
    thread.start()
    try:
        while written[0] < 50:
            stop.wait(0.01)
        copies = []
        for i in range(4):
            report = backup_sqlite(db, tmp_path / f"copy{i}.db")
            copies.append(_logs(report.path))
            assert report.rooms == 2 and report.events == sum(len(x) for x in copies[-1].values())
    finally:
        stop.set()
        thread.join()
    final = _logs(db)
    lengths = [len(c["ROOMAA"]) for c in copies]
    assert lengths == sorted(lengths) and lengths[-1] > lengths[0]  # written meanwhile
    for copy in copies:  # each copy is a prefix of the log as it went on
        for code, log in copy.items():
            assert final[code][: len(log)] == log
    # The copy stands alone: no -wal beside it holds part of it.
    assert not (tmp_path / "copy0.db-wal").exists()


def test_back_up_mid_game_and_play_on_from_the_copy(tmp_path: Path) -> None:
    live, restored = tmp_path / "live", tmp_path / "restored"
    server = ServerThread(live, rooms_per_minute=0).start()
    try:
        code, token = create_room(server.base, "dixit", 3)
        host = Client(server.base, code, token)
        guest = join(server.base, code, "Guest", "#2a9d8f")
        clients = [host, guest]
        assert host.request({"type": "add_bot"})["type"] == "ack"
        assert host.request({"type": "start"})["type"] == "ack"
        play(clients, seed=2, until=lambda s: s["game"]["rounds_played"] >= 1)
        acked = max(c.acked for c in clients)
        # The command an operator types, in another process, while this server runs.
        done = _reverie("backup", tmp_path / "backup.db", "--data-dir", live)
        assert done.returncode == 0, done.stderr
        assert "1 room(s)" in done.stdout
        tokens = [c.token for c in clients]
        for c in clients:
            c.close()
    finally:
        server.stop()
    copied = room_history(tmp_path / "backup.db", code)
    assert len(copied) - 1 >= acked  # every acknowledged move is in the copy

    # Restore: the copy becomes the database of a new server, which resumes the room.
    restored.mkdir()
    shutil.copy(tmp_path / "backup.db", restored / "reverie.db")
    server = ServerThread(restored, rooms_per_minute=0).start()
    try:
        back = [Client(server.base, code, t) for t in tokens]
        for c in back:
            c.until(lambda f: f["type"] == "state")
            assert c.state is not None and c.state["version"] >= acked
            assert c.state["room"]["status"] == "playing"
        final = play(back, seed=3, until=lambda s: s["game"]["rounds_played"] >= 2)
        assert final["game"]["rounds_played"] >= 2
        for c in back:
            c.close()
    finally:
        server.stop()


def test_a_backup_never_overwrites_by_accident(tmp_path: Path) -> None:
    db = tmp_path / "reverie.db"

    async def make() -> None:
        store = SQLiteStore(str(db))
        await store.create("ROOMAA", b"first", 1.0)
        await store.close()

    run_async(make())
    (tmp_path / "taken.db").write_text("precious")
    with pytest.raises(BackupError, match="exists already"):
        backup_sqlite(db, tmp_path / "taken.db")
    assert (tmp_path / "taken.db").read_text() == "precious"
    with pytest.raises(BackupError, match="itself"):
        backup_sqlite(db, db, overwrite=True)
    with pytest.raises(BackupError, match="no database"):
        backup_sqlite(tmp_path / "nowhere.db", tmp_path / "x.db")
    # A server that stopped cleanly left no -wal: the file alone is read.
    report = backup_sqlite(db, tmp_path / "taken.db", overwrite=True)
    assert report.rooms == 1
    done = _reverie("backup", tmp_path / "taken.db", "--data-dir", tmp_path)
    assert done.returncode == 2 and "exists already" in done.stderr


def test_postgres_is_backed_up_with_pg_dump() -> None:
    done = _reverie("backup", "/srv/b.dump", "--database-url", "postgresql://ann:pw@db/rev")
    assert done.returncode == 1
    assert done.stdout.strip() == (
        "pg_dump --format=custom --no-owner --file=/srv/b.dump postgresql://ann@db/rev"
    )
    assert "pw" not in done.stdout + done.stderr


@pytest.mark.postgres
def test_the_pg_dump_and_pg_restore_lines_restore_a_database(
    postgres_server: PostgresServer, tmp_path: Path
) -> None:
    import psycopg

    admin = psycopg.connect(postgres_server.url, autocommit=True)
    with admin:
        admin.execute("CREATE DATABASE live")
        admin.execute("CREATE DATABASE restored")
    base = postgres_server.url.rsplit("/", 1)[0]
    live, restored = f"{base}/live", f"{base}/restored"

    async def play(url: str, start: int, moves: int) -> list[bytes]:
        store = open_store(url)
        await store.open()
        try:
            if start == 0:
                await store.create("ROOMAA", b"created", 1.0)
                start = 1
            for v in range(start, start + moves):
                assert await store.append("ROOMAA", v, f"move {v}".encode(), 2.0) == v + 1
            return [e.payload for e in await store.load("ROOMAA")]
        finally:
            await store.close()

    before = run_async(play(live, 0, 5))
    dump = tmp_path / "reverie.dump"
    done = _reverie("backup", dump, "--database-url", live)
    assert done.returncode == 1
    # The lines the README gives, run with this cluster's own binaries.
    for line in (done.stdout, pg_restore_command(restored, dump)):
        args = shlex.split(line)
        subprocess.run([str(postgres_server.bin / args[0]), *args[1:]], check=True)
    after = run_async(play(restored, 6, 2))  # the game goes on in the restored database
    assert after[: len(before)] == before and len(after) == len(before) + 2
