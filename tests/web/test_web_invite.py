"""An invite shows what table it is before one sits (the game, the target, the deck, who is
seated), and its link goes on the clipboard with one button (issue 22, finding 8)."""

from __future__ import annotations

from playwright.sync_api import Browser, expect

from .web_support import PHONE, open_page, screenshot


def test_an_invite_says_what_table_it_is_and_its_link_is_copied(
    browser: Browser, web_server: str
) -> None:
    ada = open_page(browser, web_server)
    ada.page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    ada.page.fill("#name", "Ada")
    ada.page.select_option("#create-preset", "escoba")
    ada.page.select_option("#create-look", "spanish")
    ada.page.click("#create-table")
    link = ada.page.input_value("#share-link")
    ada.page.click("#copy-link")
    expect(ada.page.locator("#copy-link")).to_have_text("Link copied")
    assert ada.page.evaluate("() => navigator.clipboard.readText()") == link

    # Bruno follows the link on his phone, in Italian: he reads what he is joining first.
    bruno = open_page(browser, link, locale="it-IT", viewport=PHONE)
    summary = bruno.page.locator("#table-summary")
    expect(summary).to_have_text("Escoba · a 21 punti · Mazzo: Spagnolo")
    assert "Ada" in bruno.page.inner_text("#waiting .seats")
    assert bruno.page.locator("#take-seat").is_visible()
    screenshot(bruno.page, "invite-phone-it")
    ada.check()
    bruno.check()
