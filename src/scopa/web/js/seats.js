// Who sits where around the felt, as seen from one seat: you at the bottom, the next to play
// on your right (play goes counter-clockwise, as in Italy and Spain), partners opposite.

import { h } from "./dom.js";
import { cardBacks, cardImage } from "./cardview.js";
import { cardName, t } from "./i18n.js";
import { parseMove } from "./moves.js";

// Places by offset from the seat at the bottom, for each number of players. With 4 players
// offset 2 is opposite; with 6, offset 3 is opposite and 2 and 4 are the other partners.
const PLACES = {
  2: ["bottom", "top"],
  3: ["bottom", "right", "left"],
  4: ["bottom", "right", "top", "left"],
  6: ["bottom", "right", "top-right", "top", "top-left", "left"],
};

export function placeOf(seat, bottom, players) {
  return PLACES[players][(seat - bottom + players) % players];
}

// The seat that keeps each side's pile: the one nearest the bottom, going round in play order.
export function pileKeepers(seats, bottom) {
  const keepers = new Map();
  const players = seats.length;
  for (let offset = 0; offset < players; offset += 1) {
    const seat = seats[(bottom + offset) % players];
    if (!keepers.has(seat.side)) keepers.set(seat.side, seat.seat);
  }
  return keepers;
}

// The cards that made this round's sweeps, by side, as players lay them face up across their
// pile: each sweeping card played, then one card of the dealer's bonus table for each bonus sweep.
export function sweepCards(view, sideOf) {
  const bySide = view.sweeps.map(() => []);
  for (const play of view.plays) {
    if (play.sweep) bySide[sideOf(play.seat)].push(parseMove(play.move).card);
  }
  const dealerSide = sideOf(view.dealer);
  const bonus = view.sweeps[dealerSide] - bySide[dealerSide].length;
  for (let k = 0; k < bonus && k < view.dealer_bonus.length; k += 1) {
    bySide[dealerSide].push(view.dealer_bonus[k]);
  }
  return bySide;
}

// A side's captured pile: a squared stack of backs with its count, and the sweeps across it.
export function pile(side, count, sweeps, look, owner, back) {
  const label = t("table.pile_of", { name: owner, count });
  return h("div", { class: "pile", "data-side": side, role: "img", "aria-label": [label,
    ...sweeps.map((card) => t("table.sweep_card", { card: cardName(card, look) }))].join(", ") },
  h("span", { class: `stack${count ? "" : " empty"}` }, count ? cardBacks(1, back, true) : null,
    h("span", { class: "count", "aria-hidden": "true" }, String(count))),
  sweeps.map((card, k) => {
    const image = cardImage(card, look);
    image.classList.add("sweep-card");
    image.removeAttribute("role");
    image.removeAttribute("data-card");
    image.removeAttribute("aria-label");
    image.style.setProperty("--k", k);
    return image;
  }));
}
