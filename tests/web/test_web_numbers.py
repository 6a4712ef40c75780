"""Decimal numbers written as the page's language writes them, in Debian's Chromium: the
master's review says its accuracy and what a move cost with a decimal comma in Italian,
Spanish, Slovenian and Turkish, and a decimal point in English. The replay and its review are
the protocol's answers (docs/protocol.md) given by the test, as a scripted table's messages
are: a real review of a real match takes a minute and may find no mistake to show."""

from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, Route, expect

from .web_support import open_page

MATCH = 9
PLAYERS = [
    {"seat": 0, "side": 0, "name": "Ada", "kind": "human", "level": None},
    {"seat": 1, "side": 1, "name": "Bot 2", "kind": "bot", "level": "random"},
]
HANDS = [["7C", "3S", "JC"], ["7H", "2S", "KD"]]
TABLE = ["4S", "6S", "KS", "JD"]
DEAL = {"round": 0, "seat": None, "move": None, "sweep": False, "hands": HANDS, "table": TABLE,
        "piles": [0, 0], "sweeps": [0, 0], "stock": 30, "scores": [0, 0]}  # fmt: skip
PLAYED = {**DEAL, "seat": 0, "move": "3S", "number": 0, "hands": [["7C", "JC"], HANDS[1]],
          "table": [*TABLE, "3S"]}  # fmt: skip
REPLAY = {"match": MATCH, "players": PLAYERS, "look": "french",
          "rules": {"name": "scopa", "target": 11}, "frames": [DEAL, PLAYED],
          "rounds": [{"number": 1, "start": 0, "end": None, "scores": []}],
          "scores": [11, 7], "winner": 0}  # fmt: skip
REVIEW = {"status": "done", "done": 1, "total": 1, "error": None,
          "review": {"seat": 0, "accuracy": 87.5,
                     "marks": {"good": 0, "inaccuracy": 0, "mistake": 1, "blunder": 0,
                               "forced": 0},
                     "worst": [0],
                     "thresholds": {"inaccuracy": 0.03, "mistake": 0.08, "blunder": 0.15},
                     "moves": [{"number": 0, "round": 0, "played": "3S", "best": "JCxJD",
                                "cost": 0.115, "mark": "mistake", "options": []}]}}  # fmt: skip

SAID = {  # the cost is a whole percent now ("about 12%"): the decimals are the accuracy's
    # language: (the browser's locale, the accuracy's words, the cost's words)
    "en": ("en-GB", "Accuracy 87.5%", "this move cost about 12% of the chance"),
    "it": ("it-IT", "Precisione 87,5%", "circa il 12% della probabilità"),
    "es": ("es-ES", "Precisión 87,5%", "cerca del 12 % de la probabilidad"),
    "sl": ("sl-SI", "Natančnost 87,5 %", "približno 12 % možnosti"),
    "tr": ("tr-TR", "İsabet %87,5", "yaklaşık %12"),  # noqa: RUF001
}


def answer(body: dict[str, Any]) -> Any:
    def fulfil(route: Route) -> None:
        route.fulfill(status=200, content_type="application/json", body=json.dumps(body))

    return fulfil


@pytest.mark.parametrize("language", list(SAID))
def test_the_review_writes_its_decimals_in_the_page_s_language(
    browser: Browser, web_server: str, language: str
) -> None:
    locale, accuracy, cost = SAID[language]

    def before(page: Page) -> None:
        page.route(f"**/api/replays/{MATCH}", answer(REPLAY))
        page.route(f"**/api/replays/{MATCH}/reviews", answer(REVIEW))

    watched = open_page(browser, f"{web_server}/#/m/{MATCH}", locale=locale, before=before)
    page = watched.page
    page.click("#review-button")
    expect(page.locator("#review-summary strong")).to_have_text(accuracy)
    page.click("#review-summary .worst .jump")
    expect(page.locator("#verdict")).to_contain_text(cost)
    # The mark is on the table too, on the card played (issue 22, item 5).
    expect(page.locator("#replay-played .played-card[data-card-shown='3S'] .review-mark")
           ).to_have_attribute("data-mark", "mistake")
    watched.check()
