"""Reports over real sockets: a report keeps what the reported person wrote in the room
as they wrote it (the table saw it masked), and one person may send only so many."""

from __future__ import annotations

from pathlib import Path

import httpx

from reverie.store.moderation import open_moderation
from tests.aio import run_async

from .harness import Client, ServerThread, create_room, join


def test_a_report_keeps_the_unmasked_text_and_is_limited(tmp_path: Path) -> None:
    server = ServerThread(tmp_path, reports_per_hour=2).start()
    try:
        code, token = create_room(server.base, "dixit", 4)
        host = Client(server.base, code, token)
        troll = join(server.base, code, "Troll", "#2a9d8f")
        ann = join(server.base, code, "Ann", "#8338ec")
        assert troll.request({"type": "chat", "text": "you are shit at this"})["type"] == "ack"
        assert troll.request({"type": "chat", "text": "hello all"})["type"] == "ack"
        # The table reads the line masked ...
        ann.until(lambda f: f["type"] == "chat" and any(
            m["text"] == "you are **** at this" for m in ann.chat))  # fmt: skip
        assert all("shit" not in m["text"] for m in ann.chat)

        bad = ann.request({"type": "report", "seat": 1, "reason": "because"})
        assert bad["type"] == "error" and bad["code"] == "bad_reason"
        me = ann.request({"type": "report", "seat": 2, "reason": "abuse"})
        assert me["type"] == "error" and me["code"] == "bad_seat"  # not oneself
        reply = ann.request({"type": "report", "seat": 1, "reason": "abuse", "text": "rude"})
        assert reply["type"] == "ack" and isinstance(reply["report"], int)
        table = ann.request({"type": "report", "seat": None, "reason": "spam"})
        assert table["type"] == "ack"

        # ... the operator reads it as written.
        async def read() -> list[tuple[str, str]]:
            store = open_moderation(server.settings.store_url)
            await store.open()
            try:
                report = await store.report(reply["report"])
                assert report is not None
                assert (report.room, report.target_name, report.reason, report.text) == (
                    code, "Troll", "abuse", "rude")  # fmt: skip
                return [(k.kind, k.text) for k in report.kept]
            finally:
                await store.close()

        kept = run_async(read())
        # The hashed browser and address a room records: what the operator bans.
        assert [k for k, _ in kept] == ["name", "id", "id", "chat", "chat"]
        assert kept[1][1].startswith("b:") and kept[2][1].startswith("a:")
        assert [t for k, t in kept if k != "id"] == [
            "Troll", "you are shit at this", "hello all"]  # fmt: skip
        # One person (one browser) sends at most REVERIE_REPORTS_PER_HOUR; others may.
        third = ann.request({"type": "report", "seat": 0, "reason": "other"})
        assert third["type"] == "error" and third["code"] == "rate_limited", third
        assert host.request({"type": "report", "seat": 1, "reason": "name"})["type"] == "ack"
        metrics = httpx.get(f"{server.base}/metrics").text
        assert "reverie_reports_total 3.0" in metrics
        for c in (host, troll, ann):
            c.close()
    finally:
        server.stop()
