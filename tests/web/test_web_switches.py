"""Switching the language and the deck look, a table photographed in every look, and the
keyboard alone playing a card."""

from __future__ import annotations

from playwright.sync_api import Browser, expect

from .web_support import open_page, play_against_computer, screenshot, version

LOOK_NAMES = {
    "french": ("seven of diamonds", "7"),
    "italian": ("seven of coins", "7"),
    "spanish": ("seven of coins", "7"),
}


def test_language_switch(browser: Browser, web_server: str) -> None:
    watched = open_page(browser, web_server, locale="es-ES")
    page = watched.page
    assert page.inner_text("#quick h2") == "Jugar contra el ordenador"
    page.click("#prefs-toggle")  # 1000 wide, the header's choices open from a button
    for language, title in (("it", "Gioca contro il computer"), ("sl", "Igraj proti računalniku"),
                            ("tr", "Bilgisayara karşı oyna"), ("en", "Play against the computer")):  # noqa: RUF001
        page.select_option("#language", language)
        page.wait_for_function(
            "t => document.querySelector('#quick h2').textContent === t", arg=title
        )
        assert page.get_attribute("html", "lang") == language
    page.select_option("#language", "it")
    page.wait_for_selector("text=Gioca contro il computer")
    page.reload()
    page.wait_for_selector("text=Gioca contro il computer")
    screenshot(page, "lobby-it")
    page.click("footer >> text=Regole")
    assert page.inner_text(".rules h2") == "Come si gioca"
    watched.check()


def test_every_deck_look_and_card_names(browser: Browser, web_server: str) -> None:
    watched = open_page(browser, web_server)
    page = watched.page
    play_against_computer(page, look="french", target="11")
    # On the table the header's choices are behind the menu button (issue 22, finding 7).
    expect(page.locator("#look")).to_be_hidden()
    page.click("#menu-button")
    for look in ("french", "italian", "spanish"):
        page.select_option("#look", look)
        page.wait_for_selector(".hand .card")
        labels = page.eval_on_selector_all(
            ".hand .card, .table-cards .card", "cs => cs.map(c => c.getAttribute('aria-label'))"
        )
        suits = {"french": "diamonds|hearts|spades|clubs", "italian": "coins|cups|swords|batons"}
        pattern = suits.get(look, suits["italian"])
        assert all(any(s in label for s in pattern.split("|")) for label in labels), labels
        screenshot(page, f"table-{look}")
    # Spanish figures print 10, 11, 12 in their corners; no French letters remain.
    corners = page.eval_on_selector_all(".card-svg text", "ts => ts.map(t => t.textContent)")
    assert not {"J", "Q", "K", "F", "C", "R"} & set(corners)
    page.select_option("#language", "it")
    page.wait_for_function("() => document.querySelector('.hand .card')"
                           "?.getAttribute('aria-label').includes(' di ')")
    watched.check()


def test_keyboard_alone_plays_a_card(browser: Browser, web_server: str) -> None:
    watched = open_page(browser, web_server)
    page = watched.page
    play_against_computer(page, target="11")
    page.wait_for_selector(".hand button.playable")
    before = version(page)
    page.focus(".hand button.card >> nth=0")
    page.keyboard.press("ArrowRight")
    assert page.evaluate("document.activeElement.dataset.card") == page.get_attribute(
        ".hand button.card >> nth=1", "data-card"
    )
    page.focus(".hand button.playable >> nth=0")
    page.keyboard.press("Enter")
    if page.locator(".options .option").count():
        page.keyboard.press("1")
    page.wait_for_function(
        "v => document.querySelector('#board')?.dataset.version !== v", arg=before
    )
    watched.check()


def test_a_phone_sized_table(browser: Browser, web_server: str) -> None:
    watched = open_page(browser, web_server, viewport={"width": 390, "height": 844})
    page = watched.page
    play_against_computer(page, look="spanish", target="11")
    width = page.eval_on_selector(".hand .card", "c => c.getBoundingClientRect().width")
    assert width >= 56, "cards stay big enough to read on a phone"
    assert page.evaluate("document.documentElement.scrollWidth") <= 390, "no sideways scroll"
    screenshot(page, "phone-spanish")
    watched.check()
