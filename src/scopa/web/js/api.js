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

// The levels `scopa.players.LEVELS` has today; the lobby offers no list of them to ask for.
export const LEVELS = ["random", "greedy", "expert", "master"];
export const PRESETS = ["scopa", "escoba"];
export const LOOKS = ["french", "italian", "spanish"];
