"""A deck too small for the table: the host reads the rules' reason in their language,
and the lobby tells before the start how many seats the deck deals to and about how many
rounds it lasts (issue #24, item 11)."""

from __future__ import annotations

import httpx
import pytest
from playwright.sync_api import ViewportSize, expect

from tests.browser.conftest import DESKTOP, PHONE, Open, shot
from tests.pictures import numbered, zip_of

OWNER = "x-deck-owner"


def small_deck(server: str, cards: int) -> str:
    made = httpx.post(f"{server}/api/decks").json()
    deck, owner = made["deck"], made["owner"]
    pictures = zip_of({f"p{i}.png": numbered(i) for i in range(cards)})
    r = httpx.post(f"{server}/api/decks/{deck}/pictures", params={"name": "all.zip"},
                   content=pictures, headers={OWNER: owner}, timeout=120)  # fmt: skip
    assert all(x["ok"] for x in r.json()["results"]), r.text
    r = httpx.post(f"{server}/api/decks/{deck}/publish", json={"title": "Tiny"},
                   headers={OWNER: owner})  # fmt: skip
    assert r.status_code == 200, r.text
    return str(deck)


@pytest.mark.parametrize(("lang", "viewport"), [("en", PHONE), ("ru", DESKTOP)])
def test_a_small_deck_says_what_it_allows(
    open_player: Open, server: str, lang: str, viewport: ViewportSize
) -> None:
    deck = small_deck(server, 32)  # Dixit: 4 seats at most (6 cards a hand, 4 a round)
    host = open_player("host", viewport, lang=lang)
    page = host.page
    page.goto(f"/?deck={deck}")
    page.fill("#create-name", "Host")
    page.wait_for_selector("#variant-dixit", state="attached")
    page.check("#variant-dixit", force=True)
    expect(page.locator("#create [name=deck]")).to_have_value(deck)
    page.select_option("#create [name=seats]", "6")
    page.click("#create-submit")
    alert = page.locator(".toast-error")
    reason = {
        "en": "Dixit for 6 players needs a deck of at least 42 cards; this one has 32",
        "ru": "Колода слишком мала для игры Диксит (игроков: 6; нужно карт: не меньше 42; "
        "в этой колоде: 32)",
    }[lang]
    expect(alert).to_contain_text(reason)
    expect(alert).not_to_contain_text("not valid")
    shot(page, f"deckfit-refused-{lang}-{viewport['width']}")
    page.select_option("#create [name=seats]", "4")
    page.click("#create-submit")
    page.wait_for_selector("#lobby:not([hidden]) .lobby-list")
    fit = page.locator("#deck-fit")
    told = {"en": ["32 cards deals to at most 4 seats", "At 4 seats it lasts about 2 rounds"],
            "ru": ["хватит не больше чем на 4 места (карт в ней: 32)",
                   "Мест за столом: 4 — её хватит примерно на 2 хода"]}[lang]  # fmt: skip
    for text in told:
        expect(fit).to_contain_text(text)
    expect(fit).to_have_class("deck-fit warn")  # two rounds: a short game, marked
    fit.scroll_into_view_if_needed()
    shot(page, f"deckfit-lobby-{lang}-{viewport['width']}")
    # A seat more than the deck deals to is refused with the reason, in the lobby too.
    page.select_option("#lobby-options [name=seats]", "5")
    expect(page.locator(".toast-error")).to_contain_text(
        {"en": "at least 35 cards", "ru": "нужно карт: не меньше 35"}[lang]
    )


def test_only_a_game_played_with_a_deck_offers_one(open_player: Open) -> None:
    """The home page asks the game's ``deck`` capability: the drawing game and the games
    played with a box on the table have no deck to choose (a box's cards are its own)."""
    page = open_player("host", DESKTOP).page
    page.goto("/")
    page.wait_for_selector("#variant-dixit", state="attached")
    deck = page.locator("#create [name=deck]")
    for variant, offered in (("dixit", 1), ("visual", 0), ("pictoric", 1)):
        page.check(f"#variant-{variant}", force=True)
        expect(deck).to_have_count(offered)
    page.check("#kind-box", force=True)
    page.check("#variant-dixit-companion", force=True)
    expect(deck).to_have_count(0)
