// Who is logged in, the header's link, and the way into the account's page ("#/account",
// js/accountpage.js), which loads only when first opened: every page asks who is logged in,
// few open the account's forms, and a table's first load need not fetch them. The session is
// an HttpOnly cookie the page never sees; fetch sends it with every request to this site.

import { api, keepSeatToken, seatToken } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { onDemand, standIn } from "./ondemand.js";

const accountPage = onDemand("accountpage.js");

// Who this browser is logged in as ({id, name}), or null for a guest: asked once per page
// (the page preloads the answer), and again with `again` after a login or logout.
let asked = null;
export function whoAmI(again = false) {
  if (again || asked === null) {
    asked = fetch("/api/account").then((answer) => (answer.ok ? answer.json() : null))
      .catch(() => null);
  }
  return asked;
}

// The header's link: "Log in" for a guest, the name for a player, whose seats taken on
// another device are then kept here too (so opening such a table seats them at once).
export async function showAccountLink() {
  const link = document.getElementById("account-link");
  if (!link) return;
  const me = await whoAmI();
  link.textContent = me ? me.name : t("account.login_link");
  link.title = me ? me.name : ""; // a long name is cut in the header
  if (me) await followSeats();
}

async function followSeats() {
  const seats = await api("/account/seats").catch(() => []);
  for (const { code, token } of seats) {
    if (seatToken(code) !== token) keepSeatToken(code, token);
  }
}

// The screen for "#/account", standing in until its module is there.
export function showAccount(main) {
  return standIn(main, h("p", {}, t("account.loading")), accountPage,
    (module) => module.showAccount(main));
}
