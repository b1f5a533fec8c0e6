"""Tests for the first edition's generator (tools/deckgen): reproducibility, the committed
deck, CLI. The second edition's are in test_deckgen_second.py.

The generator is a build tool: the server must run without it, so one test checks that
nothing the runtime imports pulls it in.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from reverie.cli import app as reverie_app
from reverie.content.decks import FIRST_EDITION, deck_path, load_deck
from tools.deckgen.build import deck_files, render_card
from tools.deckgen.cli import app as deckgen_app
from tools.deckgen.elements import load_library
from tools.deckgen.model import Art
from tools.deckgen.recipes import generate_recipes, load_curated, plan_deck

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def lib() -> dict[str, Art]:
    return load_library(deck_path(FIRST_EDITION))


def _subset_files(lib: dict[str, Art], seed: int) -> dict[str, bytes]:
    recipes = generate_recipes(lib, seed, 10)
    return deck_files(lib, recipes, seed)


def test_generator_is_reproducible(lib: dict[str, Art]) -> None:
    first = _subset_files(lib, 7)
    second = _subset_files(lib, 7)
    assert first == second
    other = _subset_files(lib, 8)
    cards = sorted(k for k in first if k.startswith("cards/"))
    assert len(cards) == 10
    assert any(first[k] != other[k] for k in cards)


def test_committed_deck_matches_recipes_and_library(lib: dict[str, Art]) -> None:
    folder = deck_path(FIRST_EDITION)
    seed = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))["seed"]
    recipes = plan_deck(lib, load_curated(folder), seed)
    files = deck_files(lib, recipes, seed)
    for rel, data in files.items():
        assert (folder / rel).read_bytes() == data, f"{rel} is stale: run `make deck`"
    on_disk = {f"cards/{p.name}" for p in (folder / "cards").iterdir()}
    assert on_disk == {k for k in files if k.startswith("cards/")}


def test_curated_recipes_are_in_the_deck() -> None:
    deck = load_deck(deck_path(FIRST_EDITION))
    curated = load_curated(deck_path(FIRST_EDITION))
    assert len(curated) >= 20
    origins = [deck._meta[c.id] for c in deck.cards]
    captions = {m.caption["en"] for m in origins}
    for r in curated:
        assert r.caption is not None and r.caption["en"] in captions


def test_english_caption_templates_fill_every_role(lib: dict[str, Art]) -> None:
    for r in generate_recipes(lib, 99, 60):
        built = render_card(r, lib)
        assert "{" not in built.caption["en"] and "  " not in built.caption["en"]
        assert built.caption["ru"].count(".") >= 1


def test_build_writes_a_deck_from_a_copy_of_the_default_one(tmp_path: Path) -> None:
    src = deck_path(FIRST_EDITION)
    folder = tmp_path / "deck"
    for sub in ("elements", "recipes"):
        (folder / sub).mkdir(parents=True)
        for f in (src / sub).iterdir():
            (folder / sub / f.name).write_bytes(f.read_bytes())
    manifest = json.loads((src / "manifest.json").read_text(encoding="utf-8"))
    result = CliRunner().invoke(
        deckgen_app,
        ["build", "--edition", "1", "--deck", str(folder), "--seed", str(manifest["seed"])],
    )
    assert result.exit_code == 0, result.output
    assert result.output == f"wrote {manifest['count']} cards to {folder}\n"
    for rel in (
        "manifest.json",
        "meta.json",
        "cards/c001.svg",
        f"cards/{manifest['cards'][-1]['id']}.svg",
    ):
        assert (folder / rel).read_bytes() == (src / rel).read_bytes(), rel


def test_build_reports_a_missing_library_in_one_line(tmp_path: Path) -> None:
    for edition in ("1", "2"):
        result = CliRunner().invoke(
            deckgen_app, ["build", "--edition", edition, "--deck", str(tmp_path)]
        )
        assert result.exit_code == 1
        assert result.stderr.startswith("error: cannot read element "), result.stderr


def test_runs_as_a_module_from_the_repository_root() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "tools.deckgen", "build", "--help"],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    for flag in ("--deck", "--edition", "--seed", "--art"):
        assert flag in proc.stdout


def test_the_runtime_never_imports_the_generator() -> None:
    code = (
        "import sys, reverie.cli, reverie.web.app, reverie.content.decks, reverie.content.words\n"
        "print(sorted(m for m in sys.modules if m == 'tools' or m.startswith('tools.')))"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, check=True
    )
    assert proc.stdout.strip() == "[]"
    # `reverie deck build` imports the generator only when it runs.
    assert "build" in CliRunner().invoke(reverie_app, ["deck", "--help"]).output
