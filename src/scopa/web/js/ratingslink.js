// The ways into a player's profile (js/profile.js) and the leaderboards (js/leaderboard.js),
// which load only when first opened, so that a table's first load does not fetch them.

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { onDemand, standIn } from "./ondemand.js";

const profileModule = onDemand("profile.js");
const leaderboardModule = onDemand("leaderboard.js");

// A page standing in until its module is there ("Loading…", as a replay's).
const waiting = () => h("section", { class: "panel" }, h("p", {}, t("replay.loading")));

// The screen for "#/p/NAME".
export function showProfile(main, name) {
  return standIn(main, waiting(), profileModule, (module) => module.showProfile(main, name));
}

// The screen for "#/leaderboard/POOL".
export function showLeaderboard(main, pool) {
  return standIn(main, waiting(), leaderboardModule,
    (module) => module.showLeaderboard(main, pool));
}
