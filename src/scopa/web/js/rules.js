// The rules in short, in the current language.

import { h } from "./dom.js";
import { t } from "./i18n.js";

export function showRules(main) {
  const render = () => {
    const paragraphs = t("rules.text").split("\n");
    main.replaceChildren(h("section", { class: "panel rules" },
      h("h2", {}, t("rules.title")), paragraphs.map((text) => h("p", {}, text)),
      h("a", { href: "#/" }, t("nav.lobby"))));
  };
  render();
  return { render };
}
