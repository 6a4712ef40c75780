"""The project's cards as a player sees them: every court card of each look is a drawn figure
(not a letter in a box), each different; no corner index touches a pip, a figure or the
Spanish frame; and each look's court cards are photographed on a desktop and a phone."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from .web_support import DESKTOP, PHONE, open_page, screenshot

LOOKS = ["french", "italian", "spanish"]
COURTS = [rank + suit for rank in "JQK" for suit in "DHSC"]


def show_cards(page: Page, look: str, codes: list[str], width: int) -> None:
    """Replace the page's main part with the faces of ``codes`` drawn by web/js/cards.js."""
    page.wait_for_selector("#main > *")
    page.evaluate("""async ([look, codes, width]) => {
        const { faceSvg } = await import('./js/cards.js');
        const main = document.getElementById('main');
        main.innerHTML = `<div id="gallery" style="display:flex;flex-wrap:wrap;gap:8px">${
          codes.map(c => `<div data-code="${c}" style="width:${width}px">${faceSvg(c, look)}</div>`)
            .join('')}</div>`;
    }""", [look, codes, width])  # fmt: skip


@pytest.mark.parametrize("look", LOOKS)
def test_every_court_card_is_a_figure(browser: Browser, web_server: str, look: str) -> None:
    for size, viewport, width in (("desktop", DESKTOP, 140), ("phone", PHONE, 80)):
        watched = open_page(browser, web_server, viewport=viewport)
        page = watched.page
        show_cards(page, look, COURTS, width)
        faces: list[dict[str, Any]] = page.evaluate("""() => [...document.querySelectorAll(
            '#gallery svg')].map(svg => ({
              texts: [...svg.querySelectorAll('text')].map(t => t.closest('.corner') !== null),
              shapes: svg.querySelectorAll('.figure path, .figure circle, .figure rect, '
                                           + '.figure ellipse').length,
              markup: svg.querySelector('.figure').innerHTML}))""")  # fmt: skip
        for code, face in zip(COURTS, faces, strict=True):
            assert face["texts"] == [True, True], f"{look} {code}: only the corners have text"
            assert face["shapes"] >= 15, f"{look} {code} has {face['shapes']} shapes"
        assert len({face["markup"] for face in faces}) == 12, "every figure differs"
        screenshot(page, f"{size}-courts-{look}")
        watched.check()
        page.context.close()


def test_corners_touch_nothing(browser: Browser, web_server: str) -> None:
    """No corner index overlaps a pip or a figure's part, in any look; the Spanish numbers
    (1, 10, 11, 12 the widest) keep clear of the frame around them."""
    watched = open_page(browser, web_server, viewport=DESKTOP)
    page = watched.page
    every = [rank + suit for rank in "A234567JQK" for suit in "DHSC"]
    for look in LOOKS:
        show_cards(page, look, every, 120)
        problems = page.evaluate("""() => {
            const found = [];
            for (const box of document.querySelectorAll('#gallery > div')) {
              const svg = box.querySelector('svg');
              const unit = svg.getBoundingClientRect().width / 60;
              const corner = svg.querySelector('.corner').getBoundingClientRect();
              for (const part of svg.querySelectorAll('.pips > g, .figure > *')) {
                const r = part.getBoundingClientRect();
                if (Math.min(corner.right, r.right) > Math.max(corner.left, r.left) &&
                    Math.min(corner.bottom, r.bottom) > Math.max(corner.top, r.top)) {
                  found.push(`${box.dataset.code}: corner on ${part.tagName}`);
                }
              }
              const frame = svg.querySelector('.pinta');
              if (frame) {
                const f = frame.getBoundingClientRect();
                const text = svg.querySelector('.corner text');
                const gap = (text.getBoundingClientRect().left - f.left) / unit - 1;
                const top = Number(text.getAttribute('y')) -
                  0.75 * Number(text.getAttribute('font-size')) - 4;
                if (gap < 1 || top < 1) found.push(`${box.dataset.code}: ${gap}, ${top}`);
              }
            }
            return found;
        }""")  # fmt: skip
        assert problems == [], f"{look}: {problems}"
    watched.check()
