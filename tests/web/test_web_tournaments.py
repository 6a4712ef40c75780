"""An arena in Debian's Chromium: four people in four browsers register, one makes the arena
from the lobby's Tournaments card, the others join it from the lobby, its maker starts it, and
each is taken to their table when paired; after each person's first game (its loser resigns
at the table, as a person would) the winners meet and the losers meet, each taken to the new
table without a click. The standings then show the streak and the replays, on a desktop and on
a phone, screenshots to look at."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from ..room.server_support import sqlite_url, subprocess_server
from .web_support import DESKTOP, PHONE, Watched, open_page, play_one_card, screenshot

NAMES = ("Ada", "Bea", "Cid", "Dan")


@pytest.fixture(scope="module")
def room(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``scopa serve`` for four registrations from one address in a minute, and a turn's
    time long enough that no stand-in finishes a game the test leaves in play."""
    db = sqlite_url(tmp_path_factory.mktemp("tournaments") / "room.db")
    with subprocess_server(db, "--bot-delay", "0", "--register-per-address", "100/minute",
                           "--turn-timeout", "600") as server:
        yield server.url


def register(browser: Browser, url: str, name: str) -> Watched:
    watched = open_page(browser, url + "#/account", viewport=PHONE if name == "Bea" else DESKTOP)
    page = watched.page
    page.fill("#register-name", name)
    page.fill("#register-password", "a good password")
    page.click("#register-button")
    expect(page.locator("#account-link")).to_have_text(name)
    return watched


def at_table(page: Page, previous: str | None = None) -> str:
    """Wait until the page is taken to a table other than ``previous``; its code."""
    page.wait_for_function(
        "previous => /#\\/t\\/[A-Z0-9]{6}$/.test(location.hash)"
        " && location.hash.slice(4) !== previous", arg=previous or "")
    page.wait_for_selector("#board")
    return page.url.rsplit("/", 1)[1]


def resign(page: Page, opponent: Page) -> None:
    """Resign at the table, as a person would, once each player has made 2 moves (a game
    given up sooner counts for neither); done once the page says so, or once it has already
    taken the player on to their next table."""
    for played in range(4):
        for each in (page, opponent):
            each.wait_for_function(
                "v => document.querySelector('#board')?.dataset.version === v", arg=str(played))
        mover = page if page.locator(".hand button.playable").count() else opponent
        play_one_card(mover)
    code = page.url.rsplit("/", 1)[1]
    page.click("#menu-button")
    page.click("#resign")
    page.click("#resign-confirm")
    page.wait_for_function(
        "code => document.querySelector('#resigned')?.textContent === 'You resigned.'"
        " || location.hash.slice(4) !== code", arg=code)


def test_an_arena_of_four_people_in_four_browsers_over_two_games(
    browser: Browser, room: str
) -> None:
    people = {name: register(browser, room, name) for name in NAMES}
    ada = people["Ada"].page

    # The lobby's card: no tournament yet, and the way to make one.
    ada.goto(room + "#/")
    expect(ada.locator("#tournaments li.none")).to_be_visible()
    ada.click("#new-tournament")
    ada.fill("#tournament-name", "Friday arena")
    ada.check("#tournament-kind input[value=swiss]")
    expect(ada.locator("#tournament-amount")).to_have_value("5")
    ada.check("#tournament-kind input[value=arena]")
    soon = ada.input_value("#tournament-start")
    ada.fill("#tournament-amount", "45")
    ada.fill("#tournament-start", "2020-01-01T10:00")
    ada.click("#tournament-make")
    expect(ada.locator(".problem")).to_contain_text("is in the past: choose a time from now on")
    expect(ada.locator("#tournament-name")).to_have_value("Friday arena")
    expect(ada.locator("#tournament-amount")).to_have_value("45")
    ada.fill("#tournament-start", soon)
    ada.click("#tournament-make")
    expect(ada.locator("#tournament-status")).to_have_attribute("data-status", "open")
    ada.click("#tournament-join")
    expect(ada.locator("#tournament-joined")).to_be_visible()
    tournament = ada.url.rsplit("/", 1)[1]

    for name in NAMES[1:]:
        page = people[name].page
        page.goto(room + "#/")
        expect(page.locator(f'#tournaments a[data-tournament="{tournament}"]')).to_have_text(
            "Friday arena")
        if name == "Bea":
            page.locator("#tournaments").scroll_into_view_if_needed()
            screenshot(page, "tournament-lobby-phone")
        page.click(f'#tournaments a[data-tournament="{tournament}"]')
        page.click("#tournament-join")
        expect(page.locator("#tournament-joined")).to_be_visible()
    expect(ada.locator("#standings tbody tr")).to_have_count(4)  # live: the others joined
    screenshot(people["Bea"].page, "tournament-open-phone")

    ada.click("#tournament-start")
    first = {name: at_table(people[name].page) for name in NAMES}
    assert first["Ada"] == first["Bea"] and first["Cid"] == first["Dan"] != first["Ada"]
    # A tournament's game is the players' own: no hint button (the server refuses them too).
    ada.wait_for_selector(".seat.me .hand .card")
    assert ada.locator("#hint").count() == 0

    # Bea and Dan resign their first games: the winners meet next, and the losers.
    resign(people["Bea"].page, ada)
    resign(people["Dan"].page, people["Cid"].page)
    second = {name: at_table(people[name].page, first[name]) for name in NAMES}
    assert second["Ada"] == second["Cid"] and second["Bea"] == second["Dan"] != second["Ada"]
    resign(people["Cid"].page, ada)  # Ada's second win in a row: on fire

    for name, viewport in (("Ada", DESKTOP), ("Bea", PHONE)):
        page = people[name].page
        page.set_viewport_size(viewport)
        page.goto(f"{room}#/tournaments/{tournament}")
        ada_row = page.locator('#standings tr[data-player="Ada"]')
        expect(ada_row.locator(".points")).to_have_text("4")
        expect(ada_row.locator(".fire")).to_have_count(1)
        expect(page.locator("#standings tbody tr").first).to_have_attribute("data-player", "Ada")
        expect(page.locator("#finished-games a.replay")).to_have_count(3)
        expect(page.locator("#live-games a.watch")).to_have_count(1)
        expect(page.locator("#tournament-table")).to_have_count(1 if name == "Bea" else 0)
        screenshot(page, f"tournament-{'desktop' if viewport is DESKTOP else 'phone'}")
    # Bea withdraws (her game in play goes on), then thinks better of it.
    bea = people["Bea"].page
    bea.click("#tournament-withdraw")
    expect(bea.locator("#tournament-withdrawn")).to_be_visible()
    bea.click("#tournament-join")
    expect(bea.locator("#tournament-withdraw")).to_be_visible()
    # A replay opens from the page.
    ada.click("#finished-games a.replay >> nth=0")
    expect(ada).to_have_url(re.compile(r"#/m/\d+$"))
    ada.click("#replay-last")  # its 4 moves played, the resignation is at its end
    expect(ada.locator("#replay-winner")).to_contain_text("resigned")
    # A Swiss of one round between Ada and Cid (both free in the arena, where they have just
    # met): it ends with its game, and its podium stays.
    ada.goto(room + "#/tournaments/new")
    ada.fill("#tournament-name", "Club night")
    ada.check("#tournament-kind input[value=swiss]")
    ada.fill("#tournament-amount", "1")
    ada.click("#tournament-make")
    ada.click("#tournament-join")
    expect(ada.locator("#tournament-joined")).to_be_visible()
    swiss = ada.url.rsplit("/", 1)[1]
    cid = people["Cid"].page
    cid.goto(f"{room}#/tournaments/{swiss}")
    cid.click("#tournament-join")
    expect(ada.locator("#standings tbody tr")).to_have_count(2)
    ada.click("#tournament-start")
    assert at_table(ada, second["Ada"]) == at_table(cid, second["Cid"])
    resign(cid, ada)
    for viewport, device in ((DESKTOP, "desktop"), (PHONE, "phone")):
        ada.set_viewport_size(viewport)
        ada.goto(f"{room}#/tournaments/{swiss}")
        expect(ada.locator("#tournament-status")).to_have_attribute("data-status", "finished")
        expect(ada.locator("#podium li strong")).to_have_text(["Ada", "Cid"])
        screenshot(ada, f"tournament-podium-{device}")

    # The one refusal the page asked for: the start in the past, said on the page above.
    assert people["Ada"].errors == [
        "Failed to load resource: the server responded with a status of 422 (Unprocessable "
        "Entity)"]
    people["Ada"].errors.clear()
    for watched in people.values():
        watched.check()
