// The parts of the client that load only when first opened (the puzzles, a replay, the daily
// deal, the tournaments, friends and challenges, a profile and the leaderboards, the table's
// chat), so that a table's first load does not fetch them: the ways into each (puzzlelink.js and its like) stand in with this until it is there.

import { h } from "./dom.js";

// A loader of the module `name` beside this one and, if named, its stylesheet `styles` in the
// folder above: the module's promise, fetched once, and the styles by a <link>, as the page's
// own.
export function onDemand(name, styles = null) {
  let loaded = null;
  return () => {
    if (!loaded) {
      if (styles) {
        const href = new URL(`../${styles}`, import.meta.url).href;
        if (!document.querySelector(`link[href="${href}"]`)) {
          document.head.append(h("link", { rel: "stylesheet", href }));
        }
      }
      // Named without "./": a module loaded on demand is not one the page preloads.
      loaded = import(new URL(name, import.meta.url).href);
    }
    return loaded;
  };
}

// A screen in `main` that shows `waiting` until `load` has the module, then hands over to the
// screen `open(module)` makes (unless it was closed meanwhile).
export function standIn(main, waiting, load, open) {
  let screen = null;
  let closed = false;
  main.replaceChildren(waiting);
  load().then((module) => {
    if (!closed) screen = open(module);
  });
  return {
    render: () => screen?.render(),
    close() {
      closed = true;
      screen?.close?.();  // a screen with nothing to stop has no close
    },
  };
}
