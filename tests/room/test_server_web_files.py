"""The web client's files as they go over the wire: gzipped, kept for a year under their
versioned names and revalidated under the others, the page never kept, and the page listing
everything the client's first view needs so the browser asks for it all at once.
(tests/web/test_web_app.py checks in Chromium that the service worker then serves a return
visit.)"""

from __future__ import annotations

import re
from pathlib import Path

import httpx
import pytest

from scopa.server.web_client import IMMUTABLE

from .server_support import anyio_backend, running_server, settings_for

pytestmark = pytest.mark.anyio
__all__ = ["anyio_backend"]

WEB = Path(__file__).resolve().parents[2] / "src" / "scopa" / "web"
GZIP = {"accept-encoding": "gzip"}
STATIC_IMPORT = re.compile(r'^(?:import|export)\b[^;]*?\bfrom\s+"\./([\w-]+\.js)"', re.M)


def statically_imported(entry: str) -> set[str]:
    """``entry`` and every module it imports with ``import ... from``, however deep: what the
    browser must fetch before the entry runs (an ``import()`` of a module on demand is not)."""
    found: set[str] = set()
    waiting = [entry]
    while waiting:
        name = waiting.pop()
        if name not in found:
            found.add(name)
            waiting.extend(STATIC_IMPORT.findall((WEB / "js" / name).read_text()))
    return found


async def test_files_are_gzipped_and_kept_under_their_versioned_names(tmp_path: Path) -> None:
    async with running_server(settings_for(tmp_path)) as server, httpx.AsyncClient(
        base_url=server.url
    ) as client:
        page = await client.get("/", headers=GZIP)
        assert page.status_code == 200
        # The page is asked again on every visit: it names the release's files.
        assert page.headers["cache-control"] == "no-cache"
        assert page.headers["content-encoding"] == "gzip"
        assert "accept-language" in page.headers["vary"].lower()
        html = page.text
        entry = re.search(r'<script type="module" src="(/v/(\w+)/js/main\.js)"', html)
        assert entry is not None, html
        prefix = f"/v/{entry[2]}/"

        # Every module the client imports at start is preloaded, so none waits for another;
        # a module loaded on demand (and what only it imports) is not.
        preloaded = set(re.findall(r'rel="modulepreload" href="([^"]+)"', html))
        imported = {f"{prefix}js/{name}" for name in statically_imported("main.js")}
        assert preloaded == imported
        assert f"{prefix}js/puzzles.js" not in preloaded
        # ... and so are the catalogue and who is logged in, which the first view fetches.
        assert f'href="{prefix}i18n/en.json" as="fetch" crossorigin' in html
        assert 'href="/api/account" as="fetch" crossorigin' in html
        in_slovenian = await client.get("/", headers={"accept-language": "sl-SI,sl;q=0.9"})
        assert f'href="{prefix}i18n/sl.json" as="fetch"' in in_slovenian.text
        for link in ("style.css", "manifest.webmanifest", "icons/icon.svg"):
            assert f'href="{prefix}{link}"' in html

        module = await client.get(entry[1], headers=GZIP)
        assert module.status_code == 200
        assert module.headers["cache-control"] == IMMUTABLE
        assert module.headers["content-encoding"] == "gzip"
        assert module.headers["content-type"].startswith("text/javascript")
        # httpx unpacks it: what arrives is the file itself, in fewer bytes.
        source = (WEB / "js" / "main.js").read_bytes()
        assert module.content == source
        assert int(module.headers["content-length"]) < len(source) / 1.5
        assert module.headers["x-content-type-options"] == "nosniff"

        plain = await client.get(entry[1], headers={"accept-encoding": "identity"})
        assert "content-encoding" not in plain.headers
        assert plain.content == source

        # Under its plain name a file is revalidated, and a copy still good costs a 304.
        unversioned = await client.get("/js/main.js", headers=GZIP)
        assert unversioned.headers["cache-control"] == "no-cache"
        again = await client.get(
            "/js/main.js", headers={"if-none-match": unversioned.headers["etag"]}
        )
        assert again.status_code == 304
        assert again.content == b""
        # A page of another release gets the file, but not to keep under that name.
        stale = await client.get("/v/000000000000/js/main.js")
        assert stale.status_code == 200
        assert stale.headers["cache-control"] == "no-cache"

        worker = await client.get(f"{prefix}sw.js")
        assert worker.headers["service-worker-allowed"] == "/"
        manifest = (await client.get(f"{prefix}manifest.webmanifest")).json()
        assert manifest["start_url"] == "/"
        assert {icon["sizes"] for icon in manifest["icons"]} >= {"192x192", "512x512"}
        assert any(icon["purpose"] == "maskable" for icon in manifest["icons"])
        for icon in manifest["icons"]:
            drawn = await client.get(prefix + icon["src"])
            assert drawn.status_code == 200
            assert drawn.headers["content-type"] == icon["type"]

        policy = page.headers["content-security-policy"]
        assert "manifest-src 'self'" in policy
        assert "worker-src 'self'" in policy
        # The lobby's answers are the API's own: not the files' caching.
        tables = await client.get("/api/tables", headers=GZIP)
        assert "immutable" not in tables.headers.get("cache-control", "")

