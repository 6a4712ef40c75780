// What the browser remembers between visits: the deck look chosen and the player's name.

const LOOK_KEY = "scopa.look";
const NAME_KEY = "scopa.name";

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
