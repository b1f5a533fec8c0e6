"""``python -m tools.deckgen``: build the default deck and draw contact sheets.

Run from the repository root (``make deck`` does), so that ``tools`` is importable.
"""

from __future__ import annotations

import html
import json
import tempfile
from pathlib import Path
from typing import Annotated, Any

import typer

from reverie.content.decks import FIRST_EDITION, DeckError, deck_path, default_deck_path, load_deck
from tools.chromium import CHROMIUM, CHROMIUM_ARGS
from tools.deckgen import build as first
from tools.deckgen.model import DeckBuildError
from tools.deckgen.second import build as second

app = typer.Typer(
    help="Build picture decks and contact sheets.", no_args_is_help=True, add_completion=False
)

PER_SHEET = 30


@app.command()
def build(
    deck: Annotated[
        Path | None, typer.Option(help="Deck folder (the edition's own if omitted).")
    ] = None,
    edition: Annotated[
        int, typer.Option(help="2: the default deck (Reverie II); 1: the first edition.")
    ] = 2,
    seed: Annotated[
        int | None, typer.Option(help="Seed for the recipes (the edition's own if omitted).")
    ] = None,
    art: Annotated[
        Path | None,
        typer.Option(help="Folder with the unpacked npm packages; re-extracts the elements."),
    ] = None,
) -> None:
    """Write the deck's cards, manifest and metadata from recipes and a seed."""
    if edition not in (1, 2):
        typer.echo("error: --edition is 1 or 2", err=True)
        raise typer.Exit(1)
    try:
        if edition == 1:
            folder = deck or deck_path(FIRST_EDITION)
            n = first.build_deck(
                folder, seed=first.DEFAULT_SEED if seed is None else seed, art_dir=art
            )
        else:
            folder = deck or default_deck_path()
            n = second.build_deck(
                folder, seed=second.DEFAULT_SEED if seed is None else seed, art_dir=art
            )
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


def _label(folder: Path, cid: str) -> str:
    """A card's id and, where the metadata has it, the recipe it was built from."""
    meta = _meta_cache.get(folder)
    if meta is None:
        try:
            meta = json.loads((folder / "meta.json").read_text(encoding="utf-8"))["cards"]
        except (OSError, ValueError, KeyError):
            meta = {}
        _meta_cache[folder] = meta
    recipe = meta.get(cid, {}).get("recipe") or meta.get(cid, {}).get("layout") or ""
    return f"{cid} {recipe}".strip()


_meta_cache: dict[Path, dict[str, Any]] = {}


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
            items = [
                (d.image_path(i).resolve().as_uri(), _label(d.path, d.cards[i].id)) for i in chunk
            ]
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
