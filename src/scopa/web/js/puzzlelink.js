// The ways into the puzzles (js/puzzles.js), which load only when first opened so that a
// table's first load does not fetch them: the route's screen, and the lobby's card for the
// day's puzzle, which asks for nothing but the day's puzzle's rating.

import { api } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { onDemand, standIn } from "./ondemand.js";

const puzzlesModule = onDemand("puzzles.js", "puzzles.css");

// The screen for "#/puzzles…", standing in until the module is there.
export function showPuzzles(main, hash) {
  return standIn(main, h("p", {}, t("puzzle.loading")), puzzlesModule,
    (module) => module.showPuzzles(main, hash));
}

// The lobby's card for the day's puzzle: a link at once, its rating once the server says.
export function dailyPuzzleCard() {
  const rating = h("strong", { class: "daily-rating" });
  const card = h("section", { class: "panel daily-puzzle", id: "daily-puzzle" },
    h("h2", {}, t("puzzle.daily")),
    h("p", {}, t("puzzle.daily_text"), " ", rating),
    h("a", { href: "#/puzzles/scopa/daily", class: "button", id: "daily-puzzle-link" },
      t("puzzle.daily_open")));
  api("/puzzles/scopa/daily").then((puzzle) => {
    rating.textContent = t("puzzle.rating", { rating: puzzle.rating });
    card.dataset.puzzle = puzzle.id;
  }, () => null);
  return card;
}
