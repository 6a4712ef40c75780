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
  if (!rect || !now.width) return;
  const dx = rect.left + rect.width / 2 - (now.left + now.width / 2);
  const dy = rect.top + rect.height / 2 - (now.top + now.height / 2);
  const scale = rect.width ? Math.min(1.5, rect.width / now.width) : 0.6;
  if (Math.abs(dx) < 1 && Math.abs(dy) < 1) return;
  element.animate([{ transform: `translate(${dx}px, ${dy}px) scale(${scale})` },
    { transform: "none" }], { ...GLIDE, delay, fill: "backwards" });
}

// A card no longer on screen is shown flying from where it was to `target`, then vanishes.
function flyAway(old, target, delay) {
  if (!target) return;
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
  const flight = ghost.animate([{ transform: "none" },
    { transform: `translate(${dx}px, ${dy}px) scale(0.45)`, opacity: 0.4 }],
  { ...GLIDE, duration: 520, delay, fill: "forwards" });
  flight.finished.then(() => ghost.remove(), () => ghost.remove());
}

// Move the cards of `root` from the places noted `before`. `play` says what just happened:
// { seat, card, taken: [cards], side } for a move, and `sweptUp` the leftovers taken at the
// round's end by `sweptSide`; `dealt` are new cards in the hand.
export function animate(root, before, { play = null, sweptUp = [], sweptSide = null,
  dealt = [] } = {}) {
  if (!motionWanted() || !before) return;
  const gone = new Set([...(play?.taken ?? []), ...(play?.taken?.length ? [play.card] : []),
    ...sweptUp]);
  for (const element of root.querySelectorAll("[data-card]")) {
    const code = element.dataset.card;
    const old = before.get(code);
    if (old) from(element, old.rect);
    else if (play && code === play.card) {
      from(element, rectOf(root, `.seat[data-seat="${play.seat}"] .backs`));
    }
  }
  dealt.forEach((code, k) => {
    const element = root.querySelector(`.hand [data-card="${code}"]`);
    if (element && !before.has(code)) from(element, rectOf(root, "#deck"), 90 * k);
  });
  for (const code of gone) {
    const old = before.get(code);
    const side = sweptUp.includes(code) ? sweptSide : play?.side;
    const target = rectOf(root, `.pile[data-side="${side}"]`);
    if (old) flyAway(old, target, sweptUp.includes(code) ? 450 : 150);
  }
}
