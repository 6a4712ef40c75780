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

// The seven of coins is the settebello in scopa; escoba calls it the velo (finding 8).
function rowName(key, game) {
  return key === "settebello" && game.startsWith("escoba") ? t("breakdown.velo")
    : t(`breakdown.${key}`);
}

// A round's table: its categories side by side, its total and (given `scores`) the match's.
export function roundTable(round, sideNames, game, scores = null) {
  const rows = ROWS.filter(([key, , optional]) => !optional || round.some((s) => s[key] > 0))
    .map(([key, show]) => h("tr", {}, h("th", { scope: "row" }, rowName(key, game)),
      round.map((side) => h("td", {}, show(side)))));
  return h("table", { class: "breakdown" },
    h("thead", {}, h("tr", {}, h("td", {}), sideNames.map((name) => h("th", { scope: "col" },
      name)))),
    h("tbody", {}, rows,
      h("tr", { class: "total" }, h("th", { scope: "row" }, t("breakdown.round")),
        round.map((side) => h("td", {}, String(side.total)))),
      scores ? h("tr", { class: "total" }, h("th", { scope: "row" }, t("breakdown.match")),
        scores.map((score) => h("td", {}, String(score)))) : null));
}

// A modal dialog (modal.js), to be opened with showModal(); `onClose` hears Escape. At the
// match's end, `rounds` (every round's breakdown) adds the match's summary.
export function breakdownDialog({ round, roundNumber, scores, sideNames, winner, actions,
  onClose, note = null, game = "scopa", rounds = null }) {
  const table = roundTable(round, sideNames, game, scores);
  return modalDialog({ class: "dialog", "aria-labelledby": "breakdown-title", id: "breakdown",
    onClose },
  rounds ? h("h2", { id: "breakdown-title" }, t("breakdown.match_over")) : null,
  winner ? h("p", { class: "winner", id: "winner" }, winner) : null,
  rounds ? summary(rounds, scores, sideNames) : null,
  // At the match's end the ways on come under the score, where a short screen shows them.
  rounds ? h("div", { class: "actions" }, actions) : null,
  rounds ? null : h("h2", { id: "breakdown-title" }, t("breakdown.title", { round: roundNumber })),
  note ? h("p", { class: "note", id: "breakdown-note" }, note) : null,
  rounds ? h("h3", {}, t("breakdown.title", { round: roundNumber })) : null,
  h("div", { class: "breakdown-scroll" }, table),
  rounds ? null : h("div", { class: "actions" }, actions));
}

// The match at a glance: the final score large, then round by round each side's points, its
// sweeps and the running score, and a sentence on how the match turned.
function summary(rounds, scores, sideNames) {
  const running = [];
  rounds.reduce((sum, round) => {
    const next = sum.map((total, side) => total + round[side].total);
    running.push(next);
    return next;
  }, scores.map(() => 0));
  return h("div", { class: "match-summary", id: "match-summary" },
    h("p", { class: "final-score", id: "final-score",
      "aria-label": sideNames.map((name, side) => `${name}: ${scores[side]}`).join(", ") },
    scores.map((score, side) => h("span", { class: "final-side" },
      h("span", { class: "final-name" }, sideNames[side]),
      h("span", { class: "final-points" }, String(score))))),
    h("div", { class: "breakdown-scroll" }, h("table", { class: "breakdown rounds", id: "rounds" },
      h("thead", {}, h("tr", {}, h("td", {}), sideNames.map((name) => h("th", { scope: "col" },
        name)))),
      h("tbody", {}, rounds.map((round, k) => h("tr", {},
        h("th", { scope: "row" }, t("breakdown.title", { round: k + 1 })),
        // The sweeps in a box of their own, which a phone puts under the points: kept on
        // their line, both sides' columns were wider than a 320 px screen (issue 35, item 4).
        round.map((side, n) => h("td", {}, t("breakdown.round_line", { points: side.total,
          total: running[k][n], sweeps: "" }).trim(), side.sweeps ? [" ", h("span",
          { class: "round-sweeps" }, t("breakdown.round_sweeps", { count: side.sweeps }))]
          : null))))))),
    h("p", { class: "turned", id: "turned" }, turned(running, sideNames)));
}

// How the match turned: whether the winner was ever behind, and by how much at most.
function turned(running, sideNames) {
  const last = running[running.length - 1];
  const best = Math.max(...last);
  const winner = last.indexOf(best);
  const behind = Math.max(0, ...running.map((totals) => Math.max(...totals) - totals[winner]));
  return behind ? t("breakdown.came_back", { name: sideNames[winner], count: behind })
    : t("breakdown.never_behind", { name: sideNames[winner] });
}
