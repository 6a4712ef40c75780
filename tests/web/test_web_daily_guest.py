"""A guest's daily deal in Debian's Chromium (issue 34, item 3): played to its end, the page
shows the guest's match beside a sealed master's side that says when it opens, and the guest's
deal as dealt; nothing of the master's play reaches the page before the day is over."""

from __future__ import annotations

import re

from playwright.sync_api import Browser, Response, expect

from .web_support import DESKTOP, open_page, play_to_the_end


def test_a_guest_sees_its_own_match_and_the_masters_play_sealed(
    browser: Browser, web_server: str
) -> None:
    watched = open_page(browser, web_server + "/#/daily", viewport=DESKTOP)
    page = watched.page
    page.click("#daily-play")
    page.wait_for_selector("#board")
    expect(page).to_have_url(re.compile(r"#/t/[A-Z0-9]{6}$"))
    play_to_the_end(page)

    answers: list[Response] = []
    page.on("response", lambda r: answers.append(r) if "/api/daily/comparison" in r.url
            else None)
    page.goto(f"{web_server}/#/daily")
    yours, master = page.locator(".daily-side.yours"), page.locator(".daily-side.master")
    expect(yours.locator(".daily-result")).to_be_visible()
    expect(master.locator("#daily-master-sealed")).to_have_text(
        "The master's play shows every hand of the day's deck: it opens at midnight UTC, or "
        "once you have played the deal logged in.")
    assert master.get_attribute("data-match") is None
    expect(page.locator(".daily-deal-cards .cards").first.locator(".card")).to_have_count(3)
    shown = answers[0].json()
    assert shown["master"] is None and shown["yours"]["replay"]["hidden"] == [1]
    assert all(frame["hands"][1] == [] for frame in shown["yours"]["replay"]["frames"])
    assert watched.errors == []
