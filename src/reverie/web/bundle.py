"""One file for a page's whole module graph, made by the server from the sources as they
are (no build step, no tool): on a phone network each request costs a round trip, and a
browser talking HTTP/1.1 makes at most six at once, so fifty modules cost seconds where
one file of the same bytes costs one round trip.

Each module becomes a function run once, in the order the browser would evaluate the
modules (depth first, imports in source order); its imports become constants taken from
the modules run before it, its exports an object of its top-level names. Modules that
import each other (a cycle) share one function, in the same order, so that their
function declarations see each other as they do as modules.

This holds for the forms the client is written in: ``import {a, b as c} from "./x.js"``,
``import * as ns from``, ``import "./x.js"``, ``export function|async function|class|const``,
``export {a, b as c}`` (with or without ``from``), ``export * from``, one import or
export statement to a line start (as the formatter writes them). Anything else
(``export let`` or ``var``, whose value an importer would see change; a default export; a
dynamic ``import()``; ``import.meta.url``; top-level ``await``; two modules of a cycle
with the same top-level name) raises ``Unbundleable``, and the page loads the modules one
by one as before (web/assets.py then preloads them).
"""

from __future__ import annotations

import json
import posixpath
import re
from collections.abc import Mapping
from dataclasses import dataclass, field

#: The registry of evaluated modules' exports inside a bundle.
REGISTRY = "__reverie_modules"
#: Where the folder is served.
PREFIX = "/static/"

_IMPORT = re.compile(
    r"""^import\s*(?P<what>[^"';]*?)\s*(?:\bfrom\s*)?["'](?P<spec>[^"']+)["'][ \t]*;?""", re.M
)
_EXPORT_DECL = re.compile(r"^export\s+(?=(?:async\s+)?function\b|class\b|const\b)", re.M)
_EXPORT_LIST = re.compile(
    r"""(?P<lead>^|;)[ \t]*export\s*\{(?P<names>[^}]*)\}"""
    r"""(?:\s*from\s*["'](?P<spec>[^"']+)["'])?[ \t]*;?""",
    re.M,
)
_EXPORT_ALL = re.compile(r"""^export\s*\*\s*from\s*["'](?P<spec>[^"']+)["'][ \t]*;?""", re.M)
_EXPORT_LEFT = re.compile(r"(?:^|;)[ \t]*export\b", re.M)
_IMPORT_LEFT = re.compile(r"^import\b", re.M)
_DECL = re.compile(
    r"^(?:export\s+)?(?:async\s+)?(?:function\s*\*?|class|const|let|var)\s*(?P<name>[\w$]+)",
    re.M,
)
_DECL_PATTERN = re.compile(r"^(?:export\s+)?(?:const|let|var)\s*[{\[]", re.M)
_EXPORT_MUTABLE = re.compile(r"^export\s+(?:let|var)\b", re.M)
_COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)
_DYNAMIC = re.compile(r"(?<![\w$.])import\s*\(")
_META_URL = re.compile(r"\bimport\.meta\.url\b")
_TOP_AWAIT = re.compile(r"^(?:await\b|(?:const|let|var)\s[^=\n]*=\s*await\b)", re.M)
_NAME = re.compile(r"^[\w$]+$")


class Unbundleable(Exception):
    """The modules use a form the bundle does not rewrite; the reason says which."""


@dataclass
class _Module:
    rel: str
    body: str
    #: (local name, source module, imported name or None for the namespace)
    imports: list[tuple[str, str, str | None]] = field(default_factory=list)
    #: every module requested, in source order (imports and re-exports)
    requests: list[str] = field(default_factory=list)
    #: exported name -> local name, or (source module, name) for a re-export
    exports: dict[str, str | tuple[str, str]] = field(default_factory=dict)
    #: modules all of whose exports are re-exported
    star: list[str] = field(default_factory=list)
    declared: set[str] = field(default_factory=set)


def resolve(rel: str, spec: str) -> str | None:
    """The path under the folder that ``spec``, imported by ``rel``, names (None for a
    bare name or another site)."""
    if spec.startswith(PREFIX):
        return posixpath.normpath(spec.removeprefix(PREFIX))
    if spec.startswith(("./", "../")):
        return posixpath.normpath(posixpath.join(posixpath.dirname(rel), spec))
    return None


def _pairs(names: str, rel: str) -> list[tuple[str, str]]:
    """``a, b as c`` -> [(a, a), (b, c)]."""
    out = []
    for item in names.split(","):
        parts = item.split()
        if not parts:
            continue
        if len(parts) == 1:
            out.append((parts[0], parts[0]))
        elif len(parts) == 3 and parts[1] == "as":
            out.append((parts[0], parts[2]))
        else:
            raise Unbundleable(f"{rel}: cannot read the names {item.strip()!r}")
    for a, b in out:
        if not (_NAME.match(a) and _NAME.match(b)):
            raise Unbundleable(f"{rel}: cannot read the names {names.strip()!r}")
    return out


def _parse(rel: str, text: str) -> _Module:
    code = _COMMENT.sub(" ", text)
    for pattern, what in (
        (_DYNAMIC, "a dynamic import()"),
        (_META_URL, "import.meta.url"),
        (_TOP_AWAIT, "a top-level await"),
        (_EXPORT_MUTABLE, "an exported let or var"),
    ):
        if pattern.search(code):
            raise Unbundleable(f"{rel} has {what}")
    mod = _Module(rel, text)

    def target(spec: str) -> str:
        found = resolve(rel, spec)
        if found is None or not found.endswith(".js"):
            raise Unbundleable(f"{rel} imports {spec!r}, not a module of the folder")
        return found

    def on_import(m: re.Match[str]) -> str:
        what, source = m["what"].strip(), target(m["spec"])
        mod.requests.append(source)
        if what.startswith("{") and what.endswith("}"):
            for name, local in _pairs(what[1:-1], rel):
                mod.imports.append((local, source, name))
        elif what.startswith("*"):
            parts = what.split()
            if len(parts) != 3 or parts[1] != "as" or not _NAME.match(parts[2]):
                raise Unbundleable(f"{rel}: cannot read the import {what!r}")
            mod.imports.append((parts[2], source, None))
        elif what:
            raise Unbundleable(f"{rel} has a default import ({what})")
        return ""

    def on_list(m: re.Match[str]) -> str:
        spec = m["spec"]
        source = target(spec) if spec else None
        if source:
            mod.requests.append(source)
        for name, exported in _pairs(m["names"], rel):
            mod.exports[exported] = (source, name) if source else name
        return m["lead"]

    def on_all(m: re.Match[str]) -> str:
        source = target(m["spec"])
        mod.requests.append(source)
        mod.star.append(source)
        return ""

    # Requests in source order: imports and re-exports are read in one pass each, then
    # sorted by where they stood.
    spans: list[tuple[int, str]] = []
    for pattern in (_IMPORT, _EXPORT_LIST, _EXPORT_ALL):
        for m in pattern.finditer(text):
            if m.groupdict().get("spec"):
                spans.append((m.start(), m["spec"]))
    body = _IMPORT.sub(on_import, text)
    body = _EXPORT_LIST.sub(on_list, body)
    body = _EXPORT_ALL.sub(on_all, body)
    mod.requests = [target(spec) for _, spec in sorted(spans)]
    for m in _DECL.finditer(_COMMENT.sub(" ", body)):
        mod.declared.add(m["name"])
    for m in _DECL.finditer(body):
        if m[0].startswith("export"):
            mod.exports[m["name"]] = m["name"]
    body = _EXPORT_DECL.sub("", body)
    if _EXPORT_LEFT.search(_COMMENT.sub(" ", body)):
        raise Unbundleable(f"{rel} has an export the bundle does not rewrite")
    if _IMPORT_LEFT.search(_COMMENT.sub(" ", body)):
        raise Unbundleable(f"{rel} has an import the bundle does not rewrite")
    mod.body = body
    return mod


def _order(mods: Mapping[str, _Module], entry: str) -> list[str]:
    """Evaluation order: depth first from ``entry``, requests in source order."""
    out: list[str] = []
    seen: set[str] = set()

    def visit(rel: str) -> None:
        seen.add(rel)
        for dep in mods[rel].requests:
            if dep not in seen:
                visit(dep)
        out.append(rel)

    visit(entry)
    return out


def _cycles(mods: Mapping[str, _Module]) -> dict[str, int]:
    """Each module's strongly connected component (Tarjan), by number."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    comp: dict[str, int] = {}

    def strong(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in mods[v].requests:
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            n = len(set(comp.values()))
            while True:
                w = stack.pop()
                on.discard(w)
                comp[w] = n
                if w == v:
                    break

    for v in mods:
        if v not in index:
            strong(v)
    return comp


def _export_names(
    mods: Mapping[str, _Module], rel: str, seen: frozenset[str] = frozenset()
) -> set[str]:
    if rel in seen:
        return set()
    names = set(mods[rel].exports)
    for source in mods[rel].star:
        names |= _export_names(mods, source, seen | {rel})
    return names


def bundle(sources: Mapping[str, str], entry: str) -> str:
    """The bundle of ``entry``'s module graph (``sources``: path under the folder ->
    text, at least every module the graph needs)."""
    mods: dict[str, _Module] = {}
    todo = [entry]
    while todo:
        rel = todo.pop()
        if rel in mods:
            continue
        if rel not in sources:
            raise Unbundleable(f"{rel} is not in the folder")
        mods[rel] = _parse(rel, sources[rel])
        todo.extend(mods[rel].requests)
    for mod in mods.values():
        for _, source, name in mod.imports:
            if name is not None and name not in _export_names(mods, source):
                raise Unbundleable(f"{mod.rel} imports {name} that {source} does not export")
    order = _order(mods, entry)
    comp = _cycles(mods)
    members: dict[int, list[str]] = {}
    for rel in order:
        members.setdefault(comp[rel], []).append(rel)
    parts = [f"const {REGISTRY} = Object.create(null);"]
    done: set[int] = set()
    for rel in order:
        group = members[comp[rel]]
        if comp[rel] in done or rel != group[-1]:
            continue  # a cycle is written once, where its last module stands
        done.add(comp[rel])
        parts.append(_unit(mods, group))
    return "\n".join(parts) + "\n"


def _unit(mods: Mapping[str, _Module], group: list[str]) -> str:
    """One function for ``group`` (one module, or the modules of a cycle)."""
    inside = set(group)
    bindings: dict[str, str] = {}
    lines = []
    for rel in group:
        for local, source, name in mods[rel].imports:
            if source in inside:
                if name is None or (name != local) or name not in mods[source].exports:
                    raise Unbundleable(f"{rel} imports {name or '*'} from {source} in a cycle")
                continue  # the cycle's modules share one scope
            expr = f"{REGISTRY}[{json.dumps(source)}]" + (
                f"[{json.dumps(name)}]" if name is not None else ""
            )
            if bindings.get(local, expr) != expr:
                raise Unbundleable(f"{local} names two things in the cycle {group}")
            bindings[local] = expr
    declared: set[str] = set()
    for rel in group:
        clash = declared & mods[rel].declared
        if clash or (len(group) > 1 and _DECL_PATTERN.search(mods[rel].body)):
            raise Unbundleable(f"the cycle {group} declares {sorted(clash) or 'a pattern'} twice")
        declared |= mods[rel].declared
    if len(group) > 1 and declared & set(bindings):
        raise Unbundleable(f"the cycle {group} imports a name it declares")
    lines += [f"const {local} = {expr};" for local, expr in bindings.items()]
    for rel in group:
        lines.append(f"// {rel}\n{mods[rel].body.strip()}")
    for rel in group:
        fields = []
        for source in mods[rel].star:
            fields.append(f"...{REGISTRY}[{json.dumps(source)}]")
        for exported, what in mods[rel].exports.items():
            if isinstance(what, tuple):
                source, name = what
                value = (
                    name
                    if source in inside
                    else f"{REGISTRY}[{json.dumps(source)}][{json.dumps(name)}]"
                )
            else:
                value = what
            fields.append(f"{json.dumps(exported)}: {value}")
        lines.append(f"{REGISTRY}[{json.dumps(rel)}] = {{{', '.join(fields)}}};")
    return "(() => {\n" + "\n".join(lines) + "\n})();"
