"""A lobby that plays (issue 22, finding 6): one button deals a match against the computer at
once, with the game, level and points chosen in place; someone new gets the beginner, and
what they choose is remembered; the deck is the interface language's own unless one is chosen
in the header, whose choice says what it means; the open tables arrive live, with no Refresh."""

from __future__ import annotations

import httpx
from playwright.sync_api import Browser, Page, expect

from .web_support import DESKTOP, PHONE, open_page, screenshot


def table_code(page: Page) -> str:
    page.wait_for_selector("#board .hand button.card")
    return page.evaluate("location.hash.slice(4)")


def test_one_button_plays_as_chosen_in_place_and_remembers(
    browser: Browser, web_server: str
) -> None:
    base = web_server.rstrip("/")
    watched = open_page(browser, base, viewport=DESKTOP)
    page = watched.page
    # Someone new: scopa, the beginner, the game's own 11 points.
    expect(page.locator("#play-level input:checked")).to_have_value("random")
    expect(page.locator("#play-game input:checked")).to_have_value("scopa")
    expect(page.locator("#play-points input:checked")).to_have_value("11")
    page.locator("#play-game label", has_text="Escoba").click()
    # Escoba's own target follows the game, until points are chosen.
    expect(page.locator("#play-points input:checked")).to_have_value("21")
    page.locator("#play-points label", has_text="16").click()
    screenshot(page, "desktop-lobby-play")
    page.click("#play-now")
    code = table_code(page)
    table = httpx.get(f"{base}/api/tables/{code}").json()
    assert table["rules"]["name"] == "escoba"
    assert table["rules"]["target"] == 16
    assert [seat["level"] for seat in table["seats"]] == [None, "random"]
    assert table["look"] == "french"  # an English interface deals the French cards
    watched.check()

    # The same browser, another day: the choices are as left.
    again = page.context.new_page()
    again.goto(base)
    expect(again.locator("#play-game input:checked")).to_have_value("escoba")
    expect(again.locator("#play-points input:checked")).to_have_value("16")
    again.locator("#play-level label", has_text="Expert").click()
    again.reload()
    expect(again.locator("#play-level input:checked")).to_have_value("expert")
    page.context.close()


def test_the_interface_language_picks_its_deck(browser: Browser, web_server: str) -> None:
    base = web_server.rstrip("/")
    for locale, look in (("es-ES", "spanish"), ("it-IT", "italian")):
        watched = open_page(browser, base, locale=locale, viewport=PHONE)
        page = watched.page
        # The header's choice for no deck in particular says what it does.
        first = page.locator("#look option").first
        expect(first).not_to_have_text("La baraja de la mesa")
        page.click("#play-now")
        code = table_code(page)
        assert httpx.get(f"{base}/api/tables/{code}").json()["look"] == look
        watched.check()
        page.context.close()


def test_the_open_tables_arrive_live(browser: Browser, web_server: str) -> None:
    base = web_server.rstrip("/")
    watched = open_page(browser, base, viewport=PHONE)
    page = watched.page
    expect(page.locator("#open-tables")).to_be_visible()
    assert page.get_by_role("button", name="Refresh").count() == 0
    made = httpx.post(f"{base}/api/tables", json={"preset": "scopa", "players": 2,
                                                   "name": "Ada"}).json()  # fmt: skip
    code = made["table"]["code"]
    row = page.locator(".open-table", has=page.locator(f'a[href="#/t/{code}"]'))
    expect(row).to_contain_text("Ada waiting, 1 free")
    httpx.post(f"{base}/api/tables/{code}/join", json={"name": "Bea"}).raise_for_status()
    expect(row).to_have_count(0)  # full: gone from the list, with nobody pressing anything
    screenshot(page, "phone-lobby-live")
    watched.check()
    page.context.close()


def test_what_plays_at_once_comes_before_the_forms_of_every_rule(
    browser: Browser, web_server: str
) -> None:
    """The lobby is not a wall of forms (finding 6): on a phone, the one-button play, a person
    now, the day's puzzle and deal, the tournaments and the open tables all come before the
    forms that choose every rule, which sit under a heading of their own."""
    watched = open_page(browser, web_server, viewport=PHONE)
    page = watched.page
    expect(page.locator("#open-tables")).to_be_visible()

    # Every top read in one go: the lobby's cards fill in as the server answers (the daily
    # deal's says "Resume your match"), and tops read one by one could straddle a change.
    tops: dict[str, float] = page.evaluate("""(selectors) => Object.fromEntries(selectors.map(
        (s) => [s, document.querySelector(s).getBoundingClientRect().top]))""",
        ["#quick", "#create", "#join", "#play-now", "#open-tables", ".daily-cards", ".lobby-more"])
    forms = min(tops["#quick"], tops["#create"], tops["#join"])
    for playing in ("#play-now", "#open-tables", ".daily-cards", ".lobby-more"):
        assert tops[playing] < forms, (playing, tops)
    expect(page.locator(".lobby-more")).to_have_text("A table of your own, every rule chosen")
    watched.check()
    page.context.close()
