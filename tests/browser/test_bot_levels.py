"""The host picks each bot's level in the lobby, changes it later, and everyone sees it."""

from __future__ import annotations

import json
from typing import Any

from playwright.sync_api import Page, WebSocket, expect

from tests.browser.conftest import DATA_DIRS, DESKTOP, PHONE, Open, shot
from tests.browser.ui import create_room, join
from tests.web.harness import logged_events


def _record_states(page: Page) -> list[dict[str, Any]]:
    """The ``state`` frames the page's socket receives from now on, in order."""
    states: list[dict[str, Any]] = []

    def on_socket(ws: WebSocket) -> None:
        def on_frame(payload: str | bytes) -> None:
            frame = json.loads(payload)
            if frame.get("type") == "state":
                states.append(frame)

        ws.on("framereceived", on_frame)

    page.on("websocket", on_socket)
    return states


def _levels(states: list[dict[str, Any]]) -> dict[str, str | None]:
    """Bot name → level in the latest state frame."""
    players = states[-1]["room"]["players"]
    return {p["name"]: p["bot_level"] for p in players if p["bot"]}


def _logged(server: str, code: str) -> list[tuple[str, object]]:
    """The bot events of a room's log: (kind, level)."""
    out: list[tuple[str, object]] = []
    for _, event in logged_events(DATA_DIRS[server] / "reverie.db", code):
        kind = type(event).__name__
        if kind in ("BotAdded", "BotLevelSet", "BotSeat"):
            out.append((kind, event.level))
    return out


def test_the_host_adds_bots_of_two_levels_and_changes_one(open_player: Open, server: str) -> None:
    ann = open_player("ann", DESKTOP)
    bob = open_player("bob", PHONE, lang="it")
    seen_by_bob = _record_states(bob.page)
    code = create_room(ann, "Ann", "dixit")
    join(bob, f"/r/{code}", "Bob")

    # A guest gets no picker; the host's defaults to the server's default level.
    expect(bob.page.locator("#bot-level")).to_have_count(0)
    picker = ann.page.locator("#bot-level")
    expect(picker).to_have_value("normal")
    expect(picker.locator("option")).to_have_text(["Easy", "Normal", "Clever"])

    rows = ann.page.locator(".lobby-player")
    picker.select_option("clever")
    ann.page.click("#add-bot")
    expect(rows).to_have_count(3)
    picker.select_option("easy")
    ann.page.click("#add-bot")
    expect(rows).to_have_count(4)
    clever, easy = (rows.nth(i).locator(".pname").inner_text() for i in (2, 3))

    # The host's tag of each bot is a picker showing its level; the guest's a tag, in
    # Italian; the room state and the log carry the levels.
    expect(rows.nth(2).locator("select.tag-level")).to_have_value("clever")
    expect(rows.nth(3).locator("select.tag-level")).to_have_value("easy")
    expect(rows.nth(0).locator(".tag-level")).to_have_count(0)  # a person has none
    bob_tags = bob.page.locator(".lobby-player .tag-level")
    expect(bob_tags).to_have_text(["esperto", "facile"])
    expect(bob.page.locator(".lobby-player select")).to_have_count(0)
    assert _levels(seen_by_bob) == {clever: "clever", easy: "easy"}
    assert _logged(server, code) == [("BotAdded", "clever"), ("BotAdded", "easy")]
    shot(ann.page, "bot-levels-host-1280", full_page=True)
    shot(bob.page, "bot-levels-guest-it-375", full_page=True)

    # The host makes the easy bot a normal one: everyone sees it, the log keeps it.
    rows.nth(3).locator("select.tag-level").select_option("normal")
    expect(bob_tags).to_have_text(["esperto", "normale"])
    expect(rows.nth(3).locator("select.tag-level")).to_have_value("normal")
    assert _levels(seen_by_bob) == {clever: "clever", easy: "normal"}
    assert _logged(server, code)[-1] == ("BotLevelSet", "normal")

    # This browser remembers the last level chosen for a new bot.
    ann.page.reload()
    expect(ann.page.locator("#bot-level")).to_have_value("easy")
    ann.page.set_viewport_size(PHONE)
    shot(ann.page, "bot-levels-host-375", full_page=True)

    # In the game the levels stay on the scoreboard, read only.
    ann.page.set_viewport_size(DESKTOP)
    ann.page.click("#start")
    scores = ann.page.locator("#scores .tag-level")
    expect(scores).to_have_text(["clever", "normal"])
    expect(ann.page.locator("#scores select")).to_have_count(0)
    shot(ann.page, "bot-levels-game-1280")
    assert not ann.errors and not bob.errors, (ann.errors, bob.errors)
