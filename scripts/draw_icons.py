"""Draw the installable app's icons from the project's own card art (web/js/cards.js).

A fan of three Italian cards, the settebello in front, on the felt's green. Chromium (Debian's,
through Playwright, as the web tests use it) runs cards.js and rasterises the result, so the
icons are exactly the cards the room deals:

    .venv/bin/python scripts/draw_icons.py

writes web/icons/icon.svg (rounded, any size), icon-192.png and icon-512.png (rounded) and
maskable-512.png (full bleed, the fan inside the central circle a launcher may crop to). The
files are committed; run this again only when the card art changes.
"""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Route, sync_playwright

WEB = Path(__file__).resolve().parents[1] / "src" / "scopa" / "web"
ICONS = WEB / "icons"
ORIGIN = "http://icons.invalid"
FELT = "#1f5f3f"

# The fan: (card, turn in degrees about the fan's foot), back to front.
DRAW = """
async ({ felt, rounded, scale }) => {
  const { faceSvg } = await import('/js/cards.js');
  const fan = [['AD', -22], ['KC', 22], ['7D', 0]];
  const foot = 262 + 47 * scale;  // the fan's foot, below the centre so the fan is centred
  const cards = fan.map(([code, turn]) => `<g transform="rotate(${turn} 256 ${foot})"><g
    transform="translate(${256 - 30 * scale} ${foot - 92 * scale}) scale(${scale})">${
    faceSvg(code, 'italian').replace('<svg ', '<svg width="60" height="90" ')}</g></g>`);
  const ground = rounded ? `<rect width="512" height="512" rx="96" fill="${felt}"/>`
    : `<rect width="512" height="512" fill="${felt}"/>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512">${ground}
    <ellipse cx="256" cy="268" rx="196" ry="178" fill="#ffffff" opacity="0.06"/>${
    cards.join('')}</svg>`;
}
"""


def serve(route: Route) -> None:
    path = WEB / route.request.url.removeprefix(ORIGIN + "/")
    route.fulfill(body=path.read_bytes(), content_type="text/javascript")


def main() -> None:
    ICONS.mkdir(exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium")
        page = browser.new_page()
        page.route(f"{ORIGIN}/js/**", serve)
        page.route(f"{ORIGIN}/", lambda route: route.fulfill(body="<!doctype html>",
                                                             content_type="text/html"))
        page.goto(f"{ORIGIN}/")
        drawings = {
            "icon": page.evaluate(DRAW, {"felt": FELT, "rounded": True, "scale": 3.2}),
            # A launcher may crop a maskable icon to a circle of 80% of its width: smaller.
            "maskable": page.evaluate(DRAW, {"felt": FELT, "rounded": False, "scale": 2.6}),
        }
        (ICONS / "icon.svg").write_text(drawings["icon"] + "\n", encoding="utf-8")
        for name, size in (("icon", 192), ("icon", 512), ("maskable", 512)):
            page.set_viewport_size({"width": size, "height": size})
            page.set_content(
                '<body style="margin:0;background:transparent">'
                f'<div style="width:{size}px;height:{size}px">{drawings[name]}</div></body>'
            )
            page.locator("div").screenshot(
                path=str(ICONS / f"{name}-{size}.png"), omit_background=True
            )
        browser.close()


if __name__ == "__main__":
    main()
