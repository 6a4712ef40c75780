"""Resigning from the table's menu (issue 22, item 3): asked in a modal dialog of the page's own
(never the browser's confirm), which keeps playing on Escape or its first button; confirmed, the
match is over and the table says who resigned, as it does when an opponent resigns."""

from __future__ import annotations

from playwright.sync_api import Browser, Dialog, expect

from .test_web_moments import SEATS, choice_view
from .web_support import (
    DESKTOP,
    PHONE,
    open_page,
    open_scripted,
    play_against_computer,
    screenshot,
    scripted,
    state_message,
)


def test_resigning_through_the_menu_is_confirmed_then_ends_the_match(
    browser: Browser, web_server: str
) -> None:
    watched = open_page(browser, web_server, viewport=PHONE)
    page = watched.page
    page.on("dialog", lambda dialog: watched.errors.append(f"a browser dialog: {dialog.message}"))
    play_against_computer(page, target="11")
    code = page.url.split("#/t/")[1]
    api = f"{web_server.rstrip('/')}/api"
    dialog = page.locator("dialog#resign-dialog")
    # Asked, and kept playing twice: with Escape, and with the dialog's first button.
    for keep_playing in ("Escape", "#resign-cancel"):
        page.click("#menu-button")
        page.click("#resign")
        expect(dialog).to_be_visible()
        assert page.evaluate("document.querySelector('#resign-dialog').matches(':modal')")
        assert page.evaluate("document.activeElement.id") == "resign-cancel"
        expect(dialog).to_contain_text("Your side loses the match now.")
        if keep_playing == "Escape":
            page.keyboard.press("Escape")
        else:
            page.click(keep_playing)
        expect(dialog).to_have_count(0)
        assert page.evaluate("document.activeElement.id") == "menu-button"
        assert page.request.get(f"{api}/tables/{code}").json()["status"] == "playing"
    page.click("#menu-button")
    page.click("#resign")
    screenshot(page, "phone-resign-dialog")
    page.click("#resign-confirm")
    expect(page.locator("#resigned")).to_have_text("You resigned.")
    expect(page.locator("#over .winner")).to_have_text("Bot 2 wins the match.")
    expect(page.locator("#turn")).to_have_text("You resigned.")
    expect(dialog).to_have_count(0)
    # Readable on the over panel (it was white on white), with no first round to show.
    ink = page.eval_on_selector("#resigned", "e => getComputedStyle(e).color")
    panel = page.eval_on_selector("#over", "e => getComputedStyle(e).backgroundColor")
    assert ink != panel, (ink, panel)
    expect(page.locator("#show-breakdown")).to_have_count(0)
    # Over for the server too, and the record says who resigned.
    table = page.request.get(f"{api}/tables/{code}").json()
    assert table["status"] == "over"
    record = page.request.get(f"{api}/matches/{table['match']}").json()
    assert (record["resigned"], record["winner"]) == (0, 1)
    # Nothing is left to resign: the menu no longer offers it.
    page.click("#menu-button")
    expect(page.locator("#table-menu")).to_be_visible()
    expect(page.locator("#resign")).to_have_count(0)
    screenshot(page, "phone-resigned")
    watched.check()


def test_an_opponents_resignation_is_said_in_the_pages_language(
    browser: Browser, web_server: str
) -> None:
    table = scripted("GIVEUP", SEATS, choice_view())
    watched = open_scripted(browser, web_server, "GIVEUP", table, locale="es-ES",
                            viewport=DESKTOP)  # fmt: skip
    page = watched.page
    seen: list[Dialog] = []
    page.on("dialog", lambda dialog: seen.append(dialog))
    view = choice_view()
    view.update(to_move=None, legal_moves=[], winner=0, resigned=1)
    table.push(state_message("GIVEUP", 5, view))
    expect(page.locator("#resigned")).to_have_text("Ordenador 2 se ha rendido.")
    expect(page.locator("#over .winner")).to_have_text("¡Has ganado la partida!")
    assert seen == []
    watched.check()
