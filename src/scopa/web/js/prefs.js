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
