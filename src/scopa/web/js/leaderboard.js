// The leaderboards ("#/leaderboard/POOL"): a pool's best hundred settled players and your own
// line (provisional players are left out until their fifth rated match).

import { api } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";

export const POOLS = ["scopa-2", "scopa-3", "scopa-teams", "scopa-6-teams", "scopa-6-pairs",
  "escoba-2", "escoba-3", "escoba-teams", "escoba-6-teams", "escoba-6-pairs"];

export function poolName(pool) {
  return t(`pool.${pool}`, {}, pool);
}

function row(standing, mine = false) {
  return h("tr", { class: mine ? "mine" : null },
    h("td", {}, standing.rank === null ? "–" : String(standing.rank)),
    h("th", { scope: "row" }, standing.deleted
      ? h("span", { class: "deleted" }, t("account.deleted_player"))
      : h("a", { href: `#/p/${encodeURIComponent(standing.name)}` }, standing.name)),
    h("td", {}, String(standing.rating), standing.provisional
      ? h("span", { class: "provisional" }, ` (${t("rating.provisional")})`) : null),
    h("td", {}, String(standing.matches)),
    h("td", {}, `${standing.wins}–${standing.losses}`));
}

export function showLeaderboard(main, pool = "scopa-2") {
  let board = null;
  let problem = "";

  async function load() {
    try {
      board = await api(`/leaderboards/${encodeURIComponent(pool)}`);
      problem = "";
    } catch (error) {
      problem = error.message;
    }
    render();
  }

  function render() {
    const choose = h("select", { id: "pool", onchange: (event) => {
      location.hash = `#/leaderboard/${event.target.value}`;
    } }, POOLS.map((p) => h("option", { value: p, selected: p === pool }, poolName(p))));
    const head = h("thead", {}, h("tr", {},
      ["leaderboard.rank", "leaderboard.player", "leaderboard.rating", "leaderboard.matches",
        "leaderboard.record"].map((key) => h("th", { scope: "col" }, t(key)))));
    main.replaceChildren(h("section", { class: "panel leaderboard" },
      h("h1", {}, t("leaderboard.title")),
      h("label", { class: "field" }, h("span", {}, t("leaderboard.pool")), choose),
      problem ? h("p", { class: "problem", role: "alert" }, problem) : null,
      board && board.top.length === 0 ? h("p", {}, t("leaderboard.empty",
        { count: board.provisional_matches })) : null,
      board && board.top.length ? h("div", { class: "breakdown-scroll" },
        h("table", { class: "standings", id: "standings" }, head,
          h("tbody", {}, board.top.map((standing) => row(standing))))) : null,
      board?.me ? h("div", { id: "my-standing" }, h("h2", {}, t("leaderboard.you")),
        h("div", { class: "breakdown-scroll" }, h("table", { class: "standings" },
          head.cloneNode(true), h("tbody", {}, row(board.me, true)))),
        board.me.provisional ? h("p", {}, t("leaderboard.provisional_note",
          { count: board.provisional_matches })) : null) : null));
  }

  render();
  load();
  return { render };
}
