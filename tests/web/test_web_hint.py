"""The Hint button at a real table against a bot: the master's card and what it takes are
ringed and tagged (never colour alone), the reason is shown, and the move suggested is one the
server accepts."""

from __future__ import annotations

from playwright.sync_api import Browser, Page

from .web_support import open_page, play_against_computer, screenshot, version


def ask_for_a_hint(page: Page) -> None:
    page.wait_for_selector(".hand button.playable")
    page.click("#hint")
    page.wait_for_selector(".hand .card.hinted")


def hinted(page: Page, where: str) -> list[str]:
    return page.eval_on_selector_all(
        f"{where} .card.hinted", "cs => cs.map(c => c.dataset.card)"
    )


def test_a_hint_shows_the_master_s_card_and_why(browser: Browser, web_server: str) -> None:
    watched = open_page(browser, web_server)
    page = watched.page
    play_against_computer(page, target="11")
    page.wait_for_selector(".hand button.playable")
    # Reached by the keyboard after the hand, and named for screen readers.
    page.focus(".hand button.card >> nth=-1")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "hint"
    assert page.get_attribute("#hint", "aria-label") == "Hint: ask the master level what to play"

    ask_for_a_hint(page)
    [card] = hinted(page, ".hand")
    taken = hinted(page, ".table-cards")
    assert set(taken) <= set(
        page.eval_on_selector_all(".table-cards .card", "cs => cs.map(c => c.dataset.card)")
    )
    # Not colour alone: a double ring, a tag with a word, and the card's name says it.
    for selector in [f'.hand [data-card="{card}"]'] + [
        f'.table-cards [data-card="{c}"]' for c in taken
    ]:
        element = page.locator(selector)
        assert element.evaluate("e => getComputedStyle(e).outlineStyle") == "double"
        assert element.locator(".hint-mark").inner_text().strip().endswith("hint")
        assert element.get_attribute("aria-label").endswith(", suggested by the hint")
    name = page.get_attribute(f'.hand [data-card="{card}"]', "aria-label").split(",")[0]
    text = page.inner_text("#hint-text")
    assert text.startswith(("Play the", "Put the")) and name in text, text
    assert "hint.reason." not in text and text.rstrip().endswith("."), text
    screenshot(page, "hint")

    # The move suggested is legal: played as suggested, the server takes it.
    before = version(page)
    page.click(f'.hand [data-card="{card}"]')
    if page.locator(".options .option").count():
        codes = page.eval_on_selector_all(".options .option", "os => os.map(o => o.dataset.move)")
        [move] = [code for code in codes if sorted(code.split("x")[1].split("+")) == sorted(taken)]
        page.click(f'.options [data-move="{move}"]')
    page.wait_for_function(
        "v => document.querySelector('#board')?.dataset.version !== v", arg=before
    )
    assert page.locator(".card.hinted").count() == 0, "a hint is for one position only"
    watched.check()


def test_the_hint_speaks_the_page_s_language(browser: Browser, web_server: str) -> None:
    watched = open_page(browser, web_server, locale="it-IT")
    page = watched.page
    play_against_computer(page, look="italian", target="11")
    assert page.inner_text("#hint") == "Suggerimento"
    ask_for_a_hint(page)
    text = page.inner_text("#hint-text")
    assert text.startswith(("Gioca ", "Metti in tavola ")), text
    assert "hint.reason." not in text
    assert page.inner_text(".hand .card.hinted .hint-mark").strip().endswith("consiglio")
    watched.check()
