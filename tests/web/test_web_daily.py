"""The daily deal in Debian's Chromium against a real card room (issue 24, item 2): from the
lobby's card (beside the day's puzzle) to the "#/daily" page, today's deal played to its end
against the master by clicking, then the page shows the match beside the master's own play of
the same deal (the deal drawn with the table's cards, each round's points and breakdown side
by side, the links to both replays), the streak and the day's table; a second attempt is not
offered. At 1280x800 and 390x844."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import httpx
from playwright.sync_api import Browser, Page, expect

from .web_support import DESKTOP, PHONE, WAIT_MS, open_page, play_to_the_end, screenshot

DASH = "\N{EN DASH}"
"""Between the two sides' points, as the page writes a score."""
MASTER_WAIT_MS = 120_000
"""The master plays the whole deal once the first attempt of the day starts: a bound on it, on
a machine shared with other tests (never a pause)."""


def fits(page: Page) -> bool:
    """Nothing sticks out sideways: the page is no wider than the screen."""
    size = page.viewport_size
    assert size is not None
    return int(page.evaluate("document.documentElement.scrollWidth")) <= size["width"]


def test_the_daily_deal_played_and_compared(browser: Browser, web_server: str) -> None:
    watched = open_page(browser, web_server, viewport=DESKTOP)
    page = watched.page
    page.click("#account-link")
    page.fill("#register-name", "Dora")
    page.fill("#register-password", "a good password")
    page.click("#register-button")
    expect(page.locator("#account-link")).to_have_text("Dora")

    page.goto(f"{web_server}/#/")
    card, puzzle = page.locator("#daily-deal"), page.locator("#daily-puzzle")
    expect(card.locator("h2")).to_have_text("Daily deal")
    expect(card.locator("#daily-deal-link")).to_have_text("Play the deal")
    screenshot(page, "daily-lobby-desktop")
    deal_box, puzzle_box = card.bounding_box(), puzzle.bounding_box()
    assert deal_box is not None and puzzle_box is not None
    assert abs(deal_box["y"] - puzzle_box["y"]) < 1, "the two daily cards sit side by side"

    page.click("#daily-deal-link")
    expect(page.locator(".daily-head h1")).to_have_text("Daily deal")
    expect(page.locator("#daily-standings")).to_contain_text("Nobody has finished")
    # Yesterday is over: its seed is published on the page; today's is nowhere on it.
    yesterday = (datetime.now(UTC).date() - timedelta(days=1)).isoformat()
    answer = httpx.get(f"{web_server.rstrip('/')}/api/daily/{yesterday}")
    assert answer.status_code == 200, answer.text
    published = answer.json()["seed"]
    expect(page.locator("#daily-yesterday .daily-seed code")).to_have_text(str(published))
    expect(page.locator("#daily-yesterday")).to_contain_text("Nobody finished that day's deal.")
    assert page.locator(".daily-seed").count() == 1
    screenshot(page, "daily-before-desktop")
    page.click("#daily-play")
    page.wait_for_selector("#board")
    expect(page).to_have_url(re.compile(r"#/t/[A-Z0-9]{6}$"))
    # The day's deal is played alone: no hint button (the server refuses hints there too).
    page.wait_for_selector(".seat.me .hand .card")
    assert page.locator("#hint").count() == 0
    play_to_the_end(page)
    won = "You win" in page.locator("#winner").inner_text()

    page.goto(f"{web_server}/#/daily")
    expect(page.locator(".daily-done")).to_have_text(
        "You have played today's deal. The next one is dealt at midnight UTC.")
    assert page.locator("#daily-play").count() == 0
    expect(page.locator("#daily-streak")).to_have_text("Your streak: 1 day in a row")
    yours, master = page.locator(".daily-side.yours"), page.locator(".daily-side.master")
    expect(master).to_have_attribute("data-match", re.compile(r"^\d+$"), timeout=MASTER_WAIT_MS)
    # The deal: the first hand (3 cards) and the table (4), the same in both matches.
    expect(page.locator(".daily-cards-row").nth(0).locator(".card")).to_have_count(3)
    expect(page.locator(".daily-cards-row").nth(1).locator(".card")).to_have_count(4)
    result = re.compile(rf"\d+{DASH}\d+ (won|lost)")
    for side in (yours, master):
        expect(side.locator(".daily-result")).to_contain_text(result)
        assert side.locator(".daily-rounds tbody tr").count() >= 1
    expect(yours.locator(".daily-result")).to_contain_text("won" if won else "lost")
    score = yours.locator(".score").inner_text()
    mine, theirs = (int(part) for part in score.split(DASH))
    assert (mine >= 11 and mine > theirs) if won else theirs >= 11
    line = page.locator("#daily-standings li")
    expect(line).to_have_count(1)
    expect(line.locator(".name")).to_have_text("Dora")
    expect(line.locator(".margin")).to_have_text(
        f"+{mine - theirs}" if mine > theirs else str(mine - theirs))
    # Seat for seat: each round's breakdown of both matches, opened.
    for side in (yours, master):
        side.locator(".daily-breakdowns summary").click()
        expect(side.locator(".daily-breakdowns table.breakdown")).to_have_count(
            side.locator(".daily-rounds tbody tr").count())
    assert fits(page)
    screenshot(page, "daily-compared-desktop")
    page.set_viewport_size(PHONE)
    assert fits(page)
    screenshot(page, "daily-compared-phone")

    master_match = master.get_attribute("data-match")
    page.click("#daily-replay-master")
    expect(page).to_have_url(re.compile(rf"#/m/{master_match}$"))
    expect(page.locator("#replay-step")).to_contain_text("Step 0 of", timeout=WAIT_MS)
    assert page.locator(".replay-seat .replay-hand").nth(1).locator(".card").count() == 3
    page.goto(f"{web_server}/#/")
    expect(page.locator("#daily-deal-link")).to_have_text("See your result")
    expect(page.locator("#daily-deal .daily-streak")).to_have_text("Your streak: 1 day in a row")
    screenshot(page, "daily-lobby-phone")
    watched.check()
