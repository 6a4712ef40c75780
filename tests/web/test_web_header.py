"""The header on a small phone and on a desktop in Debian's Chromium, in each of the five
languages: the language, the deck and the card back are chosen from select boxes whose every
option's text shows whole (on a phone, Slovenian's "Slovenščina" and "Modra mreža" were cut to
"Slovenščin" and "Modra mre"), and nothing in the header sticks out of the screen.
Screenshots to look at."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, ViewportSize, expect

from .web_support import DESKTOP, open_page, screenshot

SMALL_PHONE: ViewportSize = {"width": 360, "height": 740}
LOCALES = {"en": "en-GB", "it": "it-IT", "es": "es-ES", "sl": "sl-SI", "tr": "tr-TR"}

# Each option of each header select, measured against the box: a copy of the select holding
# that option alone, laid out in the same place with nothing limiting its width, is as wide
# as Chromium makes a select to show the text whole (its arrow and padding included).
MEASURE = """() => [...document.querySelectorAll("header.top select")].flatMap((select) =>
  [...select.options].map((option) => {
    const probe = select.cloneNode(false);
    probe.removeAttribute("id");
    probe.append(new Option(option.text));
    probe.style.cssText = "position: absolute; visibility: hidden; width: auto; "
      + "max-width: none; min-width: 0; flex: none;";
    select.after(probe);
    const wants = probe.getBoundingClientRect().width;
    probe.remove();
    return { select: select.id, text: option.text, has: select.getBoundingClientRect().width,
      wants };
  }))"""

# Every box in the header, to be within the screen's width.
EDGES = """() => [...document.querySelectorAll("header.top > *, header.top select")].map(
  (node) => { const box = node.getBoundingClientRect();
    return { node: node.id || node.className || node.tagName, left: box.left,
      right: box.right }; })"""


@pytest.mark.parametrize("language", list(LOCALES))
@pytest.mark.parametrize(("device", "viewport"), [("phone", SMALL_PHONE), ("desktop", DESKTOP)])
def test_the_header_s_choices_show_whole(
    browser: Browser, web_server: str, language: str, device: str, viewport: ViewportSize
) -> None:
    watched = open_page(browser, web_server, locale=LOCALES[language], viewport=viewport)
    page = watched.page
    expect(page.locator("#language")).to_have_value(language)
    expect(page.locator("#main")).to_have_attribute("aria-busy", "false")
    measured: list[dict[str, Any]] = page.evaluate(MEASURE)
    assert len(measured) == 5 + 4 + 3  # languages, the deck looks, the card backs
    cut = [m for m in measured if m["has"] + 0.5 < m["wants"]]
    assert cut == [], f"option texts cut short in {language}: {cut}"
    width = viewport["width"]
    out = [e for e in page.evaluate(EDGES) if e["left"] < 0 or e["right"] > width]
    assert out == [], f"outside the screen in {language}: {out}"
    assert int(page.evaluate("document.documentElement.scrollWidth")) <= width
    screenshot(page, f"header-{device}-{language}")
    watched.check()
