"""A host makes a deck of their own pictures in the browser, plays a whole game with it
with two friends, and deletes it while the finished room still shows its pictures; the
drawing game's own words are set on the home page."""

from __future__ import annotations

import io
import re
from pathlib import Path

import httpx
from PIL import Image
from playwright.sync_api import FilePayload, Page, expect

from reverie.content.uploads import CARD_SIZE
from tests.browser.conftest import DESKTOP, PHONE, Open, Player, shot
from tests.browser.ui import choose, create_room, join
from tests.pictures import SECRET, bomb_png, damaged_jpeg, exif_jpeg, numbered, picture, zip_of


def payload(name: str, mime: str, data: bytes) -> FilePayload:
    return {"name": name, "mimeType": mime, "buffer": data}


CARD_SRC = r"/decks/{deck}/[a-z2-7]{{26}}\.webp"


def _card_srcs(page: Page) -> list[str]:
    return [
        s or "" for s in page.locator(".card-tile img").evaluate_all("els => els.map(e => e.src)")
    ]


def play_to_the_end(players: list[Player], deck: str, caption: str) -> int:
    """Three people play Dixit through the UI until the final scores: the host claims
    the first turn, every storyteller gives a clue, the others lay a card and vote for
    another's. Returns the number of the last turn. Every picture shown is one of the
    deck's (its random name, nothing else), and no page shows a card's ``caption``."""
    pattern = re.compile(rf"https?://[^/]+{CARD_SRC.format(deck=deck)}")
    for _ in range(300):
        if all(p.page.locator("#final").is_visible() for p in players):
            break
        for p in players:
            page = p.page
            if p is players[0] and page.locator("#claim").count():
                page.click("#claim")
            if page.locator("#clue-form").count():
                choose(page, ".hand-row .card-tile")
                page.fill("#clue-text", "summer")
                page.click("#clue-submit")
            elif page.locator("#confirm-card").count():
                choose(page, ".hand-row .card-tile")
                page.click("#confirm-card")
            elif page.locator("#confirm-vote").count():
                choose(page, ".vote-row .card-tile:not(.mine)")
                page.click("#confirm-vote")
            for src in _card_srcs(page):
                assert pattern.fullmatch(src), src
            assert caption not in page.content()
        players[0].page.wait_for_timeout(200)
    for p in players:
        expect(p.page.locator("#final")).to_be_visible()
        expect(p.page.locator(".final-row.winner").first).to_be_visible()
    turn = players[0].page.locator("#reveal-panel").get_attribute("data-turn")
    return int(turn or 0)


def test_an_upload_of_good_and_bad_files_then_a_whole_game_with_the_deck(
    open_player: Open, server: str, tmp_path: Path
) -> None:
    host = open_player("host", DESKTOP)
    page = host.page
    page.goto("/decks/new")
    # 21 pictures, a ZIP of two more and the photo: 24 cards, enough for Dixit at three
    # (3 hands of 6 and 3 cards a turn), and few enough that its deck runs out: the
    # game must end.
    good = [payload(f"card-{i:02d}.png", "image/png", numbered(i)) for i in range(21)]
    album = zip_of({"a/p1.png": numbered(30), "a/p2.webp": numbered(31, "WEBP"),
                    "a/notes.txt": b"not a picture"})  # fmt: skip
    files = [
        *good,
        payload("album.zip", "application/zip", album),
        payload("photo.jpg", "image/jpeg", exif_jpeg()),
        payload("broken.jpg", "image/jpeg", damaged_jpeg()),
        payload("bomb.png", "image/png", bomb_png()),
        payload("huge.png", "image/png", b"\x89PNG" + b"0" * 26_000_000),
        payload("cat.gif", "image/gif", picture("GIF")),
        payload("fake.jpg", "image/jpeg", b"just text with a picture's name"),
    ]
    # From files on disk: a 26 MB buffer is slow to pass to the browser.
    paths = []
    for f in files:
        path = tmp_path / f["name"]
        path.write_bytes(f["buffer"])
        paths.append(path)
    page.set_input_files("#files", paths)
    expect(page.locator("#pending .tile")).to_have_count(len(files) - 1)  # the GIF at once
    # Frame the photo: the whole picture on a blurred background.
    page.locator("#pending .tile[data-name='photo.jpg'] select.fit").select_option("pad")
    page.locator("#pending .tile[data-name='card-00.png'] .frame").click(position={"x": 5, "y": 5})
    shot(page, "mydeck-pending-1280", full_page=True)
    page.click("#upload")
    expect(page.locator("#cards .tile")).to_have_count(24, timeout=30_000)
    refused = page.locator("#refused li")
    expect(refused).to_have_count(6)
    codes = {
        li.locator(".fname").inner_text(): li.get_attribute("data-code") for li in refused.all()
    }
    assert codes == {
        "cat.gif": "not_a_picture",
        "broken.jpg": "damaged",
        "bomb.png": "too_many_pixels",
        "huge.png": "file_too_large",
        "fake.jpg": "not_a_picture",
        "album.zip › a/notes.txt": "not_a_picture",
    }
    expect(refused.filter(has_text="bomb.png")).to_contain_text("million pixels")
    expect(refused.filter(has_text="huge.png")).to_contain_text("larger than 25 MB")
    expect(refused.filter(has_text="broken.jpg")).to_contain_text("damaged")
    page.locator("#cards .tile input.caption").first.fill("a red wall in the sun")
    page.fill("#deck-title", "Our summer")
    shot(page, "mydeck-uploaded-1280", full_page=True)
    page.click("#publish")
    expect(page.locator("#done")).to_be_visible()
    href = page.locator("#play-deck").get_attribute("href") or ""
    deck = href.split("deck=")[-1]
    assert re.fullmatch(r"u-[a-z2-7]{26}", deck)

    # Every stored picture is a clean, card-sized WebP: the photo's metadata is gone.
    images = httpx.get(f"{server}/api/decks/{deck}/images").json()["images"]
    assert len(images) == 24
    for name in images:
        data = httpx.get(f"{server}/decks/{deck}/{name}").content
        assert SECRET.encode() not in data
        img = Image.open(io.BytesIO(data))
        assert img.format == "WEBP" and img.size == CARD_SIZE and not img.getexif()

    # The deck browser shows it by its link, with the caption.
    page.goto(f"/decks?deck={deck}")
    expect(page.locator("#cards figure")).to_have_count(24)
    expect(page.locator("#cards figcaption", has_text="a red wall in the sun")).to_have_count(1)

    # A whole game of Dixit with it, three people and no bot: 18 cards are dealt, each
    # turn draws 3 more, and the refill that draws the last card ends the game.
    code = create_room(host, "Ann", "dixit", selects={"deck": deck, "seats": "3"})
    invite = page.input_value("#invite-link")
    bob = open_player("bob", PHONE)
    cy = open_player("cy", DESKTOP)
    join(bob, invite, "Bob")
    join(cy, invite, "Cy")
    expect(page.locator(".lobby-player")).to_have_count(3)
    # The table reads the deck's pictures, never its captions (the deck browser's).
    asked: list[str] = []
    for p in (bob, cy):
        p.page.on("request", lambda r: asked.append(r.url))
    page.click("#start")
    expect(page.locator(".hand-row .card-tile img")).to_have_count(6)
    page.wait_for_function(
        "[...document.querySelectorAll('.card-tile img')]"
        ".every((i) => i.complete && i.naturalWidth > 0)"
    )
    shot(page, "mydeck-game-1280", full_page=True)
    shot(bob.page, "mydeck-game-375", full_page=True)
    last_turn = play_to_the_end([host, bob, cy], deck, "a red wall in the sun")
    assert not [u for u in asked if re.search(rf"/api/decks/{deck}(\?|$)", u)], asked
    assert last_turn == 2  # 24 cards: the second turn's refill empties the deck
    shot(page, "mydeck-final-1280", full_page=True)
    shot(bob.page, "mydeck-final-375", full_page=True)
    for p in (host, bob, cy):
        assert not p.errors, (p.label, p.errors)

    # Deleted: gone from the owner's list and the browser; new rooms refuse it.
    page.goto("/decks/new")
    page.evaluate("window.confirm = () => true")
    expect(page.locator(f".mine-list li[data-deck='{deck}']")).to_have_count(1)
    page.click(f".mine-list li[data-deck='{deck}'] .delete-deck")
    expect(page.locator(f".mine-list li[data-deck='{deck}']")).to_have_count(0)
    assert httpx.get(f"{server}/api/decks/{deck}").status_code == 410
    room = {"name": "Bo", "color": "#e63946", "variant": "dixit", "seats": 3, "deck": deck}
    r = httpx.post(f"{server}/api/rooms", json=room)
    assert r.json()["error"]["code"] == "deck_deleted"
    # The room that played it still shows its pictures (until it has been quiet for
    # deck_purge_hours).
    bob.page.goto(f"/r/{code}")
    tiles = bob.page.locator("#reveal-panel .card-tile img")
    expect(tiles.first).to_be_visible()
    bob.page.wait_for_function(
        "[...document.querySelectorAll('.card-tile img')]"
        ".every((i) => i.complete && i.naturalWidth > 0)"
    )
    for src in _card_srcs(bob.page):
        assert re.search(CARD_SRC.format(deck=deck), src), src


def test_the_upload_page_on_a_phone(open_player: Open) -> None:
    player = open_player("phone", PHONE, lang="ru")
    page = player.page
    page.goto("/decks/new")
    page.set_input_files(
        "#files",
        [
            payload("a.png", "image/png", picture("PNG", (900, 400))),
            payload("b.jpg", "image/jpeg", picture("JPEG", (400, 900))),
        ],
    )
    expect(page.locator("#pending .tile")).to_have_count(2)
    expect(page.locator("#upload")).to_contain_text("Отправить 2 файла")
    shot(page, "mydeck-pending-375", full_page=True)
    assert not player.errors, player.errors


def test_own_words_on_the_home_page(open_player: Open, room_log: object) -> None:
    host = open_player("host", DESKTOP)
    page = host.page
    page.goto("/")
    page.check("#variant-visual", force=True)
    page.click(".options-details summary")
    page.click(".words-editor summary")
    page.locator("textarea[data-category=objects]").fill("один\nдва")
    page.click(".words-save")
    expect(page.locator(".words-problems li")).to_have_count(2)
    expect(page.locator(".words-problems")).to_contain_text("at least 10")
    words = [f"thing{i}" for i in range(12)]
    page.locator("textarea[data-category=objects]").fill("\n".join(words))
    page.click(".words-save")
    expect(page.locator("#create-words-summary")).to_contain_text("Objects: 12")
    page.select_option("#create [name=word_mode]", "instead")
    shot(page, "words-home-1280", full_page=True)
    page.fill("#create-name", "Wendy")
    page.click("#create-submit")
    page.wait_for_url(re.compile(r".*/r/[A-Z0-9]+$"))
    code = page.url.rsplit("/", 1)[-1]
    room = room_log(code)  # type: ignore[operator]
    assert room.options.words.startswith("w-") and room.options.word_mode == "instead"
    expect(page.locator("#lobby-words-summary")).to_contain_text("Objects: 12")
