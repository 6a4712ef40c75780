// The lobby over HTTP and the seat tokens kept in the browser (docs/protocol.md).

import { h } from "./dom.js";
import { loadRefusals, refusal, t } from "./i18n.js";

// The room's refusal: its `message` in the reader's language (the server's English sentence,
// the answer's "detail", for a code this client does not know), its `code` and `params`.
export class LobbyError extends Error {
  constructor(message, code = null, params = {}) {
    super(message);
    this.code = code;
    this.params = params;
  }
}

// No answer at all: the network is gone or the room cannot be reached. Nothing was done, so
// the same request may simply be made again (`error.unreachable`: the page offers to retry).
export class Unreachable extends LobbyError {
  constructor() {
    super(t("refusal.unreachable"), "unreachable");
    this.unreachable = true;
  }
}

// A waiter that tries again once the network is back: at the `online` event if the try
// failed offline; if it failed while the browser said online (the event comes before the
// route, or the service worker, is up), after a pause doubling from 1 s to 30 s. `wait` after
// each failed try, `cancel` when the person goes elsewhere, `done` once a try worked.
export function backOnline() {
  let pause = 1000;
  let timer;
  let listener = null;
  function cancel() {
    clearTimeout(timer);
    if (listener) window.removeEventListener("online", listener);
    listener = null;
  }
  return {
    wait(retry) {
      cancel();
      const go = () => {
        cancel();
        retry();
      };
      if (navigator.onLine) {
        timer = setTimeout(go, pause);
        pause = Math.min(2 * pause, 30000);
      } else {
        listener = go;
        window.addEventListener("online", go, { once: true });
      }
    },
    cancel,
    done() {
      cancel();
      pause = 1000;
    },
  };
}

// The answer to `method path` (a JSON body if given), or the refusal thrown as a LobbyError.
export async function request(method, path, body) {
  const init = body === undefined ? { method } : {
    method,
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  };
  let answer;
  try {
    answer = await fetch(`/api${path}`, init);
  } catch {
    throw new Unreachable(); // fetch's own words ("Failed to fetch") are for programmers
  }
  if (answer.ok) return answer;
  // A proxy's page (a 502 while the room restarts) has no JSON: its status is all it says.
  const data = await answer.json().catch(() => ({}));
  await loadRefusals();
  const sentence = data.detail ?? t("refusal.status", { status: answer.status });
  throw new LobbyError(refusal(data.code, data.params, sentence), data.code ?? null,
    data.params ?? {});
}

// What a page keeps of a refusal (plain data, so a page that compares its state to redraw
// only on a change can): the words, and whether trying again may help.
export function problemOf(error) {
  return { text: error.message, retry: Boolean(error.unreachable) };
}

// The refusal's line, where it happened; for a request that got no answer at all, with a
// "Try again" button that runs `retry` (nothing was done, so trying again is all there is).
export function problemLine(problem, retry, attributes = {}) {
  if (!problem) return null;
  return h("p", { class: "problem", role: "alert", ...attributes }, problem.text,
    problem.retry && retry ? [" ", h("button", { type: "button", class: "retry",
      onclick: retry }, t("refusal.retry"))] : null);
}

export async function api(path, body) {
  const answer = await request(body === undefined ? "GET" : "POST", path, body);
  return answer.json();
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
