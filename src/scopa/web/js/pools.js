// Play a person now (docs/room.md, "Pools"): the lobby's panel to ask for a game of scopa or
// escoba for two, or scopone for four in teams (rated or casual), and the wait, shown as how
// many wait now and a typical wait, until the room pairs the person and the page goes to the
// table. Waiting is holding /ws/pools open: its state lives here, out of the lobby's screen,
// so a person who plays the computer while they wait keeps their place, and a banner tells
// them when their match is found. A hidden tab is called back (callback.js).

import { keepSeatToken } from "./api.js";
import { whoAmI } from "./account.js";
import { askToNotify, callBack, mayAskToNotify } from "./callback.js";
import { h } from "./dom.js";
import { loadRefusals, refusal, t } from "./i18n.js";
import { playerName } from "./prefs.js";
import { openSocket } from "./socket.js";

const GAMES = ["scopa", "escoba", "scopone"];
const state = {
  socket: null, game: "scopa", rated: false, waiting: false, count: 0, typical: null,
  offer: null, pairCode: null, partner: null, botTable: null, found: null, problem: null,
  account: null,
};

// The random key that makes this browser's guest the same person on every socket.
function guestKey() {
  let key = localStorage.getItem("scopa.guest");
  if (!key) {
    const bytes = crypto.getRandomValues(new Uint8Array(18));
    key = btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_");
    localStorage.setItem("scopa.guest", key);
  }
  return key;
}

function styles() {
  if (document.getElementById("pools-css")) return;
  document.head.append(h("link", { id: "pools-css", rel: "stylesheet",
    href: new URL("../pools.css", import.meta.url).href }));
}

// The wait in a pool: a socket that is not opened again after a drop (the person asks again).
function ask(pair = null) {
  state.socket?.close();
  Object.assign(state, { waiting: true, problem: null, offer: null, pairCode: null,
    partner: null, found: null, count: 0, typical: null });
  const name = document.getElementById("name")?.value.trim() || playerName() || undefined;
  const socket = openSocket("/ws/pools", {
    first: () => ({ type: "join", pool: state.game, rated: state.rated, name,
      guest: guestKey(), pair }),
    onMessage: heard,
    onLink: (up) => {
      if (up || state.socket !== socket) return;
      state.socket = null;
      state.waiting = false;
      draw();
    },
    retry: () => false,
  });
  state.socket = socket;
  draw();
}

function cancel() {
  const socket = state.socket;
  state.socket = null;
  state.waiting = false;
  socket?.close();
  draw();
}

// A table against the computer is given up for the person who came (docs/room.md).
function resignBotTable(code, token) {
  const socket = openSocket(`/ws/tables/${code}`, {
    first: () => ({ type: "hello", token }),
    onLink: (up) => {
      if (!up) return;
      socket.send({ type: "resign", ref: "pool" });
      socket.close();
    },
    retry: () => false,
  });
}

function goToMatch() {
  const found = state.found;
  state.found = null;
  if (state.botTable) resignBotTable(state.botTable.code, state.botTable.token);
  state.botTable = null;
  draw();
  location.hash = `#/t/${found.code}`;
}

function heard(message) {
  switch (message.type) {
    case "waiting":
      Object.assign(state, { count: message.waiting, typical: message.typical,
        pairCode: message.pair ?? state.pairCode });
      break;
    case "pair_code": state.pairCode = message.code; break;
    case "partner": state.partner = message.name; break;
    case "partner_left": state.partner = null; state.pairCode = null; break;
    case "offer": state.offer = message.level; break;
    case "bot_table":
      keepSeatToken(message.code, message.token);
      state.botTable = message;
      location.hash = `#/t/${message.code}`;
      break;
    case "paired":
      keepSeatToken(message.code, message.token);
      state.waiting = false;
      state.found = message;
      callBack(t("pools.found"), { sound: "deal", tag: "pool" });
      // At the computer's table the person chooses when to go; anywhere else they go now.
      if (!state.botTable) goToMatch();
      break;
    case "error":
      state.problem = message;
      loadRefusals().then(draw); // worded once the refusals' words are here
      if (message.code !== "already_waiting" || !state.count) state.waiting = false;
      break;
    default:
  }
  draw();
}

function waitingLine() {
  const parts = [t("pools.waiting", { count: state.count })];
  if (state.typical !== null) parts.push(t("pools.typical", { seconds: Math.round(state.typical) }));
  return parts.join(" · ");
}

function waitingPanel() {
  return [
    h("p", { class: "pool-searching", role: "status" }, h("span", { class: "pool-dot" }),
      t(state.pairCode && !state.partner ? "pools.friend_wait" : "pools.searching")),
    state.pairCode && !state.partner ? h("p", { class: "pool-code" },
      t("pools.pair_code"), " ", h("strong", { id: "pool-pair-code" }, state.pairCode)) : null,
    state.partner ? h("p", {}, t("pools.partner", { name: state.partner })) : null,
    h("p", { class: "pool-count", id: "pool-count" }, waitingLine()),
    state.offer && !state.botTable ? h("div", { class: "pool-offer" },
      h("p", {}, t("pools.offer")),
      h("button", { type: "button", id: "pool-play-bot",
        onclick: () => state.socket?.send({ type: "play_bot" }) },
      t("pools.play_bot"))) : null,
    h("div", { class: "actions" },
      h("button", { type: "button", id: "pool-cancel", onclick: cancel }, t("pools.cancel")),
      mayAskToNotify() ? h("button", { type: "button", class: "quiet", onclick: async () => {
        await askToNotify();
        draw();
      } }, t("pools.notify")) : null),
  ];
}

function choicePanel() {
  const games = h("fieldset", { class: "choice", id: "pool-game" },
    h("legend", {}, t("lobby.game")), GAMES.map((game) => h("label", {},
      h("input", { type: "radio", name: "pool-game", value: game, checked: game === state.game,
        onchange: () => { state.game = game; draw(); } }),
      h("span", {}, t(`preset.${game}`)))));
  const guest = state.account === null;
  const rated = h("label", { class: "pool-rated" },
    h("input", { type: "checkbox", id: "pool-rated", checked: state.rated && !guest,
      disabled: guest, onchange: (event) => { state.rated = event.target.checked; } }),
    h("span", {}, t("pools.rated")));
  const friend = state.game === "scopone" ? h("details", { class: "pool-friend" },
    h("summary", {}, t("pools.with_friend")),
    h("button", { type: "button", id: "pool-pair-new", onclick: () => ask("new") },
      t("pools.make_code")),
    h("label", { class: "field" }, h("span", {}, t("pools.friend_code")),
      h("input", { id: "pool-friend-code", maxlength: "6", autocomplete: "off" })),
    h("button", { type: "button", id: "pool-pair-join", onclick: () => {
      const code = document.getElementById("pool-friend-code").value.trim();
      if (code) ask(code);
    } }, t("pools.join_friend"))) : null;
  return [
    h("p", { class: "about" }, t("pools.about")),
    games,
    rated,
    guest ? h("p", { class: "about" }, t("pools.guest_casual")) : null,
    h("div", { class: "actions" }, h("button", { type: "button", class: "primary",
      id: "pool-find", onclick: () => ask() }, t("pools.find"))),
    friend,
  ];
}

// "You are seated at table X": the way to X, where its owner is seated again.
function seatedAt(problem) {
  const code = problem.params?.table;
  if (problem.code !== "seated" || !/^[A-Z0-9]{4,12}$/.test(code ?? "")) return null;
  return [" ", h("a", { href: `#/t/${code}`, class: "to-table" }, t("pools.to_your_table"))];
}

function panelBody() {
  return [
    h("h2", {}, t("pools.title")),
    state.problem ? h("p", { class: "problem", role: "alert" },
      refusal(state.problem.code, state.problem.params, state.problem.message),
      seatedAt(state.problem)) : null,
    ...(state.waiting ? waitingPanel() : choicePanel()),
  ];
}

// The banner over any screen but the lobby: the wait goes on, or the match found.
function banner() {
  if (state.found) {
    return h("div", { class: "pool-banner found", id: "pool-banner", role: "alert" },
      h("span", {}, t("pools.found_banner")),
      h("button", { type: "button", class: "primary", id: "pool-go", onclick: goToMatch },
        t("pools.go")));
  }
  if (!state.waiting || document.getElementById("play-person")) return null;
  return h("div", { class: "pool-banner", id: "pool-banner", role: "status" },
    h("span", { class: "pool-dot" }), h("span", {}, `${t("pools.searching")} ${waitingLine()}`),
    h("button", { type: "button", onclick: cancel }, t("pools.cancel")));
}

function draw() {
  const panel = document.getElementById("play-person");
  panel?.replaceChildren(...panelBody().filter(Boolean));
  const shown = banner();
  const old = document.getElementById("pool-banner");
  if (shown) {
    if (old) old.replaceWith(shown);
    else document.body.append(shown);
  } else {
    old?.remove();
  }
}

// After the router's own listener has drawn the new screen (a task later: a microtask would
// run between the two listeners, with the lobby still there).
window.addEventListener("hashchange", () => setTimeout(draw));

// The lobby's "Play a person" panel.
export function playPersonPanel() {
  styles();
  const panel = h("section", { class: "panel pools", id: "play-person" },
    ...panelBody().filter(Boolean));
  whoAmI().then((me) => {
    if ((me?.id ?? null) === state.account) return;
    state.account = me?.id ?? null;
    draw();
  });
  queueMicrotask(draw);
  return panel;
}
