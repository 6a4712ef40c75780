"""The web client works under the room's Content-Security-Policy: the lobby, a match against
the computer (its WebSocket, its cards, its moves), the rules, the leaderboards and the account
page raise no violation, and /docs (Swagger UI, with its one inline script admitted by hash)
neither. A control shows that a violation would be seen: an injected inline script is refused,
and reported."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Browser, ConsoleMessage, Page, expect

from .web_support import DESKTOP, Watched, open_page, play_against_computer, play_one_card

SIGNS = ("Content Security Policy", "Content-Security-Policy", "Refused to", "Permissions-Policy")
"""What Chromium's console says about a policy: a refused resource, a bad header."""

RECORD_VIOLATIONS = """
window.violations = [];
document.addEventListener("securitypolicyviolation", (event) => window.violations.push(
    `${event.effectiveDirective}: ${event.blockedURI || "inline"} `
    + `(${event.sourceFile}:${event.lineNumber})`));
"""
"""Collects every ``securitypolicyviolation`` event of the page (from its first script on)."""


class PolicyWatch:
    """A page at ``url``, its console heard at every level for what it says about a policy,
    and its ``securitypolicyviolation`` events recorded."""

    def __init__(self, browser: Browser, url: str) -> None:
        self.heard: list[str] = []

        def before(page: Page) -> None:
            page.add_init_script(RECORD_VIOLATIONS)
            page.on("console", self.console)
            # Chromium's own console lines (a refused script, a bad header) are log entries,
            # which Playwright's console event does not carry: heard through CDP.
            session = page.context.new_cdp_session(page)
            session.on("Log.entryAdded", self.logged)
            session.send("Log.enable")

        self.watched: Watched = open_page(browser, url, viewport=DESKTOP, before=before)
        self.page = self.watched.page

    def console(self, message: ConsoleMessage) -> None:
        if any(sign in message.text for sign in SIGNS):
            self.heard.append(f"{message.type}: {message.text}")

    def logged(self, event: dict[str, Any]) -> None:
        entry = event["entry"]
        if any(sign in entry["text"] for sign in SIGNS):
            self.heard.append(f"{entry['level']}: {entry['text']}")

    def violations(self) -> list[Any]:
        found: list[Any] = self.page.evaluate("window.violations")
        return found

    def check(self) -> None:
        assert self.heard == []
        assert self.violations() == []
        self.watched.check()


def test_the_client_plays_under_the_policy(browser: Browser, web_server: str) -> None:
    base = web_server.rstrip("/")
    watch = PolicyWatch(browser, f"{base}/")
    page = watch.page
    expect(page.locator("#play-computer")).to_be_visible()
    policy = page.evaluate(
        "fetch(location.href).then(r => r.headers.get('content-security-policy'))"
    )
    assert "frame-ancestors 'none'" in policy  # the page really is under the policy
    play_against_computer(page, target="11")
    page.wait_for_selector(".hand .card svg")
    play_one_card(page)
    play_one_card(page)
    watch.check()
    for view, ready in (
        ("#/rules", "article.rules #tips"),
        # The board once loaded (its empty sentence): a leaderboard that loads after the route
        # moved on draws itself over the next screen.
        ("#/leaderboard", "section.leaderboard > p, #standings"),
        ("#/account", "#register-name"),
        ("#/", "#play-computer"),
    ):
        page.goto(f"{base}/{view}")
        expect(page.locator(ready).first).to_be_visible()
    watch.check()


def test_the_api_documentation_runs_under_its_policy(browser: Browser, web_server: str) -> None:
    watch = PolicyWatch(browser, f"{web_server.rstrip('/')}/docs")
    page = watch.page
    # Swagger UI drew itself (its inline script ran, admitted by its hash) from /openapi.json
    # (fetched: connect-src), and drew the API, not its complaint about the schema's version
    # (the packaged Swagger UI 4 cannot read OpenAPI 3.1).
    expect(page.locator("#swagger-ui .swagger-ui")).to_be_visible()
    expect(page.locator(".opblock-summary-path", has_text="/api/tables").first).to_be_visible()
    assert "Unable to render this definition" not in page.inner_text("body")
    watch.check()


def test_a_violation_would_be_seen(browser: Browser, web_server: str) -> None:
    """The control: without it, a test that hears nothing proves nothing."""
    watch = PolicyWatch(browser, f"{web_server.rstrip('/')}/")
    page = watch.page
    expect(page.locator("#play-computer")).to_be_visible()
    ran = page.evaluate("""() => { const script = document.createElement("script");
        script.textContent = "window.injected = true"; document.body.append(script);
        return window.injected === true; }""")  # fmt: skip
    assert ran is False
    page.wait_for_function("window.violations.length > 0")
    assert page.evaluate("window.violations")[0].startswith("script-src-elem: inline")
    assert any("Content Security Policy" in line for line in watch.heard), watch.heard
