"""The browser client's files as a phone on a slow network wants them, with no build step.

The client is plain ES modules, stylesheets, fonts and dictionaries in ``static/``. Served
as they are, a room page on slow 4G spends seconds on round trips: the browser finds each
module's imports only once it has that module (six levels deep), and on a second visit it
asks again about every file. So the server reads the folder once and then:

- gives every file a version (the first 12 hex digits of its SHA-256) and serves
  ``/static/<path>?v=<version>`` as immutable for a year: a returning player's browser
  takes every file from its cache without asking. Any other request for a static file
  (no version, or an old one) is answered with the current file, an ETag and
  ``no-cache``, so it is revalidated;
- rewrites each page's head: stylesheets, icons and the entry module get their versioned
  addresses; an import map sends every module's (and dictionary's) plain address to its
  versioned one, so that the modules' own relative imports reach the versioned, cached
  files unchanged; and a ``modulepreload`` link for every module the entry imports,
  directly or not (read from the sources' ``import … from`` lines), lets the browser
  fetch them all at once instead of level by level;
- rewrites ``url(/static/…)`` in stylesheets to versioned addresses (fonts, images);
- keeps a gzip copy of every text file, sent to a browser that accepts it.

A file edited while the server runs is picked up at the next page load (each page
request looks at the files' modification times), so ``make run`` still shows an edit
after a reload. The import map is an inline script: the page's Content-Security-Policy
allows it by its hash (``Asset.csp``), and no other inline script.
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import json
import mimetypes
import posixpath
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from starlette.datastructures import Headers
from starlette.requests import Request
from starlette.responses import Response
from starlette.types import Receive, Scope, Send

#: Where the folder is served.
PREFIX = "/static/"
#: Versioned addresses never change content: cached for a year without asking again.
IMMUTABLE = "public, max-age=31536000, immutable"
#: Anything else is revalidated (ETag) on every use.
REVALIDATE = "no-cache"
#: Text files worth a gzip copy (fonts and PNGs are compressed already).
_TEXT = (".js", ".css", ".json", ".svg", ".html", ".webmanifest", ".txt", ".md", ".ts")
#: Files below this size are sent as they are (gzip's header would eat the gain).
_MIN_GZIP = 512
#: Static imports and re-exports: ``import {a} from "./x.js"``, ``import "./x.js"``,
#: ``export {a} from "./x.js"``, ``export * from "./x.js"`` (at the start of a line, as
#: the formatter writes them; a JSDoc ``import("./x.js")`` type is no import).
_IMPORT = re.compile(
    r"""^(?:import|export)\b[^;"'()]*?\bfrom\s*["']([^"']+)["']|^import\s*["']([^"']+)["']""",
    re.M,
)
_CSS_URL = re.compile(r"""url\(\s*(["']?)(/static/[^)"'?#]+)\1\s*\)""")
_TAG = re.compile(r"<(?:link|script)\b[^>]*>", re.I)
_ATTR_URL = re.compile(r"""\b(href|src)="(/static/[^"?#]+)\"""")
_ENTRY = re.compile(r"""<script\b[^>]*\btype="module"[^>]*\bsrc="(/static/[^"?#]+)[^"]*"[^>]*>""")
_NO_VERSION = (".webmanifest",)  # an installed app's manifest keeps its address


@dataclass(frozen=True)
class Asset:
    """One file of the folder as served."""

    body: bytes
    gz: bytes | None
    version: str
    media_type: str

    @property
    def etag(self) -> str:
        return f'"{self.version}"'


class Assets:
    """The static folder, read into memory with versions, gzip copies and the module
    graph; an ASGI app serving it under ``/static``."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.files: dict[str, Asset] = {}
        self._stamp: tuple[tuple[str, int, int], ...] = ()
        #: The import map (JSON) and its CSP source (``'sha256-…'``).
        self.imap = ""
        self.script_hash = ""
        self.refresh()

    # ---------------------------------------------------------------- loading

    def refresh(self) -> bool:
        """Read the folder again if a file was added, removed or changed since the last
        look (by modification time and size); True when it was."""
        stamp = tuple(self._scan())
        if stamp == self._stamp:
            return False
        raw = {rel: (self.root / rel).read_bytes() for rel, _, _ in stamp}
        files: dict[str, Asset] = {}
        # Stylesheets name fonts and images by versioned address: versions of those first.
        for rel, body in sorted(raw.items(), key=lambda kv: kv[0].endswith(".css")):
            if rel.endswith(".css"):
                text = body.decode()
                text = _CSS_URL.sub(lambda m: f"url({self._versioned(files, m[2])})", text)
                body = text.encode()
            files[rel] = _asset(rel, body)
        self.files = files
        self._stamp = stamp
        self.imap = self._import_map()
        digest = hashlib.sha256(self.imap.encode()).digest()
        self.script_hash = "'sha256-" + base64.b64encode(digest).decode() + "'"
        return True

    def _scan(self) -> Iterable[tuple[str, int, int]]:
        for path in sorted(self.root.rglob("*")):
            if path.is_file():
                st = path.stat()
                yield path.relative_to(self.root).as_posix(), st.st_mtime_ns, st.st_size

    @staticmethod
    def _versioned(files: dict[str, Asset], url: str) -> str:
        asset = files.get(url.removeprefix(PREFIX))
        return f"{url}?v={asset.version}" if asset is not None else url

    def url(self, url: str) -> str:
        """``/static/<path>`` with its version (unchanged for a file that is not there)."""
        if url.endswith(_NO_VERSION):
            return url
        return self._versioned(self.files, url)

    # ---------------------------------------------------------------- modules

    def imports(self, rel: str) -> list[str]:
        """The modules ``rel`` imports statically (paths under the folder)."""
        asset = self.files.get(rel)
        if asset is None:
            return []
        found = []
        for m in _IMPORT.finditer(asset.body.decode()):
            spec = m[1] or m[2]
            if spec.startswith(PREFIX):
                target = spec.removeprefix(PREFIX)
            elif spec.startswith(("./", "../")):
                target = posixpath.normpath(posixpath.join(posixpath.dirname(rel), spec))
            else:
                continue  # a bare name: only the import map could resolve it
            if target in self.files:
                found.append(target)
        return found

    def graph(self, entry: str) -> list[str]:
        """Every module ``entry`` needs, directly or not, ``entry`` first, then in the
        order a browser finds them (breadth first)."""
        seen = [entry]
        i = 0
        while i < len(seen):
            for dep in self.imports(seen[i]):
                if dep not in seen:
                    seen.append(dep)
            i += 1
        return seen

    def _import_map(self) -> str:
        """Every module's and dictionary's plain address to its versioned one."""
        imports = {
            PREFIX + rel: self.url(PREFIX + rel)
            for rel in self.files
            if rel.endswith(".js") or (rel.startswith("i18n/") and rel.endswith(".json"))
        }
        return json.dumps({"imports": imports}, separators=(",", ":"), sort_keys=True)

    # ---------------------------------------------------------------- pages

    def page(self, html: str) -> str:
        """``html`` with versioned addresses, the import map and the module preloads (the
        Content-Security-Policy must allow ``script_hash``)."""
        entry = _ENTRY.search(html)

        def version_tag(m: re.Match[str]) -> str:
            return _ATTR_URL.sub(lambda a: f'{a[1]}="{self.url(a[2])}"', m[0])

        html = _TAG.sub(version_tag, html)
        if entry is None:
            return html
        modules = self.graph(entry[1].removeprefix(PREFIX))
        head = [f'<script type="importmap">{self.imap}</script>']
        head += [
            f'<link rel="modulepreload" href="{self.url(PREFIX + rel)}">' for rel in modules[1:]
        ]
        at = _ENTRY.search(html)
        assert at is not None  # the entry script is still there, with its new address
        return html[: at.start()] + "\n".join(head) + "\n" + html[at.start() :]

    # ---------------------------------------------------------------- serving

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Serve ``/static/<path>`` (mounted: the path is what follows the mount)."""
        rel = scope["path"].removeprefix(scope.get("root_path", "")).lstrip("/")
        if scope["method"] not in ("GET", "HEAD"):
            await Response("Method Not Allowed", 405, headers={"allow": "GET, HEAD"})(
                scope, receive, send
            )
            return
        response = self.response(rel, Headers(scope=scope), scope.get("query_string", b""))
        await response(scope, receive, send)

    def response(self, rel: str, headers: Headers, query: bytes) -> Response:
        """The answer to a GET of static file ``rel``."""
        asset = self.files.get(rel)
        if asset is None or ".." in rel.split("/"):
            return Response("Not Found", 404, media_type="text/plain")
        wanted = dict(
            pair.split("=", 1) for pair in query.decode().split("&") if pair.count("=") == 1
        )
        cache = IMMUTABLE if wanted.get("v") == asset.version else REVALIDATE
        out = {"cache-control": cache, "etag": asset.etag}
        if asset.gz is not None:
            out["vary"] = "Accept-Encoding"
        if asset.etag in [t.strip() for t in headers.get("if-none-match", "").split(",")]:
            return Response(status_code=304, headers=out)
        body = asset.body
        if asset.gz is not None and "gzip" in headers.get("accept-encoding", ""):
            body = asset.gz
            out["content-encoding"] = "gzip"
        return Response(body, headers=out, media_type=asset.media_type)


def page_response(request: Request, html: str) -> Response:
    """A page of the client (the app's ``Assets`` in ``app.state.assets``), its head
    rewritten; never cached without asking, since it names the versions of the rest."""
    assets: Assets = request.app.state.assets
    assets.refresh()  # an edit of the client shows at the next page load
    return Response(
        assets.page(html), media_type="text/html", headers={"cache-control": "no-cache"}
    )


def _asset(rel: str, body: bytes) -> Asset:
    media = mimetypes.guess_type(rel)[0] or "application/octet-stream"
    if rel.endswith(".webmanifest"):
        media = "application/manifest+json"
    elif rel.endswith(".woff2"):
        media = "font/woff2"
    elif rel.endswith(".js"):
        media = "text/javascript"
    if media.startswith("text/") or media.endswith(("json", "javascript")):
        media += "; charset=utf-8"
    gz = None
    if rel.endswith(_TEXT) and len(body) >= _MIN_GZIP:
        packed = gzip.compress(body, compresslevel=9, mtime=0)
        gz = packed if len(packed) < len(body) else None
    return Asset(body, gz, hashlib.sha256(body).hexdigest()[:12], media)
