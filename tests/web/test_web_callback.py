"""Called back (issue 23, item 4): a hidden tab's title changes when it becomes the person's
turn at a real table against the computer, and comes back when the tab is shown again; no
permission to notify is asked on load, only from the button that says so.

Playwright cannot hide a tab: an init script makes ``document.visibilityState`` (and
``document.hidden``) what the test says, and the test dispatches ``visibilitychange`` as the
browser would. Another counts the page's calls of ``Notification.requestPermission``.
"""

from __future__ import annotations

from playwright.sync_api import Browser, Page, expect

from .web_support import (
    DESKTOP,
    PHONE,
    open_page,
    play_against_computer,
    play_one_card,
    screenshot,
)

HIDE_AND_COUNT = """window.tabHidden = false;
Object.defineProperty(Document.prototype, "visibilityState",
  { configurable: true, get() { return window.tabHidden ? "hidden" : "visible"; } });
Object.defineProperty(Document.prototype, "hidden",
  { configurable: true, get() { return window.tabHidden; } });
window.permissionAsks = 0;
if ("Notification" in window) {
  const ask = Notification.requestPermission.bind(Notification);
  Notification.requestPermission = (...args) => {
    window.permissionAsks += 1;
    return ask(...args);
  };
}"""


NOTES = """window.notes = [];
window.notesClosed = 0;
const Shown = window.Notification;
window.Notification = class extends Shown {
  constructor(title, options) {
    window.notes.push(options.body);
    super(title, options);
  }
  close() {
    window.notesClosed += 1;
    super.close();
  }
};"""


def prepare(page: Page) -> None:
    page.add_init_script(HIDE_AND_COUNT)


def show_tab(page: Page, shown: bool) -> None:
    page.evaluate("""shown => { window.tabHidden = !shown;
      document.dispatchEvent(new Event("visibilitychange")); }""", shown)


def asks(page: Page) -> int:
    return int(page.evaluate("window.permissionAsks"))


def test_a_hidden_tab_is_called_back_for_its_turn(browser: Browser, web_server: str) -> None:
    watched = open_page(browser, web_server, viewport=DESKTOP, before=prepare)
    page = watched.page
    play_against_computer(page, target="11", level="random")
    page.wait_for_selector(".hand button.playable")
    title = page.title()
    assert not title.startswith("●")

    # Hidden: the move is answered by the bot, and it is this person's turn again.
    show_tab(page, False)
    play_one_card(page)
    page.wait_for_selector(".hand button.playable")
    expect(page).to_have_title("● Your turn")
    # Shown again: the title is the page's own.
    show_tab(page, True)
    expect(page).to_have_title(title)
    # A turn while the tab is seen changes nothing.
    play_one_card(page)
    page.wait_for_selector(".hand button.playable")
    expect(page).to_have_title(title)
    assert asks(page) == 0, "permission was asked for without a click"

    # Hidden to the round's end, which waits for its people: the call says so.
    show_tab(page, False)
    while not page.locator("#continue").count():
        play_one_card(page)
        page.wait_for_selector("#continue, .hand button.playable")
    expect(page).to_have_title("● Round over: continue when you are ready")
    show_tab(page, True)
    expect(page).to_have_title(title)
    page.click("#continue")
    assert asks(page) == 0, "permission was asked for without a click"

    # The table's menu offers notifications; only its click asks.
    page.click("#menu-button")
    button = page.locator("#ask-notify")
    expect(button).to_have_text("Notify me when it is my turn")
    screenshot(page, "callback-menu-desktop")
    button.click()
    page.wait_for_function("window.permissionAsks === 1")
    watched.check()


def test_the_account_page_offers_notifications_on_a_phone(
    browser: Browser, web_server: str
) -> None:
    watched = open_page(browser, f"{web_server}/#/account", locale="it-IT", viewport=PHONE,
                        before=prepare)
    page = watched.page
    button = page.locator("#ask-notify")
    expect(button).to_have_text("Avvisami quando tocca a me")
    expect(page.locator("#notifications h2")).to_have_text("Quando tocca a te")
    screenshot(page, "callback-account-phone")
    assert asks(page) == 0
    button.click()
    page.wait_for_function("window.permissionAsks === 1")
    watched.check()


def test_with_notifications_allowed_a_hidden_turn_notifies_and_nothing_asks(
    browser: Browser, web_server: str
) -> None:
    def allowed(page: Page) -> None:
        prepare(page)
        page.add_init_script(NOTES)
        page.context.grant_permissions(["notifications"], origin=web_server)

    watched = open_page(browser, web_server, locale="it-IT", viewport=PHONE, before=allowed)
    page = watched.page
    play_against_computer(page, target="11", level="random")
    page.wait_for_selector(".hand button.playable")
    # The person chose already: the button is gone from the table's menu.
    page.click("#menu-button")
    expect(page.locator("#resign")).to_be_visible()
    expect(page.locator("#ask-notify")).to_have_count(0)
    page.click("#menu-close")
    screenshot(page, "callback-table-phone")

    show_tab(page, False)
    play_one_card(page)
    page.wait_for_selector(".hand button.playable")
    expect(page).to_have_title("● Tocca a te")
    assert page.evaluate("window.notes") == ["Tocca a te"]
    show_tab(page, True)
    expect(page).not_to_have_title("● Tocca a te")
    # Back at the tab, its notification is closed: the turn is on screen.
    assert page.evaluate("window.notesClosed") == 1
    page.goto(f"{web_server}/#/account")
    expect(page.locator("#register")).to_be_visible()
    expect(page.locator("#ask-notify")).to_have_count(0)
    assert asks(page) == 0
    watched.check()
