"""The lobby's lists of computer levels come from the server's GET /api/levels, named in the
page's language, the server's default chosen."""

from __future__ import annotations

from playwright.sync_api import Browser

from .web_support import open_page


def test_the_lobby_asks_the_server_for_the_levels(browser: Browser, web_server: str) -> None:
    watched = open_page(browser, web_server, locale="it-IT")
    page = watched.page
    levels = page.request.get(web_server.rstrip("/") + "/api/levels").json()
    page.wait_for_function(
        "n => document.querySelectorAll('#quick-level option').length === n", arg=len(levels)
    )
    asked = page.evaluate(
        "performance.getEntriesByType('resource').some(e => e.name.endsWith('/api/levels'))"
    )
    assert asked, "the lists come from GET /api/levels, not from the client's own copy"
    for select in ("#quick-level", "#create-level"):
        values = page.eval_on_selector_all(f"{select} option", "os => os.map(o => o.value)")
        assert values == [level["level"] for level in levels]
        default = next(level["level"] for level in levels if level["default"])
        assert page.input_value(select) == default
    names = page.eval_on_selector_all("#quick-level option", "os => os.map(o => o.textContent)")
    assert names[0] == "Principiante", "named from the Italian catalogue"
    watched.check()
