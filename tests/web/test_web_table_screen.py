"""The table is the screen (issue 22, item 1): a whole match against the computer, the window
changing size at every turn through a laptop's, a large screen's, two phones' and a phone on its
side. At each of your turns the page does not scroll, every card of your hand is on screen,
nothing of the table lies over the hand, a capture's choice opens without moving it, and a
click on the bottom pixel row of a playable card plays it. Before the fix the hand was below
the fold on a laptop (finding 1) and the felt pushed it down as the table grew (finding 3).
Each size is photographed once, to be looked at."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Browser, Page, ViewportSize

from .web_support import open_page, play_against_computer, screenshot, version

SIZES: list[ViewportSize] = [
    {"width": 1280, "height": 720}, {"width": 1366, "height": 768},
    {"width": 1920, "height": 1080}, {"width": 390, "height": 844},
    {"width": 360, "height": 640}, {"width": 844, "height": 390},
]  # fmt: skip

# Where the hand and everything else of the table are, and whether the page scrolls.
LAYOUT = """() => {
  const box = (e) => { const r = e.getBoundingClientRect();
    return { left: r.left, top: r.top, right: r.right, bottom: r.bottom }; };
  const others = [".bar", ".seat.opponent", ".centre", ".table-cards .card", ".mine-aside",
                  ".tools", ".deck .card"];
  return {
    scroll: document.scrollingElement.scrollHeight, height: innerHeight, width: innerWidth,
    hand: box(document.querySelector(".hand")),
    cards: [...document.querySelectorAll(".hand button.card")].map(box),
    others: others.flatMap((s) => [...document.querySelectorAll(s)].map(
      (e) => ({ what: s, ...box(e) }))),
  };
}"""


def overlaps(a: dict[str, float], b: dict[str, float]) -> bool:
    return a["left"] < b["right"] - 0.5 and b["left"] < a["right"] - 0.5 and (
        a["top"] < b["bottom"] - 0.5 and b["top"] < a["bottom"] - 0.5)


def check_the_screen(page: Page, size: ViewportSize) -> dict[str, Any]:
    seen: dict[str, Any] = page.evaluate(LAYOUT)
    assert seen["scroll"] <= seen["height"], f"the page scrolls at {size}: {seen['scroll']}"
    for card in seen["cards"]:
        assert card["left"] >= 0 and card["top"] >= 0, (size, card)
        assert card["right"] <= seen["width"] and card["bottom"] <= seen["height"], (size, card)
    over = [o for o in seen["others"] if overlaps(o, seen["hand"])]
    assert over == [], f"over the hand at {size}: {over}"
    return seen


def test_the_table_is_the_screen_through_a_whole_match(browser: Browser, web_server: str) -> None:
    watched = open_page(browser, web_server, viewport=SIZES[0])
    page = watched.page
    play_against_computer(page, target="3", level="random")
    photographed: set[str] = set()
    turns = choices = 0
    for _ in range(500):
        page.wait_for_selector("#winner, #continue, .hand button.playable")
        if page.locator("#winner").count():
            break
        if page.locator("#continue").count():
            page.click("#continue")
            continue
        size = SIZES[turns % len(SIZES)]
        page.set_viewport_size(size)
        turns += 1
        seen = check_the_screen(page, size)
        name = f"table-screen-{size['width']}x{size['height']}"
        if name not in photographed:
            screenshot(page, name)
            photographed.add(name)
        # A click on the bottom pixel row of the first playable card plays it.
        box = page.locator(".hand button.playable >> nth=0").bounding_box()
        assert box is not None
        before = version(page)
        page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] - 0.5)
        page.wait_for_selector(f".options .option, #board:not([data-version='{before}'])")
        if page.locator(".options .option").count():
            # The choice opens over your own seat without moving the hand, and covers none
            # of the table's cards, which are tapped to choose (issue 35, item 3).
            choices += 1
            again = check_the_screen(page, size)
            assert again["hand"] == seen["hand"], "the hand moved when the choice opened"
            options = page.locator(".options").bounding_box()
            assert options is not None
            choice = {"left": options["x"], "top": options["y"],
                      "right": options["x"] + options["width"],
                      "bottom": options["y"] + options["height"]}  # fmt: skip
            table = [o for o in again["others"] if o["what"] == ".table-cards .card"]
            assert [card for card in table if overlaps(choice, card)] == []
            page.click(".options .option >> nth=0")
        page.wait_for_function(
            "v => document.querySelector('#board')?.dataset.version !== v", arg=before
        )
    else:
        raise AssertionError("the match did not end")
    assert len(photographed) == len(SIZES), f"only {photographed} in {turns} turns"
    # The match's end: the final score large, round by round, and the ways on.
    assert page.locator("#final-score .final-points").count() == 2
    assert page.locator("#rounds tbody tr").count() >= 1
    assert page.locator("#turned").inner_text()
    assert page.get_attribute("#breakdown-replay", "href") == (
        f"#/m/{page.get_attribute('#board', 'data-match')}")
    page.set_viewport_size(SIZES[0])
    screenshot(page, "table-screen-match-end")
    print(f"{turns} turns, {choices} capture choices")
    watched.check()
