// Cards that travel: before a re-render the page notes where every card is; after it, a card
// that moved glides from its old place, a card that appeared comes from where it was played
// (a seat's hand, or the deck for a deal), and a card that was taken flies to the taker's pile.
// Nothing moves when the person asks for reduced motion.

const calm = matchMedia("(prefers-reduced-motion: reduce)");
const GLIDE = { duration: 420, easing: "cubic-bezier(.2,.7,.2,1)" };

export function motionWanted() {
  return !calm.matches;
}

// Where each card and each landmark (seats' hands, piles, the deck) is now, and its element.
export function notePlaces(root) {
  const cards = new Map();
  for (const element of root.querySelectorAll("[data-card]")) {
    cards.set(element.dataset.card, { rect: element.getBoundingClientRect(), element });
  }
  return cards;
}

function rectOf(root, selector) {
  return root.querySelector(selector)?.getBoundingClientRect() ?? null;
}

function from(element, rect, delay = 0) {
  const now = element.getBoundingClientRect();
  if (!rect || !now.width) return 0;
  const dx = rect.left + rect.width / 2 - (now.left + now.width / 2);
  const dy = rect.top + rect.height / 2 - (now.top + now.height / 2);
  const scale = rect.width ? Math.min(1.5, rect.width / now.width) : 0.6;
  if (Math.abs(dx) < 1 && Math.abs(dy) < 1) return 0;
  element.animate([{ transform: `translate(${dx}px, ${dy}px) scale(${scale})` },
    { transform: "none" }], { ...GLIDE, delay, fill: "backwards" });
  return 1;
}

// A card no longer on screen is shown flying from where it was to `target` (by way of `via`,
// a place on the table, when given), then vanishes.
function flyAway(old, target, delay, via = null) {
  if (!target) return 0;
  const ghost = old.element.cloneNode(true);
  ghost.removeAttribute("data-card");
  ghost.classList.add("ghost");
  ghost.setAttribute("aria-hidden", "true");
  Object.assign(ghost.style, { position: "fixed", left: `${old.rect.left}px`,
    top: `${old.rect.top}px`, width: `${old.rect.width}px`, margin: "0", zIndex: "30",
    pointerEvents: "none" });
  document.body.append(ghost);
  const dx = target.left + target.width / 2 - (old.rect.left + old.rect.width / 2);
  const dy = target.top + target.height / 2 - (old.rect.top + old.rect.height / 2);
  const stops = [{ transform: "none" }];
  if (via) {
    stops.push({ transform: `translate(${via.left - old.rect.left}px, ${
      via.top - old.rect.top}px)`, offset: 0.45 });
  }
  stops.push({ transform: `translate(${dx}px, ${dy}px) scale(0.45)`, opacity: 0.4 });
  const flight = ghost.animate(stops, { ...GLIDE, duration: via ? 900 : 520, delay,
    fill: "forwards" });
  flight.finished.then(() => ghost.remove(), () => ghost.remove());
  return 1;
}

// Move the cards of `root` from the places noted `before`. `play` says what just happened:
// { seat, card, taken: [cards], side } for a move, and `sweptUp` the leftovers taken at the
// round's end by `sweptSide`; `dealt` are new cards in the hand and `dealtTo` the other seats
// dealt to; `draw(code)` makes a card's element (for one played from a hidden hand). Returns
// how many cards were set moving.
export function animate(root, before, { play = null, sweptUp = [], sweptSide = null,
  dealt = [], dealtTo = [], draw = null } = {}) {
  if (!motionWanted() || !before) return 0;
  let moving = 0;
  let tableDealt = 0;
  const gone = new Set([...(play?.taken ?? []), ...(play?.taken?.length ? [play.card] : []),
    ...sweptUp]);
  for (const element of root.querySelectorAll("[data-card]")) {
    const code = element.dataset.card;
    const old = before.get(code);
    if (old) moving += from(element, old.rect);
    else if (play && code === play.card) {
      moving += from(element, rectOf(root, `.seat[data-seat="${play.seat}"] .backs`));
    } else if (element.closest(".table-cards")) {
      // A new round's table is dealt from the deck.
      moving += from(element, rectOf(root, "#deck"), 60 * tableDealt);
      tableDealt += 1;
    }
  }
  dealt.forEach((code, k) => {
    const element = root.querySelector(`.hand [data-card="${code}"]`);
    if (element && !before.has(code)) moving += from(element, rectOf(root, "#deck"), 90 * k);
  });
  dealtTo.forEach((seat, k) => {
    root.querySelectorAll(`.seat[data-seat="${seat}"] .backs .card`).forEach((back, n) => {
      moving += from(back, rectOf(root, "#deck"), 90 * (dealt.length + 3 * k + n));
    });
  });
  // A card from a hidden hand that captured: from the seat, over what it took, to the pile.
  const seatRect = play ? rectOf(root, `.seat[data-seat="${play.seat}"] .backs`) : null;
  // The last card of a round, laid down and swept up at once, goes the same way.
  const onTable = play ? before.get(play.taken[0] ?? sweptUp.find((c) => c !== play.card))
    : null;
  const toPile = play?.taken.length ? play.side : sweptUp.includes(play?.card) ? sweptSide
    : null;
  if (play && onTable && toPile !== null && !before.has(play.card) && seatRect && draw) {
    const element = draw(play.card);
    moving += flyAway({ element, rect: { left: seatRect.left, top: seatRect.top,
      width: onTable.rect.width, height: onTable.rect.height } },
    rectOf(root, `.pile[data-side="${toPile}"]`), 0, onTable.rect);
  }
  for (const code of gone) {
    const old = before.get(code);
    const side = sweptUp.includes(code) ? sweptSide : play?.side;
    const target = rectOf(root, `.pile[data-side="${side}"]`);
    if (old) moving += flyAway(old, target, sweptUp.includes(code) ? 450 : 150);
  }
  return moving;
}
