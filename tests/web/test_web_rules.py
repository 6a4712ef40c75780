"""The rules page in each language, rendered in Chromium with no console error, and again in
the language chosen while it is open."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser

from .web_support import open_page, screenshot

TITLES = {
    "en": "How to play",
    "it": "Come si gioca",
    "es": "Cómo se juega",
    "sl": "Kako se igra",
    "tr": "Nasıl oynanır",  # noqa: RUF001
}


@pytest.mark.parametrize("language", list(TITLES))
def test_the_rules_page_in_every_language(
    browser: Browser, web_server: str, language: str
) -> None:
    watched = open_page(browser, web_server + "#/rules", locale=language)
    page = watched.page
    page.wait_for_selector(f'article.rules[lang="{language}"] #tips')
    assert page.inner_text(".rules h2") == TITLES[language]
    assert page.locator(".rules section h3").count() == 9
    cells = page.eval_on_selector_all(".rules .primiera td", "ts => ts.map(t => t.textContent)")
    assert cells == ["21", "18", "16", "15", "14", "13", "12", "10"]
    assert page.locator('.rules a[href="#/"]').count() == 1, "a way back to the lobby"
    if language == "sl":
        screenshot(page, "rules-sl")
    watched.check()


def test_the_rules_follow_a_change_of_language(browser: Browser, web_server: str) -> None:
    watched = open_page(browser, web_server)
    page = watched.page
    page.click("footer >> text=Rules")
    page.wait_for_selector('article.rules[lang="en"]')
    page.click("#prefs-toggle")  # 1000 wide, the header's choices open from a button
    page.select_option("#language", "tr")
    page.wait_for_selector('article.rules[lang="tr"]')
    assert page.inner_text(".rules h2") == TITLES["tr"]
    assert page.locator("article.rules").count() == 1
    watched.check()
