"""Numbers with their words in Debian's Chromium: the client's t() picks each language's plural
form with the browser's own Intl.PluralRules ("1 sweep", "2 sweeps"; Slovenian "1 napaka,
2 napaki, 3 napake, 5 napak"), and a table set up by hand shows them on screen: the deck's
count, the sweeps and the piles, in English and, in a Slovenian browser, in Slovenian."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from .web_support import (
    open_page,
    open_scripted,
    scripted,
    seat_info,
    state_message,
    view_of,
)

SAID: dict[str, list[tuple[str, int, str]]] = {
    "en": [
        ("review.count.mistake", 0, "0 mistakes"),
        ("review.count.mistake", 1, "1 mistake"),
        ("review.count.mistake", 2, "2 mistakes"),
        ("table.sweeps", 1, "1 sweep"),
        ("table.sweeps", 2, "2 sweeps"),
        ("table.points_target", 1, "1 point"),
        ("leaderboard.provisional_note", 1,
         "Your rating is provisional: you join the leaderboard after 1 rated match."),
    ],
    "it": [
        ("review.count.mistake", 0, "0 errori"),
        ("review.count.mistake", 1, "1 errore"),
        ("review.count.blunder", 2, "2 errori gravi"),
        ("table.sweeps", 1, "1 scopa"),
        ("table.sweeps", 3, "3 scope"),
        # "1 punto su 11": Italian counts the score's points, English the target's.
        ("table.points_scored", 1, "1 punto"),
        ("table.points_scored", 0, "0 punti"),
    ],
    "es": [
        ("review.count.inaccuracy", 1, "1 imprecisión"),
        ("review.count.inaccuracy", 4, "4 imprecisiones"),
        ("table.sweeps", 1, "1 escoba"),
        ("table.sweeps", 2, "2 escobas"),
        # CLDR's "many" (millions) is left to the "other" form.
        ("table.sweeps", 1_000_000, "1000000 escobas"),
    ],
    "sl": [
        ("review.count.mistake", 1, "1 napaka"),
        ("review.count.mistake", 2, "2 napaki"),
        ("review.count.mistake", 3, "3 napake"),
        ("review.count.mistake", 4, "4 napake"),
        ("review.count.mistake", 5, "5 napak"),
        ("review.count.mistake", 0, "0 napak"),
        ("review.count.mistake", 101, "101 napaka"),
        ("review.count.mistake", 102, "102 napaki"),
        ("table.sweeps", 1, "1 metla"),
        ("table.sweeps", 2, "2 metli"),
        ("table.sweeps", 3, "3 metle"),
        ("table.sweeps", 5, "5 metel"),
    ],
    "tr": [
        ("review.count.mistake", 1, "1 hata"),
        ("review.count.mistake", 5, "5 hata"),
    ],
}

I18N = "import(new URL('js/i18n.js', location.href).href)"


def said(page: Page, language: str, key: str, count: int) -> str:
    """The page's own t() (the module main.js loaded) in ``language``."""
    script = f"""async ([language, key, count]) => {{
        const i18n = await {I18N};
        await i18n.setLanguage(language);
        return i18n.t(key, {{ count }});
    }}"""
    return str(page.evaluate(script, [language, key, count]))


@pytest.mark.parametrize("language", list(SAID))
def test_t_picks_the_language_s_plural_form(
    browser: Browser, web_server: str, language: str
) -> None:
    watched = open_page(browser, web_server)
    expect(watched.page.locator("#language")).to_have_value("en")
    for key, count, text in SAID[language]:
        assert said(watched.page, language, key, count) == text, (key, count)
    watched.check()


def table_with(
    stock: int, piles: tuple[int, int], sweeps: tuple[int, int], target: int
) -> dict[str, Any]:
    cards = ["AD", "2D", "3D", "4D", "5D", "6D", "7D"]
    return view_of(hand=["7C"], table=["KH"], hand_sizes=[1, 1], stock_size=stock,
                   piles=[cards[: piles[0]], cards[: piles[1]]], sweeps=list(sweeps),
                   scores=[1, 0], legal_moves=["7C"],
                   rules={"name": "scopa", "target": target})  # fmt: skip


Setup = tuple[int, tuple[int, int], tuple[int, int], int]
"""Cards left in the deck, each side's pile and sweeps, and the points to win (scores 1, 0)."""
Screen = tuple[Setup, str, list[str], list[str], list[str] | None]
# A score at the target reads as points alone: "1 of 1 point" was right, but "6 of 3 points",
# a side past the target, was not (issue 22, finding 5).
"""A setup, the deck's text, the scores', the sweeps' labels and the piles' (None: not
checked)."""

SCREENS: dict[str, tuple[str, list[Screen]]] = {
    # language: (the browser's locale, the screens in turn).
    "en": ("en-GB", [
        ((1, (1, 2), (1, 2), 1), "Round 1, 1 card left in the deck.",
         ["1 point", "0 of 1 point"], ["1 sweep", "2 sweeps"],
         ["Captured by You: 1 card", "Captured by Bot 2: 2 cards"]),
        ((2, (5, 0), (3, 0), 11), "Round 1, 2 cards left in the deck.",
         ["1 of 11 points", "0 of 11 points"], ["3 sweeps"],
         ["Captured by You: 5 cards", "Captured by Bot 2: 0 cards"]),
    ]),
    "sl": ("sl-SI", [
        ((1, (1, 2), (1, 2), 1), "Krog 1, v kupu je še 1 karta.",
         ["1 točka", "0 od 1 točke"], ["1 metla", "2 metli"],
         ["Pobral Ti: 1 karta", "Pobral Računalnik 2: 2 karti"]),
        ((2, (3, 5), (3, 5), 11), "Krog 1, v kupu sta še 2 karti.",
         ["1 od 11 točk", "0 od 11 točk"], ["3 metle", "5 metel"],
         ["Pobral Ti: 3 karte", "Pobral Računalnik 2: 5 kart"]),
        ((3, (4, 0), (4, 0), 21), "Krog 1, v kupu so še 3 karte.",
         ["1 od 21 točk", "0 od 21 točk"], ["4 metle"], None),
        ((5, (0, 0), (0, 0), 101), "Krog 1, v kupu je še 5 kart.",
         ["1 od 101 točke", "0 od 101 točke"], [], None),
    ]),
}  # fmt: skip


@pytest.mark.parametrize("language", list(SCREENS))
def test_the_table_says_its_numbers_with_their_words(
    browser: Browser, web_server: str, language: str
) -> None:
    """The deck's count and the scores are text on screen; the sweeps (a star and a figure)
    and the piles (a stack and a figure) say theirs to screen readers. Each new state is the
    next version."""
    locale, screens = SCREENS[language]
    seats = [seat_info(0, 0, "Ada"), seat_info(1, 1, "Bot 2", "bot", "random")]
    first, *_ = screens[0]
    table = scripted("PLURAL", seats, table_with(*first))
    watched = open_scripted(browser, web_server, "PLURAL", table, locale=locale)
    page = watched.page
    for version, (setup, stock, scores, sweeps, piles) in enumerate(screens, start=5):
        if version > 5:
            table.push(state_message("PLURAL", version, table_with(*setup)))
        expect(page.locator("#board")).to_have_attribute("data-version", str(version))
        expect(page.locator(".board .stock")).to_have_text(stock)
        expect(page.locator(".scoreboard .score")).to_have_text(scores)
        labels = page.locator(".scoreboard .sweeps")
        assert [labels.nth(k).get_attribute("aria-label") for k in range(labels.count())] == sweeps
        if piles is not None:
            assert [page.locator(f'.pile[data-side="{side}"]').get_attribute("aria-label")
                    for side in (0, 1)] == piles  # fmt: skip
    watched.check()
