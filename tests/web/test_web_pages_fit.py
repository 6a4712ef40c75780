"""Issue 22's finding 8, away from the table: the rules' tables fit a phone in every language
(in Slovenian the value column was cut off), and the account's sessions say which browser on
which system, not a raw User-Agent string."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from .web_support import PHONE, open_page, screenshot

NARROW = {"width": 360, "height": 640}


@pytest.mark.parametrize("language", ["en", "it", "es", "sl", "tr"])
def test_the_rules_tables_fit_a_phone(browser: Browser, web_server: str, language: str) -> None:
    for viewport in (PHONE, NARROW):
        watched = open_page(browser, web_server + "#/rules", locale=language, viewport=viewport)
        page = watched.page
        page.wait_for_selector(f'article.rules[lang="{language}"] #tips')
        # Every cell inside the article, and its text inside the cell.
        outside = page.evaluate("""() => {
            const article = document.querySelector('article.rules').getBoundingClientRect();
            return [...document.querySelectorAll('.rules th, .rules td')]
              .filter(c => c.getBoundingClientRect().right > article.right + 0.5
                || c.scrollWidth > c.clientWidth + 1).map(c => c.textContent);
        }""")  # fmt: skip
        assert outside == []
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        if language == "sl" and viewport is PHONE:
            screenshot(page, "rules-sl-phone")
        watched.check()
        page.context.close()


def test_the_sessions_name_the_browser_and_system(browser: Browser, web_server: str) -> None:
    watched = open_page(browser, web_server + "#/account", viewport=PHONE)
    page = watched.page
    page.fill("#register-name", "Vida")
    page.fill("#register-password", "a good password")
    page.click("#register-button")
    agent = page.locator("#sessions li .agent").first
    # Playwright's headless Chromium on Linux says "HeadlessChrome/… (X11; Linux x86_64)".
    expect(agent).to_have_text("Chromium on Linux")
    assert "Mozilla" not in page.inner_text("#sessions")
    screenshot(page, "account-sessions-phone")
    watched.check()
