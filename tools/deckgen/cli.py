"""``python -m tools.deckgen``: build the default deck and draw contact sheets.

Run from the repository root (``make deck`` does), so that ``tools`` is importable.
"""

from __future__ import annotations

import html
import tempfile
from pathlib import Path
from typing import Annotated

import typer

from reverie.content.decks import DeckError, default_deck_path, load_deck
from tools.chromium import CHROMIUM, CHROMIUM_ARGS
from tools.deckgen.build import DEFAULT_SEED, build_deck
from tools.deckgen.model import DeckBuildError

app = typer.Typer(
    help="Build picture decks and contact sheets.", no_args_is_help=True, add_completion=False
)

PER_SHEET = 30


@app.command()
def build(
    deck: Annotated[
        Path | None, typer.Option(help="Deck folder (default deck if omitted).")
    ] = None,
    seed: Annotated[int, typer.Option(help="Seed for the generated recipes.")] = DEFAULT_SEED,
    art: Annotated[
        Path | None,
        typer.Option(help="Folder with the unpacked npm packages; re-extracts the elements."),
    ] = None,
) -> None:
    """Write the deck's cards, manifest and metadata from recipes and a seed."""
    folder = deck or default_deck_path()
    try:
        n = build_deck(folder, seed=seed, art_dir=art)
    except DeckBuildError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(1) from exc
    typer.echo(f"wrote {n} cards to {folder}")


def sheet_html(images: list[tuple[str, str]], cols: int = 6) -> str:
    """A page laying out (image url, label) pairs in a grid of 2:3 cards."""
    cells = "".join(
        f'<figure><img src="{html.escape(src)}">'
        f"<figcaption>{html.escape(label)}</figcaption></figure>"
        for src, label in images
    )
    return (
        "<!doctype html><meta charset=utf-8><style>"
        "body{margin:0;background:#1b1b22;font:13px DejaVu Sans,sans-serif;color:#ccc}"
        f"main{{display:grid;grid-template-columns:repeat({cols},240px);gap:14px;padding:16px}}"
        "figure{margin:0}img{width:240px;height:360px;display:block;border-radius:10px}"
        "figcaption{text-align:center;padding-top:3px}</style>"
        f"<main>{cells}</main>"
    )


@app.command()
def sheet(
    deck: Annotated[
        Path | None, typer.Option(help="Deck folder (default deck if omitted).")
    ] = None,
    out: Annotated[Path, typer.Option(help="Folder for the PNGs.")] = Path(
        "artifacts/contact-sheets"
    ),
    chromium: Annotated[str, typer.Option(help="Chromium executable.")] = CHROMIUM,
) -> None:
    """Render contact sheets, one PNG per 30 cards, with headless Chromium."""
    from playwright.sync_api import sync_playwright

    try:
        d = load_deck(deck or default_deck_path())
    except DeckError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(1) from exc
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, headless=True, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1550, "height": 800})
        for start in range(0, len(d.cards), PER_SHEET):
            chunk = range(start, min(start + PER_SHEET, len(d.cards)))
            items = [(d.image_path(i).resolve().as_uri(), d.cards[i].id) for i in chunk]
            page_file = Path(tmp) / f"sheet{start}.html"
            page_file.write_text(sheet_html(items), encoding="utf-8")
            page.goto(page_file.as_uri())
            page.wait_for_function(
                "Array.from(document.images).every(i => i.complete && i.naturalWidth > 0)"
            )
            target = out / f"{d.name}-{start // PER_SHEET + 1:02d}.png"
            page.screenshot(path=str(target), full_page=True)
            typer.echo(f"wrote {target}")
        browser.close()
