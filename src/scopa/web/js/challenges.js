// Challenges: the form that sends one (from a profile or the friends panel), the banner that
// shows one arriving on any page of the room (with Accept and Decline, and the seconds left),
// and the word on how one sent ended. Accepting, or the challenger hearing it accepted, takes
// the browser to the table with its seat kept (api.js's seat tokens). A challenge that comes
// while the tab is hidden calls the person back (callback.js).

import { PRESETS, PRESET_PLAYERS, LOOKS, api, keepSeatToken } from "./api.js";
import { callBack } from "./callback.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { onMe } from "./me.js";
import { dealtLook } from "./prefs.js";

// The games a challenge offers: those of two players.
const GAMES = PRESETS.filter((preset) => (PRESET_PLAYERS[preset] ?? 2) === 2);

function describe(challenge) {
  return [t(`preset.${challenge.preset}`, {}, challenge.preset),
    challenge.target ? t("challenge.to_points", { count: challenge.target }) : null,
    t(`look.${challenge.look}`, {}, challenge.look),
    t(challenge.rated ? "challenge.rated" : "challenge.casual")].filter(Boolean).join(" · ");
}

// The banners' place: a live region at the top of the page, over every screen.
function tray() {
  let found = document.getElementById("challenges");
  if (!found) {
    found = h("div", { id: "challenges", class: "challenges", "aria-live": "polite" });
    document.body.append(found);
  }
  return found;
}

function goToTable(code, token) {
  keepSeatToken(code, token);
  location.hash = `#/t/${code}`;
}

function offered(challenge) {
  // Offered again by a /ws/me that opened again (it offers every challenge still waiting).
  if (document.querySelector(`.challenge-banner[data-challenge="${CSS.escape(challenge.id)}"]`)) {
    return;
  }
  const ends = Date.now() + challenge.expires_in * 1000;
  const left = h("span", { class: "left" });
  const problem = h("p", { class: "problem", role: "alert", hidden: true });
  let ticking = null;
  const banner = h("section", { class: "challenge-banner", role: "alertdialog",
    "data-challenge": challenge.id, "aria-labelledby": `challenge-${challenge.id}` },
  h("p", { id: `challenge-${challenge.id}` }, h("strong", {},
    t("challenge.arrived", { name: challenge.from })), " ", describe(challenge), " ", left),
  problem,
  h("div", { class: "actions" },
    h("button", { type: "button", class: "primary accept", onclick: () => answer("accept") },
      t("challenge.accept")),
    h("button", { type: "button", class: "decline", onclick: () => answer("decline") },
      t("challenge.decline"))));

  function gone() {
    clearInterval(ticking);
    banner.remove();
  }

  async function answer(how) {
    for (const button of banner.querySelectorAll("button")) button.disabled = true;
    try {
      const grant = await api(`/challenges/${encodeURIComponent(challenge.id)}/${how}`, {});
      gone();
      if (how === "accept") goToTable(grant.table.code, grant.token);
    } catch (error) {
      problem.textContent = error.message;
      problem.hidden = false;
      for (const button of banner.querySelectorAll("button")) button.disabled = false;
    }
  }

  function tick() {
    const seconds = Math.max(0, Math.ceil((ends - Date.now()) / 1000));
    left.textContent = t("challenge.seconds_left", { count: seconds });
    if (seconds === 0) gone();
  }
  tick();
  ticking = setInterval(tick, 1000);
  tray().append(banner);
  banner.querySelector(".accept").focus({ preventScroll: true });
  callBack(t("challenge.arrived", { name: challenge.from }), { tag: "challenge" });
}

// A short word that stays until closed: how a challenge sent ended.
function notice(text) {
  const note = h("section", { class: "challenge-banner notice", role: "status" },
    h("p", {}, text),
    h("button", { type: "button", class: "close", "aria-label": t("challenge.close"),
      onclick: () => note.remove() }, "×"));
  tray().append(note);
}

// Say how a challenge sent ended: accepted takes this browser to the table too.
function answered(message) {
  document.querySelector(`.challenge-banner[data-sent="${CSS.escape(message.id)}"]`)?.remove();
  if (message.state === "accepted") {
    goToTable(message.table, message.token);
    return;
  }
  notice(t(`challenge.${message.state}`, { name: message.to }));
}

let listening = false;

// Listen to /ws/me for challenges made to this player and answers to theirs (once a page).
export function listenForChallenges() {
  if (listening) return;
  listening = true;
  onMe("challenge", offered);
  onMe("challenge_gone", (message) => {
    document.querySelector(`.challenge-banner[data-challenge="${CSS.escape(message.id)}"]`)
      ?.remove();
  });
  onMe("challenge_answer", answered);
}

// The form that challenges player `name`: the game, points to win, deck and rated or casual.
export function challengeForm(name, onDone) {
  const id = (part) => `challenge-${part}`;
  const problem = h("p", { class: "problem", role: "alert", hidden: true });
  const form = h("form", { class: "challenge-form", id: id("form"), onsubmit: async (event) => {
    event.preventDefault();
    const target = Number(form.querySelector(`#${id("target")}`).value) || null;
    try {
      const sent = await api("/challenges", { name, target,
        preset: form.querySelector(`#${id("preset")}`).value,
        look: form.querySelector(`#${id("look")}`).value,
        rated: form.querySelector(`#${id("rated")}`).checked });
      const waiting = h("section", { class: "challenge-banner notice", role: "status",
        "data-sent": sent.id }, h("p", {}, t("challenge.sent", { name: sent.to })));
      tray().append(waiting);
      setTimeout(() => waiting.remove(), sent.expires_in * 1000);
      onDone?.();
    } catch (error) {
      problem.textContent = error.message;
      problem.hidden = false;
    }
  } },
  h("label", { class: "field" }, h("span", {}, t("lobby.game")),
    h("select", { id: id("preset") }, GAMES.map((preset) =>
      h("option", { value: preset }, t(`preset.${preset}`))))),
  h("label", { class: "field" }, h("span", {}, t("lobby.target")),
    h("input", { id: id("target"), type: "number", min: "1", max: "1000",
      placeholder: t("lobby.target_default") })),
  h("label", { class: "field" }, h("span", {}, t("lobby.look")),
    h("select", { id: id("look") }, LOOKS.map((look) =>
      h("option", { value: look, selected: look === dealtLook() }, t(`look.${look}`))))),
  h("label", { class: "check" }, h("input", { id: id("rated"), type: "checkbox" }),
    h("span", {}, t("lobby.rated"))),
  problem,
  h("button", { type: "submit", class: "primary", id: id("send") },
    t("challenge.send", { name })));
  return form;
}
