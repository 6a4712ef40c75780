// The way into a finished match's replay (js/replay.js), which loads only when first opened,
// with its styles (replay.css), so that a table's first load does not fetch it.

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { onDemand, standIn } from "./ondemand.js";

const replayModule = onDemand("replay.js", "replay.css");

// The screen for "#/m/ID" (or "#/offline/ID", a match played offline and uploaded: its
// frames from GET /api/offline/matches/ID, and no review), standing in until the module is
// there.
export function showReplay(main, matchId, options = {}) {
  return standIn(main, h("section", { class: "panel" }, h("p", {}, t("replay.loading"))),
    replayModule, (module) => module.showReplay(main, matchId, options));
}
