"""Challenges and friends in Debian's Chromium (issue 23, item 2): a player challenges another
from their profile, the other sees the challenge arrive on the page they are on and accepts,
and both browsers land at the same dealt table; a third player follows one of them by name
from the lobby's friends panel, sees them online, and once they show where they play to all who
follow them (they do not follow her back), their table, and watches it in one click.
On a desktop and on a phone, with screenshots to look at."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from ..room.server_support import sqlite_url, subprocess_server
from .web_support import DESKTOP, PHONE, WAIT_MS, Watched, open_page, screenshot

PASSWORD = "a good password"
DEVICES = [("desktop", DESKTOP), ("phone", PHONE)]


@pytest.fixture(scope="module")
def social_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The room with room for this module's registrations from one address."""
    db = sqlite_url(tmp_path_factory.mktemp("social") / "room.db")
    with subprocess_server(db, "--bot-delay", "0", "--register-per-address",
                           "100/minute") as server:
        yield server.url.rstrip("/")


def logged_in(browser: Browser, url: str, name: str, viewport: ViewportSize,
              where: str = "#/") -> Watched:
    """A browser of its own, registered as ``name`` (the context's cookie), at ``where``."""
    watched = open_page(browser, f"{url}/#/rules", viewport=viewport)
    answer = watched.page.context.request.post(
        f"{url}/api/account/register", data={"name": name, "password": PASSWORD})
    assert answer.status == 201, answer.text()
    watched.page.goto(f"{url}/{where}")
    watched.page.reload()  # the page asks who it is once per load
    expect(watched.page.locator("#account-link")).to_have_text(name)
    return watched


def fits(page: Page, viewport: ViewportSize) -> bool:
    return int(page.evaluate("document.documentElement.scrollWidth")) <= viewport["width"]


@pytest.mark.parametrize(("device", "viewport"), DEVICES)
def test_a_challenge_accepted_takes_both_browsers_to_the_table(
    browser: Browser, social_server: str, device: str, viewport: ViewportSize
) -> None:
    ada_name, bea_name = f"Ada {device}", f"Bea {device}"
    bea = logged_in(browser, social_server, bea_name, viewport)
    expect(bea.page.locator("#friends h2")).to_have_text("Friends")
    ada = logged_in(browser, social_server, ada_name, viewport, f"#/p/{bea_name}")

    page = ada.page
    expect(page.locator("#profile-actions #follow-button")).to_have_text("Follow")
    page.click("#challenge-button")
    page.select_option("#challenge-preset", "escoba")
    page.fill("#challenge-target", "9")
    page.select_option("#challenge-look", "spanish")
    screenshot(page, f"challenge-form-{device}")
    assert fits(page, viewport)
    page.click("#challenge-send")
    expect(page.locator(".challenges")).to_contain_text(f"Challenge sent to {bea_name}")

    banner = bea.page.locator(".challenge-banner[data-challenge]")
    expect(banner).to_contain_text(f"{ada_name} challenges you")
    expect(banner).to_contain_text("Escoba · to 9 points · Spanish · casual")
    expect(banner.locator(".left")).to_contain_text("seconds left")
    screenshot(bea.page, f"challenge-arrived-{device}")
    assert fits(bea.page, viewport)
    banner.locator("button.accept").click()

    for each in (ada, bea):
        expect(each.page).to_have_url(re.compile(r"#/t/[A-Z0-9]{6}$"), timeout=WAIT_MS)
        expect(each.page.locator(".hand .card")).to_have_count(3)
    assert ada.page.url.split("#")[1] == bea.page.url.split("#")[1]
    expect(bea.page.locator(".challenge-banner")).to_have_count(0)
    screenshot(ada.page, f"challenge-table-{device}")
    for each in (ada, bea):
        each.check()


@pytest.mark.parametrize(("device", "viewport"), DEVICES)
def test_a_follower_sees_a_friend_online_and_watches_their_table_in_one_click(
    browser: Browser, social_server: str, device: str, viewport: ViewportSize
) -> None:
    dan_name, eve_name = f"Dan {device}", f"Eve {device}"
    dan = logged_in(browser, social_server, dan_name, viewport)
    dan.page.click("#play-now")
    expect(dan.page.locator(".hand .card")).to_have_count(3)
    code = dan.page.url.rsplit("/", 1)[1]

    eve = logged_in(browser, social_server, eve_name, viewport)
    page = eve.page
    expect(page.locator("#friends")).to_contain_text("You follow nobody yet")
    page.fill("#follow-name", dan_name.upper())
    page.click("#follow button[type=submit]")
    friend = page.locator(f".friend[data-name='{dan_name}']")
    expect(friend).to_have_class(re.compile(r"\bonline\b"))
    # Dan does not follow Eve: she sees him online, not where he plays (issue 34, item 8).
    expect(friend.locator(".where")).to_have_text("online")
    expect(friend.locator("a.watch")).to_have_count(0)

    # In another tab of his, Dan shows where he plays to everyone who follows him.
    lobby = dan.page.context.new_page()
    lobby.set_default_timeout(WAIT_MS)
    lobby.goto(f"{social_server}/#/")
    shown = lobby.locator("#playing-shown")
    expect(shown).to_have_value("follows")
    with lobby.expect_response(lambda answer: answer.url.endswith("/api/friends/playing")) \
            as answer:
        shown.select_option("all")
    assert answer.value.ok
    expect(lobby.locator("#playing-shown")).to_have_value("all")
    screenshot(lobby, f"friends-shown-{device}")
    lobby.close()
    watch = friend.locator("a.watch")
    expect(watch).to_have_text(f"Watch table {code}")
    screenshot(page, f"friends-panel-{device}")
    assert fits(page, viewport)

    watch.click()
    expect(page).to_have_url(re.compile(f"#/t/{code}$"))
    expect(page.locator("#board")).to_be_visible()
    expect(page.locator(".hand .card")).to_have_count(0)  # watching: no hand of one's own
    screenshot(page, f"friends-watching-{device}")

    dan.page.context.close()  # Dan leaves the room: Eve's list says so
    page.goto(f"{social_server}/#/")
    expect(page.locator(f".friend[data-name='{dan_name}']")).to_contain_text("offline")
    eve.check()


HIDDEN_TAB = """window.tabHidden = false;
Object.defineProperty(Document.prototype, "visibilityState",
  { configurable: true, get() { return window.tabHidden ? "hidden" : "visible"; } });
Object.defineProperty(Document.prototype, "hidden",
  { configurable: true, get() { return window.tabHidden; } });"""
"""Playwright cannot hide a tab: this makes the page believe what the test says."""


def test_a_challenge_to_a_hidden_tab_calls_its_player_back(
    browser: Browser, social_server: str
) -> None:
    bea = logged_in(browser, social_server, "Bea hidden", DESKTOP)
    bea.page.add_init_script(HIDDEN_TAB)
    bea.page.reload()
    expect(bea.page.locator("#friends h2")).to_have_text("Friends")
    title = bea.page.title()
    bea.page.evaluate("window.tabHidden = true")
    ada = logged_in(browser, social_server, "Ada hidden", DESKTOP)
    answer = ada.page.context.request.post(
        f"{social_server}/api/challenges", data={"name": "Bea hidden"})
    assert answer.status == 201, answer.text()

    expect(bea.page).to_have_title("● Ada hidden challenges you")
    bea.page.evaluate("""() => { window.tabHidden = false;
      document.dispatchEvent(new Event("visibilitychange")); }""")
    expect(bea.page).to_have_title(title)
    expect(bea.page.locator(".challenge-banner[data-challenge]")).to_contain_text(
        "Ada hidden challenges you")
    bea.page.locator(".challenge-banner button.decline").click()
    expect(ada.page.locator(".challenges")).to_contain_text(
        "Bea hidden declined your challenge.")
    expect(bea.page.locator(".challenge-banner")).to_have_count(0)
    screenshot(ada.page, "challenge-declined-desktop")
    for each in (ada, bea):
        each.check()
