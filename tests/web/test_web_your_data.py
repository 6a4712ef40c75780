"""Your data in the browser (issue 23, item 5): a logged-in player downloads the file of their
account from the account page, then deletes the account through its dialog (a wrong password
is refused inside it and deletes nothing); the page is a guest's again, and the name is
refused to a new registration; at desktop and phone sizes, with screenshots."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import Browser, expect

from .web_support import (
    DESKTOP,
    PHONE,
    open_page,
    play_against_computer,
    play_to_the_end,
    screenshot,
)

PASSWORD = "a good password"


@pytest.mark.parametrize(("device", "viewport"), [("desktop", DESKTOP), ("phone", PHONE)])
def test_download_my_data_then_delete_my_account(
    browser: Browser, web_server: str, device: str, viewport: dict[str, int]
) -> None:
    watched = open_page(browser, f"{web_server}/#/account", viewport=viewport)  # type: ignore[arg-type]
    page = watched.page
    name = f"Dora {device}"
    page.fill("#register-name", name)
    page.fill("#register-password", PASSWORD)
    page.click("#register-button")
    expect(page.locator("#me h2")).to_have_text(f"Logged in as {name}")
    page.goto(f"{web_server}/#/")
    play_against_computer(page, target="1", level="random")
    play_to_the_end(page)
    page.goto(f"{web_server}/#/account")

    with page.expect_download() as waiting:
        page.click("#download-data")
    download = waiting.value
    assert download.suggested_filename.startswith("scopa-account-")
    data = json.loads(download.path().read_text(encoding="utf-8"))
    assert data["profile"]["name"] == name
    assert len(data["sessions"]) == 1 and "secret_hash" not in data["sessions"][0]
    (match,) = data["matches"]
    assert [p["name"] for p in match["players"]] == [name, "Bot 2"]
    screenshot(page, f"your-data-{device}")

    page.click("#delete-account")
    dialog = page.locator("#delete-dialog")
    expect(dialog).to_be_visible()
    expect(page.locator("#delete-cancel")).to_be_visible()
    page.fill("#delete-password", "not my password")
    page.click("#delete-confirm")
    expect(dialog.locator(".problem")).to_have_text(
        "The password is wrong: the account was not deleted.")
    screenshot(page, f"your-data-delete-dialog-{device}")
    page.fill("#delete-password", PASSWORD)
    page.click("#delete-confirm")
    expect(page.locator(".done")).to_have_text("Your account was deleted.")
    expect(page.locator("#login")).to_be_visible()
    expect(page.locator("#account-link")).to_have_text("Log in")
    screenshot(page, f"your-data-deleted-{device}")
    # The match Dora played is a deleted player's now, in the reader's words.
    page.goto(f"{web_server}/#/m/{match['match']}")
    expect(page.locator(".who .name", has_text="deleted player")).to_have_count(1)
    screenshot(page, f"your-data-replay-{device}")
    page.goto(f"{web_server}/#/account")

    page.fill("#register-name", name)
    page.fill("#register-password", PASSWORD)
    page.click("#register-button")
    expect(page.locator(".problem")).to_contain_text(
        "This name belonged to an account deleted less than 30 days ago")
    # The two refusals asked for above are the browser's console errors, and no other.
    expected = ["Failed to load resource: the server responded with a status of 403 (Forbidden)",
                "Failed to load resource: the server responded with a status of 409 (Conflict)"]
    assert watched.errors == expected
    watched.errors = []
    watched.check()
