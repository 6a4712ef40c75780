// The way into a finished match's replay (js/replay.js), which loads only when first opened,
// with its styles (replay.css), so that a table's first load does not fetch it.

import { h } from "./dom.js";
import { t } from "./i18n.js";

let loaded = null;

function replayModule() {
  if (!loaded) {
    const styles = new URL("../replay.css", import.meta.url).href;
    if (!document.querySelector(`link[href="${styles}"]`)) {
      document.head.append(h("link", { rel: "stylesheet", href: styles }));
    }
    // Named without "./": a module loaded on demand is not one the page preloads.
    loaded = import(new URL("replay.js", import.meta.url).href);
  }
  return loaded;
}

// The screen for "#/m/ID", standing in until the module is there.
export function showReplay(main, matchId) {
  let screen = null;
  let closed = false;
  main.replaceChildren(h("section", { class: "panel" }, h("p", {}, t("replay.loading"))));
  replayModule().then((module) => {
    if (!closed) screen = module.showReplay(main, matchId);
  });
  return {
    render: () => screen?.render(),
    close() {
      closed = true;
      screen?.close();
    },
  };
}
