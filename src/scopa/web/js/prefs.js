// What the browser remembers between visits: the deck look and card back chosen, and the
// player's name.

const LOOK_KEY = "scopa.look";
const NAME_KEY = "scopa.name";
const BACK_KEY = "scopa.back";

// The card backs offered in the header, the first the default.
export const BACKS = ["lattice", "rosette", "tartan"];

export function chosenBack() {
  const back = localStorage.getItem(BACK_KEY);
  return BACKS.includes(back) ? back : BACKS[0];
}

export function chooseBack(back) {
  localStorage.setItem(BACK_KEY, back);
}

// The deck look chosen in the header, or null to show each table in its own look.
export function chosenLook() {
  return localStorage.getItem(LOOK_KEY);
}

// The deck a table is dealt with unless chosen: the one chosen in the header, else the one
// the interface's language plays with (Italian cards for Italian, Spanish for Spanish).
const LANGUAGE_LOOKS = { it: "italian", es: "spanish" };

export function dealtLook() {
  return chosenLook() ?? LANGUAGE_LOOKS[document.documentElement.lang] ?? "french";
}

// The lobby's one-button play: the game, level and points chosen last time ({} for someone
// new, who gets the beginner).
const QUICK_KEY = "scopa.quick";

export function quickChoices() {
  try {
    return JSON.parse(localStorage.getItem(QUICK_KEY)) ?? {};
  } catch {
    return {};
  }
}

export function keepQuickChoices(choices) {
  localStorage.setItem(QUICK_KEY, JSON.stringify(choices));
}

export function chooseLook(look) {
  if (look) localStorage.setItem(LOOK_KEY, look);
  else localStorage.removeItem(LOOK_KEY);
}

export function playerName() {
  return localStorage.getItem(NAME_KEY) ?? "";
}

export function keepPlayerName(name) {
  localStorage.setItem(NAME_KEY, name);
}
