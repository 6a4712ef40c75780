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
    toggle = page.locator("#prefs-toggle")
    if toggle.is_visible():  # between a phone and a wide screen the choices open from it
        toggle.click()
        expect(page.locator("#back")).to_be_visible()
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


# Every item of the header shown in its row: the brand, the links, the choices' button or
# each choice (its label and its box).
ROW = """() => [...document.querySelectorAll("header.top > a, header.top > button, "
    + "header.top > .prefs > label, header.top > .prefs label > *")]
  .filter((node) => node.getClientRects().length > 0
    && getComputedStyle(node).clipPath === "none")
  .map((node) => { const box = node.getBoundingClientRect();
    return { node: node.id || node.textContent.trim().slice(0, 20) || node.tagName,
      top: box.top, bottom: box.bottom, left: box.left, right: box.right,
      cut: node.scrollWidth > node.clientWidth + 1 && getComputedStyle(node).textOverflow
        !== "ellipsis" }; })"""

TABLET: ViewportSize = {"width": 768, "height": 1024}
LAPTOP: ViewportSize = {"width": 1024, "height": 768}


@pytest.mark.parametrize("language", ["it", "es"])
@pytest.mark.parametrize(("device", "viewport"), [("tablet", TABLET), ("laptop", LAPTOP)])
def test_the_header_is_one_row_on_a_tablet_and_a_laptop(
    browser: Browser, web_server: str, language: str, device: str, viewport: ViewportSize
) -> None:
    """Issue 35, item 5: at 1024 and 768 wide the header wrapped, the choices on a second
    row (the Italian and Spanish words are the longest). Logged in, with the longest name
    the room takes (24 characters), the brand, the links and the three choices share one
    row, each whole inside the screen; a name too long for the row is cut with an ellipsis
    (its whole on the account page)."""
    watched = open_page(browser, web_server, locale=LOCALES[language], viewport=viewport)
    page = watched.page
    expect(page.locator("#main")).to_have_attribute("aria-busy", "false")
    name = f"Massimiliano Rossi {language}{viewport['width']}"[:24]
    page.click("#account-link")
    page.fill("#register-name", name)
    page.fill("#register-password", "a good password")
    page.click("#register-button")
    expect(page.locator("#account-link")).to_have_text(name)
    page.goto(web_server + "#/")
    expect(page.locator("#main")).to_have_attribute("aria-busy", "false")
    items: list[dict[str, Any]] = page.evaluate(ROW)
    assert len(items) >= 5, items  # the brand, three links and the choices (or their button)
    # One row: every item's middle at the same height (the brand's text is larger).
    middles = [(item["top"] + item["bottom"]) / 2 for item in items]
    assert max(middles) - min(middles) <= 2, f"the header wraps in {language}: {items}"
    width = viewport["width"]
    out = [i for i in items if i["left"] < 0 or i["right"] > width or i["cut"]]
    assert out == [], f"outside the screen or cut in {language}: {out}"
    assert int(page.evaluate("document.documentElement.scrollWidth")) <= width
    header = page.locator("header.top").bounding_box()
    assert header is not None and header["height"] < 60, header
    screenshot(page, f"header-{device}-{language}-logged-in")
    # The choices open under the header, whole inside the screen, and close on Escape.
    toggle = page.locator("#prefs-toggle")
    if toggle.is_visible():
        toggle.click()
        expect(toggle).to_have_attribute("aria-expanded", "true")
        for select in ("#language", "#look", "#back"):
            box = page.locator(select).bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width, box
            assert box["y"] >= header["y"] + header["height"] - 1, box
        assert int(page.evaluate("document.documentElement.scrollWidth")) <= width
        screenshot(page, f"header-{device}-{language}-choices")
        page.keyboard.press("Escape")
        expect(page.locator("#back")).to_be_hidden()
        expect(toggle).to_be_focused()
    watched.check()
