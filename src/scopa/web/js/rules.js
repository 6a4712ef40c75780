// The rules page: one HTML file per language (rules/<language>.html), the project's own text,
// shown as it is and fetched again when the language changes.

import { h } from "./dom.js";
import { t } from "./i18n.js";

export function showRules(main) {
  let asked = 0;
  async function render() {
    const mine = ++asked;
    const language = document.documentElement.lang;
    // Beside this module, so under the client's versioned name, which the service worker
    // keeps: the rules open without a network.
    const html = await (await fetch(new URL(`../rules/${language}.html`, import.meta.url)))
      .text();
    // A later language, or another screen, may have come while this one loaded.
    if (mine !== asked) return;
    main.replaceChildren(h("article", { class: "panel rules", lang: language, html },
      h("a", { href: "#/" }, t("nav.lobby"))));
  }
  render();
  return {
    render,
    close() {
      asked += 1;
    },
  };
}
