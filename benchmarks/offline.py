"""Offline play in a real browser (issue 37, item 5): the first download, the time to the first
card, the master's moves in the worker beside native CPython, and the page's long tasks.

It runs ``scopa serve`` on loopback (a SQLite file in a temporary folder, offline play's files
from ``python scripts/pyodide.py``) and Debian's Chromium through Playwright, and does what a
person does on ``#/offline``:

- presses "Download for offline play" once: the bytes that came over the network for it (the
  DevTools protocol's ``encodedDataLength``, headers and compression included);
- with the network cut, starts a match against the master: the milliseconds from the press of
  Play to the first card of the hand drawn, cold (the runtime just downloaded, the worker
  starting Pyodide for the first time in this browser) and then warm (a new tab, everything
  from the Cache Storage bucket);
- plays ``--matches`` matches out (the first legal card each turn) and reads each bot move's
  time from the worker's ``scopa:bot-move`` User Timing measures. The page's table seeds are
  fixed, so the same tables are made again natively in this process (``LocalTable`` with the
  same seed, sent the person's moves from the matches' records) and each bot move is timed the
  same way, and checked to be the move the worker's master chose;
- counts the page's main-thread long tasks (the Long Tasks API) while the master searches:
  the goal is none over 50 ms.

Goals: at most 7 MB for the first download, a warm first card within 2 s, the master's p95 in
the worker at most 3 times native. Run it on a quiet machine.

    python scripts/pyodide.py                       # the runtime and the wheel, once
    .venv/bin/python benchmarks/offline.py [--matches 3]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from harness import CHROMIUM, CHROMIUM_ARGS, Servers, machine
from playwright.sync_api import BrowserContext, CDPSession, Page, sync_playwright

from scopa import Rules
from scopa.local_table import LocalTable

WATCH_LONG_TASKS = """
window.longTasks = [];
new PerformanceObserver((list) => {
  for (const task of list.getEntries()) window.longTasks.push([task.startTime, task.duration]);
}).observe({ type: "longtask", buffered: true });
"""
"""Every main-thread task over 50 ms the page runs, with its start, kept for the run to read."""
FIX_SEEDS = """
const drawn = crypto.getRandomValues.bind(crypto);
let next = %d;
crypto.getRandomValues = (array) => {
  if (!(array instanceof Uint32Array) || array.length !== 2) return drawn(array);
  array.set([next++, 0]);
  return array;
};
"""
"""The seeds js/offlineplay.js draws for its tables (two 32-bit numbers, ``a * 2**20 + (b >>>
12)``), fixed so that the same tables can be made again natively and timed move for move."""
PLAY_AND_TIME = """() => new Promise((resolve) => {
  const pressed = performance.now();
  new MutationObserver((_, observer) => {
    if (!document.querySelector("#board .hand .card svg")) return;
    observer.disconnect();
    requestAnimationFrame(() => resolve(performance.now() - pressed));
  }).observe(document, { childList: true, subtree: true });
  document.getElementById("offline-play").click();
})"""
"""Press Play and resolve with the milliseconds to the frame after the first card is drawn,
noted in the page itself (Playwright's waits poll, and would add their interval)."""
KEPT_RECORDS = """() => new Promise((resolve, reject) => {
  const asked = indexedDB.open("scopa-offline", 1);
  asked.onsuccess = () => {
    const db = asked.result;
    if (!db.objectStoreNames.contains("matches")) { db.close(); resolve([]); return; }
    const all = db.transaction("matches").objectStore("matches").getAll();
    all.onsuccess = () => {
      db.close();
      resolve(all.result.sort((a, b) => a.finished_at.localeCompare(b.finished_at))
        .map((m) => m.record));
    };
    all.onerror = () => reject(all.error);
  };
  asked.onerror = () => reject(asked.error);
})"""
"""The records of the matches the page kept (js/offlinestore.js's database), in the order
they were played (the store's own order is by a random id)."""
BOT_MOVES = "() => performance.getEntriesByName('scopa:bot-move').map((e) => e.duration)"
MOVE_WAIT_MS = 180_000
"""How long one turn may take in the browser at most: a master's move on a slow machine."""


def count_bytes(session: CDPSession) -> dict[str, int]:
    """Bytes over the network, by URL, for every request the session's page finishes."""
    urls: dict[str, str] = {}
    received: dict[str, int] = {}
    session.on("Network.requestWillBeSent",
               lambda event: urls.__setitem__(event["requestId"], event["request"]["url"]))
    session.on("Network.loadingFinished", lambda event: received.__setitem__(
        urls.get(event["requestId"], event["requestId"]), int(event["encodedDataLength"])))
    session.send("Network.enable")
    return received


def table_seed(number: int) -> int:
    """The seed of the table of match ``number``, as the page makes it from FIX_SEEDS'."""
    return (FIRST_SEED + number) * 2**20


FIRST_SEED = 1000


def offline_page(context: BrowserContext, url: str, number: int) -> Page:
    """A new tab on offline play, whose first table is match ``number``'s."""
    page = context.new_page()
    page.add_init_script(WATCH_LONG_TASKS)
    page.add_init_script(FIX_SEEDS % (FIRST_SEED + number))
    page.goto(f"{url}/#/offline")
    page.wait_for_selector("#offline-download, #offline-play")
    return page


def start(page: Page, target: int) -> float:
    """Choose a match against the master to ``target`` points and press Play: the ms to the
    first card."""
    page.select_option("#offline-preset", "scopa")
    page.select_option("#offline-level", "master")
    page.fill("#offline-target", str(target))
    ms: float = page.evaluate(PLAY_AND_TIME)
    return ms


def play_out(page: Page, records_before: int) -> float:
    """The person plays the first legal card each turn (the first capture offered), continues
    at each round's end, until the match's record is kept. When play began, on the page's
    clock (its long tasks from then on are the match's)."""
    began: float = page.evaluate("performance.now()")
    while True:
        page.wait_for_function(
            "() => document.querySelector('.hand button.playable, #continue, #rematch')",
            timeout=MOVE_WAIT_MS)
        if page.locator("#rematch").count():
            # Kept in IndexedDB just after: asked again until it is (a wait_for_function
            # takes a Promise for true).
            deadline = time.monotonic() + MOVE_WAIT_MS / 1000
            while len(page.evaluate(KEPT_RECORDS)) <= records_before:
                if time.monotonic() > deadline:
                    sys.exit("the match's record was never kept")
                time.sleep(0.05)
            return began
        if page.locator("#continue").count():
            page.click("#continue")
            continue
        version = page.locator("#board").get_attribute("data-version")
        page.click(".hand button.playable >> nth=0")
        if page.locator(".options .option").count():
            page.click(".options .option >> nth=0")
        page.wait_for_function(
            "v => document.querySelector('#board')?.dataset.version !== v", arg=version,
            timeout=MOVE_WAIT_MS)


def native_times(records: list[dict[str, Any]]) -> tuple[list[float], int]:
    """Each bot move's seconds, natively: the same tables (their seeds), sent the person's
    moves of ``records``, each bot move timed as the worker times it (``play_bot``: the
    master's choice and the messages it makes); and how many of the bots' moves differ from
    the worker's (none, if the same core chose the same)."""
    times: list[float] = []
    differ = 0
    for number, record in enumerate(records):
        table = LocalTable(Rules.from_dict(record["rules"]), ["master"], table_seed(number))
        table.receive({"type": "hello", "continues": False})
        table.prepare()
        for move in record["moves"]:
            if table.bot_to_move():
                started = time.perf_counter()
                table.play_bot()
                times.append(time.perf_counter() - started)
                differ += str(table.game.moves[-1]) != move
            elif table.receive({"type": "move", "move": move,
                                "version": table.version})[0]["type"] == "error":
                sys.exit(f"match {number}: the person's move {move} is refused natively: "
                         "this table is not the page's")
    return times, differ


def p95(seconds: list[float]) -> float:
    ordered = sorted(seconds)
    return ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]


def percentiles(seconds: list[float]) -> str:
    if not seconds:
        return "none"
    return (f"p50 {1000 * statistics.median(seconds):.1f} ms, p95 {1000 * p95(seconds):.1f} ms"
            f" ({len(seconds)} moves)")


def long_tasks(page: Page, since: float) -> str:
    tasks = [duration for started, duration in page.evaluate("window.longTasks")
             if started >= since]
    worst = f", the longest {max(tasks):.0f} ms" if tasks else ""
    return f"{len(tasks)} main-thread tasks over 50 ms{worst}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=3, help="matches against the master")
    parser.add_argument("--target", type=int, default=1, help="each match's points to win")
    options = parser.parse_args()
    print(machine())
    with tempfile.TemporaryDirectory() as folder, Servers() as servers:
        db = f"sqlite+aiosqlite:///{Path(folder) / 'room.db'}"
        url = servers.start(["--db", db]).rstrip("/")
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            context = browser.new_context(viewport={"width": 1280, "height": 800})
            page = offline_page(context, url, 0)
            received = count_bytes(context.new_cdp_session(page))
            offered = page.evaluate("fetch('/api/offline').then((a) => a.json())")
            if not offered["installed"]:
                sys.exit(f"offline play is not installed: {offered['detail']}")
            started = time.perf_counter()
            page.click("#offline-download")
            page.wait_for_selector("#offline-remove", timeout=300_000)
            download_s = time.perf_counter() - started
            wire = sum(size for where, size in received.items()
                       if "/offline/" in where or where.endswith("/api/offline"))
            context.set_offline(True)
            page.wait_for_function("() => !navigator.onLine")
            cold = start(page, options.target)
            tasks = [long_tasks(page, play_out(page, 0))]
            warm: list[float] = []
            worker_times: list[float] = []
            pages = [page]
            for number in range(1, options.matches):
                tab = offline_page(context, url, number)  # the shell from the worker
                pages.append(tab)
                warm.append(start(tab, options.target))
                tasks.append(long_tasks(tab, play_out(tab, number)))
            for tab in pages:
                for worker in tab.workers:
                    worker_times += [ms / 1000 for ms in worker.evaluate(BOT_MOVES)]
            records = page.evaluate(KEPT_RECORDS)
            browser.close()
    native, differ = native_times(records)
    total = offered["bytes"]
    print(f"loopback, headless Chromium, Pyodide {offered['pyodide']}, {len(records)} matches "
          f"against the master to {options.target}")
    print(f"first download: {wire:,} bytes over the network for {total:,} bytes of files "
          f"(goal at most 7,000,000), in {download_s:.1f} s")
    print(f"first card: cold {cold:.0f} ms (the runtime just downloaded); warm "
          + (", ".join(f"{ms:.0f}" for ms in warm) or "none") + " ms (a new tab; goal 2,000)")
    print(f"master in the worker: {percentiles(worker_times)}")
    print(f"master natively:      {percentiles(native)}; {differ} of its moves differ from the"
          " worker's")
    if worker_times and native:
        ratio = p95(worker_times) / p95(native)
        print(f"p95 ratio worker/native {ratio:.2f} (goal at most 3)")
    print("long tasks while the matches were played: " + "; ".join(tasks))


if __name__ == "__main__":
    main()
