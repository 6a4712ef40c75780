"""Web Push in Chromium (issue 36, item 6): a push delivered to the room's service worker
through the DevTools protocol (``ServiceWorker.deliverPushMessage``) is shown as a
notification in the reader's language, a second one of the same challenge replaces it, and
the page the room opens is offered the challenge, and a notification's click takes the room's
window where it says.

Headless Chromium has no push service to subscribe with (``PushManager.subscribe`` asks
Google's, which a test must not reach), so the subscription the room keeps is one made here
with real keys, and the push is handed to the worker by DevTools rather than by a push
service: tests/room/test_push.py checks what the room posts to one. Nor can a test click a
notification of headless Chromium: the click is the worker's own ``notificationclick``
event, dispatched in the worker with the notification it shows.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from playwright.sync_api import Browser, Page, expect

from ..room.server_support import sqlite_url, subprocess_server
from .web_support import DESKTOP, WAIT_MS, open_page

PASSWORD = "a good password"


@pytest.fixture(scope="module")
def push_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A room that may push to loopback, where nothing answers: its posts fail, as a push
    service that is away would, and the test hands the worker the push itself."""
    db = sqlite_url(tmp_path_factory.mktemp("push") / "room.db")
    with subprocess_server(db, "--bot-delay", "0", "--push-allow-hosts", "127.0.0.1") as server:
        yield server.url


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def subscription() -> dict[str, Any]:
    point = ec.generate_private_key(ec.SECP256R1()).public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    return {"endpoint": "https://127.0.0.1:9/push/bea", "expirationTime": None,
            "keys": {"p256dh": b64url(point), "auth": b64url(bytes(range(16)))}}


def notifications(page: Page) -> list[dict[str, Any]]:
    shown: list[dict[str, Any]] = page.evaluate("""() => navigator.serviceWorker.ready
        .then((r) => r.getNotifications())
        .then((all) => all.map((n) => ({title: n.title, body: n.body, tag: n.tag,
                                        data: n.data})))""")  # fmt: skip
    return shown


def shown_once(page: Page, titles: list[str]) -> list[dict[str, Any]]:
    """The notifications once their titles are ``titles`` (sorted), read twice alike:
    Chromium's list of them is read from its database, which a notification shown or
    replaced reaches a moment after ``showNotification`` resolves."""
    for _ in range(WAIT_MS // 50):
        first = notifications(page)
        if sorted(n["title"] for n in first) == titles and notifications(page) == first:
            return first
        page.wait_for_timeout(50)
    raise AssertionError(f"notifications shown: {notifications(page)}, not {titles}")


def deliver(page: Page, base: str, payload: dict[str, Any]) -> None:
    """Hand ``payload`` to the room's service worker as a push message (DevTools)."""
    cdp = page.context.new_cdp_session(page)
    registrations: list[dict[str, Any]] = []
    cdp.on("ServiceWorker.workerRegistrationUpdated",
           lambda event: registrations.extend(event["registrations"]))
    cdp.send("ServiceWorker.enable")
    for _ in range(WAIT_MS // 25):  # enable's events tell the registrations
        if any(r["scopeURL"] == f"{base}/" for r in registrations):
            break
        page.wait_for_timeout(25)
    [found] = [r for r in registrations if r["scopeURL"] == f"{base}/" and not r["isDeleted"]]
    cdp.send("ServiceWorker.deliverPushMessage", {
        "origin": base, "registrationId": found["registrationId"],
        "data": json.dumps(payload)})
    cdp.detach()


def test_a_push_is_shown_in_the_readers_language_and_its_click_opens_the_challenge(
    browser: Browser, push_server: str, tmp_path: Path
) -> None:
    base = push_server.rstrip("/")
    with httpx.Client(base_url=base) as ada:
        assert ada.post("/api/account/register",
                        json={"name": "Ada", "password": PASSWORD}).status_code == 201
        watched = open_page(browser, f"{base}/#/account", locale="it-IT", viewport=DESKTOP,
                            worker=True)
        page = watched.page
        page.context.grant_permissions(["notifications"], origin=base)
        answer = page.request.post(f"{base}/api/account/register",
                                   data={"name": "Bea", "password": PASSWORD})
        assert answer.status == 201
        # Bea's browsers take challenge pushes: she may be challenged with no page open.
        kept = page.request.post(f"{base}/api/push/subscriptions", data=subscription())
        assert kept.status == 201, kept.text()
        sent = ada.post("/api/challenges", json={"name": "Bea", "preset": "escoba"})
        assert sent.status_code == 201, sent.text
        challenge = sent.json()["id"]
        starts = (datetime.now(UTC) + timedelta(hours=2)).isoformat()
        made = ada.post("/api/tournaments", json={"name": "Arena", "kind": "arena",
                                                  "minutes": 30, "starts_at": starts})
        assert made.status_code == 201, made.text
        arena = made.json()["id"]

        page.reload()
        page.wait_for_function("() => navigator.serviceWorker.controller !== null",
                               timeout=WAIT_MS)
        # The page opened after the challenge is offered it, as the notification's would be.
        banner = page.locator(f".challenge-banner[data-challenge='{challenge}']")
        expect(banner).to_contain_text("Ada ti sfida")
        # The account page wrote Bea's language for the worker; "Notify me" is there, unpressed.
        expect(page.locator("#push-subscribe")).to_have_text("Avvisami")
        push = {"kind": "challenge", "params": {"name": "Ada", "preset": "escoba", "rated": 0},
                "url": "/", "tag": f"challenge:{challenge}", "sent": 1}
        deliver(page, base, push)
        [shown] = shown_once(page, ["Ada ti sfida"])
        assert shown == {"title": "Ada ti sfida", "body": "Escoba: rispondi entro il minuto.",
                         "tag": f"challenge:{challenge}",
                         "data": {"url": "/"}}
        # The same challenge again replaces it: one notification per match and kind.
        deliver(page, base, {**push, "sent": 2})
        page.wait_for_function("""() => navigator.serviceWorker.ready
            .then((r) => r.getNotifications()).then((all) => all.length === 1)""")
        deliver(page, base, {**push, "kind": "tournament_start",
                             "tag": f"tournament_start:{arena}",
                             "params": {"name": "Arena", "minutes": 5},
                             "url": f"/#/tournaments/{arena}"})
        shown_once(page, ["Ada ti sfida", "Arena inizia a breve"])

        # The tournament's click: the room's window is taken to the tournament's page.
        [worker] = page.context.service_workers
        worker.evaluate("""(tag) => self.registration.getNotifications({tag})
            .then(([notification]) => self.dispatchEvent(
                new NotificationEvent("notificationclick", {notification})))""",
                        f"tournament_start:{arena}")
        page.wait_for_url(f"{base}/#/tournaments/{arena}")
        shown_once(page, ["Ada ti sfida"])

        # A correspondence offer waits two weeks, not a minute; a move calls its mover back,
        # and its click takes the window to the table.
        deliver(page, base, {"kind": "challenge", "url": "/#/games/offer/X1",
                             "params": {"name": "Cid", "preset": "scopa", "rated": 0, "days": 3},
                             "tag": "challenge:X1", "sent": 3})
        deliver(page, base, {"kind": "your_turn", "url": "/#/t/ABC123",
                             "params": {"name": "Cid", "preset": "scopa"},
                             "tag": "your_turn:ABC123", "sent": 4})
        shown = {n["title"]: n for n in shown_once(
            page, ["Ada ti sfida", "Cid ti sfida", "Tocca a te contro Cid"])}
        assert shown["Cid ti sfida"]["body"] == \
            "Scopa, 3 giorni a mossa: rispondi entro due settimane."
        assert shown["Tocca a te contro Cid"]["body"] == "Scopa: la tua mossa."
        worker.evaluate("""(tag) => self.registration.getNotifications({tag})
            .then(([notification]) => self.dispatchEvent(
                new NotificationEvent("notificationclick", {notification})))""",
                        "your_turn:ABC123")
        page.wait_for_url(f"{base}/#/t/ABC123")
        watched.check()


def test_the_account_page_never_subscribes_on_load(browser: Browser, push_server: str) -> None:
    base = push_server.rstrip("/")
    watched = open_page(browser, f"{base}/#/", viewport=DESKTOP, worker=True)
    page = watched.page
    answer = page.request.post(f"{base}/api/account/register",
                               data={"name": "Cid", "password": PASSWORD})
    assert answer.status == 201
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    page.goto(f"{base}/#/account")
    expect(page.locator("#push-subscribe")).to_have_text("Notify me")
    expect(page.locator("#push")).to_contain_text("Notifications when the room is closed")
    # Nothing asked of the browser or the room until the button is pressed.
    assert page.evaluate("Notification.permission") == "default"
    assert [url for url in asked if "/api/push/" in url] == []
    watched.check()
