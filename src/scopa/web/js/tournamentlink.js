// The ways into the tournaments (js/tournaments.js, loaded only when first opened, like the
// puzzles): the "#/tournaments/ID" and "#/tournaments/new" screens, and the lobby's card that
// lists the tournaments open, running and just ended.

import { api } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { onDemand, standIn } from "./ondemand.js";

const tournamentsModule = onDemand("tournaments.js", "tournaments.css");

// The screen for "#/tournaments/…", standing in until the module is there.
export function showTournament(main, hash) {
  return standIn(main, h("p", {}, t("tournament.loading")), tournamentsModule,
    (module) => module.showTournament(main, hash));
}

// When a tournament is, in words: when it starts, until when an arena runs, or that it ended.
export function tournamentWhen(tournament) {
  const time = (iso) => new Date(iso).toLocaleString(document.documentElement.lang,
    { weekday: "short", hour: "2-digit", minute: "2-digit" });
  if (tournament.status === "open") {
    return t("tournament.status_open", { time: time(tournament.starts_at) });
  }
  if (tournament.status === "running" && tournament.ends_at) {
    return t("tournament.until", { time: time(tournament.ends_at) });
  }
  return t(`tournament.status_${tournament.status}`);
}

// A tournament's line in the lobby: its name, kind and game, and when.
function line(tournament) {
  return h("li", {},
    h("a", { href: `#/tournaments/${tournament.id}`, "data-tournament": tournament.id },
      tournament.daily ? t("tournament.daily_name") : tournament.name),
    h("span", { class: "tournament-when" },
      `${t(`tournament.kind_${tournament.kind}`)} · ${t(`preset.${tournament.preset}`)} · `,
      tournamentWhen(tournament)));
}

// The lobby's card: the tournaments as the server lists them, and the way to make one.
export function tournamentsCard() {
  const list = h("ul", { class: "tournament-list" });
  const card = h("section", { class: "panel tournaments", id: "tournaments" },
    h("h2", {}, t("tournament.title")), list,
    h("a", { href: "#/tournaments/new", class: "button", id: "new-tournament" },
      t("tournament.make")));
  api("/tournaments").then((found) => {
    list.replaceChildren(...(found.length ? found.map(line)
      : [h("li", { class: "none" }, t("tournament.none"))]));
  }, () => null);
  return card;
}
