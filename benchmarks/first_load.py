"""How fast the web client starts: a first visit and a return visit to a table's link, on
loopback (issue 22, item 6).

It runs ``scopa serve`` (a SQLite file in a temporary folder, bots that play at once) and
Debian's Chromium through Playwright. Each round deals a new table against the computer and
opens its link, as the person who sits at it, in a fresh browser (nothing cached): the first
visit. Then the same browser, its service worker in charge now, opens a second table's link:
the return visit. For both it prints the requests the page made, how many of them the service
worker answered, the bytes that came over the network, and the milliseconds from the start of
the navigation to the first card of the hand on screen; the median of ``--rounds`` rounds and
the worst.

    .venv/bin/python benchmarks/first_load.py [--rounds 7]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
from harness import CHROMIUM, CHROMIUM_ARGS  # a sibling module, not a package
from playwright.sync_api import BrowserContext, Response, sync_playwright

NOTE_FIRST_CARD = """
new MutationObserver((_, observer) => {
  if (!document.querySelector('.hand .card svg')) return;
  observer.disconnect();
  // The frame after the card is in the page: when it is painted.
  requestAnimationFrame(() => { window.firstCardMs = performance.now(); });
}).observe(document, { childList: true, subtree: true });
"""
"""Notes the moment the first card of the hand is drawn, in the page itself: Playwright's own
wait polls, and would add its polling interval to the figure."""


@dataclass
class Visit:
    requests: int
    from_worker: int
    bytes: int
    first_card_ms: float


def new_table(url: str) -> tuple[str, str]:
    # The random level: an expert thinking on the same two cores would time the bot, not
    # the page.
    grant = httpx.post(f"{url}/api/play", json={"preset": "scopa", "name": "Ada",
                                                "level": "random"}).json()
    return grant["table"]["code"], grant["token"]


def visit(context: BrowserContext, url: str) -> Visit:
    """Open a new table's link in ``context`` and time its first card."""
    code, token = new_table(url)
    page = context.new_page()
    page.add_init_script(f"localStorage.setItem('scopa.seat.{code}', '{token}')")
    page.add_init_script(NOTE_FIRST_CARD)
    answers: list[Response] = []
    page.on("response", lambda answer: answers.append(answer))
    page.goto(f"{url}/#/t/{code}")
    page.wait_for_function("() => window.firstCardMs !== undefined", timeout=30_000)
    first_card_ms: float = page.evaluate("window.firstCardMs")
    entries: list[Any] = page.evaluate("""() => [performance.getEntriesByType('navigation')[0],
        ...performance.getEntriesByType('resource')].map(e => e.transferSize)""")  # fmt: skip
    # The service worker keeps the shell once it is running: the return visit needs it.
    # (A client without one, such as the one before issue 22, has no registration.)
    page.evaluate("""navigator.serviceWorker.getRegistration()
        .then((kept) => kept && navigator.serviceWorker.ready).then(() => true)""")
    page.close()
    return Visit(len(entries), sum(a.from_service_worker for a in answers), sum(entries),
                 first_card_ms)


def summary(name: str, visits: list[Visit]) -> str:
    ms = [v.first_card_ms for v in visits]
    return (
        f"{name}: {statistics.median(v.requests for v in visits):.0f} requests "
        f"({statistics.median(v.from_worker for v in visits):.0f} from the service worker), "
        f"{statistics.median(v.bytes for v in visits):,.0f} bytes over the network; first card "
        f"after {statistics.median(ms):.0f} ms (median of {len(ms)}, worst {max(ms):.0f} ms)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--no-worker", action="store_true",
                        help="block the service worker: the browser's HTTP cache alone")
    options = parser.parse_args()
    rounds = options.rounds
    workers = "block" if options.no_worker else "allow"
    with tempfile.TemporaryDirectory() as folder:
        db = f"sqlite+aiosqlite:///{Path(folder) / 'room.db'}"
        server = subprocess.Popen(
            [sys.executable, "-m", "scopa", "serve", "--port", "0", "--db", db,
             "--bot-delay", "0"],
            stdout=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )  # fmt: skip
        try:
            assert server.stdout is not None
            url = server.stdout.readline().split()[-1].rstrip("/")
            firsts, returns = [], []
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                # The server's own first answers (its first table, its files), not timed.
                visit(browser.new_context(service_workers=workers), url)
                for _ in range(rounds):
                    context = browser.new_context(viewport={"width": 1280, "height": 800},
                                                  service_workers=workers)
                    firsts.append(visit(context, url))
                    returns.append(visit(context, url))
                    context.close()
                browser.close()
        finally:
            server.terminate()
            server.wait(30)
    print(f"loopback, headless Chromium, {rounds} rounds, service worker: {workers}")
    print(summary("first visit ", firsts))
    print(summary("return visit", returns))


if __name__ == "__main__":
    main()
