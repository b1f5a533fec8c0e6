"""A game in Chromium on two server processes behind nginx (deploy/nginx/reverie.conf):
the host plays through nginx, the two guests each straight on a different process, and
every page sees every move, the reveal and the same final scores."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from tests.browser.conftest import DESKTOP, PHONE, Player, shot
from tests.browser.ui import choose, create_room, join, scores, wait_phase
from tests.scale.cluster import Nginx, Process
from tests.services import RedisServer


@pytest.fixture
def cluster(
    tmp_path: Path, postgres_url: str, redis_server: RedisServer
) -> Iterator[tuple[Nginx, list[Process]]]:
    env = {"REVERIE_BOT_DELAY": "0", "REVERIE_AWAY_GRACE": "0"}
    processes = [Process(tmp_path, postgres_url, redis_server.url, **env).start() for _ in "ab"]
    nginx = Nginx(tmp_path, [p.port for p in processes]).start()
    try:
        yield nginx, processes
    finally:
        nginx.stop()
        for p in processes:
            p.stop()


def test_a_gallery_game_in_chromium_across_two_processes(
    browser: Browser, cluster: tuple[Nginx, list[Process]]
) -> None:
    nginx, (a, b) = cluster
    made: list[Player] = []

    def player(label: str, base: str, size: dict[str, int]) -> Player:
        ctx = browser.new_context(viewport=size, locale="en", base_url=base)  # type: ignore[arg-type]
        ctx.set_default_timeout(30_000)
        p = Player(ctx, ctx.new_page(), label)
        p.page.on("pageerror", lambda e: p.errors.append(str(e)))
        made.append(p)
        return p

    try:
        ann = player("ann", nginx.base, DESKTOP)  # type: ignore[arg-type]
        bob = player("bob", a.base, DESKTOP)  # type: ignore[arg-type]
        cy = player("cy", b.base, PHONE)  # type: ignore[arg-type]
        everyone = [ann, bob, cy]
        code = create_room(ann, "Ann", "pictoric-gallery", target_score=3)
        join(bob, f"{a.base}/r/{code}", "Bob")
        join(cy, f"{b.base}/r/{code}", "Cy")
        for p in everyone:
            expect(p.page.locator(".lobby-player")).to_have_count(3)
        ann.page.click("#start")
        for p in everyone:
            wait_phase(p.page, "clue")
        teller = next(p for p in everyone if p.page.locator("#clue-form").count())
        voters = [p for p in everyone if p is not teller]
        choose(teller.page, ".table-row .card-tile")
        teller.page.fill("#clue-text", "Two doors, one key")
        teller.page.click("#clue-submit")
        for p in everyone:
            wait_phase(p.page, "vote")
        story = teller.page.locator(".vote-row .card-tile.story")
        position = story.get_attribute("data-position")
        assert position
        other = "2" if position == "1" else "1"
        choose(voters[0].page, f".vote-row .card-tile[data-position='{position}']")
        voters[0].page.click("#confirm-vote")
        choose(voters[1].page, f".vote-row .card-tile[data-position='{other}']")
        voters[1].page.click("#confirm-vote")
        for p in everyone:
            expect(p.page.locator("#final")).to_be_visible()
        teller_name = teller.page.locator("#scores .score-row.is-you .pname").inner_text()
        # The same scores on every page, whichever process it talks to.
        final = scores(ann.page)
        assert final[teller_name] == 5
        assert scores(bob.page) == final and scores(cy.page) == final
        shot(cy.page, "two-processes-final-375", full_page=True)
        for p in everyone:
            assert not p.errors, f"{p.label}: {p.errors}"
    finally:
        for p in made:
            p.context.close()
