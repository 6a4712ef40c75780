// The parts of the client that load only when first opened (the puzzles, a replay, the daily
// deal, the tournaments, friends and challenges, a profile and the leaderboards, the table's
// chat, the account's page), so that a table's first load does not fetch them: the ways into each (puzzlelink.js and its like) stand in with this until it is there.

import { backOnline } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";

// A loader of the module `name` beside this one and, if named, its stylesheet `styles` in the
// folder above: the module's promise, fetched once, and the styles by a <link>, as the page's
// own. A fetch that failed (offline, before the module was ever kept) is asked again next
// time under another name (`?try=1`): the browser keeps a failed module's failure for its URL.
export function onDemand(name, styles = null) {
  let loaded = null;
  let failures = 0;
  return () => {
    if (!loaded) {
      let link = null;
      if (styles) {
        const href = new URL(`../${styles}`, import.meta.url).href;
        if (!document.querySelector(`link[href="${href}"]`)) {
          link = h("link", { rel: "stylesheet", href });
          document.head.append(link);
        }
      }
      // Named without "./": a module loaded on demand is not one the page preloads.
      const url = new URL(failures ? `${name}?try=${failures}` : name, import.meta.url);
      loaded = import(url.href).catch((error) => {
        loaded = null;
        failures += 1;
        link?.remove(); // added again, and so fetched again, with the module
        throw error;
      });
    }
    return loaded;
  };
}

// A screen in `main` that shows `waiting` until `load` has the module, then hands over to the
// screen `open(module)` makes (unless it was closed meanwhile). Offline, a module never
// fetched cannot come: the screen says that it waits for the network, and it opens by itself
// when the connection is back (backOnline in api.js), or when "Try again" is pressed.
export function standIn(main, waiting, load, open) {
  let screen = null;
  let closed = false;
  const back = backOnline();
  function attempt() {
    if (closed) return; // the person went elsewhere while it waited
    main.replaceChildren(waiting);
    load().then((module) => {
      back.done();
      if (!closed) screen = open(module);
    }, () => {
      if (closed) return;
      back.wait(attempt);
      main.replaceChildren(h("p", { class: "waits", role: "status", id: "needs-network" },
        t("offline.page_waits"), " ",
        h("button", { type: "button", class: "retry", onclick: () => {
          back.cancel();
          attempt();
        } }, t("refusal.retry"))));
    });
  }
  attempt();
  return {
    render: () => screen?.render(),
    close() {
      closed = true;
      back.cancel();
      screen?.close?.();  // a screen with nothing to stop has no close
    },
  };
}
