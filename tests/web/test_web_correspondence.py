"""Correspondence play in Debian's Chromium (issue 36, item 4): two players, an offer by name
made on "Your games" and accepted there, both see the match in their list, the header's badge
counts 1 for the mover, a click on the match opens the table in their seat with its clock of
days (no "Leave", the choice to wait for a late opponent), a move is played and the other's
badge counts it after a reload; an offer's page as its link opens it (to the one it is for, to
its maker, to a guest, and once cancelled); a clock out of time, on vacation and nearly run
out, as the room would tell it; the pages by the keyboard; screenshots in Italian and Spanish
on a wide screen and two phones, to look at."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, Page, Route, ViewportSize, expect

from ..room.server_support import sqlite_url, subprocess_server
from .web_support import DESKTOP, PHONE, Watched, open_page, play_one_card, screenshot

PASSWORD = "a good password"
SMALL: ViewportSize = {"width": 320, "height": 640}
SIZES = [("desktop", DESKTOP), ("phone", PHONE), ("small", SMALL)]


@pytest.fixture(scope="module")
def room(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The room with room for this module's registrations from one address."""
    db = sqlite_url(tmp_path_factory.mktemp("correspondence") / "room.db")
    with subprocess_server(db, "--bot-delay", "0", "--register-per-address", "200/minute",
                           "--lobby-writes", "100/second;3000/minute") as server:
        yield server.url.rstrip("/")


def logged_in(browser: Browser, url: str, name: str, viewport: ViewportSize = DESKTOP,
              where: str = "#/games", locale: str = "en-GB") -> Watched:
    """A browser of its own, registered as ``name`` (the context's cookie), at ``where``."""
    watched = open_page(browser, f"{url}/#/rules", viewport=viewport, locale=locale)
    answer = watched.page.context.request.post(
        f"{url}/api/account/register", data={"name": name, "password": PASSWORD})
    assert answer.status == 201, answer.text()
    watched.page.goto(f"{url}/{where}")
    watched.page.reload()  # the page asks who it is once per load
    expect(watched.page.locator("#account-link")).to_have_text(name)
    return watched


def overview(page: Page, url: str) -> dict[str, Any]:
    answer = page.context.request.get(f"{url}/api/correspondence")
    assert answer.ok, answer.text()
    found: dict[str, Any] = answer.json()
    return found


def offer_by_name(page: Page, to: str, days: str = "3") -> None:
    """On "Your games": a match offered to ``to`` by name."""
    page.check("#offer-kind-name")
    page.fill("#offer-to", to)
    page.select_option("#offer-days", days)
    page.click("#offer-send")
    expect(page.locator("#offer-note")).to_contain_text(f"Offered to {to}")


def fits(page: Page) -> None:
    """Nothing runs off the page's side."""
    width = page.evaluate("document.documentElement.clientWidth")
    assert page.evaluate("document.documentElement.scrollWidth") <= width


def test_an_offer_by_name_accepted_a_move_played_and_the_badges(
    browser: Browser, room: str
) -> None:
    ada = logged_in(browser, room, "Ada corr")
    bea = logged_in(browser, room, "Bea corr", PHONE)
    page = ada.page
    expect(page.locator("h1")).to_have_text("Your games")
    expect(page.locator("#games-list")).to_contain_text("No correspondence match yet")
    expect(page.locator("#games-vacation")).to_contain_text("5 days of 5 days")
    offer_by_name(page, "Bea corr")
    sent = page.locator("#offers-sent li.offer")
    expect(sent).to_have_count(1)
    expect(sent).to_contain_text("To Bea corr")
    expect(sent).to_contain_text("Scopa · 3 days a move · casual")

    # Bea finds it on her page and accepts it: her table opens, in her seat.
    bea.page.reload()
    received = bea.page.locator("#offers-received li.offer")
    expect(received).to_contain_text("Ada corr offers you a match")
    screenshot(bea.page, "correspondence-offer-received-phone")
    received.locator("button.primary").click()
    expect(bea.page).to_have_url(re.compile(r"#/t/[A-Z0-9]{6}$"))
    code = bea.page.url.rsplit("/", 1)[1]
    expect(bea.page.locator(".hand .card")).to_have_count(3)
    expect(bea.page.locator("#days-clock")).to_be_visible()

    # Both see the match in their list; the mover's badge counts it, the other's does not.
    games = {name: overview(each.page, room)["games"] for name, each in
             (("ada", ada), ("bea", bea))}
    assert [g["table"] for g in games["ada"]] == [g["table"] for g in games["bea"]] == [code]
    mover, waiter = (ada, bea) if games["ada"][0]["your_turn"] else (bea, ada)
    for each in (mover, waiter):
        each.page.goto(f"{room}/#/games")
        each.page.reload()
        expect(each.page.locator(f"li.game[data-table='{code}']")).to_have_count(1)
    expect(mover.page.locator("#games-badge")).to_have_text("1")
    expect(mover.page.locator("#games-link")).to_have_attribute("data-your-turn", "1")
    expect(waiter.page.locator("#games-link")).to_have_attribute("data-your-turn", "0")
    expect(waiter.page.locator("#games-badge")).to_have_count(0)
    expect(waiter.page.locator("#games-link")).to_have_text("Your games")
    expect(mover.page.locator(f"li.game[data-table='{code}'] .game-turn")).to_have_text(
        "▶ Your move")
    expect(mover.page.locator(f"li.game[data-table='{code}'] .game-left")).to_contain_text(
        re.compile(r"2 days, 23 hours left|3 days left"))
    screenshot(ada.page, "correspondence-games-desktop")
    fits(ada.page)

    # One click on the match: the table, in the mover's seat, with the clock of days.
    mover.page.click(f"#game-{code}")
    expect(mover.page).to_have_url(re.compile(f"#/t/{code}$"))
    expect(mover.page.locator(".hand button.playable").first).to_be_visible()
    clock = mover.page.locator("#days-clock")
    expect(clock).to_contain_text("Your move:")
    expect(clock).to_contain_text("left")
    expect(clock).to_have_class(re.compile(r"\bmine\b"))
    mover.page.click("#menu-button")
    expect(mover.page.locator("#resign")).to_be_visible()
    expect(mover.page.locator("#leave")).to_have_count(0)
    expect(mover.page.locator("#patience-win")).to_be_checked()
    mover.page.check("#patience-wait")
    expect(mover.page.locator("#patience-wait")).to_be_checked()
    assert_patient(mover.page, room, code)
    screenshot(mover.page, f"correspondence-table-menu-{'desktop' if mover is ada else 'phone'}")
    mover.page.click("#menu-close")

    # A move: the clock turns to the other, whose badge counts it after a reload.
    play_one_card(mover.page)
    expect(clock).to_contain_text("to move:")
    expect(clock).not_to_have_class(re.compile(r"\bmine\b"))
    waiter.page.reload()
    expect(waiter.page.locator("#games-badge")).to_have_text("1")
    expect(waiter.page.locator(f"li.game[data-table='{code}'] .game-turn")).to_have_text(
        "▶ Your move")
    mover.page.goto(f"{room}/#/games")
    expect(mover.page.locator("#games-link")).to_have_attribute("data-your-turn", "0")

    # The lobby's card lists the match waiting for the waiter's move, one click from its table.
    waiter.page.goto(f"{room}/#/")
    card = waiter.page.locator("#games-card")
    expect(card).to_contain_text("Your move in: 1")
    screenshot(waiter.page, f"correspondence-lobby-{'desktop' if waiter is ada else 'phone'}")
    card.locator(f"a[data-table='{code}']").click()
    expect(waiter.page.locator(".hand button.playable").first).to_be_visible()
    expect(waiter.page.locator("#days-clock")).to_contain_text("Your move:")
    for each in (ada, bea):
        each.check()


def assert_patient(page: Page, url: str, code: str) -> None:
    """The room keeps the choice to wait for a late opponent."""
    def patient() -> list[int]:
        answer = page.context.request.get(f"{url}/api/correspondence/tables/{code}")
        return list(answer.json()["patient"])
    page.wait_for_timeout(100)
    for _ in range(50):
        if patient():
            return
        page.wait_for_timeout(100)
    raise AssertionError("the choice to wait was not kept")


def test_an_offer_s_page_as_its_link_opens_it(browser: Browser, room: str) -> None:
    cleo = logged_in(browser, room, "Cleo corr")
    page = cleo.page
    page.check("#offer-kind-link")
    expect(page.locator("#offer-to")).to_be_hidden()
    page.select_option("#offer-preset", "escoba")
    page.select_option("#offer-days", "7")
    page.click("#offer-send")
    link = page.locator("#note-url")
    expect(link).to_have_value(re.compile(r"/#/games/offer/[\w-]+$"))
    address = link.input_value()
    expect(page.locator("#offers-sent")).to_contain_text("to whoever opens its link")

    # Its maker: their own offer, its link to copy, and a way to cancel it.
    page.goto(address)
    expect(page.locator("#offer")).to_contain_text("Cleo corr offers a match")
    expect(page.locator("#offer")).to_contain_text("Escoba · 7 days a move · casual")
    expect(page.locator("#offer-state")).to_contain_text("This is your offer")
    expect(page.locator("#offer-cancel")).to_be_visible()

    # A guest is asked to log in, and comes back to the offer after.
    guest = open_page(browser, address, viewport=PHONE)
    expect(guest.page.locator("#games-login")).to_contain_text("Log in to answer this offer")
    screenshot(guest.page, "correspondence-offer-guest-phone")
    guest.page.click("#games-login-link")
    guest.page.fill("#register-name", "Dora corr")
    guest.page.fill("#register-password", PASSWORD)
    guest.page.click("#register-button")
    expect(guest.page).to_have_url(address)
    expect(guest.page.locator("#offer-accept")).to_be_visible()
    expect(guest.page.locator("#offer-decline")).to_have_count(0)  # a link's offer: accept or not
    screenshot(guest.page, "correspondence-offer-link-phone")

    # Cancelled by its maker: the page says so, and offers nothing.
    page.click("#offer-cancel")
    expect(page.locator("#offer-state")).to_have_text("This offer was cancelled.")
    guest.page.reload()
    expect(guest.page.locator("#offer-state")).to_have_text("This offer was cancelled.")
    expect(guest.page.locator("#offer-accept")).to_have_count(0)

    # A link that leads nowhere.
    guest.page.goto(f"{room}/#/games/offer/nothing-here")
    expect(guest.page.locator("#offer-state")).to_have_text(
        "There is no such offer: check the link.")
    # The browser's console tells of that answer (404) itself; nothing else may be there.
    guest.errors.remove("Failed to load resource: the server responded with a status of 404 "
                        "(Not Found)")
    for each in (cleo, guest):
        each.check()


def test_an_offer_accepted_from_its_page_seats_the_accepter(browser: Browser, room: str) -> None:
    eva = logged_in(browser, room, "Eva corr")
    fay = logged_in(browser, room, "Fay corr", SMALL)
    offer_by_name(eva.page, "Fay corr", "1")
    offer = overview(eva.page, room)["offers"][0]
    fay.page.goto(f"{room}/#/games/offer/{offer['id']}")
    expect(fay.page.locator("#offer")).to_contain_text("Eva corr offers a match to you")
    expect(fay.page.locator("#offer")).to_contain_text("1 day a move")
    screenshot(fay.page, "correspondence-offer-small")
    fits(fay.page)
    assert {"offer-accept", "offer-decline", "offer-games"} <= tabbed(fay.page, 12)
    fay.page.click("#offer-accept")
    expect(fay.page).to_have_url(re.compile(r"#/t/[A-Z0-9]{6}$"))
    expect(fay.page.locator(".hand .card")).to_have_count(3)
    expect(fay.page.locator("#days-clock")).to_be_visible()
    # The offer's page says it was accepted, with the way to the table.
    fay.page.goto(f"{room}/#/games/offer/{offer['id']}")
    expect(fay.page.locator("#offer-state")).to_contain_text("This offer was accepted")
    expect(fay.page.locator("#offer-table")).to_have_text("Go to the table")
    for each in (eva, fay):
        each.check()


def faked_clock(page: Page, code: str, **fields: Any) -> None:
    """The room's answer for ``code``'s clock, as it would be at another moment."""
    def answer(route: Route) -> None:
        real = route.fetch().json()
        route.fulfill(status=200, content_type="application/json",
                      body=json.dumps({**real, **fields}))
    page.route(f"**/api/correspondence/tables/{code}", answer)


def test_a_clock_nearly_out_on_vacation_and_out_of_time(browser: Browser, room: str) -> None:
    gia = logged_in(browser, room, "Gia corr")
    hal = logged_in(browser, room, "Hal corr")
    offer_by_name(gia.page, "Hal corr", "2")
    hal.page.reload()
    hal.page.click("#offers-received button.primary")
    expect(hal.page).to_have_url(re.compile(r"#/t/[A-Z0-9]{6}$"))
    code = hal.page.url.rsplit("/", 1)[1]
    game = overview(hal.page, room)["games"][0]
    mover, waiter = (hal, gia) if game["your_turn"] else (gia, hal)
    mover_seat = game["seat"] if game["your_turn"] else 1 - game["seat"]

    # Nearly out (under a fifth of the 2 days), a vacation day spent: the title calls.
    faked_clock(mover.page, code, seconds_left=5 * 3600 + 50, vacation=1)
    mover.page.goto(f"{room}/#/t/{code}")
    mover.page.reload()
    clock = mover.page.locator("#days-clock")
    expect(clock).to_contain_text("Your move: 5 hours left")
    expect(clock).to_contain_text("On vacation: 1 day spent, +24 hr")
    expect(clock).to_have_class(re.compile(r"\blow\b"))
    expect(mover.page).to_have_title(re.compile(r"Your move: 5 hours left"))
    screenshot(mover.page, "correspondence-table-low-desktop")

    # "Your games" says the same: the vacation day on the match, and a match out of time.
    def games_answer(route: Route) -> None:
        real = route.fetch().json()
        game = {**real["games"][0], "seconds_left": 5 * 3600 + 50, "vacation": 1}
        late = {**game, "table": "LATE00", "opponents": ["Lia corr"], "your_turn": False,
                "overdue": True, "deadline": None, "seconds_left": None, "vacation": 0}
        route.fulfill(status=200, content_type="application/json",
                      body=json.dumps({**real, "games": [game, late]}))
    mover.page.route("**/api/correspondence", games_answer)
    mover.page.goto(f"{room}/#/games")
    mine = mover.page.locator(f"li.game[data-table='{code}']")
    expect(mine.locator(".game-left")).to_have_text("5 hours left")
    expect(mine.locator(".game-left")).to_have_class(re.compile(r"\blow\b"))
    expect(mine.locator(".game-vacation")).to_have_text("On vacation: 1 day spent, +24 hr")
    expect(mover.page.locator("li.game[data-table='LATE00'] .game-left")).to_have_text(
        "Lia corr ran out of time: claim the win, or wait for them.")
    screenshot(mover.page, "correspondence-games-vacation-desktop")
    mover.page.unroute("**/api/correspondence")
    mover.page.goto(f"{room}/#/")
    expect(mover.page).to_have_title("Scopa")

    # Out of time, the other waiting: the late mover is told, the other may claim the win.
    out = {"overdue": True, "deadline": None, "seconds_left": None, "mover": mover_seat,
           "patient": [1 - mover_seat]}
    faked_clock(mover.page, code, **out)
    mover.page.goto(f"{room}/#/t/{code}")
    expect(mover.page.locator("#days-clock")).to_contain_text(
        "Your time ran out: ")
    expect(mover.page.locator("#claim-win")).to_have_count(0)
    faked_clock(waiter.page, code, **out)
    waiter.page.goto(f"{room}/#/t/{code}")
    waiter.page.reload()
    expect(waiter.page.locator("#days-clock")).to_contain_text("ran out of time")
    expect(waiter.page.locator("#claim-win")).to_have_text("Claim the win")
    screenshot(waiter.page, "correspondence-table-overdue-desktop")
    assert "claim-win" in tabbed(waiter.page, 30)
    # The room refuses the claim (the time has not really run out), in words.
    waiter.page.unroute(f"**/api/correspondence/tables/{code}")
    waiter.page.click("#claim-win")
    expect(waiter.page.locator("#days-clock .problem")).to_have_text(
        "There is no win to claim: your opponent's time has not run out.")
    waiter.errors.remove("Failed to load resource: the server responded with a status of 409 "
                         "(Conflict)")  # the browser's own word on the refusal
    for each in (gia, hal):
        each.check()


def test_two_seeks_alike_are_paired_into_a_match(browser: Browser, room: str) -> None:
    """A seek waits in the correspondence pool; the next like seek of another player is
    paired with it at once, and its maker is seated at the table dealt."""
    max_ = logged_in(browser, room, "Max corr")
    ned = logged_in(browser, room, "Ned corr", PHONE)
    for each in (max_, ned):
        each.page.check("#offer-kind-seek")
        each.page.select_option("#offer-preset", "escoba")
        each.page.select_option("#offer-days", "14")
    max_.page.click("#offer-send")
    expect(max_.page.locator("#offer-note")).to_contain_text("In the pool")
    expect(max_.page.locator("#offers-sent")).to_contain_text(
        "Looking for an opponent in the correspondence pool")
    expect(max_.page.locator("#offers-sent button")).to_have_text(["Cancel"])
    ned.page.click("#offer-send")
    expect(ned.page).to_have_url(re.compile(r"#/t/[A-Z0-9]{6}$"))
    expect(ned.page.locator(".hand .card")).to_have_count(3)
    expect(ned.page.locator("#days-clock")).to_contain_text(re.compile(r"14 days|13 days"))
    max_.page.reload()
    expect(max_.page.locator("li.game")).to_have_count(1)
    expect(max_.page.locator("li.game .game-what")).to_have_text(
        "Escoba · 14 days a move · casual")
    expect(max_.page.locator("#offers")).to_have_count(0)
    for each in (max_, ned):
        each.check()


def tabbed(page: Page, presses: int) -> set[str]:
    """The controls Tab reaches, by id (or tag), from where the focus is."""
    reached = set()
    for _ in range(presses):
        page.keyboard.press("Tab")
        reached.add(str(page.evaluate("document.activeElement.id || "
                                      "document.activeElement.tagName")))
    return reached


def test_the_games_page_by_the_keyboard(browser: Browser, room: str) -> None:
    ivy = logged_in(browser, room, "Ivy corr")
    jo = logged_in(browser, room, "Jo corr")
    offer_by_name(ivy.page, "Jo corr")
    jo.page.reload()
    expect(jo.page.locator("#offers-received li")).to_have_count(1)
    reached = tabbed(jo.page, 40)
    offer = overview(jo.page, room)["offers"][0]["id"]
    wanted = ["games-link", f"accept-{offer}", f"decline-{offer}", "offer-kind-name",
              "offer-to", "offer-preset", "offer-days", "offer-rated", "offer-send"]
    assert [id_ for id_ in wanted if id_ not in reached] == [], reached
    # Enter on the focused "Accept" answers the offer.
    jo.page.focus(f"#accept-{offer}")
    jo.page.keyboard.press("Enter")
    expect(jo.page).to_have_url(re.compile(r"#/t/[A-Z0-9]{6}$"))
    for each in (ivy, jo):
        each.check()


@pytest.mark.parametrize("locale", ["it-IT", "es-ES"])
def test_screenshots_in_italian_and_spanish(browser: Browser, room: str, locale: str) -> None:
    """The pages in each language at each size, to look at: "Your games" with a match and an
    offer, the table with its clock, and an offer's page."""
    language = locale[:2]
    kim = logged_in(browser, room, f"Kim {language}", DESKTOP, locale=locale)
    lou = logged_in(browser, room, f"Lou {language}", DESKTOP, locale=locale)
    kim.page.check("#offer-kind-name")
    kim.page.fill("#offer-to", f"Lou {language}")
    kim.page.click("#offer-send")
    expect(kim.page.locator("#offer-note")).to_be_visible()
    lou.page.reload()
    lou.page.click("#offers-received button.primary")
    expect(lou.page).to_have_url(re.compile(r"#/t/[A-Z0-9]{6}$"))
    kim.page.check("#offer-kind-link")
    kim.page.click("#offer-send")
    offer_link = kim.page.locator("#note-url").input_value()
    code = lou.page.url.rsplit("/", 1)[1]
    title = {"it": "Le tue partite", "es": "Tus partidas"}[language]
    for size, viewport in SIZES:
        for each in (kim, lou):
            each.page.set_viewport_size(viewport)
        kim.page.goto(f"{kim.page.url.split('#')[0]}#/games")
        expect(kim.page.locator("h1")).to_have_text(title)
        expect(kim.page.locator(f"li.game[data-table='{code}']")).to_be_visible()
        screenshot(kim.page, f"correspondence-games-{language}-{size}")
        fits(kim.page)
        for who, each in (("kim", kim), ("lou", lou)):
            each.page.goto(f"{room}/#/t/{code}")
            expect(each.page.locator("#days-clock")).to_be_visible()
            screenshot(each.page, f"correspondence-table-{language}-{size}-{who}")
        lou.page.goto(offer_link)
        expect(lou.page.locator("#offer-accept")).to_be_visible()
        screenshot(lou.page, f"correspondence-offer-{language}-{size}")
        fits(lou.page)
    # Another language chosen at the table (its menu open shows the header's choices): the
    # clock and the header's link say it in that language's words.
    for each in (kim, lou):
        each.page.set_viewport_size(DESKTOP)
    lou.page.goto(f"{room}/#/t/{code}")
    expect(lou.page.locator("#days-clock")).to_be_visible()
    lou.page.click("#menu-button")
    lou.page.select_option("#language", "en")
    expect(lou.page.locator("#days-clock")).to_contain_text(re.compile(r"Your move: |to move: "))
    expect(lou.page.locator("#games-link")).to_contain_text("Your games")
    expect(lou.page.locator("#patience legend")).to_have_text("If they run out of time")
    for each in (kim, lou):
        each.check()


def serious_violations(page: Page) -> str:
    """axe-core's serious and critical findings on the page (as tests/web/test_web_axe.py
    runs it), in words; empty when there are none."""
    results = Axe().run(page).response
    return "\n".join(
        f"{v['id']} ({v['impact']}): {v['help']} "
        + "; ".join(str(node["target"]) for node in v["nodes"][:6])
        for v in results["violations"] if v["impact"] in {"serious", "critical"})


def test_no_serious_violation_on_the_correspondence_pages(browser: Browser, room: str) -> None:
    """axe-core on "Your games" (a match, a received and a sent offer, the note of a link),
    an offer's page and a correspondence table with its menu open."""
    pia = logged_in(browser, room, "Pia corr")
    quin = logged_in(browser, room, "Quin corr")
    offer_by_name(pia.page, "Quin corr")
    quin.page.reload()
    quin.page.click("#offers-received button.primary")
    expect(quin.page).to_have_url(re.compile(r"#/t/[A-Z0-9]{6}$"))
    table = quin.page.url
    offer_by_name(pia.page, "Quin corr")
    pia.page.check("#offer-kind-link")
    pia.page.click("#offer-send")
    expect(pia.page.locator("#note-url")).to_be_visible()
    address = pia.page.locator("#note-url").input_value()
    expect(pia.page.locator("li.game")).to_have_count(1)
    assert serious_violations(pia.page) == ""
    quin.page.goto(address)
    expect(quin.page.locator("#offer-accept")).to_be_visible()
    assert serious_violations(quin.page) == ""
    quin.page.goto(table)
    expect(quin.page.locator("#days-clock")).to_be_visible()
    quin.page.click("#menu-button")
    expect(quin.page.locator("#patience")).to_be_visible()
    assert serious_violations(quin.page) == ""
    for each in (pia, quin):
        each.check()
