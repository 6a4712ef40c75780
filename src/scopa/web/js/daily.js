// The daily deal, "#/daily": one deck for everyone today, scopa to 11 against the master.
// Play it (once a day when logged in; a guest plays unranked), resume it, and once it is over
// see your match beside the master's own play of the same deal, seat for seat: the deal you
// were dealt, drawn with the table's cards, each round's points side by side (and, opened,
// each round's breakdown), the match's end, and a link to each replay. Below: your streak of
// days, the day's table, and yesterday's with its seed, published now that the day is over.
// It loads when first opened (dailylink.js), with its styles, daily.css.

import { api, keepMatchToken, keepSeatToken } from "./api.js";
import { roundTable } from "./breakdown.js";
import { cardImage } from "./cardview.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { chosenLook, dealtLook, playerName } from "./prefs.js";

// A guest's attempts, kept in this browser by day: the table and its seat's token prove it.
const GUEST_KEY = "scopa.daily";
// How often the page asks again for the master's play while the master is still playing it.
const MASTER_POLL_MS = 1500;

function guestAttempt(day) {
  try {
    const kept = JSON.parse(localStorage.getItem(GUEST_KEY) ?? "null");
    return kept?.day === day ? kept : null;
  } catch {
    return null;
  }
}

function keepGuestAttempt(day, code, token) {
  localStorage.setItem(GUEST_KEY, JSON.stringify({ day, code, token }));
}

// Each round's points by side, from a replay's rounds: [[mine, theirs], ...].
function roundPoints(replay) {
  return replay.rounds.filter((round) => round.scores)
    .map((round) => round.scores.map((score) => score.total));
}

export function showDaily(main) {
  let today = null;
  let shown = null;
  let problem = "";
  let closed = false;
  let poll = null;
  let loggedIn = false;
  let yesterday = null;

  // Yesterday's records: its table, its seed and the master's play, public once it is over.
  async function loadYesterday() {
    const day = new Date(`${today.day}T00:00:00Z`);
    day.setUTCDate(day.getUTCDate() - 1);
    try {
      yesterday = await api(`/daily/${day.toISOString().slice(0, 10)}`);
    } catch {
      yesterday = null;
    }
  }

  async function load() {
    try {
      today = await api("/daily");
      await loadYesterday();
      loggedIn = today.streak !== null;
      const guest = loggedIn ? null : guestAttempt(today.day);
      const finished = loggedIn ? today.mine?.finished : Boolean(guest);
      if (finished) await compare(guest);
    } catch (error) {
      problem = error.message;
    }
    if (!closed) render();
  }

  async function compare(guest) {
    try {
      shown = await api("/daily/comparison", guest ? { table: guest.code, token: guest.token }
        : {});
      problem = "";
    } catch (error) {
      shown = null;
      // A guest's match still being played is no problem: its table is there to resume.
      if (!guest) problem = error.message;
    }
    // A master's play sealed to this player (a guest, before the day is over) is not being
    // played: it opens at the day's end, so nothing is asked again until then.
    if (shown && shown.master === null && !shown.master_sealed && !closed) {
      poll = setTimeout(() => compare(guest).then(() => !closed && render()), MASTER_POLL_MS);
    }
  }

  async function play() {
    try {
      const grant = await api("/daily/play", { name: playerName() || t("lobby.guest"),
        look: dealtLook() });
      keepSeatToken(grant.table.code, grant.token);
      if (grant.table.match) keepMatchToken(grant.table.match, grant.token);
      if (!loggedIn) keepGuestAttempt(today.day, grant.table.code, grant.token);
      location.hash = `#/t/${grant.table.code}`;
    } catch (error) {
      problem = error.message;
      render();
    }
  }

  function untilEnd() {
    const left = Math.max(0, new Date(today.ends_at) - Date.now());
    const hours = Math.floor(left / 3600000);
    return t("daily.ends_in", { hours, minutes: Math.floor((left % 3600000) / 60000) });
  }

  function actions() {
    const guest = loggedIn ? null : guestAttempt(today.day);
    const mine = today.mine;
    if (mine && !mine.finished) {
      return h("div", { class: "actions" },
        h("button", { type: "button", class: "primary", id: "daily-resume", onclick: play },
          t("daily.resume")));
    }
    if (mine?.finished) return h("p", { class: "daily-done" }, t("daily.played"));
    if (guest && !shown) {
      return h("div", { class: "actions" },
        h("a", { class: "button primary", id: "daily-resume", href: `#/t/${guest.code}` },
          t("daily.resume")));
    }
    return h("div", { class: "actions" },
      h("button", { type: "button", class: "primary", id: "daily-play", onclick: play },
        guest ? t("daily.play_again") : t("daily.play")),
      loggedIn ? null : h("p", { class: "note" }, t("daily.guest_note")));
  }

  // The deal as the player's seat was dealt it, the same in both matches: the first hand and
  // the table, drawn with the table's cards.
  function theDeal(replay) {
    const look = chosenLook() ?? replay.look;
    const first = replay.frames[0];
    return h("div", { class: "daily-deal-cards" },
      h("div", { class: "daily-cards-row" }, h("span", { class: "label" }, t("daily.hand")),
        h("span", { class: "cards" }, first.hands[0].map((code) => cardImage(code, look)))),
      h("div", { class: "daily-cards-row" }, h("span", { class: "label" }, t("daily.table")),
        h("span", { class: "cards" }, first.table.map((code) => cardImage(code, look)))));
  }

  function side(kind, data) {
    const title = t(kind === "yours" ? "daily.yours" : "daily.master");
    if (!data) {
      return h("section", { class: `daily-side ${kind}` }, h("h3", {}, title),
        h("p", { class: "note", id: shown?.master_sealed ? "daily-master-sealed" : null },
          t(shown?.master_sealed ? "daily.master_sealed" : "daily.master_playing")));
    }
    const [me, them] = data.scores;
    const won = data.winner === 0;
    const rounds = roundPoints(data.replay);
    const names = [t(kind === "yours" ? "daily.you" : "daily.master_seat"), t("daily.opponent")];
    return h("section", { class: `daily-side ${kind}`, "data-match": String(data.match) },
      h("h3", {}, title),
      h("p", { class: `daily-result ${won ? "won" : "lost"}` },
        h("strong", { class: "score" }, `${me}–${them}`), " ",
        t(won ? "daily.won" : "daily.lost")),
      h("table", { class: "daily-rounds" },
        h("thead", {}, h("tr", {}, h("th", {}, t("daily.round")),
          names.map((name) => h("th", {}, name)))),
        h("tbody", {}, rounds.map(([mine, theirs], k) => h("tr", {},
          h("td", {}, String(k + 1)), h("td", {}, String(mine)), h("td", {}, String(theirs)))))),
      h("details", { class: "daily-breakdowns" }, h("summary", {}, t("daily.breakdowns")),
        data.replay.rounds.filter((round) => round.scores).map((round) => h("div", {},
          h("h4", {}, t("replay.round", { round: round.number })),
          roundTable(round.scores, names, "scopa")))),
      h("a", { class: "button", href: `#/m/${data.match}`, id: `daily-replay-${kind}` },
        t("daily.replay")));
  }

  function comparison() {
    if (!shown) return null;
    return h("section", { class: "panel daily-compare", id: "daily-compare" },
      h("h2", {}, t("daily.compare")),
      theDeal(shown.yours.replay),
      h("div", { class: "daily-sides" }, side("yours", shown.yours),
        side("master", shown.master)));
  }

  function standingsList(lines, empty) {
    return lines.length ? h("ol", {}, lines.map((line) => h("li", {},
        h("span", { class: "name" }, line.match
          ? h("a", { href: `#/m/${line.match}` }, line.name) : line.name),
        h("span", { class: `result ${line.won ? "won" : "lost"}` },
          t(line.won ? "daily.won" : "daily.lost")),
        h("span", { class: "margin" }, line.margin > 0 ? `+${line.margin}` : String(line.margin)))))
      : h("p", {}, empty);
  }

  function standings() {
    return h("section", { class: "panel daily-standings", id: "daily-standings" },
      h("h2", {}, t("daily.standings")), standingsList(today.standings, t("daily.nobody_yet")));
  }

  function pastDay() {
    if (!yesterday?.over) return null;
    return h("section", { class: "panel daily-standings daily-past", id: "daily-yesterday" },
      h("h2", {}, t("daily.yesterday", { day: yesterday.day })),
      h("p", { class: "daily-seed" }, t("daily.seed"), " ", h("code", {}, String(yesterday.seed))),
      yesterday.master ? h("p", {}, h("a", { href: `#/m/${yesterday.master}`,
        id: "daily-yesterday-master" }, t("daily.master_replay"))) : null,
      standingsList(yesterday.standings, t("daily.nobody_then")));
  }

  function render() {
    if (closed) return;
    if (!today) {
      main.replaceChildren(problem ? h("p", { class: "problem", role: "alert" }, problem)
        : h("p", {}, t("daily.loading")));
      return;
    }
    const streak = today.streak ?? shown?.streak;
    main.replaceChildren(h("div", { class: "daily" },
      h("section", { class: "panel daily-head" },
        h("h1", {}, t("daily.title")),
        h("p", { class: "daily-when" }, h("strong", {}, today.day), " · ", untilEnd()),
        h("p", {}, t("daily.about")),
        streak ? h("p", { class: "streak", id: "daily-streak" },
          t("daily.streak", { count: streak })) : null,
        problem ? h("p", { class: "problem", role: "alert" }, problem) : null,
        actions()),
      comparison(),
      standings(),
      pastDay()));
  }

  render();
  load();
  return {
    render,
    close() {
      closed = true;
      clearTimeout(poll);
    },
  };
}
