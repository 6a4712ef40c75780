"""Play a person now, in two browsers (issue 23, item 1): Ada on a laptop and Bruno on a phone
each ask the lobby's "Play a person" for a game of scopa, see the wait, are paired with each
other and taken to one table, where Ada's quick phrase reaches Bruno, and they play it to the
end by clicking. And a person who plays the computer while they wait is told, over that table,
when a player comes, and going to the match resigns the computer's table."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest
from playwright.sync_api import Browser, Page
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from ..room.server_support import sqlite_url, subprocess_server
from .web_support import DESKTOP, PHONE, Watched, open_page, play_one_card, screenshot


@pytest.fixture(scope="module")
def web_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The module's ``scopa serve``, which offers the computer after 2 s of waiting."""
    db = sqlite_url(tmp_path_factory.mktemp("web") / "room.db")
    with subprocess_server(db, "--bot-delay", "0", "--pool-bot-offer", "2") as server:
        yield server.url


def ask_for_a_person(person: Watched, name: str, shot: str) -> None:
    page = person.page
    page.wait_for_selector("#play-person #pool-find")
    page.fill("#name", name)
    screenshot(page, f"pools-lobby-{shot}")
    page.click("#pool-find")
    page.wait_for_selector("#pool-count")


def act(page: Page) -> bool:
    """Do what this page's player has to do now (a round's end read, a card); whether it did."""
    if page.locator("#continue").count():
        page.click("#continue")
        return True
    if page.locator(".hand button.playable").count():
        play_one_card(page)
        return True
    return False


def test_two_people_find_each_other_through_a_pool_talk_and_play_to_the_end(
    browser: Browser, web_server: str
) -> None:
    ada = open_page(browser, web_server, viewport=DESKTOP)
    ada.page.wait_for_selector("#pool-game")
    games = ada.page.eval_on_selector_all("#pool-game label", "ls => ls.map(l => l.innerText)")
    assert games == ["Scopa", "Escoba", "Scopone"]
    ask_for_a_person(ada, "Ada", "desktop")
    assert "Looking for a player" in ada.page.inner_text("#play-person")
    assert "waiting now" in ada.page.inner_text("#pool-count")
    screenshot(ada.page, "pools-waiting-desktop")
    ada.page.set_viewport_size(PHONE)
    screenshot(ada.page, "pools-waiting-phone")
    ada.page.set_viewport_size(DESKTOP)
    games = ada.page.eval_on_selector_all("#pool-game label", "ls => ls.map(l => l.innerText)")
    assert games == [], "the game is chosen before asking, not while waiting"

    bruno = open_page(browser, web_server, viewport=PHONE, locale="it-IT")
    ask_for_a_person(bruno, "Bruno", "phone")
    for person in (ada, bruno):
        person.page.wait_for_selector("#board")
    assert "Bruno" in ada.page.inner_text(".seat.at-top")
    assert "Ada" in bruno.page.inner_text(".seat.at-top")
    code = ada.page.url.rsplit("/", 1)[-1]
    assert bruno.page.url.endswith(f"#/t/{code}")
    screenshot(ada.page, "pools-table-desktop")
    screenshot(bruno.page, "pools-table-phone")

    ada.page.click("#chat-button")
    ada.page.click('#chat-panel [data-phrase="good_luck"]')
    bruno.page.click("#chat-button")
    bruno.page.wait_for_selector("#chat-messages .said")
    assert bruno.page.inner_text("#chat-messages .said .words") == "Buona fortuna"
    for person in (ada, bruno):
        person.page.click("#chat-close")

    for _ in range(3000):
        if all(p.page.locator("#winner").count() for p in (ada, bruno)):
            break
        if not (act(ada.page) | act(bruno.page)):
            # Neither has anything to do this instant: wait (bounded) for either one's turn.
            for page in (ada.page, bruno.page):
                try:
                    page.wait_for_selector("#winner, #continue, .hand button.playable",
                                           timeout=500)
                    break
                except PlaywrightTimeout:
                    continue
    else:
        raise AssertionError("the match did not end")
    winners = {p.page.inner_text("#winner") for p in (ada, bruno)}
    assert len(winners) == 2 and all(winners)  # each page says it, in its own language
    screenshot(ada.page, "pools-over-desktop")
    screenshot(bruno.page, "pools-over-phone")
    ada.check()
    bruno.check()


def test_the_computer_while_waiting_and_the_banner_when_a_person_comes(
    browser: Browser, web_server: str
) -> None:
    cid = open_page(browser, web_server, viewport=DESKTOP)
    ask_for_a_person(cid, "Cid", "desktop-offer")
    cid.page.click("#pool-play-bot")  # offered after the server's 2 s
    cid.page.wait_for_selector("#board")
    bot_code = cid.page.url.rsplit("/", 1)[-1]
    cid.page.wait_for_selector("#pool-banner")
    assert "Looking for a player" in cid.page.inner_text("#pool-banner")
    screenshot(cid.page, "pools-bot-waiting-desktop")

    dora = open_page(browser, web_server, viewport=PHONE)
    ask_for_a_person(dora, "Dora", "phone-offer")
    dora.page.wait_for_selector("#board")
    cid.page.wait_for_selector("#pool-banner.found")
    assert cid.page.url.endswith(f"#/t/{bot_code}"), "Cid chooses when to leave the computer"
    cid.page.set_viewport_size(PHONE)
    screenshot(cid.page, "pools-found-phone")
    cid.page.set_viewport_size(DESKTOP)
    screenshot(cid.page, "pools-found-desktop")
    cid.page.click("#pool-go")
    cid.page.wait_for_function(f"!location.hash.endsWith('{bot_code}')")
    cid.page.wait_for_selector("#board")
    assert "Dora" in cid.page.inner_text(".seat.at-top")
    assert cid.page.locator("#pool-banner").count() == 0
    for _ in range(100):  # the resignation is sent as Cid goes: wait for the server to say so
        status = httpx.get(f"{web_server.rstrip('/')}/api/tables/{bot_code}").json()["status"]
        if status == "over":
            break
        cid.page.wait_for_timeout(100)
    assert status == "over"
    cid.check()
    dora.check()


def test_a_person_seated_elsewhere_is_refused_with_the_way_to_their_table(
    browser: Browser, web_server: str
) -> None:
    # Issue 35, item 2: "you are seated at X" links to X, where its owner sits again.
    eva = open_page(browser, web_server, viewport=PHONE, locale="es-ES")
    ask_for_a_person(eva, "Eva", "phone-seated")
    fede = open_page(browser, web_server, viewport=DESKTOP)
    ask_for_a_person(fede, "Fede", "desktop-seated")
    for person in (eva, fede):
        person.page.wait_for_selector("#board")
    code = eva.page.url.rsplit("/", 1)[-1]
    eva.page.evaluate("location.hash = '#/'")
    ask = eva.page
    ask.wait_for_selector("#play-person #pool-find")
    ask.click("#pool-find")
    # A locator, found again at each use: the panel is drawn again as the pool's words and
    # counts arrive, and a person's click lands on the link drawn last.
    link = ask.locator("#play-person .problem a.to-table")
    link.wait_for()
    assert f"mesa {code}" in ask.inner_text("#play-person .problem")
    assert link.inner_text() == "Ir a tu mesa" and link.get_attribute("href") == f"#/t/{code}"
    screenshot(ask, "pools-seated-refusal-phone")
    link.click()
    ask.wait_for_selector("#board .hand button")
    assert ask.url.endswith(f"#/t/{code}")
    assert "Fede" in ask.inner_text(".seat.at-top"), "back in her own seat, not watching"
    eva.check()
    fede.check()
