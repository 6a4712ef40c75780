// The ways into the daily deal (js/daily.js, loaded only when first opened, like the puzzles):
// the "#/daily" page, and the lobby's card for it, beside the day's puzzle.

import { api } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { onDemand, standIn } from "./ondemand.js";

const dailyModule = onDemand("daily.js", "daily.css");

// The screen for "#/daily", standing in until the module is there.
export function showDaily(main) {
  return standIn(main, h("p", {}, t("daily.loading")), dailyModule,
    (module) => module.showDaily(main));
}

// The lobby's card for the day's deal: a link at once; once the server says, what it leads to
// for you (your match to resume, or your result beside the master's) and your streak.
export function dailyDealCard() {
  const link = h("a", { href: "#/daily", class: "button", id: "daily-deal-link" },
    t("daily.open"));
  const streak = h("strong", { class: "daily-streak" });
  const card = h("section", { class: "panel daily-deal", id: "daily-deal" },
    h("h2", {}, t("daily.title")),
    h("p", {}, t("daily.card_text"), " ", streak),
    link);
  api("/daily").then((today) => {
    if (today.mine) link.textContent = t(today.mine.finished ? "daily.see_result" : "daily.resume");
    if (today.streak) streak.textContent = t("daily.streak", { count: today.streak });
  }, () => null);
  return card;
}
