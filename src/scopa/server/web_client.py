"""The browser client's files as the room serves them: read once, compressed once, named by
their content so a browser may keep them for a year.

Every file of ``web/`` is served at ``/v/<version>/<path>``, where ``version`` is a hash of the
whole client: a new release changes it, so such a URL never names two contents and is sent
``immutable``. The page itself (``/``) is the only file a browser must ask again each time
(``no-cache``): its links name the versioned files, it lists every module as a
``modulepreload`` and the first things the client fetches (its language's catalogue, who is
logged in) as ``preload``, so that they all load in parallel instead of one after the other.
The relative imports between modules keep the version, since they resolve against the module's
own URL. The unversioned paths (``/js/main.js``) still answer, revalidated by ETag.

Files are gzipped once at startup (the standard library's ``gzip``, level 9) and sent so to a
browser that accepts it; a file that would not shrink is sent as it is. The service worker
(``sw.js``) is served from its versioned URL with ``Service-Worker-Allowed: /`` so that it may
control the whole site. Offline play's worker (``js/offlineworker.js``) is sent with a policy of
its own, the only one that lets WebAssembly compile (``http_guards.WORKER_POLICY``).
"""

from __future__ import annotations

import gzip
import hashlib
import mimetypes
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from starlette.datastructures import Headers
from starlette.exceptions import HTTPException
from starlette.responses import Response
from starlette.types import Receive, Scope, Send

from .http_guards import WORKER_POLICY

IMMUTABLE: Final = "public, max-age=31536000, immutable"
REVALIDATE: Final = "no-cache"
LANGUAGES: Final = ("en", "it", "es", "sl", "tr")
"""The catalogues the page may preload; the first is the default, as in i18n.js."""
PAGE: Final = "index.html"
SERVICE_WORKER: Final = "sw.js"
OFFLINE_WORKER: Final = "js/offlineworker.js"
"""Offline play's Web Worker, sent with a policy of its own (http_guards.WORKER_POLICY)."""
TYPES: Final = {
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".html": "text/html; charset=utf-8",
    ".json": "application/json",
    ".webmanifest": "application/manifest+json",
    ".svg": "image/svg+xml",
    ".png": "image/png",
}
LINKED = re.compile(r'(href|src)="([^"#:?]+)"')
"""A relative link in the page, to a file of the client (data: and #/ links have a colon or
hash, and are left alone)."""
IMPORTED = re.compile(r'^(?:import|export)\b[^;]*?["\']\./([\w.-]+\.js)["\']', re.M)
"""A module's static import of a module beside it (the client's are all in js/)."""
ENTRY = re.compile(r'<script type="module" src="([^"]+)"')


@dataclass(frozen=True)
class Served:
    """One file as it goes out: its bytes, gzipped when that is smaller, its type and tag."""

    body: bytes
    gzipped: bytes | None
    media_type: str
    etag: str


def served(body: bytes, name: str) -> Served:
    packed = gzip.compress(body, compresslevel=9, mtime=0)
    kind = TYPES.get(Path(name).suffix) or mimetypes.guess_type(name)[0]
    return Served(
        body=body,
        gzipped=packed if len(packed) < len(body) else None,
        media_type=kind or "application/octet-stream",
        etag='"' + hashlib.sha256(body).hexdigest()[:20] + '"',
    )


def client_version(files: dict[str, bytes]) -> str:
    """A short hash of every file's name and content: the client's version.

    >>> client_version({"a.js": b"1"}) == client_version({"a.js": b"1"}) != client_version(
    ...     {"a.js": b"2"})
    True
    """
    digest = hashlib.sha256()
    for name in sorted(files):
        digest.update(name.encode() + b"\0" + files[name] + b"\0")
    return digest.hexdigest()[:12]


def preferred_language(accept_language: str) -> str:
    """The first of the client's languages that the browser asks for, as i18n.js picks it.

    >>> preferred_language("sl-SI,sl;q=0.9,en;q=0.8"), preferred_language("fr, de"), \
preferred_language("")
    ('sl', 'en', 'en')
    """
    for part in accept_language.split(","):
        base = part.split(";")[0].strip()[:2].lower()
        if base in LANGUAGES:
            return base
    return LANGUAGES[0]


def module_graph(files: dict[str, bytes], entries: list[str]) -> set[str]:
    """Every module the page's ``entries`` import, themselves included, by static imports.

    >>> sorted(module_graph({"js/a.js": b'import { b } from "./b.js";', "js/b.js": b"",
    ...     "js/c.js": b""}, ["js/a.js"]))
    ['js/a.js', 'js/b.js']
    """
    found: set[str] = set()
    waiting = [entry for entry in entries if entry in files]
    while waiting:
        module = waiting.pop()
        if module in found:
            continue
        found.add(module)
        folder = module.rpartition("/")[0]
        for name in IMPORTED.findall(files[module].decode()):
            waiting.append(f"{folder}/{name}" if folder else name)
    return found


class WebClient:
    """The ASGI app of the client's files, mounted at ``/`` after every other route."""

    def __init__(self, folder: Path) -> None:
        found = {
            path.relative_to(folder).as_posix(): path.read_bytes()
            for path in sorted(folder.rglob("*"))
            if path.is_file()
        }
        self.version = client_version(found)
        self.prefix = f"/v/{self.version}/"
        self.files = {name: served(body, name) for name, body in found.items()}
        template = found[PAGE].decode()
        self.pages = {
            language: served(self._page(template, found, language).encode(), PAGE)
            for language in LANGUAGES
        }

    def _page(self, template: str, files: dict[str, bytes], language: str) -> str:
        """The page with its links versioned and its first fetches listed up front."""

        def versioned(match: re.Match[str]) -> str:
            attribute, target = match.groups()
            return f'{attribute}="{self.prefix}{target}"' if target in files else match[0]

        page = LINKED.sub(versioned, template)
        modules = sorted(module_graph(files, ENTRY.findall(template)))
        early = [f'<link rel="modulepreload" href="{self.prefix}{name}">' for name in modules]
        # fetch()'s own mode (cors, same-origin credentials) is what crossorigin asks for, so
        # the client's fetch finds the preloaded answer instead of asking again.
        early += [
            f'<link rel="preload" href="{self.prefix}i18n/{language}.json" as="fetch" '
            "crossorigin>",
            '<link rel="preload" href="/api/account" as="fetch" crossorigin>',
        ]
        return page.replace("</head>", "\n".join(early) + "\n</head>", 1)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            # A socket to a path no route serves (a typo, a doubled slash) reaches this mount
            # too: refused before it opens (the handshake's 403), as Starlette's router does.
            await send({"type": "websocket.close", "code": 1008,
                        "reason": f"there is no socket at {scope['path']}"})
            return
        if scope["method"] not in ("GET", "HEAD"):
            raise HTTPException(405, headers={"Allow": "GET, HEAD"})
        path: str = scope["path"]
        headers = Headers(scope=scope)
        cache = REVALIDATE
        extra: dict[str, str] = {}
        if path.startswith("/v/"):
            version, _, path = path.removeprefix("/v/").partition("/")
            # Another version's name (a page of the release before) still gets the file,
            # but not to keep: under that name it is not what it was.
            if version == self.version:
                cache = IMMUTABLE
        name = path.lstrip("/") or PAGE
        if name == PAGE:
            file = self.pages[preferred_language(headers.get("accept-language", ""))]
            extra["Vary"] = "Accept-Encoding, Accept-Language"
        elif name in self.files:
            file = self.files[name]
            extra["Vary"] = "Accept-Encoding"
        else:
            raise HTTPException(404)
        if name == SERVICE_WORKER:
            extra["Service-Worker-Allowed"] = "/"
        if name == OFFLINE_WORKER:
            extra["Content-Security-Policy"] = WORKER_POLICY
        response = self._response(file, headers, {"Cache-Control": cache, **extra})
        await response(scope, receive, send)

    @staticmethod
    def _response(file: Served, asked: Headers, headers: dict[str, str]) -> Response:
        headers["ETag"] = file.etag
        if file.etag in asked.get("if-none-match", ""):
            return Response(status_code=304, headers=headers)
        accepted = asked.get("accept-encoding", "")
        if file.gzipped is not None and "gzip" in accepted:
            headers["Content-Encoding"] = "gzip"
            return Response(file.gzipped, media_type=file.media_type, headers=headers)
        return Response(file.body, media_type=file.media_type, headers=headers)
