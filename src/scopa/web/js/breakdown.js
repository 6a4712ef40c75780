// The breakdown of a round, side by side, and the winner when the match is over.

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { modalDialog } from "./modal.js";

// Optional categories appear only when some side scored them.
const ROWS = [
  ["cards", (s) => `${s.card_count} → ${s.cards}`],
  ["coins", (s) => `${s.coin_count} → ${s.coins}`],
  ["settebello", (s) => String(s.settebello)],
  ["primiera", (s) => `${s.primiera_total} → ${s.primiera}`],
  ["sweeps", (s) => String(s.sweeps)],
  ["re_bello", (s) => String(s.re_bello), true],
  ["napola", (s) => String(s.napola), true],
  ["sevens", (s) => `${s.seven_count} → ${s.sevens}`, true],
];

// A modal dialog (modal.js), to be opened with showModal(); `onClose` hears Escape.
export function breakdownDialog({ round, roundNumber, scores, sideNames, winner, actions,
  onClose, note = null }) {
  const rows = ROWS.filter(([key, , optional]) => !optional || round.some((s) => s[key] > 0))
    .map(([key, show]) => h("tr", {}, h("th", { scope: "row" }, t(`breakdown.${key}`)),
      round.map((side) => h("td", {}, show(side)))));
  const table = h("table", { class: "breakdown" },
    h("thead", {}, h("tr", {}, h("td", {}), sideNames.map((name) => h("th", { scope: "col" },
      name)))),
    h("tbody", {}, rows,
      h("tr", { class: "total" }, h("th", { scope: "row" }, t("breakdown.round")),
        round.map((side) => h("td", {}, String(side.total)))),
      h("tr", { class: "total" }, h("th", { scope: "row" }, t("breakdown.match")),
        scores.map((score) => h("td", {}, String(score))))));
  return modalDialog({ class: "dialog", "aria-labelledby": "breakdown-title", id: "breakdown",
    onClose },
  h("h2", { id: "breakdown-title" }, t("breakdown.title", { round: roundNumber })),
  note ? h("p", { class: "note", id: "breakdown-note" }, note) : null,
  h("div", { class: "breakdown-scroll" }, table),
  winner ? h("p", { class: "winner", id: "winner" }, winner) : null,
  h("div", { class: "actions" }, actions));
}
