"""The replay is the table (issue 22, item 5): a finished match drawn on the felt with the
table's card art, every hand face up, stepped to its end with each round's breakdown on the
felt, the master's mark on the card played, and a resigned match saying who gave it up. The
replays are the server's own frames (scopa.server.accounts.replays.frames) of matches played
here by a seeded random player, answered by the test as the protocol gives them."""

from __future__ import annotations

import json
import random
from typing import Any

from playwright.sync_api import Browser, Page, Route, expect

from scopa.game import Game
from scopa.rules import Rules
from scopa.server.accounts.replays import frames

from .web_support import DESKTOP, PHONE, open_page, screenshot

PLAYERS = [
    {"seat": 0, "side": 0, "name": "Ada", "kind": "human", "level": None},
    {"seat": 1, "side": 1, "name": "Bot 2", "kind": "bot", "level": "random"},
]


def replay_of(match: int, target: int, resign_after: int | None = None) -> dict[str, Any]:
    game = Game.new(Rules.preset("scopa", target=target), seed=match)
    while not game.is_over and (resign_after is None or len(game.moves) < resign_after):
        game.play(random.Random(len(game.moves)).choice(game.legal_moves()))
    record = game.record()
    if resign_after is not None:
        record["resigned"] = 0
    return {"match": match, "players": PLAYERS, "look": "french", **frames(record), "chat": []}


def review_of(replay: dict[str, Any]) -> dict[str, Any]:
    """A review of Ada's first move, judged a blunder."""
    first = next(f for f in replay["frames"] if f["move"] is not None and f["seat"] == 0)
    best = "7D" if first["move"] != "7D" else "7C"
    move = {"number": first["number"], "round": 0, "played": first["move"], "best": best,
            "cost": 0.2, "mark": "blunder", "options": []}
    return {"status": "done", "done": 1, "total": 1, "error": None,
            "review": {"seat": 0, "accuracy": 50.0,
                       "marks": {"good": 0, "inaccuracy": 0, "mistake": 0, "blunder": 1,
                                 "forced": 0},
                       "worst": [first["number"]],
                       "thresholds": {"inaccuracy": 0.03, "mistake": 0.08, "blunder": 0.15},
                       "moves": [move]}}  # fmt: skip


def answer(body: dict[str, Any]):  # type: ignore[no-untyped-def]
    def fulfil(route: Route) -> None:
        route.fulfill(status=200, content_type="application/json", body=json.dumps(body))

    return fulfil


def test_the_replay_is_the_table_to_its_end_with_breakdowns_marks_and_resignation(
    browser: Browser, web_server: str
) -> None:
    played = replay_of(31, target=1)
    resigned = replay_of(32, target=11, resign_after=5)
    rounds = len(played["rounds"])

    def before(page: Page) -> None:
        page.route("**/api/replays/31", answer(played))
        page.route("**/api/replays/31/reviews", answer(review_of(played)))
        page.route("**/api/replays/32", answer(resigned))

    for device, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        watched = open_page(browser, f"{web_server}/#/m/31", viewport=viewport, before=before)
        page = watched.page
        felt = page.locator(".replay-felt")
        expect(felt).to_be_visible()
        # Cards drawn with the table's art, every hand face up, not words.
        first = played["frames"][0]
        for seat in (0, 1):
            hand = felt.locator(f".seat[data-seat='{seat}'] .replay-hand .card svg")
            expect(hand).to_have_count(len(first["hands"][seat]))
        expect(felt.locator(".table-cards .card svg")).to_have_count(len(first["table"]))
        expect(page.locator("body")).not_to_contain_text("no cards")
        expect(page.locator("body")).not_to_contain_text("Taken:")

        # The review marks Ada's first move on the card she played.
        page.click("#review-button")
        # Rounds are counted from 1, as the round picker counts them (the review said 0).
        expect(page.locator("#review-summary .worst li").first).to_contain_text("Round 1:")
        page.click("#review-summary .worst .jump")
        mark = page.locator("#replay-played .played-card .review-mark")
        expect(mark).to_have_attribute("data-mark", "blunder")
        expect(mark).to_have_text("blunder")
        expect(page.locator("#verdict")).to_contain_text("about 20% of the chance")
        screenshot(page, f"replay-table-{device}")

        # Step by step to the end: each round's end shows its breakdown on the felt.
        ends = 0
        page.click("#replay-first")
        while page.locator("#replay-next").is_enabled():
            page.keyboard.press("ArrowRight")
            if page.locator("#felt #replay-breakdown").count():
                ends += 1
                expect(page.locator("#replay-breakdown .breakdown")).to_contain_text("Primiera")
        assert ends == rounds
        expect(page.locator("#replay-winner")).to_contain_text("won the match")
        screenshot(page, f"replay-table-end-{device}")
        assert int(page.evaluate("document.documentElement.scrollWidth")) <= viewport["width"]
        watched.check()

    # A resigned match says who gave it up, at its end.
    watched = open_page(browser, f"{web_server}/#/m/32", before=before)
    watched.page.click("#replay-last")
    expect(watched.page.locator("#replay-winner")).to_contain_text("Ada resigned.")
    expect(watched.page.locator("#replay-winner")).to_contain_text("Bot 2 won the match.")
    watched.check()
