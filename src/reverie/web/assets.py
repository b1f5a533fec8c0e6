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
import logging
import mimetypes
import re
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from starlette.datastructures import Headers
from starlette.requests import Request
from starlette.responses import Response
from starlette.types import Receive, Scope, Send

from reverie.web.bundle import Unbundleable, bundle, resolve

log = logging.getLogger("reverie.assets")

#: Where the folder is served.
PREFIX = "/static/"
#: Seconds between two looks at the files' modification times.
REFRESH_EVERY = 1.0
#: The client's languages (js/i18n.js LANGS).
LANGS = ("en", "ru", "it")
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
_STYLESHEET = re.compile(r"""<link rel="stylesheet" href="(/static/[^"?#]+\.css)">""")
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

    def __init__(self, root: Path, refresh_every: float = REFRESH_EVERY) -> None:
        self.root = root
        self.refresh_every = refresh_every
        self.files: dict[str, Asset] = {}
        self._stamp: tuple[tuple[str, int, int], ...] = ()
        #: Bundles made for pages since the last reading: what they join -> their path
        #: (None: the modules could not be bundled, they are preloaded instead).
        self._made: dict[tuple[str, ...], str | None] = {}
        #: Why the last page's modules could not be bundled (None: they were).
        self.unbundled: str | None = None
        self._looked = time.monotonic()
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
        self._made = {}
        self.imap = self._import_map()
        digest = hashlib.sha256(self.imap.encode()).digest()
        self.script_hash = "'sha256-" + base64.b64encode(digest).decode() + "'"
        self._prepare_pages()
        return True

    def _prepare_pages(self) -> None:
        """Make every page's joined stylesheet and bundle now, not at its first visit:
        behind one proxy, a page served by one process names files that the browser's
        next request may ask of another process, which must have them already."""
        for rel in [r for r in self.files if r.endswith(".html")]:
            self.page(self.files[rel].body.decode())

    def refresh_due(self) -> None:
        """``refresh``, at most once a second (looking costs a stat of every file: a
        crowd opening pages at once looks once)."""
        now = time.monotonic()
        if now - self._looked >= self.refresh_every:
            self._looked = now
            self.refresh()

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
            target = resolve(rel, m[1] or m[2])  # None: a bare name, or another site
            if target is not None and target in self.files:
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

    def page(self, html: str, langs: Iterable[str] = (), fetches: Iterable[str] = ()) -> str:
        """``html`` with versioned addresses, its stylesheets joined into one file, its
        modules into one (or, when they cannot be, preloaded), the import map (the
        Content-Security-Policy must allow ``script_hash``) and a preload of the
        dictionaries of ``langs`` and of ``fetches`` (what the page's scripts fetch first
        thing: the answers are there when they ask)."""
        html = self._join_styles(html)

        def version_tag(m: re.Match[str]) -> str:
            return _ATTR_URL.sub(lambda a: f'{a[1]}="{self.url(a[2])}"', m[0])

        entry = _ENTRY.search(html)
        if entry is None:
            return _TAG.sub(version_tag, html)
        rel = entry[1].removeprefix(PREFIX)
        # Two module scripts would share modules (one dictionary, one socket): as
        # modules they do, as two bundles they would not. Such a page is not bundled.
        joined = self._bundle(rel) if len(_ENTRY.findall(html)) == 1 else None
        head = [f'<script type="importmap">{self.imap}</script>']
        dicts = [
            self.url(f"{PREFIX}i18n/{x}.json") for x in langs if f"i18n/{x}.json" in self.files
        ]
        head += [
            f'<link rel="preload" as="fetch" crossorigin href="{d}">' for d in [*dicts, *fetches]
        ]
        if joined is not None:
            script = entry[0].replace(entry[1], PREFIX + joined)
        else:
            script = entry[0]
            head += [
                f'<link rel="modulepreload" href="{self.url(PREFIX + dep)}">'
                for dep in self.graph(rel)[1:]
            ]
        html = html[: entry.start()] + "\n".join(head) + "\n" + script + html[entry.end() :]
        return _TAG.sub(version_tag, html)

    def _bundle(self, entry: str) -> str | None:
        """The path of ``entry``'s bundle, made at the first page that needs it."""
        key = ("js", entry)
        if key not in self._made:
            rel: str | None = f"bundle/{entry}"
            try:
                sources = {p: a.body.decode() for p, a in self.files.items() if p.endswith(".js")}
                self.files[f"bundle/{entry}"] = _asset(
                    f"bundle/{entry}", bundle(sources, entry).encode()
                )
                self.unbundled = None
            except Unbundleable as exc:
                log.warning("the modules of %s are served one by one: %s", entry, exc)
                self.unbundled = str(exc)
                rel = None
            self._made[key] = rel
        return self._made[key]

    def _join_styles(self, html: str) -> str:
        """The page's stylesheets as one file (in their order), linked where the first was."""
        links = list(_STYLESHEET.finditer(html))
        paths = tuple(m[1].removeprefix(PREFIX) for m in links)
        if len(links) < 2 or any(p not in self.files for p in paths):
            return html
        key = ("css", *paths)
        if key not in self._made:
            body = b"\n".join(self.files[p].body for p in paths)
            rel = f"bundle/css/{hashlib.sha256(body).hexdigest()[:12]}.css"
            self.files[rel] = _asset(rel, body)
            self._made[key] = rel
        joined = f'<link rel="stylesheet" href="{PREFIX}{self._made[key]}">'
        for m in reversed(links[1:]):
            end = m.end() + (1 if html[m.end() : m.end() + 1] == "\n" else 0)
            html = html[: m.start()] + html[end:]
        return html[: links[0].start()] + joined + html[links[0].end() :]

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


def page_response(request: Request, html: str, fetches: Iterable[str] = ()) -> Response:
    """A page of the client (the app's ``Assets`` in ``app.state.assets``), its head
    rewritten (``fetches``: addresses its scripts fetch at once, preloaded); never cached
    without asking, since it names the versions of the rest."""
    assets: Assets = request.app.state.assets
    assets.refresh_due()  # an edit of the client shows at the next page load
    langs = dictionaries(request.headers.get("accept-language", ""))
    return Response(
        assets.page(html, langs, fetches),
        media_type="text/html",
        headers={"cache-control": "no-cache", "vary": "Accept-Language"},
    )


def dictionaries(accept_language: str) -> list[str]:
    """The dictionaries a page's scripts will fetch first, as far as the server can tell:
    English (every other language falls back to it) and the browser's first language we
    have (js/i18n.js picks it unless the player chose another before)."""
    out = ["en"]
    for item in accept_language.split(","):
        code = item.split(";")[0].strip()[:2].lower()
        if code in LANGS:
            if code not in out:
                out.append(code)
            break
    return out


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
