"""The docs say what the code does: the layer diagram, the specification's citations, the
list of what a new game adds, and every path the docs name.

Each test reads the code as it is, so a change that makes a doc wrong (a new import
between layers, a game moved into one folder, a cited section renumbered) fails here.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from reverie import games
from tools import layers

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src" / "reverie"
STATIC = SRC / "web" / "static"
DOCS = ROOT / "docs"
SPEC = DOCS / "specification.md"

# ---------------------------------------------------------------------- layers


def test_architecture_diagram_is_what_the_imports_draw() -> None:
    doc = (DOCS / "architecture.md").read_text(encoding="utf-8")
    assert layers.diagram_in(doc) == layers.mermaid(layers.imports()), (
        "docs/architecture.md's diagram is stale: run python -m tools.layers --write"
    )


def test_layers_hold() -> None:
    found = list(layers.imports())
    assert len(found) > 50  # the walk reads the whole package
    assert layers.violations(found) == []
    assert layers.unused_exceptions(found) == []


def test_the_layer_table_is_the_tools_table() -> None:
    doc = (DOCS / "architecture.md").read_text(encoding="utf-8")
    section = doc[doc.index("## Layers") : doc.index(layers.BEGIN)]
    table: dict[str, frozenset[str]] = {}
    for row in re.findall(r"^\| (`.+?) \| .+? \| (.+?) \|$", section, re.MULTILINE):
        may = frozenset(re.findall(r"`(\w+)`", row[1]))
        for layer in re.findall(r"`(\w+)`", row[0]):
            table[layer] = may
    assert table.pop("cli") == frozenset()  # "everything else"
    allowed = dict(layers.ALLOWED)
    assert allowed.pop("cli") == frozenset(allowed)
    assert table == allowed


def test_the_rules_import_nothing_but_errors() -> None:
    targets = {i.target for i in layers.imports() if i.source == "rules"}
    assert targets == {"errors"}


def _package(tmp_path: Path, files: dict[str, str]) -> Path:
    package = tmp_path / "src" / "reverie"
    for name, body in {"__init__.py": "", **files}.items():
        path = package / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(body, encoding="utf-8")
    return package


def test_check_finds_a_forbidden_import(tmp_path: Path) -> None:
    package = _package(
        tmp_path,
        {
            "rules/__init__.py": "",
            "rules/engine.py": "from reverie.errors import ReverieError\n",
            "rules/views.py": "def f() -> None:\n    from reverie.web.app import create_app\n",
            "web/__init__.py": "",
            "errors.py": "",
        },
    )
    found = list(layers.imports(package))
    problems = layers.violations(found)
    assert len(problems) == 1
    assert problems[0].startswith("src/reverie/rules/views.py:2: rules must not import")
    assert "  rules --x web" in layers.mermaid(found)


def test_an_exception_covers_only_its_module(tmp_path: Path) -> None:
    package = _package(
        tmp_path,
        {
            "web/__init__.py": "from reverie.rules.errors import IllegalAction\n",
            "web/app.py": "from ..rules import engine\n",
            "rules/__init__.py": "",
            "rules/errors.py": "",
            "rules/engine.py": "",
        },
    )
    problems = layers.violations(layers.imports(package))
    assert [p.split(":")[0] for p in problems] == ["src/reverie/web/app.py"]
    assert "reverie.rules.engine" in problems[0]


def test_a_new_layer_needs_a_row(tmp_path: Path) -> None:
    package = _package(tmp_path, {"arena/__init__.py": "import reverie.rules\n"})
    (problem,) = layers.violations(layers.imports(package))
    assert "layer 'arena' has no row in ALLOWED" in problem


def test_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert layers.main(["--check"]) == 0
    assert layers.main([]) == 0
    assert capsys.readouterr().out.endswith(layers.mermaid(layers.imports()))
    assert layers.main(["--text"]) == 0
    assert "web -> rules  (only rules.errors" in capsys.readouterr().out


# ---------------------------------------------------------------------- specification

CITATION = re.compile(r"specification\.md\s*§(\d+(?:\.\d+)*)")
SECTION = re.compile(r"^#{2,4} §(\d+(?:\.\d+)*) ", re.MULTILINE)
CITING = ("src", "tests", "tools", "benchmarks", "docs")


def _sections() -> list[str]:
    return SECTION.findall(SPEC.read_text(encoding="utf-8"))


def _text_files() -> Iterator[Path]:
    yield ROOT / "README.md"
    for top in CITING:
        for path in sorted((ROOT / top).rglob("*")):
            vendored = "vendor" in path.parts or "node_modules" in path.parts
            if path.suffix in {".py", ".js", ".md", ".html", ".css"} and not vendored:
                yield path


def test_every_citation_names_a_section() -> None:
    sections = set(_sections())
    cited = {
        (path.relative_to(ROOT).as_posix(), number)
        for path in _text_files()
        for number in CITATION.findall(path.read_text(encoding="utf-8"))
    }
    assert len(cited) >= 10  # the rules' modules cite it
    assert [c for c in cited if c[1] not in sections] == []


def test_sections_are_numbered_once() -> None:
    numbers = _sections()
    assert len(numbers) == len(set(numbers))
    assert {"1", "2", "3"} <= set(numbers)


def test_nothing_cites_a_spec_outside_the_repository() -> None:
    absent = "RULES" + ".md"  # spelled so that this file does not cite it
    here = Path(__file__).resolve()
    naming = [p for p in _text_files() if p != here and absent in p.read_text(encoding="utf-8")]
    assert naming == []


def test_every_game_is_specified() -> None:
    """Every game played online (not a companion of another) has its own section."""
    spec = SPEC.read_text(encoding="utf-8")
    headed = set(re.findall(r"^#{2,3} §[\d.]+ .*?`([a-z-]+)`", spec, re.MULTILINE))
    played = {v.name for v in games.all_variants() if not v.capabilities.get("companion_of")}
    assert played == headed
    rules = (DOCS / "rules.md").read_text(encoding="utf-8")
    assert "](specification.md)" in rules


# ---------------------------------------------------------------------- adding a game


def _clients() -> set[str]:
    return {str(v.capabilities["client"]) for v in games.all_variants()}


def _js_map(path: Path, name: str) -> dict[str, Path]:
    """A ``const NAME = { key, "k": ident }`` map of a JS module, each key with the file
    its value is imported from."""
    source = path.read_text(encoding="utf-8")
    imported: dict[str, Path] = {}
    for names, where in re.findall(r'^import (.+?) from "(.+?)";', source, re.MULTILINE):
        for ident in re.findall(r"\w+", names.replace("* as", "")):
            imported[ident] = (path.parent / where).resolve()
    match = re.search(rf"const {name} = \{{(.*?)\}};", source, re.DOTALL)
    assert match, f"no {name} map in {path}"
    result = {}
    for entry in match.group(1).split(","):
        key, _, value = entry.partition(":")
        key, value = key.strip().strip('"'), (value or key).strip()
        result[key] = imported[value]
    return result


def test_every_client_has_a_screen_and_options() -> None:
    screens = _js_map(STATIC / "js" / "families" / "index.js", "FAMILIES")
    options = _js_map(STATIC / "js" / "families" / "options.js", "BY_CLIENT")
    assert set(screens) == _clients()
    assert set(options) == _clients()
    for module in [*screens.values(), *options.values()]:
        assert module.is_file(), module
        assert module.parent.parent == STATIC / "js" / "families"


def test_every_family_lives_in_games() -> None:
    for family in games.families():
        assert type(family).__module__.startswith("reverie.games."), family.name


def test_every_family_is_registered_in_one_place() -> None:
    source = (SRC / "games" / "__init__.py").read_text(encoding="utf-8")
    calls = re.findall(r"^register\((\w+)\)$", source, re.MULTILINE)
    assert len(calls) == len(games.families()) == len(set(calls))


def test_every_variant_has_its_title_and_blurb() -> None:
    for lang in ("en", "ru", "it"):
        strings = json.loads((STATIC / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
        for variant in games.all_variants():
            for part in ("title", "blurb"):
                assert strings.get(f"variant.{variant.name}.{part}"), (lang, variant.name)


def test_every_stylesheet_is_linked() -> None:
    pages = " ".join(p.read_text(encoding="utf-8") for p in STATIC.glob("*.html"))
    linked = set(re.findall(r'<link rel="stylesheet" href="/static/(css/[\w-]+\.css)">', pages))
    on_disk = {p.relative_to(STATIC).as_posix() for p in (STATIC / "css").glob("*.css")}
    assert linked == on_disk


#: Clients the rules page shows no section of its own for, and why.
NO_RULES_SECTION = {"companion": "played with the box: the association sections are its rules"}


def test_rules_page_sections() -> None:
    source = (STATIC / "js" / "rules.js").read_text(encoding="utf-8")
    shown = set(re.findall(r'capabilities\.client === "([\w-]+)"', source))
    assert shown == _clients() - set(NO_RULES_SECTION)


def test_every_rules_package_is_in_the_layer_test() -> None:
    packages = {p.parent.name for p in (SRC / "rules").glob("*/__init__.py")}
    source = (ROOT / "tests" / "rules" / "test_layers.py").read_text(encoding="utf-8")
    assert packages == set(re.findall(r"reverie\.rules\.(\w+)", source))


# ---------------------------------------------------------------------- paths in the docs

PATH = re.compile(r"`([\w.<>{},/-]*/[\w.<>{},/-]*)`")
#: Where a path in the docs may be relative to.
BASES = (ROOT, SRC, STATIC, ROOT / "src")


def _expand(path: str) -> list[str]:
    """``i18n/{en,ru}.json`` → both files."""
    match = re.search(r"\{([^}]*)\}", path)
    if match is None:
        return [path]
    return [
        alt
        for choice in match.group(1).split(",")
        for alt in _expand(path[: match.start()] + choice + path[match.end() :])
    ]


def _exists(path: str) -> bool:
    if "<" in path:  # a placeholder: the folder it goes in exists
        path = path[: path.index("<")].rstrip("/") or "."
    path = path.rstrip("/")
    return any((base / path).exists() for base in BASES)


@pytest.mark.parametrize("doc", ["architecture.md", "games.md", "rules.md"])
def test_paths_named_in_the_docs_exist(doc: str) -> None:
    text = (DOCS / doc).read_text(encoding="utf-8")
    named = [p for raw in PATH.findall(text) if not raw.startswith("/") for p in _expand(raw)]
    assert len(named) > 5
    assert [p for p in named if not _exists(p)] == []
