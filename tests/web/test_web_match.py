"""A whole match against the computer, played in Chromium by clicking, to the winner and a
rematch; the round breakdowns are checked and photographed on the way."""

from __future__ import annotations

from playwright.sync_api import Browser, Page

from .web_support import open_page, play_against_computer, play_to_the_end, screenshot


def check_breakdown(page: Page) -> None:
    text = page.inner_text("#breakdown")
    for row in ("Most cards", "Most coins", "Settebello", "Primiera", "Sweeps", "Round points",
                "Match points"):
        assert row in text


def test_a_whole_match_against_the_computer(browser: Browser, web_server: str) -> None:
    watched = open_page(browser, web_server)
    page = watched.page
    play_against_computer(page, target="1")
    assert page.locator(".hand button.card").count() == 3
    assert page.locator(".opponent .held .card").count() == 3
    assert "0 of 1 point" in page.inner_text(".scoreboard")

    rounds: list[str] = []

    def seen(page: Page) -> None:
        check_breakdown(page)
        rounds.append(page.inner_text("#breakdown-title"))
        if len(rounds) == 1:
            screenshot(page, "breakdown")

    played = play_to_the_end(page, seen)
    assert played >= 18, "a round of two-player scopa is 18 cards each"
    check_breakdown(page)
    screenshot(page, "breakdown-and-winner")
    winner = page.inner_text("#winner")
    assert "wins the match" in winner or "You win" in winner
    assert page.inner_text("#turn") == "The match is over."
    page.reload()
    assert page.inner_text("#winner") == winner, "a reload shows the result again"

    match = page.get_attribute("#board", "data-match")
    page.click("#rematch")
    page.wait_for_function(
        "m => document.querySelector('#board')?.dataset.match !== m", arg=match
    )
    page.wait_for_selector(".hand button.card")
    assert page.locator("#breakdown").count() == 0
    watched.check()
