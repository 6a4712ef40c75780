// The lobby over HTTP and the seat tokens kept in the browser (docs/protocol.md).

// The lobby's refusal, with its sentence for people (the answer's "detail").
class LobbyError extends Error {}

export async function api(path, body) {
  const init = body === undefined ? {} : {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  };
  const answer = await fetch(`/api${path}`, init);
  const data = await answer.json();
  if (!answer.ok) throw new LobbyError(data.detail ?? String(answer.status));
  return data;
}

// A seat token is the seat: kept per table so that reloading the page keeps the seat.
export function seatToken(code) {
  return localStorage.getItem(`scopa.seat.${code}`);
}

export function keepSeatToken(code, token) {
  localStorage.setItem(`scopa.seat.${code}`, token);
}

export function forgetSeatToken(code) {
  localStorage.removeItem(`scopa.seat.${code}`);
}

// The seat token a match was played with, kept per match: a guest asks for the master's review
// of a finished match with it (a logged-in account needs none).
export function matchToken(match) {
  return localStorage.getItem(`scopa.match.${match}`);
}

export function keepMatchToken(match, token) {
  localStorage.setItem(`scopa.match.${match}`, token);
}

// The computer's levels, weakest first (GET /api/levels), asked once: a page open for a day
// does not need a new list, and a failed answer is asked again next time.
let levelsAsked = null;
export function botLevels() {
  levelsAsked ??= api("/levels").catch((error) => {
    levelsAsked = null;
    throw error;
  });
  return levelsAsked;
}

// The games offered in the lobby, and how many sit at each unless chosen otherwise.
export const PRESETS = ["scopa", "escoba", "scopa-classic", "escoba-classic", "scopone"];
export const PRESET_PLAYERS = { scopone: 4 };
export const LOOKS = ["french", "italian", "spanish"];
