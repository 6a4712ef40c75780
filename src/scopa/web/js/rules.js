// The rules page: one HTML file per language (rules/<language>.html), the project's own text,
// shown as it is and fetched again when the language changes.

import { h } from "./dom.js";
import { t } from "./i18n.js";

export function showRules(main) {
  let asked = 0;
  async function render() {
    const mine = ++asked;
    const language = document.documentElement.lang;
    const html = await (await fetch(`rules/${language}.html`)).text();
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
