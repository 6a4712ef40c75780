"""The round's breakdown is a modal dialog: the keyboard stays inside it (Tab and Shift+Tab go
round its controls), and Escape closes it and gives the focus back where it was."""

from __future__ import annotations

from playwright.sync_api import Browser, Page

from .web_support import open_page, play_against_computer, version

INSIDE = "!!document.activeElement?.closest('#breakdown')"


def play_keeping_focus_on_the_bar(page: Page) -> None:
    """Play one card with the focus left on the bar's sound button (the header is folded
    away on the table), so that the breakdown, when it comes, has a place to give the focus
    back to."""
    before = version(page)
    page.focus("#sound")
    page.locator(".hand button.playable").first.dispatch_event("click")
    if page.locator(".options .option").count():
        page.focus("#sound")
        page.locator(".options .option").first.dispatch_event("click")
    page.wait_for_function(
        "v => document.querySelector('#board')?.dataset.version !== v", arg=before
    )


def test_the_breakdown_keeps_the_keyboard_inside(browser: Browser, web_server: str) -> None:
    watched = open_page(browser, web_server)
    page = watched.page
    play_against_computer(page, target="1")
    for _ in range(200):
        page.wait_for_selector("#winner, #continue, .hand button.playable")
        if page.locator("#winner").count():
            break
        if page.locator("#continue").count():  # a tie at the target: one more round
            page.click("#continue")
            page.focus("#sound")
            continue
        play_keeping_focus_on_the_bar(page)
    assert page.eval_on_selector("#breakdown", "d => d.matches(':modal')")
    assert page.evaluate(INSIDE), "the dialog takes the focus when it opens"

    seen = set()
    for key in ["Tab"] * 7 + ["Shift+Tab"] * 7:
        page.keyboard.press(key)
        assert page.evaluate(INSIDE), f"{key} left the dialog"
        seen.add(page.evaluate("document.activeElement.id"))
    assert seen == {"rematch", "breakdown-replay", "breakdown-lobby", "breakdown-close"}

    page.keyboard.press("Escape")
    page.wait_for_selector("#breakdown", state="detached")
    assert page.evaluate("document.activeElement.id") == "sound", "focus is back where it was"
    assert page.inner_text("#turn") == "The match is over."
    watched.check()
