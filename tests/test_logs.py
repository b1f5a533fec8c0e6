"""Logging for ``reverie serve``: one format and level for Reverie and uvicorn, lifecycle lines."""

from __future__ import annotations

import io
import logging
import re
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from typer.testing import CliRunner

from reverie.cli import app
from reverie.content.decks import DEFAULT_DECK
from reverie.logs import RepeatThrottle, parse_level, setup_logging
from reverie.web.settings import Settings
from tests.web.harness import ServerThread, create_room

LINE = re.compile(
    r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d (?P<level>[A-Z]+) +(?P<name>[\w.]+): (?P<msg>.*)$"
)
TOUCHED = ("", "uvicorn", "uvicorn.error", "uvicorn.asgi", "uvicorn.access")


@pytest.fixture
def restore_logging() -> Iterator[None]:
    """setup_logging changes process-wide loggers; put them back for the other tests."""
    saved = {
        name: (lg, lg.handlers[:], lg.filters[:], lg.level, lg.propagate, lg.disabled)
        for name in TOUCHED
        for lg in [logging.getLogger(name or None)]
    }
    try:
        yield
    finally:
        for lg, handlers, filters, level, propagate, disabled in saved.values():
            for h in lg.handlers:
                if h not in handlers:
                    h.close()
            lg.handlers[:] = handlers
            lg.filters[:] = filters
            lg.setLevel(level)
            lg.propagate = propagate
            lg.disabled = disabled


def _lines(buf: io.StringIO) -> list[re.Match[str]]:
    lines = buf.getvalue().splitlines()
    matches = [LINE.match(line) for line in lines]
    assert all(matches), lines  # every line has time, level, logger name
    return [m for m in matches if m]


@pytest.mark.usefixtures("restore_logging")
def test_setup_applies_the_level_and_one_line_format() -> None:
    buf = io.StringIO()
    setup_logging("warning", stream=buf)
    logging.getLogger("reverie.test").info("hidden")
    logging.getLogger("reverie.test").warning("room %s is %s", "ABC123", "odd")
    logging.getLogger("uvicorn.error").info("hidden too")
    logging.getLogger("uvicorn.error").error("uvicorn speaks alike")
    got = [(m["level"], m["name"], m["msg"]) for m in _lines(buf)]
    assert got == [
        ("WARNING", "reverie.test", "room ABC123 is odd"),
        ("ERROR", "uvicorn.error", "uvicorn speaks alike"),
    ]
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        lg = logging.getLogger(name)
        assert lg.level == logging.WARNING and lg.handlers == [] and lg.propagate, name


@pytest.mark.usefixtures("restore_logging")
def test_setting_up_twice_does_not_double_the_lines() -> None:
    first, second = io.StringIO(), io.StringIO()
    setup_logging("info", stream=first)
    setup_logging("debug", stream=second)
    logging.getLogger("reverie.test").debug("once")
    assert first.getvalue() == ""
    assert [m["msg"] for m in _lines(second)] == ["once"]


@pytest.mark.usefixtures("restore_logging")
@pytest.mark.parametrize("access_log", [False, True])
def test_access_lines_follow_the_switch(access_log: bool) -> None:
    buf = io.StringIO()
    setup_logging("info", access_log=access_log, stream=buf)
    server = logging.getLogger("uvicorn.error")
    logging.getLogger("uvicorn.access").info(
        '%s - "%s %s HTTP/%s" %d', "ip", "GET", "/", "1.1", 200
    )
    server.info('%s - "WebSocket %s" [accepted]', "ip", "/ws/ABC123")
    server.info("connection open")
    server.info("Application startup complete.")
    got = [m["msg"] for m in _lines(buf)]
    if access_log:
        assert len(got) == 4
    else:
        assert got == ["Application startup complete."]


def test_levels_are_checked() -> None:
    assert parse_level("DEBUG") == logging.DEBUG
    with pytest.raises(ValueError, match="unknown log level 'loud'"):
        parse_level("loud")


def test_serve_help_shows_the_logging_options() -> None:
    result = CliRunner().invoke(app, ["serve", "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    assert "--log-level" in result.stdout
    assert "--access-log" in result.stdout and "--no-access-log" in result.stdout


def test_serve_refuses_an_unknown_level_in_one_line(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["serve", "--data-dir", str(tmp_path), "--log-level", "loud"])
    assert result.exit_code == 2
    assert result.stderr.strip().splitlines() == [
        "error: unknown log level 'loud'; use one of debug, info, warning, error, critical"
    ]


def test_settings_read_the_logging_variables(monkeypatch: pytest.MonkeyPatch) -> None:
    assert (Settings.from_env().log_level, Settings.from_env().access_log) == ("info", False)
    monkeypatch.setenv("REVERIE_LOG_LEVEL", "debug")
    monkeypatch.setenv("REVERIE_ACCESS_LOG", "yes")
    assert (Settings.from_env().log_level, Settings.from_env().access_log) == ("debug", True)
    assert Settings.from_env(log_level="error", access_log=False).log_level == "error"
    assert Settings.from_env(access_log=False).access_log is False


def test_the_server_logs_its_lifecycle(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="reverie")
    srv = ServerThread(tmp_path).start()
    try:
        code, _ = create_room(srv.base, "dixit", 4)
    finally:
        srv.stop()
    again = ServerThread(tmp_path).start()  # the room is resumed from its log
    try:
        assert httpx.get(f"{again.base}/healthz").status_code == 200
    finally:
        again.stop()
    lines = [r.getMessage() for r in caplog.records if r.name.startswith("reverie")]
    assert any(m.startswith("starting: store sqlite:///") and "bus memory://" in m for m in lines)
    assert f"room {code} created: dixit, 4 seats, deck {DEFAULT_DECK}" in lines
    assert "ready: 0 room(s) active in the last week resumed" in lines
    assert "ready: 1 room(s) active in the last week resumed" in lines
    assert lines.count("stopped") == 2


@pytest.mark.usefixtures("restore_logging")
def test_a_line_repeated_thousands_of_times_is_written_a_few_times_and_counted() -> None:
    """Issue #24: one address hammering the server wrote 20,550 identical "refused a
    connection" warnings (1.9 MB) in 4 s. Identical lines are throttled per window."""
    buf = io.StringIO()
    handler = setup_logging("info", stream=buf)
    throttle = next(f for f in handler.filters if isinstance(f, RepeatThrottle))
    now = [100.0]
    throttle.clock = lambda: now[0]
    log = logging.getLogger("reverie.server")
    for _ in range(20_550):
        log.warning("refused a connection from %s: %d already open", "203.0.113.9", 32)
    log.warning("refused a connection from %s: %d already open", "198.51.100.7", 32)
    lines = [m["msg"] for m in _lines(buf)]
    from_one = [line for line in lines if "203.0.113.9" in line]
    assert len(from_one) == throttle.limit
    assert any("198.51.100.7" in line for line in lines)  # another line is not held back
    now[0] += throttle.interval
    log.warning("refused a connection from %s: %d already open", "203.0.113.9", 32)
    last = _lines(buf)[-1]["msg"]
    assert last.startswith("refused a connection from 203.0.113.9")
    assert f"{20_550 - throttle.limit} more of this line were suppressed" in last
    assert len(buf.getvalue()) < 2_000
