"""The table's sounds (issue 22, item 2): made in the page with the Web Audio API, on by
default, with one mute button on the table's bar that the browser remembers. The tones are
counted where the page makes them (AudioContext.createOscillator), so the test hears what a
player would, and hears nothing once muted."""

from __future__ import annotations

from playwright.sync_api import Browser, Page, expect

from .web_support import open_scripted, scripted, seat_info, state_message, view_of

SEATS = [seat_info(0, 0, "Ada"), seat_info(1, 1, "Bot 2", "bot", "expert")]
COUNT_TONES = """window.tones = 0;
const make = AudioContext.prototype.createOscillator;
AudioContext.prototype.createOscillator = function () {
  window.tones += 1;
  return make.call(this);
};"""


def count_tones(page: Page) -> None:
    page.add_init_script(COUNT_TONES)


def tones(page: Page) -> int:
    return int(page.evaluate("window.tones"))


def test_a_sweep_sounds_and_the_mute_button_silences_it(browser: Browser, web_server: str) -> None:
    before = view_of(hand=["5C", "2S"], table=["2H", "3D"], to_move=0, hand_sizes=[2, 2],
                     legal_moves=["5Cx2H+3D", "2Sx2H"])  # fmt: skip
    table = scripted("SOUNDS", SEATS, before)
    watched = open_scripted(browser, web_server, "SOUNDS", table, prepare=count_tones)
    page = watched.page
    expect(page.locator("#sound")).to_have_attribute("aria-pressed", "true")
    page.click('.hand [data-card="5C"]')  # the touch that lets the page make sound
    play = {"seat": 0, "move": "5Cx2H+3D", "sweep": True}
    table.push(state_message("SOUNDS", 6, view_of(
        hand=["2S"], table=[], to_move=1, hand_sizes=[1, 2], piles=[["5C", "2H", "3D"], []],
        sweeps=[1, 0], plays=[play], last_move=play), play))  # fmt: skip
    page.wait_for_function("window.tones > 0")
    # Muted: remembered by the browser, and the next play is silent.
    page.click("#sound")
    expect(page.locator("#sound")).to_have_attribute("aria-pressed", "false")
    assert page.evaluate("localStorage.getItem('scopa.sound')") == "off"
    heard = tones(page)
    trail = {"seat": 1, "move": "KH", "sweep": False}
    table.push(state_message("SOUNDS", 7, view_of(
        hand=["2S"], table=["KH"], to_move=0, hand_sizes=[1, 1], legal_moves=["2S"],
        last_move=trail), trail))  # fmt: skip
    expect(page.locator("#board")).to_have_attribute("data-version", "7")
    assert tones(page) == heard
    page.reload()
    expect(page.locator("#sound")).to_have_attribute("aria-pressed", "false")
    watched.check()
