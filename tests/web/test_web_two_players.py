"""Two people in two browsers: one creates a table and shares its link, the other joins by it,
and they play each other by clicking."""

from __future__ import annotations

from playwright.sync_api import Browser

from .web_support import open_page, play_one_card


def test_two_browsers_play_at_one_table(browser: Browser, web_server: str) -> None:
    ada = open_page(browser, web_server)
    ada.page.fill("#name", "Ada")
    ada.page.select_option("#create-look", "italian")
    ada.page.click("#create-table")
    link = ada.page.input_value("#share-link")
    assert "#/t/" in link
    assert ada.page.is_disabled("#start"), "nobody to play with yet"

    bruno = open_page(browser, web_server, locale="it-IT")
    code = link.rsplit("/", 1)[-1]
    bruno.page.wait_for_selector(f'#open-tables a[href="#/t/{code}"]')  # listed as open
    bruno.page.fill("#join-code", link)
    bruno.page.click("#join-button")
    bruno.page.fill("#join-name", "Bruno")
    bruno.page.click("#take-seat")
    bruno.page.wait_for_selector("#start")
    assert "Ada" in bruno.page.inner_text("#waiting")

    ada.page.wait_for_selector("#start:not([disabled])")
    ada.page.click("#start")
    for person in (ada, bruno):
        person.page.wait_for_selector("#board")
    assert "Bruno" in ada.page.inner_text(".seat.at-top")
    assert "Ada" in bruno.page.inner_text(".seat.at-top")
    # Bruno's browser speaks Italian, Ada's English.
    assert "Tocca" in bruno.page.inner_text("#turn")

    for _ in range(8):
        mover = next(p for p in (ada, bruno) if p.page.locator(".hand button.playable").count())
        waiting = bruno if mover is ada else ada
        assert waiting.page.is_disabled("#hint") and mover.page.is_enabled("#hint")
        before = waiting.page.get_attribute("#board", "data-version")
        play_one_card(mover.page)
        waiting.page.wait_for_function(
            "v => document.querySelector('#board')?.dataset.version !== v", arg=before
        )
        assert mover.page.get_attribute("#board", "data-version") == (
            waiting.page.get_attribute("#board", "data-version")
        )
        # Both see the same table, in the same order, whatever their languages.
        tables = [
            p.page.eval_on_selector_all(".table-cards .card", "cs => cs.map(c => c.dataset.card)")
            for p in (ada, bruno)
        ]
        assert tables[0] == tables[1]
    # Someone else with the link watches: no hand, nothing to play.
    carla = open_page(browser, link)
    carla.page.wait_for_selector("#board")
    assert carla.page.locator(".hand").count() == 0
    assert carla.page.locator("#hint").count() == 0, "no hints for spectators"
    assert "watching" in carla.page.inner_text("#board")
    assert carla.page.locator(".opponent").count() == 2
    # Bruno goes away: Ada and Carla see his seat marked away at once, in words.
    for person in (ada, carla):
        assert person.page.get_attribute('.seat[data-seat="1"] .status', "data-status") == "here"
    bruno.check()
    bruno.page.context.close()
    for person in (ada, carla):
        person.page.wait_for_selector('.seat[data-seat="1"] .status[data-status="away"]')
        assert "away" in person.page.inner_text('.seat[data-seat="1"]')
    ada.check()
    carla.check()


def test_a_table_with_a_computer_player(browser: Browser, web_server: str) -> None:
    ada = open_page(browser, web_server)
    ada.page.select_option("#create-players", "3")
    ada.page.select_option("#create-bots", "1")
    ada.page.select_option("#create-level", "greedy")
    ada.page.click("#create-table")
    assert "(Casual)" in ada.page.inner_text("#waiting")
    bruno = open_page(browser, ada.page.input_value("#share-link"))
    bruno.page.click("#take-seat")
    ada.page.wait_for_selector("#start:not([disabled])")
    ada.page.click("#start")
    for person in (ada, bruno):
        person.page.wait_for_selector("#board")
        assert person.page.locator(".opponent").count() == 2
    ada.check()
    bruno.check()
