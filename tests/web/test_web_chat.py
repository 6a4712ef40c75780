"""Talk at the table in two browsers (issue 23, item 3): a quick phrase sent from an English
page is read in Italian on the other, which counts it unread on the bar's button until its
panel opens; the panel, open, leaves the hand uncovered and where it was, on a laptop and a
phone; a guest gets no text box; a sender muted stays muted for the table (sessionStorage) and
a report is acknowledged. Free text with HTML in it is shown as the characters it is, and a
refusal is said in the reader's language with the server's reason."""

from __future__ import annotations

from typing import Any

import httpx
from playwright.sync_api import Browser, Page

from .web_support import (
    PHONE,
    Watched,
    open_page,
    open_scripted,
    screenshot,
    scripted,
    seat_info,
    view_of,
)

BOXES = """() => {
  const box = (e) => { const r = e.getBoundingClientRect();
    return { left: r.left, top: r.top, right: r.right, bottom: r.bottom }; };
  return { hand: box(document.querySelector(".hand")),
           panel: box(document.querySelector("#chat-panel")),
           scroll: document.scrollingElement.scrollHeight, height: innerHeight };
}"""


TWO_SAID = "() => document.querySelectorAll('#chat-messages .said').length === 2"


def overlaps(a: dict[str, float], b: dict[str, float]) -> bool:
    return a["left"] < b["right"] and b["left"] < a["right"] and (
        a["top"] < b["bottom"] and b["top"] < a["bottom"])


def seated(browser: Browser, url: str, code: str, token: str, **options: Any) -> Watched:
    """A browser holding the seat ``token`` at table ``code`` (kept as the page keeps it)."""
    return open_page(
        browser, f"{url}/#/t/{code}",
        before=lambda page: page.add_init_script(
            f"localStorage.setItem('scopa.seat.{code}', '{token}')"),
        **options,
    )


def open_chat(page: Page) -> dict[str, Any]:
    """Open the panel; where it and the hand are, checked apart and the hand unmoved."""
    hand = page.eval_on_selector(".hand", "e => e.getBoundingClientRect().top")
    page.click("#chat-button")
    page.wait_for_selector("#chat-panel")
    seen: dict[str, Any] = page.evaluate(BOXES)
    assert not overlaps(seen["panel"], seen["hand"]), seen
    assert seen["hand"]["top"] == hand, "the hand moved when the chat opened"
    assert seen["scroll"] <= seen["height"], "the page scrolls with the chat open"
    return seen


def test_a_phrase_from_one_browser_is_read_in_italian_in_another(
    browser: Browser, web_server: str
) -> None:
    with httpx.Client(base_url=web_server) as http:
        made = http.post("/api/tables", json={"players": 2, "name": "Ada"}).json()
        code = made["table"]["code"]
        joined = http.post(f"/api/tables/{code}/join", json={"name": "Bruno"}).json()
        assert http.post(f"/api/tables/{code}/start", json={"token": made["token"]}).is_success
    ada = seated(browser, web_server, code, made["token"])
    bruno = seated(browser, web_server, code, joined["token"], locale="it-IT", viewport=PHONE)
    for person in (ada, bruno):
        person.page.wait_for_selector("#board .hand")

    open_chat(ada.page)
    assert ada.page.locator("#chat-text").count() == 0, "a guest writes no free text"
    ada.page.click('#chat-panel [data-phrase="good_luck"]')
    ada.page.wait_for_selector("#chat-messages .said")
    assert ada.page.inner_text("#chat-messages .said .words") == "Good luck"

    bruno.page.wait_for_selector("#chat-button .unread")
    assert "1 messaggio nuovo" in str(bruno.page.get_attribute("#chat-button", "aria-label"))
    open_chat(bruno.page)
    line = bruno.page.locator("#chat-messages .said").first
    assert line.locator(".speaker").inner_text().strip() == "Ada:"
    assert line.locator(".words").inner_text() == "Buona fortuna"
    assert bruno.page.locator("#chat-button .unread").count() == 0
    screenshot(bruno.page, "chat-phone-it")

    line.locator("button.report").click()
    bruno.page.wait_for_selector("#chat-messages .said .reported")
    assert bruno.page.inner_text("#chat-messages .said .reported") == "Segnalato"

    line.locator("button.mute").click()
    bruno.page.wait_for_selector('#chat-messages .said.muted')
    ada.page.click('#chat-panel [data-phrase="well_played"]')
    for person in (ada, bruno):
        person.page.wait_for_function(TWO_SAID)
    assert bruno.page.locator("#chat-messages .said.muted").count() == 2
    assert "Ben giocato" not in bruno.page.inner_text("#chat-messages")
    muted = bruno.page.evaluate("c => sessionStorage.getItem(`scopa.muted.${c}`)", code)
    assert muted == '["seat:0"]'
    bruno.page.click("#chat-close")
    assert bruno.page.locator("#chat-panel").count() == 0
    ada.check()
    bruno.check()


def test_free_text_is_shown_as_text_and_a_refusal_in_the_readers_language(
    browser: Browser, web_server: str
) -> None:
    seats = [seat_info(0, 0, "Ada"), seat_info(1, 1, "Bruno")]
    table = scripted("CHAT01", seats, view_of(0, hand=["7D", "3S", "KC"], table=["4S"]))
    table.answer = lambda sent: [{
        "type": "error", "code": "phrases_only", "ref": sent["ref"],
        "message": "a moderator silenced your account (spam): the quick phrases only"}]
    ada = open_scripted(browser, web_server, "CHAT01", table, locale="es-ES")
    ada.page.wait_for_selector("#board .hand")
    html = '<img src=x onerror="document.title=1"><b>hola</b>'
    table.push({"type": "said", "table": "CHAT01", "id": 7, "from": 1, "spectator": None,
                "name": "Bruno", "audience": "all", "at": "2026-12-02T10:00:00+00:00",
                "text": html})
    ada.page.wait_for_selector("#chat-button .unread")
    open_chat(ada.page)
    assert ada.page.inner_text("#chat-messages .said .words") == html
    assert ada.page.locator("#chat-panel b, #chat-panel img").count() == 0
    ada.page.click('#chat-panel [data-phrase="thanks"]')
    ada.page.wait_for_selector("#chat-panel .chat-problem")
    assert ada.page.inner_text("#chat-panel .chat-problem") == (
        "Por ahora, solo las frases rápidas (a moderator silenced your account (spam): the "
        "quick phrases only)")
    assert table.sent[-1] == {"type": "say", "ref": "chat", "phrase": "thanks"}
    ada.check()
