"""/metrics in Prometheus's format: rooms, sockets, commands and the fan-out histogram
move with what happens; JSON log lines carry the process and the room."""

from __future__ import annotations

import io
import json
import logging
import re
from collections.abc import Iterator

import httpx

from reverie.logs import PROCESS_ID, setup_logging
from tests.web.harness import Client, ServerThread, create_room, join


def metric(text: str, name: str) -> float:
    m = re.search(rf"^{re.escape(name)} ([0-9.e+-]+)$", text, re.M)
    assert m, f"{name} missing from /metrics"
    return float(m.group(1))


def test_metrics_count_rooms_sockets_and_commands(server: ServerThread) -> None:
    before = httpx.get(f"{server.base}/metrics")
    assert before.status_code == 200
    assert before.headers["content-type"].startswith("text/plain")
    rooms0 = metric(before.text, "reverie_rooms")
    actions0 = metric(before.text, "reverie_actions_total")
    fanout0 = metric(before.text, "reverie_action_fanout_seconds_count")
    code, token = create_room(server.base, "dixit", 4)
    host = Client(server.base, code, token)
    host.until(lambda f: f["type"] == "welcome")
    guest = join(server.base, code, "Ann", "#2a9d8f")
    assert host.request({"type": "add_bot"})["type"] == "ack"
    after = httpx.get(f"{server.base}/metrics").text
    assert metric(after, "reverie_rooms") == rooms0 + 1
    assert metric(after, "reverie_sockets") >= 2
    assert metric(after, "reverie_rooms_leased") >= 1  # one process holds every lease
    # The join and the bot are commands; a move is timed to its fan-out.
    assert metric(after, "reverie_actions_total") >= actions0 + 2
    assert metric(after, "reverie_action_fanout_seconds_count") >= fanout0 + 1
    for name in ("conflicts", "catch_ups", "bus_errors", "store_errors", "leases_lost"):
        assert metric(after, f"reverie_{name}_total") == 0
    assert 'reverie_gc_pause_seconds_count{generation="0"}' in after
    host.close()
    guest.close()


def _restore_logging() -> Iterator[None]:
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    yield
    root.handlers[:] = handlers
    root.setLevel(level)


def test_json_log_lines_carry_the_process_and_the_room() -> None:
    restore = _restore_logging()
    next(restore)
    try:
        buf = io.StringIO()
        setup_logging("info", stream=buf, json_lines=True)
        logging.getLogger("reverie.rooms").info("room %s created: %s", "K7QMXP", "dixit")
        logging.getLogger("reverie.server").warning("store %s", "gone")
        first, second = (json.loads(line) for line in buf.getvalue().splitlines())
        assert first["room"] == "K7QMXP" and first["message"] == "room K7QMXP created: dixit"
        assert first["process"] == PROCESS_ID and first["level"] == "INFO"
        assert first["logger"] == "reverie.rooms" and "time" in first
        assert "room" not in second and second["level"] == "WARNING"
    finally:
        next(restore, None)
