"""The layers of ``reverie`` and who imports whom, drawn from the code's own imports.

Run from a checkout::

    python -m tools.layers            # the layer diagram (Mermaid), as in docs/architecture.md
    python -m tools.layers --text     # the same edges as plain text, one per line
    python -m tools.layers --check    # exit 1 when a layer imports one it must not
    python -m tools.layers --write    # refresh the diagram in docs/architecture.md

A *layer* is a top-level subpackage or module of ``reverie`` (``reverie.rooms``,
``reverie.errors``). Every ``import`` and ``from ... import`` in ``src/reverie`` is read
with :mod:`ast` (including imports inside functions and under ``TYPE_CHECKING``: they
are dependencies too), and each import from one layer into another is an edge.

:data:`ALLOWED` is the intended design: which layers each layer may import. An import
that the table does not allow is a violation unless :data:`EXCEPTIONS` names it (the
importing layer and the imported module) with the reason it is tolerated today. A new
top-level package needs a row in :data:`ALLOWED`, or ``--check`` says so.
"""

from __future__ import annotations

import argparse
import ast
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "reverie"
DOC = ROOT / "docs" / "architecture.md"
#: The diagram's place in the doc: between these two lines.
BEGIN = "<!-- layers:begin (python -m tools.layers --write) -->"
END = "<!-- layers:end -->"

#: Top-level modules that belong to a layer of another name.
ALIASES = {"__main__": "cli"}

_BASE = frozenset({"errors", "logs"})

#: Which layers each layer may import (besides itself). Lowest first.
ALLOWED: dict[str, frozenset[str]] = {
    # The shared error base class and the log set-up: they import nothing of reverie.
    "errors": frozenset(),
    "logs": frozenset(),
    # Pure rules: no IO, no clock, no content, no rooms.
    "rules": frozenset({"errors"}),
    # Decks and word lists, loaded from files.
    "content": frozenset({"errors", "logs"}),
    # Bots play from a seat's view of the rules, with the content's words.
    "bots": frozenset({"rules", "content", "errors", "logs"}),
    # Random whole games for `reverie simulate`.
    "simulation": frozenset({"rules", "bots", "errors"}),
    # The event log and the fan-out between processes know no game and no room.
    "store": _BASE,
    "bus": _BASE,
    # The seam: each family adapts its rules (and bots, content) for the rooms.
    "games": frozenset({"rules", "content", "bots", "errors", "logs"}),
    # Rooms reach a game only through `games`; they write to the store, talk on the bus.
    "rooms": frozenset({"games", "store", "bus", "content", "errors", "logs"}),
    # The server: sockets and HTTP over the rooms; games only through the registry.
    "web": frozenset({"rooms", "games", "store", "bus", "content", "errors", "logs"}),
    # The command line starts anything.
    "cli": frozenset(
        {"web", "rooms", "games", "store", "bus", "content", "bots", "rules", "simulation"} | _BASE
    ),
}

#: Imports the table does not allow, tolerated today: (importing layer, imported module
#: or package) → why. Each is a candidate for a move, not a model to follow.
EXCEPTIONS: dict[tuple[str, str], str] = {
    ("bus", "reverie.store.base"): (
        "redact() hides a URL's password in log lines; a helper that lives in the store"
    ),
    ("content", "reverie.rules.visual"): (
        "the word lists are the drawing game's: their categories and languages are its "
        "rules'; they move with the game into its folder"
    ),
    ("web", "reverie.rules.errors"): (
        "IllegalAction, the rules' refusal of a move, becomes the socket's error frame"
    ),
    ("web", "reverie.rules.visual"): (
        "the players' word-list API (words_api.py) checks the drawing game's languages; "
        "it moves with the game into its folder"
    ),
}


@dataclass(frozen=True, slots=True)
class Import:
    """One import of a module of another layer."""

    path: str  # the importing file, relative to the repository
    line: int
    source: str  # the importing layer
    target: str  # the imported layer
    module: str  # the imported module, dotted


def layer_of(module: str) -> str | None:
    """The layer of a dotted ``reverie`` module name (None: not reverie's).

    >>> layer_of("reverie.rooms.service"), layer_of("reverie.__main__"), layer_of("json")
    ('rooms', 'cli', None)
    """
    parts = module.split(".")
    if parts[0] != "reverie" or len(parts) < 2:
        return None
    return ALIASES.get(parts[1], parts[1])


def _module_name(path: Path, package: Path) -> str:
    rel = path.relative_to(package.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _is_module(name: str, package: Path) -> bool:
    """Whether dotted ``name`` is a module or package of ``package`` (reverie)."""
    path = package.parent.joinpath(*name.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def _imported(
    node: ast.Import | ast.ImportFrom, module: str, is_package: bool, package: Path
) -> list[str]:
    """The modules an import statement names (relative ones made absolute;
    ``from reverie.rooms import errors`` names ``reverie.rooms.errors``)."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if node.level == 0:
        if not node.module:
            return []
        stem = node.module
    else:
        base = module.split(".")
        if not is_package:
            base = base[:-1]
        base = base[: len(base) - (node.level - 1)]
        stem = ".".join(base + ([node.module] if node.module else []))
    names = []
    for alias in node.names:
        sub = f"{stem}.{alias.name}"
        names.append(sub if _is_module(sub, package) else stem)
    return sorted(set(names))


def imports(package: Path = PACKAGE) -> Iterator[Import]:
    """Every import from one layer of ``package`` into another, file by file."""
    for path in sorted(package.rglob("*.py")):
        module = _module_name(path, package)
        source = layer_of(module)
        if source is None:
            continue  # the package's own __init__: it imports nothing
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Import | ast.ImportFrom):
                continue
            for name in _imported(node, module, path.name == "__init__.py", package):
                target = layer_of(name)
                if target is not None and target != source:
                    rel = path.relative_to(package.parents[1]).as_posix()
                    yield Import(rel, node.lineno, source, target, name)


def exception_for(imp: Import) -> str | None:
    """The reason an import outside :data:`ALLOWED` is tolerated, if it is."""
    for (source, module), why in EXCEPTIONS.items():
        if imp.source == source and (imp.module == module or imp.module.startswith(module + ".")):
            return why
    return None


def violations(found: Iterable[Import]) -> list[str]:
    """What breaks the layering, one line each (empty: the layers hold)."""
    problems = []
    for imp in found:
        allowed = ALLOWED.get(imp.source)
        if allowed is None:
            problems.append(
                f"{imp.path}:{imp.line}: layer {imp.source!r} has no row in ALLOWED "
                "(tools/layers.py): say what it may import"
            )
        elif imp.target not in allowed and exception_for(imp) is None:
            problems.append(
                f"{imp.path}:{imp.line}: {imp.source} must not import {imp.module} "
                f"({imp.target}); allowed: {', '.join(sorted(allowed)) or 'nothing'}"
            )
    return problems


def unused_exceptions(found: Iterable[Import]) -> list[str]:
    """Exceptions no import needs any more (the code moved on: drop them)."""
    used = {
        (source, module)
        for imp in found
        for (source, module) in EXCEPTIONS
        if imp.source == source
        and (imp.module == module or imp.module.startswith(module + "."))
        and imp.target not in ALLOWED.get(imp.source, frozenset())
    }
    return [f"{s} → {m}" for (s, m) in EXCEPTIONS if (s, m) not in used]


def edges(found: Iterable[Import]) -> dict[tuple[str, str], set[str]]:
    """Layer → layer, with the modules imported only by exception (empty set: allowed
    or not, a plain edge)."""
    result: dict[tuple[str, str], set[str]] = {}
    plain: set[tuple[str, str]] = set()
    for imp in found:
        key = (imp.source, imp.target)
        result.setdefault(key, set())
        allowed = imp.target in ALLOWED.get(imp.source, frozenset())
        if allowed or exception_for(imp) is None:
            plain.add(key)
        else:
            result[key].add(imp.module.removeprefix("reverie."))
    for key in plain:
        result[key] = set()
    return result


def mermaid(found: Iterable[Import]) -> str:
    """The layer diagram as a Mermaid flowchart: a solid arrow for an allowed import, a
    dotted one (labelled with the modules) for a tolerated exception, a crossed one for
    a violation."""
    found = list(found)
    bad = {(i.source, i.target) for i in found if i.target not in ALLOWED.get(i.source, ())}
    bad -= {(i.source, i.target) for i in found if exception_for(i) is not None}
    lines = ["flowchart TD"]
    for (source, target), modules in sorted(edges(found).items()):
        if modules:
            label = ", ".join(sorted(modules))
            lines.append(f'  {source} -.->|"{label}"| {target}')
        elif (source, target) in bad:
            lines.append(f"  {source} --x {target}")
        else:
            lines.append(f"  {source} --> {target}")
    return "\n".join(lines) + "\n"


def text(found: Iterable[Import]) -> str:
    """The same edges as plain text, one per line."""
    lines = []
    for (source, target), modules in sorted(edges(found).items()):
        note = f"  (only {', '.join(sorted(modules))})" if modules else ""
        lines.append(f"{source} -> {target}{note}")
    return "\n".join(lines) + "\n"


def doc_block(diagram: str) -> str:
    """The doc's diagram section: the markers around a fenced Mermaid block."""
    return f"{BEGIN}\n```mermaid\n{diagram}```\n{END}"


def diagram_in(doc: str) -> str:
    """The Mermaid text the doc holds between the markers."""
    start, end = doc.index(BEGIN), doc.index(END)
    block = doc[start + len(BEGIN) : end].strip("\n")
    return block.removeprefix("```mermaid\n").removesuffix("```") if block else ""


def write(doc_path: Path, diagram: str) -> bool:
    """Put ``diagram`` into the doc between the markers; whether it changed."""
    doc = doc_path.read_text(encoding="utf-8")
    start, end = doc.index(BEGIN), doc.index(END) + len(END)
    new = doc[:start] + doc_block(diagram) + doc[end:]
    if new == doc:
        return False
    doc_path.write_text(new, encoding="utf-8")
    return True


def main(argv: list[str] | None = None) -> int:
    """The command line (see the module's docstring)."""
    summary = (__doc__ or "").split("\n")[0]
    parser = argparse.ArgumentParser(prog="python -m tools.layers", description=summary)
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--check", action="store_true", help="fail on a forbidden import")
    mode.add_argument("--text", action="store_true", help="plain-text edges")
    mode.add_argument("--write", action="store_true", help=f"refresh the diagram in {DOC.name}")
    args = parser.parse_args(argv)
    found = list(imports())
    if args.check:
        problems = violations(found)
        stale = unused_exceptions(found)
        for problem in problems:
            print(problem, file=sys.stderr)
        for exception in stale:
            print(f"EXCEPTIONS lists {exception}, which no import needs now", file=sys.stderr)
        if problems or stale:
            return 1
        print(f"layers hold: {len(found)} imports between layers checked")
        return 0
    if args.text:
        sys.stdout.write(text(found))
    elif args.write:
        changed = write(DOC, mermaid(found))
        print(f"{DOC.relative_to(ROOT)}: {'updated' if changed else 'up to date'}")
    else:
        sys.stdout.write(mermaid(found))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
