"""``reverie moderation`` on SQLite and PostgreSQL: reports (list, show with the kept
text, close), closing a room, bans, approvals and the action log."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from reverie.cli import app
from reverie.store.moderation import KeptLine, NewReport, open_moderation
from tests.aio import run_async

runner = CliRunner()


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The event store's URL, as the server would be given it."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'data' / 'reverie.db'}"
    found: str = request.getfixturevalue("postgres_url")
    return found


def cli(url: str, *args: str) -> Result:
    """``reverie moderation ARGS`` (in a thread of its own: the command runs its own
    event loop, and Playwright may keep one running in this one)."""
    argv = ["moderation", *args, "--database-url", url]
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(runner.invoke, app, argv, env={"COLUMNS": "200"}).result()


def add_report(url: str) -> int:
    async def add() -> int:
        store = open_moderation(url)
        await store.open()
        try:
            kept = (KeptLine("name", "Troll"), KeptLine("chat", "you cazzo idiot", 5.0))
            report = NewReport("K7QMXP", "player", "Troll", "abuse", "rude", "r#1", kept)
            return await store.add_report(report, 1.0)
        finally:
            await store.close()

    return run_async(add())


def test_the_operator_moderates_from_the_command_line(url: str) -> None:
    report_id = add_report(url)
    listed = cli(url, "reports", "list")
    assert listed.exit_code == 0, listed.output
    assert "K7QMXP" in listed.output and "Troll" in listed.output
    shown = cli(url, "reports", "show", str(report_id))
    # The kept text as it was written, not as the table saw it.
    assert shown.exit_code == 0 and "you cazzo idiot" in shown.output
    assert cli(url, "reports", "close", str(report_id), "--by", "ann").exit_code == 0
    again = cli(url, "reports", "close", str(report_id))
    assert again.exit_code == 2 and f"no open report #{report_id}" in again.output
    assert "0 report(s)" in cli(url, "reports", "list").output
    assert "1 report(s)" in cli(url, "reports", "list", "--closed").output
    assert cli(url, "reports", "show", "999").exit_code == 2

    banned = cli(url, "ban", "browser", "b:0123abcd", "--days", "3", "--reason", "troll")
    assert banned.exit_code == 0, banned.output
    assert "b:0123abcd" in cli(url, "bans").output
    assert cli(url, "ban", "address", "a:99", "--by", "ann").exit_code == 2  # no time given
    assert cli(url, "unban", "browser", "b:0123abcd").exit_code == 0
    assert cli(url, "unban", "browser", "b:0123abcd").exit_code == 2
    assert cli(url, "ban", "fish", "x", "--days", "1").exit_code == 2  # not a kind

    assert cli(url, "approve", "deck", "u-abc").exit_code == 0
    assert cli(url, "approve", "words", "w-xyz").exit_code == 0
    assert "u-abc" in cli(url, "approvals").output
    assert cli(url, "withdraw", "deck", "u-abc").exit_code == 0
    assert cli(url, "withdraw", "deck", "u-abc").exit_code == 2

    assert cli(url, "close", "k7qmxp", "--reason", "hate", "--by", "ann").exit_code == 0
    log = cli(url, "log")
    assert log.exit_code == 0
    for action in ("close_room", "withdraw", "approve", "unban", "ban", "close_report"):
        assert action in log.output
    assert "K7QMXP" in log.output and "ann" in log.output


def test_an_unreachable_database_is_one_line() -> None:
    result = cli("postgresql://nobody@127.0.0.1:1/none", "bans")
    assert result.exit_code == 2 and result.output.startswith("error: ")
