"""Offline play in a real Chromium (issue 37, items 2 and 6): "Play offline" downloads the
runtime into a Cache Storage bucket of its own with its progress in bytes, then, with the network
cut, a match against the computer runs in a Web Worker (Pyodide and the scopa wheel from that
bucket) on the same table as online: cards played, the bot's answers, a hint. A file corrupted
in the bucket is found by its hash and fetched again, never run (and with no network it is
refused with a sentence); the remove button empties the bucket; a room without the runtime says
offline play is not installed. Screenshots at 1280x800 and 320x640 (tests/artifacts/web)."""

from __future__ import annotations

import json
import re
import time
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from .web_support import DESKTOP, Watched, open_page, screenshot, version

RUNTIME_FILES = 8
"""What /api/offline lists: Pyodide's 7 files and the wheel."""

WATCH_PROGRESS = """
window.progressSeen = [];
new MutationObserver(() => {
  const text = document.getElementById("offline-progress-text")?.textContent;
  if (text && window.progressSeen.at(-1) !== text) window.progressSeen.push(text);
}).observe(document, { subtree: true, childList: true, characterData: true });
"""
"""Every progress line the page shows while it downloads, kept for the test to read."""

BUCKET = """async () => {
  const names = (await caches.keys()).filter((name) => name.startsWith("offline-runtime:"));
  const files = {};
  for (const name of names) {
    for (const request of await (await caches.open(name)).keys()) {
      files[new URL(request.url).pathname] = name;
    }
  }
  return { names, files: Object.keys(files).sort() };
}"""
"""The offline buckets the browser keeps, and every URL in them."""


def offline_page(browser: Browser, base: str, worker: bool = False) -> Watched:
    def before(page: Page) -> None:
        page.add_init_script(WATCH_PROGRESS)

    return open_page(browser, f"{base}/#/offline", viewport=DESKTOP, before=before,
                     worker=worker)


def check_console(watched: Watched, expected: str | None = None) -> None:
    """No error in the page's or the worker's console (a policy's refusal among them), but
    the screen's own questions to the room (/api/offline, who is logged in) failing while the
    network is cut, and what ``expected`` matches."""
    allowed = (r"/api/(offline|account)\b.*ERR_INTERNET_DISCONNECTED|^Failed to load "
               r"resource: net::ERR_INTERNET_DISCONNECTED")
    errors = [error for error in watched.errors if not re.search(allowed, error)
              and not (expected and re.search(expected, error))]
    assert errors == [], errors


def download(page: Page) -> None:
    button = page.locator("#offline-download")
    expect(button).to_be_enabled()
    expect(button).to_contain_text("Download for offline play")
    button.click()
    expect(page.locator("#offline-note")).to_have_text(
        "Downloaded and checked: you can play with no network now.")
    expect(page.locator("#offline-remove")).to_be_visible()


def start_match(page: Page, level: str) -> None:
    page.select_option("#offline-preset", "scopa")
    page.select_option("#offline-level", level)
    page.fill("#offline-target", "1")
    page.click("#offline-play")
    page.wait_for_selector("#board .hand .card svg")


def my_turn(page: Page) -> None:
    page.wait_for_selector(".hand button.playable")


def play_and_see_the_answer(page: Page) -> None:
    """A card played through the table, then the bot's answer drawn (two versions on)."""
    my_turn(page)
    before = int(version(page))
    page.click(".hand button.playable >> nth=0")
    if page.locator(".options .option").count():
        page.click(".options .option >> nth=0")
    page.wait_for_function(
        "v => Number(document.querySelector('#board')?.dataset.version) >= v + 2", arg=before)


def test_play_offline_downloads_then_plays_a_bot_with_no_network(
    browser: Browser, web_server: str
) -> None:
    base = web_server.rstrip("/")
    watched = offline_page(browser, base, worker=True)
    page = watched.page
    # The service worker controls the page, so the worker's script is kept with the shell.
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    offered = page.evaluate("fetch('/api/offline').then((answer) => answer.json())")
    assert offered["installed"] is True
    # The download's size is its bytes on the wire (gzipped), beside what they unpack to.
    assert offered["wire"] < offered["bytes"]
    status = page.locator("#offline-status")
    expect(status).to_contain_text("It needs one download of")
    shown = [float(mb) for mb in re.findall(r"([\d.]+) MB", status.inner_text())]
    assert shown == [pytest.approx(offered["wire"] / 1e6, abs=0.05),
                     pytest.approx(offered["bytes"] / 1e6, abs=0.05)], status.inner_text()
    button = page.locator("#offline-download").inner_text()
    assert float(re.findall(r"\(([\d.]+) MB\)", button)[0]) == pytest.approx(
        offered["wire"] / 1e6, abs=0.05), button
    download(page)
    seen = page.evaluate("window.progressSeen")
    # The progress counts the bytes decoded, toward what the files unpack to.
    total = f"{offered['bytes']:,}"
    assert seen and seen[-1] == f"{total} of {total} bytes, unpacked", seen
    assert len(seen) >= 3, seen  # bytes counted as they came, not only at the end
    bucket = page.evaluate(BUCKET)
    assert len(bucket["names"]) == 1
    assert bucket["files"] == sorted(["/api/offline", *(f"/offline/{name}"
                                                        for name in offered["files"])])
    assert len(offered["files"]) == RUNTIME_FILES

    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    page.context.set_offline(True)
    page.wait_for_function("() => !navigator.onLine")
    start_match(page, "master")
    # The same table as online: the bar, the felt, the hand, the hint button; no chat.
    expect(page.locator("#turn")).to_be_visible()
    assert page.locator("#chat-button").count() == 0
    play_and_see_the_answer(page)
    my_turn(page)
    page.click("#hint")
    expect(page.locator("#hint-text .hint-what")).to_be_visible()
    expect(page.locator(".hand .hinted")).to_have_count(1)
    play_and_see_the_answer(page)
    # Nothing of the runtime came from the network (the screen only asked the room, in vain,
    # whether it still offers it, when the network went).
    assert not [url for url in asked if "/offline/" in url], asked
    assert not [url for url in asked if "/api/" in url and not url.endswith("/api/offline")]

    screenshot(page, "offline-play-1280x800")
    check_console(watched)
    page.set_viewport_size({"width": 320, "height": 640})
    my_turn(page)
    screenshot(page, "offline-play-320x640")
    fits = page.evaluate("""() => {
      const board = document.getElementById("board").getBoundingClientRect();
      const cards = [...document.querySelectorAll(".hand .card, .table-cards .card")]
        .map((card) => card.getBoundingClientRect());
      const hidden = cards.filter((c) => c.right > innerWidth + 1 || c.bottom > innerHeight + 1
        || c.left < -1 || c.top < -1);
      return { width: board.width, height: board.height, hidden: hidden.length,
               cards: cards.length };
    }""")  # fmt: skip
    assert fits["hidden"] == 0 and fits["cards"] > 0, fits
    # The table is the screen: the offline notice is not shown over a table that plays.
    assert fits["width"] >= 300 and fits["height"] >= 600, fits
    expect(page.locator("#offline")).to_be_hidden()
    play_and_see_the_answer(page)

    # A new tab with no network: the service worker's shell opens the page, and offline play's
    # modules and worker, kept since the person asked for offline play, start a match again.
    tab = page.context.new_page()
    tab.set_viewport_size(DESKTOP)
    tab.goto(f"{base}/#/offline")
    expect(tab.locator("#offline-status")).to_contain_text("Offline play is ready")
    start_match(tab, "expert")
    play_and_see_the_answer(tab)


def test_a_corrupt_file_is_fetched_again_and_remove_empties_the_bucket(
    browser: Browser, web_server: str
) -> None:
    base = web_server.rstrip("/")
    page = offline_page(browser, base).page
    download(page)
    fetched: list[str] = []
    page.on("request", lambda request: fetched.append(request.url))
    corrupt = """async (path) => {
      const name = (await caches.keys()).find((n) => n.startsWith("offline-runtime:"));
      const cache = await caches.open(name);
      const kept = await cache.match(path);
      const body = new Uint8Array(await kept.arrayBuffer());
      body[body.length >> 1] ^= 0xff;  // one byte changed: same size, another hash
      await cache.put(path, new Response(body, { headers: kept.headers }));
    }"""
    page.evaluate(corrupt, "/offline/pyodide/pyodide.mjs")

    # With no network the damaged runtime is refused, and nothing of it runs.
    page.context.set_offline(True)
    page.wait_for_function("() => !navigator.onLine")
    page.click("#offline-play")
    expect(page.locator("#offline-problem")).to_contain_text("is damaged and was not run")
    assert page.locator("#board").count() == 0

    # Online, the same press finds it by its hash, fetches it again, and plays.
    page.context.set_offline(False)
    page.wait_for_function("() => navigator.onLine")
    page.click("#offline-play")
    page.wait_for_selector("#board .hand .card svg")
    again = [url for url in fetched if url.endswith("/offline/pyodide/pyodide.mjs")]
    assert len(again) == 1, fetched
    # Only the damaged file came again.
    assert not [url for url in fetched if "/offline/" in url and url not in again], fetched
    play_and_see_the_answer(page)

    # Back to the lobby (the worker ends with the table), and in by the lobby's button.
    page.click("#menu-button")
    page.click("#table-menu a[href='#/']")
    page.click("#offline-link")
    page.click("#offline-remove")
    expect(page.locator("#offline-note")).to_have_text(
        "Offline play was removed from this browser.")
    assert page.evaluate(BUCKET) == {"names": [], "files": []}
    expect(page.locator("#offline-download")).to_be_enabled()
    expect(page.locator("#offline-play")).to_be_disabled()


def test_a_room_without_the_runtime_says_offline_play_is_not_installed(
    browser: Browser, web_server: str
) -> None:
    base = web_server.rstrip("/")
    absent: dict[str, Any] = {"installed": False, "detail": "offline play is not installed",
                              "pyodide": None, "wheel": None, "bytes": 0, "wire": 0,
                              "files": {}}

    def before(page: Page) -> None:
        page.route("**/api/offline", lambda route: route.fulfill(
            status=200, content_type="application/json", body=json.dumps(absent)))

    page = open_page(browser, f"{base}/", viewport=DESKTOP, before=before).page
    page.click("#offline-link")
    expect(page.locator("#offline-status")).to_have_text(
        "Offline play is not installed on this server.")
    expect(page.locator("#offline-download")).to_be_disabled()
    expect(page.locator("#offline-download")).to_have_text(
        "Offline play is not installed on this server.")
    expect(page.locator("#offline-play")).to_be_disabled()


def test_only_the_workers_script_may_compile_webassembly(web_server: str) -> None:
    """The room's policy is the client's everywhere but offline play's worker, whose own
    answer adds what Pyodide needs: WebAssembly, and modules from blob: URLs."""
    base = web_server.rstrip("/")
    page = httpx.get(f"{base}/")
    prefix = re.search(r'src="(/v/[^/]+/)js/main.js"', page.text)
    assert prefix is not None
    worker = httpx.get(f"{base}{prefix[1]}js/offlineworker.js")
    assert worker.status_code == 200
    assert "script-src 'self' blob: 'wasm-unsafe-eval'" in worker.headers["content-security-policy"]
    for other in (page, httpx.get(f"{base}{prefix[1]}js/offlineplay.js")):
        policy = other.headers["content-security-policy"]
        assert "wasm-unsafe-eval" not in policy and "blob:" not in policy



SNAPSHOT_URL = "/offline/python-memory-snapshot"
SNAPSHOT = """async () => {
  const name = (await caches.keys()).find((n) => n.startsWith("offline-runtime:"));
  const kept = name && await (await caches.open(name)).match("SNAPSHOT_URL");
  if (!kept) return null;
  const body = new Uint8Array(await kept.arrayBuffer());
  const sha = [...new Uint8Array(await crypto.subtle.digest("SHA-256", body))]
    .map((b) => b.toString(16).padStart(2, "0")).join("");
  return { size: body.length, sha, kept_sha: kept.headers.get("X-SHA-256") };
}""".replace("SNAPSHOT_URL", SNAPSHOT_URL)
"""The Python memory snapshot the worker keeps in the bucket: its size, its hash and the hash
kept with it."""
SPOIL_SNAPSHOT = """async ([path, honest]) => {
  const name = (await caches.keys()).find((n) => n.startsWith("offline-runtime:"));
  const cache = await caches.open(name);
  const body = crypto.getRandomValues(new Uint8Array(1 << 16));
  const sha = [...new Uint8Array(await crypto.subtle.digest("SHA-256", body))]
    .map((b) => b.toString(16).padStart(2, "0")).join("");
  await cache.put(path, new Response(body, { headers: { "X-SHA-256": honest ? sha : "0" } }));
  return sha;
}"""
"""Put 64 KiB of noise where the snapshot is, with its own hash (``honest``: it passes the
check and fails only as Python starts from it) or with a wrong one."""


def kept_snapshot(page: Page, not_sha: str | None = None) -> dict[str, Any]:
    """The snapshot once the worker has kept a whole one (other than ``not_sha``): it is
    written after the first card, while the match starts."""
    deadline = time.monotonic() + 60
    while True:
        kept = page.evaluate(SNAPSHOT)
        if kept and kept["sha"] == kept["kept_sha"] and kept["sha"] != not_sha:
            return dict(kept)
        assert time.monotonic() < deadline, kept
        page.wait_for_timeout(50)


def test_python_starts_from_a_kept_snapshot_and_a_bad_one_is_made_again(
    browser: Browser, web_server: str
) -> None:
    """The first boot keeps a snapshot of Python's start in the bucket; a later tab's boot
    starts from it. One that fails its hash, or passes it and fails to start, is thrown away:
    the match is dealt all the same, and a whole snapshot is kept in its place."""
    base = web_server.rstrip("/")
    page = offline_page(browser, base).page
    download(page)
    assert page.evaluate(SNAPSHOT) is None  # made by a boot, never downloaded
    start_match(page, "random")
    first = kept_snapshot(page)
    assert first["size"] > 10_000_000, first
    play_and_see_the_answer(page)

    # A new tab starts from it: it stays as it was (a snapshot made again differs, byte for
    # byte, from the last).
    tab = page.context.new_page()
    tab.set_viewport_size(DESKTOP)
    tab.goto(f"{base}/#/offline")
    start_match(tab, "random")
    play_and_see_the_answer(tab)
    assert kept_snapshot(tab) == first
    tab.close()

    for honest in (True, False):
        noise = page.evaluate(SPOIL_SNAPSHOT, [SNAPSHOT_URL, honest])
        tab = page.context.new_page()
        tab.set_viewport_size(DESKTOP)
        tab.goto(f"{base}/#/offline")
        start_match(tab, "random")
        play_and_see_the_answer(tab)
        again = kept_snapshot(tab, not_sha=noise)
        assert again["size"] > 10_000_000, (honest, again)
        tab.close()
