"""One contract for the moderation store (reports, bans, approvals, closures, the
action log), on SQLite and on PostgreSQL."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest

from reverie.store.moderation import (
    Banned,
    KeptLine,
    ModerationStore,
    NewReport,
    check_site_ban,
    open_moderation,
)
from tests.aio import run_async

DAY = 86400.0


def run(url: str, body: Callable[[ModerationStore], Awaitable[None]]) -> None:
    async def main() -> None:
        store = open_moderation(url)
        await store.open()
        try:
            assert isinstance(store, ModerationStore)
            await body(store)
        finally:
            await store.close()

    run_async(main())


def test_a_report_keeps_its_text_until_closed_and_pruned(store_url: str) -> None:
    async def body(mod: ModerationStore) -> None:
        kept = (KeptLine("name", "Troll", 1.0), KeptLine("chat", "you are a фигня", 2.0))
        first = await mod.add_report(
            NewReport("K7QMXP", "player", "Troll", "abuse", "rude in chat", "r#1", kept), 10.0
        )
        second = await mod.add_report(NewReport("K7QMXP", "table", "", "spam", "", "r#2"), 11.0)
        assert [r.id for r in await mod.reports()] == [first, second]
        report = await mod.report(first)
        assert report is not None
        assert (report.target_name, report.reason, report.state, report.kept) == (
            "Troll", "abuse", "open", kept)  # fmt: skip
        assert await mod.close_report(first, "ops", 20.0)
        assert not await mod.close_report(first, "ops", 21.0)  # closed already
        assert [r.id for r in await mod.reports()] == [second]
        assert [r.id for r in await mod.reports("closed")] == [first]
        # Kept for the days the operator set after it closed, then forgotten.
        assert await mod.prune(20.0 + 6 * DAY, 7 * DAY) == 0
        assert await mod.prune(20.0 + 8 * DAY, 7 * DAY) == 1
        report = await mod.report(first)
        assert report is not None and report.kept == () and report.state == "closed"
        still = await mod.report(second)
        assert still is not None and still.state == "open"  # an open one is never pruned

    run(store_url, body)


def test_originals_are_kept_by_author_and_masked_text(store_url: str) -> None:
    async def body(mod: ModerationStore) -> None:
        await mod.keep_original("ROOM22", "tok#a", "chat", "what ****", "what shit", 1.0)
        await mod.keep_original("ROOM22", "tok#b", "clue", "****", "cazzo", 2.0)
        assert await mod.originals("ROOM22", "tok#a") == {"what ****": "what shit"}
        assert await mod.originals("OTHER2", "tok#a") == {}
        assert await mod.prune(1.0 + 2 * DAY, DAY) == 2
        assert await mod.originals("ROOM22", "tok#a") == {}

    run(store_url, body)


def test_bans_hold_until_their_time_and_are_logged(store_url: str) -> None:
    async def body(mod: ModerationStore) -> None:
        await mod.ban("browser", "b#1", 100.0, "troll", "ops", 10.0)
        await mod.ban("address", "a#1", 50.0, "spam", "ops", 10.0)
        ban = await mod.active_ban("b#1", None, 20.0)
        assert ban is not None and (ban.kind, ban.until, ban.reason) == ("browser", 100.0, "troll")
        assert await mod.active_ban("b#2", "a#1", 20.0) is not None  # the address
        assert await mod.active_ban("b#2", "a#1", 60.0) is None  # ran out
        assert await mod.active_ban("a#1", "b#1", 20.0) is None  # kinds do not mix
        with pytest.raises(Banned) as refused:
            await check_site_ban(mod, "b#1", "a#9", 20.0)
        assert refused.value.code == "site_banned" and refused.value.params == {"until": 100}
        await check_site_ban(mod, "b#9", "a#9", 20.0)  # anyone else passes
        await check_site_ban(None, "b#1", None, 20.0)  # no store: no bans
        assert [b.value for b in await mod.bans(20.0)] == ["b#1", "a#1"]
        assert await mod.unban("browser", "b#1", "ops", 30.0)
        assert not await mod.unban("browser", "b#1", "ops", 31.0)
        assert await mod.active_ban("b#1", None, 40.0) is None
        log = [(a.by, a.action, a.target) for a in await mod.actions()]
        assert log == [
            ("ops", "unban", "browser b#1"),
            ("ops", "ban", "address a#1"),
            ("ops", "ban", "browser b#1"),
        ]

    run(store_url, body)


def test_approvals_and_closures(store_url: str) -> None:
    async def body(mod: ModerationStore) -> None:
        assert not await mod.is_approved("deck", "u-abc")
        await mod.approve("deck", "u-abc", "ops", 1.0)
        await mod.approve("words", "w-xyz", "ops", 2.0)
        assert await mod.is_approved("deck", "u-abc")
        assert not await mod.is_approved("words", "u-abc")  # kinds do not mix
        assert [(a.kind, a.item) for a in await mod.approvals()] == [
            ("deck", "u-abc"), ("words", "w-xyz")]  # fmt: skip
        assert await mod.withdraw("deck", "u-abc", "ops", 3.0)
        assert not await mod.withdraw("deck", "u-abc", "ops", 4.0)
        assert not await mod.is_approved("deck", "u-abc")
        await mod.close_room("K7QMXP", "hate speech", "ops", 5.0)
        assert await mod.pending_closures() == [("K7QMXP", "hate speech")]
        await mod.closure_applied("K7QMXP", 6.0)
        assert await mod.pending_closures() == []
        actions = [a.action for a in await mod.actions(limit=3)]
        assert actions == ["close_room", "withdraw", "approve"]

    run(store_url, body)


def test_two_stores_on_one_database_see_each_other(store_url: str) -> None:
    """The CLI and the server open the store apart: a ban one writes the other reads."""

    async def body(mod: ModerationStore) -> None:
        other = open_moderation(store_url)
        await other.open()  # its migration finds the tables there
        try:
            await other.ban("browser", "b#7", 100.0, "", "ops", 1.0)
            assert await mod.active_ban("b#7", None, 2.0) is not None
        finally:
            await other.close()

    run(store_url, body)
