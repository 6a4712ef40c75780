"""Reloading the page in the middle of a match keeps the seat: the token is in the browser."""

from __future__ import annotations

from playwright.sync_api import Browser

from .web_support import open_page, play_against_computer, play_one_card, version


def test_reload_mid_match_keeps_the_seat(browser: Browser, web_server: str) -> None:
    watched = open_page(browser, web_server)
    page = watched.page
    play_against_computer(page, target="11")
    play_one_card(page)
    page.wait_for_selector(".hand button.playable")
    play_one_card(page)
    page.wait_for_selector(".hand button.playable")
    hand = page.eval_on_selector_all(".hand .card", "cs => cs.map(c => c.dataset.card)")
    seen = version(page)
    url = page.url

    page.reload()
    page.wait_for_selector(".hand button.playable")
    assert page.url == url
    assert version(page) == seen
    assert page.eval_on_selector_all(".hand .card", "cs => cs.map(c => c.dataset.card)") == hand
    assert page.locator(".scoreboard .side.mine").inner_text().startswith("You")
    play_one_card(page)
    watched.check()
