// The client's entry: the header (language, deck look, card back), then a screen by the URL:
// "#/" the lobby, "#/t/CODE" a table (the link to share), "#/rules"; loaded when first opened
// (by their *link.js, or onDemand here): "#/account", "#/leaderboard/POOL", "#/p/NAME",
// "#/m/ID" and "#/offline/ID" (replays), "#/puzzles", "#/daily", "#/tournaments/ID",
// "#/offline", "#/games" (correspondence; its badge, for a player, after the page loads).

import { showAccount, showAccountLink, whoAmI } from "./account.js";
import { LOOKS } from "./api.js";
import { showDaily } from "./dailylink.js";
import { LANGUAGES, pickLanguage, setLanguage, t, translatePage } from "./i18n.js";
import { showLobby } from "./lobby.js";
import { keepMe } from "./me.js";
import { keepOffline, showOffline } from "./offline.js";
import { onDemand, standIn } from "./ondemand.js";
import { BACKS, chooseBack, chooseLook, chosenBack, chosenLook } from "./prefs.js";
import { showPuzzles } from "./puzzlelink.js";
import { showLeaderboard, showProfile } from "./ratingslink.js";
import { showReplay } from "./replaylink.js";
import { showRules } from "./rules.js";
import { showTable } from "./table.js";
import { showTournament } from "./tournamentlink.js";

let screen = null;
const offlinePlay = onDemand("offlineplay.js");
const games = onDemand("games.js", "games.css");

// Matches played offline, uploaded once online and logged in (js/offlinestore.js).
async function uploadOffline() {
  const account = localStorage.getItem("scopa.offline.waiting") && await whoAmI(true);
  if (account) (await import("./offlinestore.js")).uploadMatches(account);
}

function fillHeader() {
  const languages = document.getElementById("language");
  languages.replaceChildren(...LANGUAGES.map((code) => new Option(t(`language.${code}`), code)));
  languages.value = document.documentElement.lang;
  const looks = document.getElementById("look");
  looks.replaceChildren(new Option(t("look.table"), ""),
    ...LOOKS.map((look) => new Option(t(`look.${look}`), look)));
  looks.value = chosenLook() ?? "";
  const backs = document.getElementById("back");
  backs.replaceChildren(...BACKS.map((back) => new Option(t(`back.${back}`), back)));
  backs.value = chosenBack();
  translatePage();
  showOffline();
  return showAccountLink();
}

function route() {
  screen?.close?.();
  const main = document.getElementById("main");
  const table = location.hash.match(/^#\/t\/([A-Za-z0-9]{6})$/);
  if (table) screen = showTable(main, table[1].toUpperCase());
  else if (location.hash === "#/rules") screen = showRules(main);
  else if (location.hash === "#/account") screen = showAccount(main);
  else if (location.hash === "#/daily") screen = showDaily(main);
  else if (location.hash === "#/offline") {
    screen = standIn(main, "", offlinePlay, (module) => module.showOfflinePlay(main));
  }
  else if (location.hash.startsWith("#/games")) {
    screen = standIn(main, "", games, (module) => module.showGames(main, location.hash));
  }
  else if (location.hash.match(/^#\/tournaments\/(\d+|new)$/)) {
    screen = showTournament(main, location.hash);
  }
  else if (location.hash.match(/^#\/puzzles(\/|$)/)) screen = showPuzzles(main, location.hash);
  else if (location.hash.startsWith("#/leaderboard")) {
    screen = showLeaderboard(main, location.hash.split("/")[2] || undefined);
  } else if (location.hash.match(/^#\/p\/./)) {
    screen = showProfile(main, decodeURIComponent(location.hash.slice(4)));
  } else if (location.hash.match(/^#\/m\/\d+$/)) screen = showReplay(main, location.hash.slice(4));
  else if (location.hash.match(/^#\/offline\/\d+$/)) {
    screen = showReplay(main, location.hash.slice(10), { offline: true });
  }
  else screen = showLobby(main);
}

// The button that opens the header's choices between a phone and a wide screen (style.css):
// it closes again on a second press, on Escape (the focus back on it), on a press elsewhere
// and on going to another screen.
function togglePrefs() {
  const header = document.querySelector("header.top");
  const button = document.getElementById("prefs-toggle");
  const open = (state) => {
    header.classList.toggle("prefs-open", state);
    button.setAttribute("aria-expanded", String(state));
  };
  button.addEventListener("click", () => open(!header.classList.contains("prefs-open")));
  header.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && header.classList.contains("prefs-open")) {
      open(false);
      button.focus();
    }
  });
  document.addEventListener("click", (event) => {
    if (!header.contains(event.target)) open(false);
  });
  window.addEventListener("hashchange", () => open(false));
}

async function start() {
  togglePrefs();
  keepOffline();
  whoAmI(); // asked at once, beside the catalogue: the page preloads both
  await setLanguage(pickLanguage());
  const linked = fillHeader();
  document.getElementById("language").addEventListener("change", async (event) => {
    await setLanguage(event.target.value, true);
    fillHeader();
    screen?.render();
  });
  document.getElementById("look").addEventListener("change", (event) => {
    chooseLook(event.target.value);
    screen?.render();
  });
  document.getElementById("back").addEventListener("change", (event) => {
    chooseBack(event.target.value);
    screen?.render();
  });
  await linked; // a player's seats from their other devices, before a table opens
  keepMe(); // challenges and friends over /ws/me, on every page while logged in
  // Listened to only from here: a link followed while the seats load is then routed once,
  // by the call below. Routed twice, a second screen replaced the first while the person
  // typed into it, and the name typed was lost (CI's registration test, under load).
  route();
  window.addEventListener("hashchange", route);
  uploadOffline();
  window.addEventListener("online", uploadOffline);
  document.getElementById("main").setAttribute("aria-busy", "false");
  if (await whoAmI()) import("./gamesbadge.js").catch(() => 0);
}

start();
