// The table's chat panel (issue 23, item 3; docs/protocol.md, `say`, `said`, `report`). The
// table (js/table.js) keeps what is said as it comes and counts it on its bar's button, and
// loads this module, with chat.css, when the button is first pressed, so that a table's first
// load does not fetch it. The panel has the five quick phrases (sent as their ids, shown in the
// reader's language), a text box for a logged-in person, and what was said, each message with
// a mute toggle for its sender and a report button. Everything said is put in the page as text
// (the builder's text nodes), never as HTML. Muting is this browser's alone: kept for the table
// in sessionStorage, so it lasts while the tab is open and the server knows nothing of it. The panel lies over the felt under the bar and ends above your hand
// (fitPanel), so opening it never covers or moves the hand.

import { h } from "./dom.js";
import { t } from "./i18n.js";

const PHRASES = ["good_luck", "well_played", "nice_sweep", "thanks", "good_game"];
// The `ref` of chat messages (table.js's CHAT_REF), so a refusal is said in the panel.
const CHAT_REF = "chat";
// The room's limit on free text (docs/protocol.md).
const MAX_TEXT = 200;

// Who said a message, as a mute remembers them: a seat, or a spectator's number at the table.
const sender = (message) => (message.from !== null ? `seat:${message.from}`
  : `spectator:${message.spectator}`);
const mutedAt = (code) => new Set(JSON.parse(sessionStorage.getItem(`scopa.muted.${code}`)
  ?? "[]"));

// Whether this tab muted the sender of `message` at the table `code` (then the table does not
// count it on its button).
export const isMuted = (code, message) => mutedAt(code).has(sender(message));

// The panel for the table `code`'s chat state `c` (table.js): `send(message)` says whether it
// went out, `changed()` redraws, `toggle(open)` opens or shuts the panel; `nameOf(seat)`
// names a seat as the table does ("You" for yours), `mySeat` is yours (null for a spectator),
// and `canWrite` offers the text box (a logged-in player or spectator).
// `canReport`: a seat or an account may report what is said; a guest only watching, known by
// no more than its socket, may not (the room refuses it: log_in_to_report).
export function chatPanel(c, {
  code, send, changed, toggle, nameOf, mySeat, canWrite, canReport,
}) {
  const muted = mutedAt(code);
  const say = (body) => {
    c.problem = send({ type: "say", ref: CHAT_REF, ...body }) ? null : t("chat.not_sent");
    changed();
  };
  const toggleMute = (who) => {
    if (muted.has(who)) muted.delete(who);
    else muted.add(who);
    sessionStorage.setItem(`scopa.muted.${code}`, JSON.stringify([...muted]));
    changed();
  };
  const report = (id) => {
    if (!send({ type: "report", id, ref: CHAT_REF })) c.problem = t("chat.not_sent");
    changed();
  };
  const who = (message) => (message.from !== null ? nameOf(message.from)
    : t("chat.spectator", { number: message.spectator }));
  const line = (message) => {
    const from = sender(message);
    const mine = message.yours === true || (mySeat !== null && message.from === mySeat);
    const silent = muted.has(from);
    const words = message.phrase ? t(`chat.phrase.${message.phrase}`) : message.text;
    const mute = t(silent ? "chat.unmute" : "chat.mute", { name: who(message) });
    return h("li", { class: `said${silent ? " muted" : ""}`, "data-id": message.id,
      "data-from": from },
    h("span", { class: "speaker" }, who(message), ": "),
    h("span", { class: "words" }, silent ? t("chat.muted") : words),
    message.audience === "spectators" ? h("span", { class: "tag" }, t("chat.spectators_only"))
      : null,
    mine ? null : h("span", { class: "said-tools" },
      h("button", { type: "button", class: "mute", "aria-pressed": silent ? "true" : "false",
        "aria-label": mute, title: mute, onclick: () => toggleMute(from) },
      t(silent ? "chat.unmute_button" : "chat.mute_button")),
      silent || !canReport ? null : c.reported.has(message.id)
        ? h("span", { class: "reported" }, t("chat.reported"))
        : h("button", { type: "button", class: "report", "aria-label": t("chat.report_label",
          { name: who(message) }), onclick: () => report(message.id) }, t("chat.report"))));
  };
  return h("section", { class: "chat-panel", id: "chat-panel", role: "region",
    "aria-label": t("chat.title") },
  h("div", { class: "chat-head" },
    h("h2", {}, t("chat.title")),
    h("button", { type: "button", id: "chat-close", "aria-label": t("chat.close"),
      onclick: () => toggle(false) }, "✕")),
  h("ol", { class: "chat-messages", id: "chat-messages", "aria-live": "polite" },
    c.said.length ? c.said.map(line) : h("li", { class: "empty" }, t("chat.empty"))),
  h("div", { class: "phrases", role: "group", "aria-label": t("chat.phrases") },
    PHRASES.map((phrase) => h("button", { type: "button", class: "phrase",
      "data-phrase": phrase, onclick: () => say({ phrase }) }, t(`chat.phrase.${phrase}`)))),
  canWrite ? h("form", { class: "chat-form", onsubmit: (event) => {
    event.preventDefault();
    const text = c.draft.trim();
    if (!text) return;
    c.draft = "";
    say({ text });
  } },
  h("input", { id: "chat-text", maxlength: String(MAX_TEXT), autocomplete: "off",
    "aria-label": t("chat.write"), placeholder: t("chat.write"), value: c.draft,
    oninput: (event) => { c.draft = event.target.value; } }),
  h("button", { type: "submit", id: "chat-send" }, t("chat.send"))) : null,
  c.problem ? h("p", { class: "chat-problem", role: "alert" }, problemWords(c.problem)) : null);
}

// A refusal (an `error` message) in the reader's language; a refused free text also gets the
// server's sentence, which says why (a guest, a new account, a moderator's reason).
function problemWords(problem) {
  if (typeof problem === "string") return problem;
  const words = t(`chat.error.${problem.code}`, {}, problem.message);
  return problem.code === "phrases_only" ? `${words} (${problem.message})` : words;
}

// After each redraw: the panel ends above your hand (or the screen's bottom for someone
// watching), its messages show the newest, and a text being written keeps its caret at the end.
export function fitPanel(main) {
  const shown = main.querySelector("#chat-panel");
  if (!shown) return;
  const hand = main.querySelector(".seat.me");
  const bottom = (hand ? hand.getBoundingClientRect().top : innerHeight) - 8;
  shown.style.maxHeight = `${Math.max(0, bottom - shown.getBoundingClientRect().top)}px`;
  const list = shown.querySelector("#chat-messages");
  list.scrollTop = list.scrollHeight;
  const input = shown.querySelector("#chat-text");
  if (input && document.activeElement === input) {
    input.setSelectionRange(input.value.length, input.value.length);
  }
}
