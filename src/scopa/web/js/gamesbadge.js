// Correspondence play on every page (issue 36, item 4), imported by js/main.js after the page
// has loaded, for a logged-in player only, so that no first load carries it: the header's
// "Your games" link with the count of matches waiting for your move, the lobby's card of those
// matches, and at a table of yours played by correspondence, its clock of days
// (js/corrtable.js); and the words of the correspondence pages (i18n/games/<language>.json,
// added to the language's), which js/games.js and js/corrtable.js share. The lobby and the
// table are watched from outside (their redraws of #main), so neither grows by a byte.

import { whoAmI } from "./account.js";
import { api, keepSeatToken, seatToken } from "./api.js";
import { h } from "./dom.js";
import { addWords, t } from "./i18n.js";

const EVERY = 60_000; // the badge asked again each minute while the page is in sight

// The correspondence words in the page's language, fetched once for each language chosen.
let wordsOf = null;
let wordsAsked = null;
export function gameWords() {
  const language = document.documentElement.lang || "en";
  if (wordsOf === language && wordsAsked) return wordsAsked;
  wordsOf = language;
  wordsAsked = fetch(new URL(`../i18n/games/${language}.json`, import.meta.url))
    .then((answer) => answer.json())
    .then((words) => {
      if (document.documentElement.lang === language) addWords(words);
    })
    .catch(() => {
      wordsAsked = null; // offline, never kept: asked again next time
      wordsOf = null;
    });
  return wordsAsked;
}

// What draws correspondence words outside a screen of main's (a table's clock): drawn again
// once another language's words are here. The function returned stops it.
const wordsRedraws = new Set();
export function onNewWords(redraw) {
  wordsRedraws.add(redraw);
  return () => wordsRedraws.delete(redraw);
}

// A correspondence key's words ("games.x"): every key of this part is named through here.
export const say = (key, params) => t(`games.${key}`, params);

// A stretch of time in the reader's language by Intl: "2 days, 5 hours", "3 ore, 12 minuti",
// "12 minutes"; the two largest parts, rounded down.
export function duration(seconds) {
  const language = document.documentElement.lang || "en";
  const whole = Math.max(0, Math.floor(seconds / 60)); // in minutes
  const units = [["day", Math.floor(whole / 1440)], ["hour", Math.floor(whole / 60) % 24],
    ["minute", whole % 60]];
  const first = units.findIndex(([, value]) => value > 0);
  const shown = first < 0 ? [["minute", 0]] : units.slice(first, first + 2)
    .filter(([, value], k) => k === 0 || value > 0);
  const parts = shown.map(([unit, value]) => new Intl.NumberFormat(language,
    { style: "unit", unit, unitDisplay: "long" }).format(value));
  return new Intl.ListFormat(language, { style: "long", type: "unit" }).format(parts);
}

// "3 days", "1 giorno": a number of days (a move's days, the vacation days spent).
export function days(count, unitDisplay = "long") {
  return new Intl.NumberFormat(document.documentElement.lang || "en",
    { style: "unit", unit: "day", unitDisplay }).format(count);
}

// "+24 h": the hours the vacation days spent on a turn added to it.
export function extraHours(vacation) {
  return new Intl.NumberFormat(document.documentElement.lang || "en",
    { style: "unit", unit: "hour", unitDisplay: "short", signDisplay: "always" })
    .format(24 * vacation);
}

// The seat tokens of this account's seats (GET /api/account/seats), kept in this browser, so
// a match dealt since the page loaded (on another device too) opens in its seat.
export async function followSeats() {
  const seats = await api("/account/seats").catch(() => []);
  for (const { code, token } of seats) {
    if (seatToken(code) !== token) keepSeatToken(code, token);
  }
}

let count = null; // matches waiting for your move, as the server last said
let asked = null;

// The header's link, made once and put before the account's link.
function headerLink() {
  let link = document.getElementById("games-link");
  if (!link) {
    link = h("a", { href: "#/games", class: "nav", id: "games-link" });
    document.getElementById("account-link")?.before(link);
  }
  return link;
}

function drawBadge() {
  const link = headerLink();
  const waiting = count ?? 0;
  link.replaceChildren(say("nav"), ...(waiting ? [h("span", { class: "games-badge",
    id: "games-badge", "aria-hidden": "true" }, String(waiting))] : []));
  link.setAttribute("aria-label", waiting ? say("nav_waiting", { number: waiting })
    : say("nav"));
  link.dataset.yourTurn = String(waiting);
}

// Ask the server again how many matches wait for your move, and redraw the badge; gone for a
// guest (logged out meanwhile).
export async function refreshBadge() {
  asked ??= (async () => {
    const me = await whoAmI();
    if (!me) {
      document.getElementById("games-link")?.remove();
      count = null;
      return;
    }
    await gameWords();
    const badge = await api("/correspondence/badge").catch(() => null);
    if (badge) count = badge.your_turn;
    drawBadge();
  })().finally(() => {
    asked = null;
  });
  return asked;
}

// Keep the badge: now, at every change of screen, when the page comes back in sight, each
// minute while it is, and in the new words when the language changes.
let kept = false;
export function keepBadge() {
  refreshBadge();
  if (kept) return;
  kept = true;
  styles();
  watchScreens();
  window.addEventListener("hashchange", refreshBadge);
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") refreshBadge();
  });
  setInterval(() => {
    if (document.visibilityState === "visible") refreshBadge();
  }, EVERY);
  new MutationObserver(() => gameWords().then(() => {
    if (document.getElementById("games-link")) drawBadge();
    for (const redraw of wordsRedraws) redraw();
  })).observe(document.documentElement, { attributes: true, attributeFilter: ["lang"] });
}

// The lobby's card: your matches where it is your move (the first three, each one click to
// its table), and the way to all of them and to offer one.
export function gamesCard() {
  const list = h("ul", { class: "games-card-list" });
  const line = h("p", {}, "");
  const card = h("section", { class: "panel games-card", id: "games-card" },
    h("h2", {}, ""), line, list,
    h("a", { href: "#/games", class: "button", id: "games-card-link" }, ""));
  const draw = (overview) => {
    card.querySelector("h2").textContent = say("card_title");
    card.querySelector("#games-card-link").textContent = say("all");
    if (!overview) {
      line.textContent = say("card_text");
      return;
    }
    const mine = overview.games.filter((game) => game.your_turn);
    line.textContent = mine.length ? say("card_turns", { number: mine.length })
      : overview.games.some((game) => game.status === "playing") ? say("card_none")
        : say("card_text");
    list.replaceChildren(...mine.slice(0, 3).map((game) => h("li", {},
      h("a", { href: `#/t/${game.table}`, "data-table": game.table },
        say("card_against", { name: game.opponents.join(", ") })),
      " ", h("span", { class: "games-left" }, game.overdue ? say("overdue_short")
        : say("time_left", { time: duration(game.seconds_left ?? 0) })))));
  };
  gameWords().then(() => {
    draw(null);
    return Promise.all([api("/correspondence"), followSeats()]);
  }).then(([overview]) => draw(overview), () => null);
  return card;
}

// The correspondence parts' styles (games.css, beside the page's), added once.
function styles() {
  const href = new URL("../games.css", import.meta.url).href;
  if (!document.querySelector(`link[href="${href}"]`)) {
    document.head.append(h("link", { rel: "stylesheet", href }));
  }
}

// Each new screen in #main: the lobby gets its card of your games; a table of yours played by
// correspondence gets its clock (js/corrtable.js, which follows the table's redraws itself).
let tableAt = null; // the code of the table whose correspondence match was looked for
function watchScreens() {
  const main = document.getElementById("main");
  const onScreen = async () => {
    if (!await whoAmI()) return;
    const lobby = main.querySelector(":scope > .lobby");
    if (lobby && !document.getElementById("games-card")) lobby.prepend(gamesCard());
    const code = location.hash.match(/^#\/t\/([A-Za-z0-9]{6})$/)?.[1].toUpperCase() ?? null;
    if (code !== tableAt) {
      tableAt = code;
      if (code) tableClock(main, code);
    }
  };
  new MutationObserver(onScreen).observe(main, { childList: true });
  onScreen();
}

async function tableClock(main, code) {
  const overview = await api("/correspondence").catch(() => null);
  const game = overview?.games.find((each) => each.table === code);
  if (!game || game.status !== "playing" || tableAt !== code) return;
  const module = await import("./corrtable.js");
  if (tableAt === code) module.daysClock(main, code, game);
}

keepBadge();
