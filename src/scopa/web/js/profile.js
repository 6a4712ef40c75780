// A player's profile ("#/p/NAME"): the rating in each pool with its history drawn as an SVG
// chart, wins and losses, the puzzle rating in a line, and the recent matches with links to
// their replays.

import { api } from "./api.js";
import { h } from "./dom.js";
import { profileActions } from "./friendlink.js";
import { t } from "./i18n.js";
import { poolName } from "./leaderboard.js";

const SVG = "http://www.w3.org/2000/svg";
const WIDTH = 320;
const HEIGHT = 120;
const PAD = 24;
// Room at the left for the figures of the lowest and highest ratings.
const LEFT = 44;
// The recent matches' columns, each named by its heading's message, profile.<column>.
const COLUMNS = ["date", "pool", "opponents", "result", "change", "replay"];

function svg(tag, attributes = {}, text = null) {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  if (text !== null) node.textContent = text;
  return node;
}

// The rating after each rated match, from the newcomer's 1000, as a line with its lowest and
// highest values marked; its title and description say the same for screen readers.
export function ratingChart(pool, history) {
  const values = [1000, ...history.map((point) => point.rating)];
  const low = Math.min(...values);
  const high = Math.max(...values);
  const span = Math.max(high - low, 1);
  const x = (k) => LEFT + (k * (WIDTH - LEFT - PAD)) / Math.max(values.length - 1, 1);
  const y = (v) => HEIGHT - PAD / 2 - ((v - low) * (HEIGHT - PAD)) / span;
  const points = values.map((v, k) => `${x(k).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
  const id = `chart-${pool}`;
  const chart = svg("svg", { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, class: "rating-chart",
    role: "img", "aria-labelledby": `${id}-title ${id}-desc` });
  chart.append(
    svg("title", { id: `${id}-title` }, t("profile.chart", { pool: poolName(pool) })),
    svg("desc", { id: `${id}-desc` }, values.join(", ")),
    svg("line", { x1: LEFT, x2: WIDTH - PAD, y1: y(low), y2: y(low), class: "axis" }),
    svg("text", { x: 2, y: y(high) + 4, class: "tick" }, String(high)),
    svg("text", { x: 2, y: y(low) + 4, class: "tick" }, String(low)),
    svg("polyline", { points, class: "line" }),
    ...values.map((v, k) => svg("circle", { cx: x(k), cy: y(v), r: 3, class: "point" })));
  return chart;
}

function opponents(match) {
  const sides = Math.max(...match.players.map((p) => p.side)) + 1;
  const mine = match.seat % sides;
  return match.players.filter((p) => p.side !== mine)
    .map((p) => (p.kind === "bot" && p.level ? t(`level.${p.level}`, {}, p.level)
      : p.deleted ? t("account.deleted_player") : p.name))
    .join(", ");
}

// Wins, losses and the like in `key`'s sentence: each number has its own plural words,
// "profile.wins" and so on, as one sentence cannot agree with three numbers at once.
function record(key, counts) {
  return t(key, Object.fromEntries(Object.entries(counts).map(([part, count]) =>
    [part, t(`profile.${part}`, { count })])));
}

export function showProfile(main, name) {
  let profile = null;
  let problem = "";

  async function load() {
    try {
      profile = await api(`/profiles/${encodeURIComponent(name)}`);
    } catch (error) {
      problem = error.message;
    }
    render();
  }

  function ratings() {
    if (!profile.ratings.length) return h("p", {}, t("profile.unrated"));
    return h("div", { class: "lobby" }, profile.ratings.map((pool) => h("section", {
      class: "panel pool-rating", "data-pool": pool.pool },
    h("h3", {}, poolName(pool.pool)),
    h("p", { class: "rating" }, h("strong", {}, String(pool.rating)), pool.provisional
      ? h("span", { class: "provisional" }, ` (${t("rating.provisional")})`) : null),
    h("p", {}, record("profile.pool_record",
      { matches: pool.matches, wins: pool.wins, losses: pool.losses })),
    ratingChart(pool.pool, pool.history))));
  }

  // The recent matches: a table, which a phone shows as one card per match (players.css),
  // each cell classed by its column and carrying the column's name to label it there.
  function recent() {
    if (!profile.recent.length) return h("p", {}, t("profile.no_matches"));
    const cell = (column, content, more = "") => h("td", { class: `${column}${more}`,
      "data-label": t(`profile.${column}`) }, content);
    return h("div", { class: "breakdown-scroll" }, h("table", { class: "standings",
      id: "recent" },
    h("thead", {}, h("tr", {}, COLUMNS.map((column) =>
      h("th", { scope: "col" }, t(`profile.${column}`))))),
    h("tbody", {}, profile.recent.map((match) => h("tr", {},
      cell("date", new Date(match.at).toLocaleDateString()),
      cell("pool", poolName(match.pool) + (match.rated ? "" : ` (${t("profile.casual")})`)),
      cell("opponents", opponents(match)),
      cell("result", t(`result.${match.result}`), ` ${match.result}`),
      cell("change", match.change === null ? "–" : (match.change > 0 ? "+" : "") + match.change),
      cell("replay", h("a", { href: match.replay, class: "replay-link" },
        t("profile.watch", { match: match.match }))))))));
  }

  // The puzzle ratings, a rating kind apart from the pools', on one line: each game tried.
  function puzzleLine() {
    if (!profile.puzzles?.length) return null;
    return h("p", { id: "profile-puzzles" }, h("strong", {}, `${t("profile.puzzles")}: `),
      profile.puzzles.map((row) => t("profile.puzzle_rating", { game: t(`preset.${row.preset}`),
        rating: row.rating, solved: row.solved, tries: row.tries })).join(" · "));
  }

  function render() {
    if (!profile) {
      main.replaceChildren(h("section", { class: "panel" }, h("h1", {}, name),
        problem ? h("p", { class: "problem", role: "alert" }, problem)
          : h("p", {}, t("replay.loading"))));
      return;
    }
    main.replaceChildren(h("div", { class: "profile" },
      h("section", { class: "panel" }, h("h1", {}, profile.name),
        profileActions(profile.name),
        h("p", { id: "record" }, record("profile.record",
          { wins: profile.wins, losses: profile.losses, abandoned: profile.abandoned })),
        puzzleLine()),
      h("h2", {}, t("profile.ratings")), ratings(),
      h("section", { class: "panel" }, h("h2", {}, t("profile.recent")), recent())));
  }

  render();
  load();
  return { render };
}
