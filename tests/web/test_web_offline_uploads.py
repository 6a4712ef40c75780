"""Matches played offline come home (issue 37, item 4), in a real Chromium against the room's
POST /api/offline/matches: a match played with no network is kept in IndexedDB with its record,
and uploaded by itself once the network is back and the person is logged in; a second upload is
a 409 that changes nothing, a copy under another id is marked uploaded, and an illegal record is
refused with the room's sentence, kept, shown on offline play's screen and not sent again."""

from __future__ import annotations

import re

from playwright.sync_api import Browser, Page, expect

from .test_web_offline_play import (
    check_console,
    download,
    offline_page,
    play_and_see_the_answer,
    start_match,
)

KEPT = """() => new Promise((resolve, reject) => {
  const asked = indexedDB.open("scopa-offline", 1);
  asked.onsuccess = () => {
    const all = asked.result.transaction("matches").objectStore("matches").getAll();
    all.onsuccess = () => resolve(all.result);
    all.onerror = () => reject(all.error);
  };
  asked.onerror = () => reject(asked.error);
})"""
"""The matches the page keeps in IndexedDB."""

PUT = """(match) => new Promise((resolve, reject) => {
  const asked = indexedDB.open("scopa-offline", 1);
  asked.onsuccess = () => {
    const done = asked.result.transaction("matches", "readwrite");
    done.objectStore("matches").put(match);
    done.oncomplete = () => {
      localStorage.setItem("scopa.offline.waiting", "1");
      resolve(null);
    };
    done.onerror = () => reject(done.error);
  };
  asked.onerror = () => reject(asked.error);
})"""
"""A match put in IndexedDB as the page keeps them, waiting for its upload."""


def wait_for_kept(page: Page, condition: str) -> None:
    """Wait until the matches kept satisfy ``condition`` (JavaScript of ``kept``): each poll
    reads IndexedDB anew and judges the read before it (a wait's function must answer at once)."""
    page.wait_for_function(f"""() => {{
      ({KEPT})().then((kept) => {{ window.keptRead = kept; }});
      const kept = window.keptRead;
      return kept !== undefined && ({condition});
    }}""")
    page.evaluate("() => { delete window.keptRead; }")


def resign(page: Page) -> None:
    page.click("#menu-button")
    page.click("#resign")
    page.click("#resign-confirm")
    expect(page.locator("#over, dialog")).not_to_have_count(0)


def test_a_match_played_offline_is_uploaded_once_online_and_logged_in(
    browser: Browser, web_server: str
) -> None:
    base = web_server.rstrip("/")
    watched = offline_page(browser, base)
    page = watched.page
    name = f"Off{abs(hash(page)) % 10**6}"
    registered = page.evaluate("""(name) => fetch("/api/account/register", { method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ name, password: "a good password" }) }).then((a) => a.status)""",
        name)  # fmt: skip
    assert registered == 201
    download(page)

    # Played with no network: kept in IndexedDB, waiting.
    page.context.set_offline(True)
    page.wait_for_function("() => !navigator.onLine")
    start_match(page, "greedy")
    play_and_see_the_answer(page)
    resign(page)
    wait_for_kept(page, "kept.length === 1")
    (match,) = page.evaluate(KEPT)
    assert match["uploaded"] is False and match["seat"] == 0
    assert match["opponents"] == ["greedy"] and match["record"]["resigned"] == 0
    assert page.evaluate("localStorage.getItem('scopa.offline.waiting')") == "1"

    # The network is back: it goes to the account's history by itself, once.
    page.context.set_offline(False)
    wait_for_kept(page, "kept[0].uploaded && !localStorage.getItem('scopa.offline.waiting')")
    body = {key: match[key] for key in ("id", "seat", "opponents", "look", "record",
                                        "finished_at")}
    again = page.evaluate("""(body) => fetch("/api/offline/matches", { method: "POST",
        headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) })
        .then(async (a) => [a.status, await a.text()])""", body)  # fmt: skip
    assert again[0] == 409, again  # stored already: a second upload changes nothing

    # In the profile's recent matches, its replay link opens it, step by step, the seats as
    # played (no review: the master reviews the room's matches).
    page.goto(f"{base}/#/p/{name}")
    link = page.locator("#recent a.replay-link").first
    expect(link).to_have_attribute("href", re.compile(r"^/?#/offline/\d+$"))
    link.click()
    expect(page.locator("#replay-step")).to_be_visible()
    expect(page.locator(".replay-head")).to_contain_text(name)
    page.click("#replay-last")
    expect(page.locator("#replay-winner")).to_be_visible()
    assert page.locator("#review").count() == 0
    assert re.search(r"#/offline/\d+$", page.locator("#replay-link").input_value())
    page.goto(f"{base}/#/offline")

    # A copy under another id is the same match (409: marked uploaded); a record made illegal
    # is refused with the room's sentence, kept with it, shown, and not sent again.
    moves = match["record"]["moves"]
    illegal = {**match, "id": "00000000-0000-4000-8000-000000000001", "uploaded": False,
               "record": {**match["record"], "moves": [moves[1], moves[0], *moves[2:]]}}
    copy = {**match, "id": "00000000-0000-4000-8000-000000000002", "uploaded": False}
    page.evaluate(PUT, illegal)
    page.evaluate(PUT, copy)
    page.reload()
    wait_for_kept(page, "kept.length === 3 && kept.every((m) => m.uploaded || m.refused)")
    kept = {m["id"]: m for m in page.evaluate(KEPT)}
    assert kept[copy["id"]]["uploaded"] is True, kept[copy["id"]]
    refused = kept[illegal["id"]]
    assert refused["uploaded"] is False and refused["refused"] is True
    assert refused["problem"]
    expect(page.locator("#offline-matches .problem")).to_contain_text(refused["problem"])
    expect(page.locator("#offline-matches-count")).to_contain_text("Played: 3.")
    # The browser's words for the two refusals this test asked for: the copy's and the
    # illegal record's.
    check_console(watched, r"status of (409 \(Conflict\)|422 \(Unprocessable Entity\))")
