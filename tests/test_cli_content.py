"""``reverie decks`` and ``reverie words`` on SQLite and PostgreSQL: the lists an
operator reads, deleting with a confirmation, a refusal while a running room plays it;
and the operator's commands on a SQLite file a live server is writing to."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest
from typer.testing import CliRunner, Result

from reverie.bus.base import MemoryBus
from reverie.cli import app
from reverie.content.decks import list_decks
from reverie.content.library import Library
from reverie.rooms.service import RoomService
from reverie.store import open_store
from reverie.store.decks import DeckStore, NewCard
from tests.aio import run_async

ROOT = Path(__file__).resolve().parents[1]
DAY = 86400.0
PLAYED_LIST, FREE_LIST = (f"w-{c * 26}" for c in "pf")
runner = CliRunner()


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The event store's URL, as the server would be given it."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'data' / 'reverie.db'}"
    found: str = request.getfixturevalue("postgres_url")
    return found


def cli(url: str, *args: str, answer: str | None = None) -> Result:
    """``reverie ARGS`` on the store of ``url`` (in a thread of its own: the command runs
    its own event loop); ``answer``: typed at the confirmation."""
    argv = [*args, "--database-url", url]
    with ThreadPoolExecutor(max_workers=1) as pool:
        job = pool.submit(runner.invoke, app, argv, input=answer, env={"COLUMNS": "200"})
        return job.result()


def cells(table: str, key: str) -> list[str]:
    """The cells of the row of a printed table that holds ``key``."""
    line = next(line for line in table.splitlines() if key in line)
    return [c.strip() for c in line.strip().strip("│┃").split("│")]


def _content(url: str, at: float) -> str:
    """Two published decks and two word lists; a lobby (a running room) plays the first
    deck and names the first list. Returns the lobby's code."""

    async def make() -> str:
        store = open_store(url)
        service = RoomService(
            store, MemoryBus(), Library({d.name: d for d in list_decks()}), clock=lambda: at
        )
        try:
            assert isinstance(store, DeckStore)
            for deck_id, title in (("u-played", "Cats"), ("u-free", "Dogs")):
                await store.create_deck(deck_id, "owner#", at)
                card = NewCard(f"{deck_id}-c", "image/webp", b"x" * 2048)
                await store.add_cards(deck_id, [card], 4096, max_cards=5, max_bytes=10**6)
                await store.publish_deck(deck_id, title, {}, at)
            for list_id in (PLAYED_LIST, FREE_LIST):
                payload = b'{"language":"en","lists":{"objects":["cat","dog","cow"]}}'
                await store.save_words(list_id, payload, at)
            live, _ = await service.create_room(
                name="Ann", color="#e63946", variant="dixit", seats=3, options={}
            )
            code = live.state.code
            await store.record_deck_use("u-played", code, at)
            await store.record_words_use(PLAYED_LIST, code, at)
            return code
        finally:
            await service.close()
            await store.close()

    return run_async(make())


def test_the_operator_lists_and_deletes_decks_and_word_lists(url: str) -> None:
    lobby = _content(url, time.time())
    assert cli(url, "moderation", "approve", "deck", "u-free").exit_code == 0

    decks = cli(url, "decks", "list")
    assert decks.exit_code == 0, decks.output
    assert "2 deck(s)" in decks.output
    played = cells(decks.output, "u-played")
    # id, title, state, pictures, size, created, last played, rooms, approved
    assert played[1:5] + played[7:] == ["Cats", "ready", "1", "2.0 kB", lobby, "no"]
    assert cells(decks.output, "u-free")[-1] == "yes"  # approved for public tables

    words = cli(url, "words", "list")
    assert words.exit_code == 0, words.output
    assert "2 word list(s)" in words.output
    # id, language, entries, size, created, last used, rooms, approved
    row = cells(words.output, PLAYED_LIST)
    assert row[1:3] + row[6:] == ["en", "3", lobby, "no"]

    # What a running room plays cannot be deleted; the message says what to do.
    refused = cli(url, "decks", "delete", "u-played", "--yes")
    assert refused.exit_code == 2
    assert f"running room(s): {lobby}" in refused.output
    assert "reverie moderation close" in refused.output
    assert cli(url, "words", "delete", PLAYED_LIST, "--yes").exit_code == 2

    # Asked first: "no" keeps it.
    kept = cli(url, "decks", "delete", "u-free", answer="n\n")
    assert kept.exit_code == 1 and "Delete deck u-free “Dogs” (1 picture(s)" in kept.output
    assert "u-free" in cli(url, "decks", "list").output
    gone = cli(url, "decks", "delete", "u-free", "--by", "ann", answer="y\n")
    assert gone.exit_code == 0, gone.output
    assert "deck u-free deleted: 1 picture(s) erased" in gone.output
    assert "u-free" not in cli(url, "decks", "list").output
    assert "purged" in cli(url, "decks", "list", "--all").output  # its tombstone
    assert "was deleted already" in cli(url, "decks", "delete", "u-free", "--yes").output
    assert "no deck u-none" in cli(url, "decks", "delete", "u-none", "--yes").output

    assert cli(url, "words", "delete", FREE_LIST, "--yes").exit_code == 0
    assert FREE_LIST not in cli(url, "words", "list").output
    assert cli(url, "words", "delete", FREE_LIST, "--yes").exit_code == 2  # no such list

    # Once the room is gone, what it played can go too.
    assert cli(url, "rooms", "delete", lobby).exit_code == 0
    assert cli(url, "words", "delete", PLAYED_LIST, "--yes").exit_code == 0
    assert cli(url, "decks", "delete", "u-played", "--yes").exit_code == 0
    log = cli(url, "moderation", "log").output
    assert "deck u-free" in log and "ann" in log and f"words {PLAYED_LIST}" in log
    assert "withdraw" in log  # the approval went with the deck


def test_a_finished_or_week_old_room_does_not_hold_its_content(url: str) -> None:
    """A lobby nobody touched for over a week is not running: a server would not even
    resume it."""
    _content(url, time.time() - 8 * DAY)
    assert cli(url, "words", "delete", PLAYED_LIST, "--yes").exit_code == 0
    assert cli(url, "decks", "delete", "u-played", "--yes").exit_code == 0


def test_the_commands_work_beside_a_live_server_on_its_sqlite_file(tmp_path: Path) -> None:
    from tests.web.harness import ServerThread

    url = f"sqlite:///{tmp_path / 'reverie.db'}"
    old = _content(url, time.time() - 40 * DAY)  # a lobby left long ago, due for deletion
    server = ServerThread(
        tmp_path, rooms_per_minute=0,
        # This server never prunes by itself: what goes here, the commands deleted.
        keep_finished_days=0, keep_abandoned_days=0, keep_word_lists_days=0,
    ).start()  # fmt: skip
    created: list[int] = []
    stop = threading.Event()

    def busy() -> None:
        """Players opening rooms all the while: the server writes to the file."""
        with httpx.Client(base_url=server.base) as client:
            body = {"name": "Bo", "color": "#e63946", "variant": "dixit", "seats": 3}
            while not stop.wait(0.01) and len(created) < 2000:
                created.append(client.post("/api/rooms", json=body).status_code)

    def reverie(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "reverie", *args, "--data-dir", str(tmp_path)],
            capture_output=True, text=True, cwd=ROOT,
        )  # fmt: skip

    writer = threading.Thread(target=busy)
    writer.start()
    try:
        _prune_and_delete_beside(server.base, old, created, writer, reverie)
    finally:
        stop.set()
        writer.join()
        server.stop()
    assert len(created) > 10 and set(created) == {201}  # no player saw the file busy


def _prune_and_delete_beside(
    base: str,
    old: str,
    created: list[int],
    writer: threading.Thread,
    reverie: Callable[..., subprocess.CompletedProcess[str]],
) -> None:
    """The operator's commands, run while ``writer`` has the server write."""
    while len(created) < 5 and writer.is_alive():
        time.sleep(0.01)
    dry = reverie("rooms", "prune", "--dry-run")
    assert dry.returncode == 0, dry.stderr
    assert f"1 abandoned room(s) would be deleted: {old}" in dry.stdout
    pruned = reverie("rooms", "prune")
    assert pruned.returncode == 0, pruned.stderr
    assert f"1 abandoned room(s) deleted: {old}" in pruned.stdout
    # Its list went with it, and so did the list nobody named for 40 days.
    assert f"2 unused word list(s) deleted: {FREE_LIST} {PLAYED_LIST}" in pruned.stdout
    erased = reverie("decks", "delete", "u-free", "--yes")
    assert erased.returncode == 0, erased.stderr
    new = httpx.post(
        f"{base}/api/rooms",
        json={"name": "Cy", "color": "#e63946", "variant": "dixit", "seats": 3},
    ).json()["code"]
    deleted = reverie("rooms", "delete", new)
    assert deleted.stdout.strip() == f"{new}: deleted", deleted.stderr
    done = len(created)
    while len(created) < done + 5 and writer.is_alive():  # the server writes on after
        time.sleep(0.01)
    assert httpx.get(f"{base}/healthz").status_code == 200
