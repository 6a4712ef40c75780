// A card on screen: a button with the card's SVG and its name for screen readers.

import { backSvg, faceSvg } from "./cards.js";
import { h } from "./dom.js";
import { cardName, t } from "./i18n.js";

export function cardButton(code, look, attributes = {}) {
  return h("button", { type: "button", class: "card", "data-card": code,
    "aria-label": cardName(code, look), html: faceSvg(code, look), ...attributes });
}

export function cardImage(code, look) {
  return h("span", { class: "card", role: "img", "data-card": code,
    "aria-label": cardName(code, look), html: faceSvg(code, look) });
}

// `count` card backs of the design `back`, fanned, read out once as "3 cards in hand"
// (or not at all when `silent`: a pile says its own count).
export function cardBacks(count, back, silent = false) {
  const label = silent ? { "aria-hidden": "true" }
    : { role: "img", "aria-label": t("table.in_hand", { count }) };
  // A big hand (scopone's nine or ten) fans tighter, to stay inside its seat.
  return h("span", { class: `backs${count > 5 ? " many" : ""}`, ...label },
    Array.from({ length: count }, () => h("span", { class: "card back", html: backSvg(back) })));
}
