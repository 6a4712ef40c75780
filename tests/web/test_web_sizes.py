"""The table at the edges of the screen sizes (issue 35, items 4 and 5), measured in Chromium's
pixels on tables set up by hand (the protocol's messages, tests/web/web_support.py).

The smallest phone, 320x568: nothing lies over a table card while the refusal's words ("why
not") or the hint's show, every card of the table and of the hand is at least 44 CSS px wide
(WCAG's target size), the lobby's Play now is on screen without scrolling, and the match's
summary shows both sides' columns. Before the fixes the words covered the table's top row, the
table's cards were 38 px wide, Play now was 44 px below the fold, and the opponent's column was
cut off.

Wider screens: the table's bar is one row at 1024 and 768 wide (it wrapped onto two), and at
2560x1440 the cards grow with the felt instead of stopping at 124 px (the hand's at 140 px).
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, Page, ViewportSize

from .web_support import open_page, open_scripted, screenshot, scripted, seat_info, view_of

SMALLEST: ViewportSize = {"width": 320, "height": 568}
SEATS = [seat_info(0, 0, "Ada"), seat_info(1, 1, "Bot 2", kind="bot", level="expert")]
# Six cards on the table, and a king that may not be played: a capture is compulsory.
VIEW = view_of(
    hand=["7C", "5H", "KH"], table=["AD", "6D", "3S", "4C", "2H", "QS"], hand_sizes=[3, 3],
    piles=[["JD", "JC"], []], sweeps=[1, 0], scores=[3, 2], round_number=1,
    last_move={"seat": 1, "move": "5S", "sweep": False},
    legal_moves=["7CxAD+6D", "7Cx3S+4C", "7CxAD+4C+2H", "5H"],
)  # fmt: skip

COVERED = """() => {
  // What lies over a table card: the topmost element at nine points inside each card that
  // is neither the card nor a part of it. A card's own marks (its tick, its hint tag) are
  // parts of it; points at its edges are left out, where a neighbour's tick may touch it.
  const covered = [];
  for (const card of document.querySelectorAll('.table-cards .card')) {
    const r = card.getBoundingClientRect();
    for (const x of [0.15, 0.5, 0.85]) for (const y of [0.15, 0.5, 0.85]) {
      const top = document.elementFromPoint(r.left + x * r.width, r.top + y * r.height);
      if (top && !card.contains(top)) {
        covered.push(`${card.dataset.card} under ${top.id || top.className || top.tagName}`);
      }
    }
  }
  return [...new Set(covered)];
}"""

WIDTHS = """() => Object.fromEntries(['.table-cards .card', '.hand .card'].map((s) =>
  [s, [...document.querySelectorAll(s)].map((c) => c.getBoundingClientRect().width)]))"""


def covered(page: Page) -> list[str]:
    found: list[str] = page.evaluate(COVERED)
    return found


def test_the_smallest_phone(browser: Browser, web_server: str) -> None:
    table = scripted("SMALL1", SEATS, VIEW, look="italian")
    watched = open_scripted(browser, web_server, "SMALL1", table, viewport=SMALLEST)
    page = watched.page
    widths: dict[str, list[float]] = page.evaluate(WIDTHS)
    assert len(widths[".table-cards .card"]) == 6 and len(widths[".hand .card"]) == 3
    assert min(widths[".table-cards .card"] + widths[".hand .card"]) >= 44, widths
    assert page.evaluate("document.scrollingElement.scrollHeight") <= SMALLEST["height"]

    # The refusal's words, then the hint's (which take their place): neither covers a card.
    page.click('.hand [data-card="KH"]', force=True)  # not playable: it says why
    page.wait_for_selector("#why:not(:empty)")
    assert covered(page) == []
    screenshot(page, "sizes-320x568-why-not")
    page.click("#hint")
    reason = {"key": "cards_high", "params": {"count": 3, "total": 13}, "text": ""}
    table.push({"type": "hint", "table": "SMALL1", "match": 1, "version": 5,
                "move": "7CxAD+4C+2H", "ref": "hint", "reason": reason})  # fmt: skip
    page.wait_for_selector("#hint-text:not(:empty)")
    assert page.inner_text("#hint-text").endswith("no single card can sweep it.")
    assert covered(page) == []
    screenshot(page, "sizes-320x568-hint")

    # The match's end: both sides' columns of the rounds are inside the dialog, unscrolled.
    round_score = {"card_count": 27, "cards": 1, "coin_count": 7, "coins": 1, "settebello": 1,
                   "primiera_total": 78, "primiera": 1, "sweeps": 2, "re_bello": 0,
                   "napola": 0, "seven_count": 3, "sevens": 0, "total": 6}  # fmt: skip
    other = {**round_score, "cards": 0, "coins": 0, "settebello": 0, "primiera": 0,
             "sweeps": 3, "total": 3}  # fmt: skip
    rounds = [[round_score, other], [other, round_score], [round_score, other]]
    end = view_of(to_move=None, hand_sizes=[0, 0], stock_size=0, round_number=2,
                  scores=[15, 12], round_scores=rounds, winner=0)  # fmt: skip
    table.push({"type": "state", "table": "SMALL1", "match": 1, "version": 6, "play": None,
                "view": end})  # fmt: skip
    page.wait_for_selector("#rounds")
    fit = page.evaluate("""() => { const box = document.querySelector('#rounds').parentElement;
        const right = box.getBoundingClientRect().right;
        const cells = [...document.querySelectorAll('#rounds th, #rounds td')];
        const out = cells.filter((c) => c.getBoundingClientRect().right > right + 0.5);
        return { scroll: box.scrollWidth, width: box.clientWidth,
                 out: out.map((c) => c.textContent) }; }""")  # fmt: skip
    assert fit["scroll"] <= fit["width"] and fit["out"] == [], fit
    screenshot(page, "sizes-320x568-match-summary")
    watched.check()
    page.context.close()

    # The lobby: Play now whole on the first screen.
    watched = open_page(browser, web_server, viewport=SMALLEST)
    page = watched.page
    box = page.locator("#play-now").bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= SMALLEST["height"]
    screenshot(page, "sizes-320x568-lobby")
    watched.check()
    page.context.close()


BAR_ROWS = """() => { const boxes = [...document.querySelector('.bar').children]
  .map((e) => e.getBoundingClientRect()).filter((r) => r.width > 1);
  return { lowestTop: Math.max(...boxes.map((r) => r.top)),
           highestBottom: Math.min(...boxes.map((r) => r.bottom)) }; }"""


@pytest.mark.parametrize(
    "size",
    [{"width": 1024, "height": 768}, {"width": 768, "height": 1024},
     {"width": 2560, "height": 1440}],
    ids=lambda size: f"{size['width']}x{size['height']}",
)  # fmt: skip
def test_wider_screens(browser: Browser, web_server: str, size: ViewportSize) -> None:
    table = scripted("WIDE01", SEATS, VIEW, look="italian")
    watched = open_scripted(browser, web_server, "WIDE01", table, viewport=size)
    page = watched.page
    # One row: every box of the bar shares a line with every other.
    rows: dict[str, float] = page.evaluate(BAR_ROWS)
    assert rows["lowestTop"] < rows["highestBottom"], rows
    if size["width"] == 2560:
        widths: dict[str, Any] = page.evaluate(WIDTHS)
        # As tall as the felt allows, 14% and 16% of the screen's height (201 and 230 px),
        # where they stopped at 124 and 140.
        assert min(widths[".table-cards .card"]) >= 0.14 * size["height"] - 1, widths
        assert min(widths[".hand .card"]) >= 0.16 * size["height"] - 1, widths
    screenshot(page, f"sizes-{size['width']}x{size['height']}")
    watched.check()
