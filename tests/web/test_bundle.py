"""One file for a page's modules (web/bundle.py): it must behave as the modules do.

Each case is a small module graph run twice by Node: as ES modules, and as the bundle
the server makes of them; both must print the same. Node is the one the JS checks use
(``make jscheck``); without it these tests fail.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from reverie.web.assets import Assets
from reverie.web.bundle import REGISTRY, Unbundleable, bundle, resolve

STATIC = Path(__file__).resolve().parents[2] / "src" / "reverie" / "web" / "static"


def run_node(folder: Path, entry: str) -> str:
    node = shutil.which("node")
    assert node is not None, "node is missing (apt-get install -y nodejs)"
    out = subprocess.run([node, str(folder / entry)], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    return out.stdout


def same_output(tmp_path: Path, sources: dict[str, str], entry: str = "js/main.js") -> str:
    """Run the graph as modules and as a bundle; both outputs equal; the output."""
    modules = tmp_path / "modules"
    for rel, text in sources.items():
        (modules / rel).parent.mkdir(parents=True, exist_ok=True)
        (modules / rel).write_text(text)
    # Node tells a module by the nearest package.json.
    (modules / "package.json").write_text('{"type": "module"}')
    native = run_node(modules, entry)
    joined = tmp_path / "bundle"
    joined.mkdir()
    (joined / "package.json").write_text('{"type": "module"}')
    (joined / "main.js").write_text(bundle(sources, entry))
    assert run_node(joined, "main.js") == native
    return native


def test_imports_exports_and_their_order(tmp_path: Path) -> None:
    out = same_output(
        tmp_path,
        {
            "js/main.js": (
                'import { a, b as bee } from "./lib/a.js";\n'
                'import * as ns from "./lib/ns.js";\n'
                'import "./lib/side.js";\n'
                'import { again, twice } from "./lib/re.js";\n'
                'console.log("main", a(), bee, ns.one, ns.two(), again(), twice);\n'
            ),
            "js/lib/a.js": (
                'import { log } from "./log.js";\n'
                'log("a");\n'
                "export function a() {\n  return 'A';\n}\n"
                "const b = 2;\nexport { b };\n"
            ),
            "js/lib/log.js": 'console.log("log");\nexport const log = (x) => console.log(x);\n',
            "js/lib/ns.js": (
                'console.log("ns");\nexport const one = 1;\nexport async function two0() {}\n'
                "export function two() {\n  return 2;\n}\n"
            ),
            "js/lib/side.js": 'import { log } from "./log.js";\nlog("side");\n',
            "js/lib/re.js": (
                'export { a as again } from "./a.js";\nexport * from "./more.js";\n'
                'console.log("re");\n'
            ),
            "js/lib/more.js": "export const twice = 22;\nexport class K {}\n",
        },
    )
    # Modules run once each, dependencies first, in the order of the imports.
    assert out.split() == ["log", "a", "ns", "side", "re", "main", "A", "2", "1", "2", "A", "22"]


def test_absolute_and_relative_addresses_name_one_module() -> None:
    assert resolve("js/shell/app.js", "../dom.js") == "js/dom.js"
    assert resolve("js/shell/app.js", "/static/js/dom.js") == "js/dom.js"
    assert resolve("js/app.js", "./families/x/index.js") == "js/families/x/index.js"
    assert resolve("js/app.js", "preact") is None


def test_modules_that_import_each_other(tmp_path: Path) -> None:
    """As js/families/visual/panels.js and story.js do: function declarations of a cycle
    see each other."""
    out = same_output(
        tmp_path,
        {
            "js/main.js": 'import { panel } from "./p.js";\nconsole.log(panel(3));\n',
            "js/p.js": (
                'import { story } from "./s.js";\nimport { h } from "./h.js";\n'
                "export function panel(n) {\n  return h(n > 0 ? story(n - 1) : 'end');\n}\n"
            ),
            "js/s.js": (
                'import { panel } from "./p.js";\nimport { h } from "./h.js";\n'
                "export function story(n) {\n  return h(panel(n));\n}\n"
            ),
            "js/h.js": "export const h = (x) => `<${x}>`;\n",
        },
    )
    assert out.strip() == "<" * 7 + "end" + ">" * 7


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("export let n = 1;\n", "let or var"),
        ("export default 3;\n", "export"),
        ('const m = import("./x.js");\n', "dynamic import"),
        ("console.log(import.meta.url);\n", "import.meta.url"),
        ("await 1;\n", "await"),
        ('import x from "./x.js";\n', "default import"),
        ('import { nope } from "./x.js";\n', "does not export"),
        ('import { h } from "preact";\n', "not a module of the folder"),
    ],
)
def test_forms_it_does_not_rewrite_are_refused(text: str, reason: str) -> None:
    sources = {"js/main.js": text, "js/x.js": "export const y = 1;\n"}
    with pytest.raises(Unbundleable, match=reason):
        bundle(sources, "js/main.js")


def test_a_page_whose_modules_cannot_be_bundled_preloads_them_all(tmp_path: Path) -> None:
    (tmp_path / "js").mkdir()
    (tmp_path / "js" / "main.js").write_text('import { a } from "./a.js";\nexport let x = a;\n')
    (tmp_path / "js" / "a.js").write_text('import { b } from "./b.js";\nexport const a = b;\n')
    (tmp_path / "js" / "b.js").write_text("export const b = 1;\n")
    assets = Assets(tmp_path)
    html = assets.page('<head><script type="module" src="/static/js/main.js"></script></head>')
    assert assets.unbundled is not None and "let" in assets.unbundled
    preloads = html.count('rel="modulepreload"')
    assert preloads == 2
    for rel in ("js/a.js", "js/b.js"):
        assert f'href="/static/{rel}?v={assets.files[rel].version}"' in html
    assert f'src="/static/js/main.js?v={assets.files["js/main.js"].version}"' in html


def test_a_page_with_two_module_scripts_is_not_bundled(tmp_path: Path) -> None:
    """Both scripts must share their modules (one i18n.js, one dictionary), which two
    bundles would not."""
    (tmp_path / "js").mkdir()
    (tmp_path / "js" / "a.js").write_text('import { c } from "./c.js";\nc.n += 1;\n')
    (tmp_path / "js" / "b.js").write_text('import { c } from "./c.js";\nc.n += 1;\n')
    (tmp_path / "js" / "c.js").write_text("export const c = { n: 0 };\n")
    assets = Assets(tmp_path)
    html = assets.page(
        '<head><script type="module" src="/static/js/a.js"></script>\n'
        '<script type="module" src="/static/js/b.js"></script></head>'
    )
    assert "/static/bundle/" not in html
    assert html.count('rel="modulepreload"') == 1  # c.js


def test_every_page_of_the_client_is_bundled_with_its_whole_graph() -> None:
    """The client's own modules stay in the forms the bundle rewrites; if one does not
    (a helper's new module), this says which and why."""
    assets = Assets(STATIC)
    pages = 0
    for page in sorted(STATIC.glob("*.html")):
        html = assets.page(page.read_text(encoding="utf-8"))
        if 'type="module"' not in html:
            continue
        pages += 1
        assert assets.unbundled is None, f"{page.name}: {assets.unbundled}"
        assert 'rel="modulepreload"' not in html
        assert 'type="module" src="/static/bundle/' in html, page.name
    assert pages >= 5
    room = assets.page((STATIC / "room.html").read_text(encoding="utf-8"))
    assert "/static/bundle/js/room.js?v=" in room
    body = assets.files["bundle/js/room.js"].body.decode()
    graph = assets.graph("js/room.js")
    assert len(graph) > 20
    for rel in graph:
        assert f'{REGISTRY}["{rel}"] = ' in body, f"{rel} is missing from the room bundle"
