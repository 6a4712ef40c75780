// The lobby: one button to play the computer at once (the game, level and points chosen in
// place, remembered; a beginner for someone new), a game chosen in full, a table to share,
// joining one by its link or code, and the open tables with who is waiting at them, live over
// the lobby's socket (/ws/lobby).

import { LOOKS, PRESETS, PRESET_PLAYERS, api, backOnline, botLevels, keepSeatToken,
  problemLine, problemOf } from "./api.js";
import { faceSvg } from "./cards.js";
import { dailyDealCard } from "./dailylink.js";
import { h } from "./dom.js";
import { friendsPanel } from "./friendlink.js";
import { t } from "./i18n.js";
import { dealtLook, keepPlayerName, keepQuickChoices, playerName, quickChoices } from "./prefs.js";
import { playPersonPanel } from "./pools.js";
import { dailyPuzzleCard } from "./puzzlelink.js";
import { openSocket } from "./socket.js";
import { tournamentsCard } from "./tournamentlink.js";

// The fan of cards over the lobby: the settebello and its friends, in the deck look chosen.
const FAN = ["7D", "KH", "QC", "JS", "AD"];
// One-button play: the games offered, the points offered (each game's own target first
// chosen), and the levels shown until the server's list arrives.
const QUICK_GAMES = ["scopa", "escoba"];
const QUICK_POINTS = [6, 11, 16, 21];
const GAME_POINTS = { scopa: 11, escoba: 21 };
const KNOWN_LEVELS = ["random", "greedy", "expert", "master"];
const NEWCOMER_LEVEL = "random";

// The open tables, as the lobby's socket sends them, each time they change; a dropped
// socket is opened again (js/socket.js). The function returned closes it.
function watchTables(onTables) {
  const socket = openSocket("/ws/lobby", {
    onMessage: (message) => {
      if (message.type === "tables") onTables(message.tables);
    },
  });
  return () => socket.close();
}

function select(id, values, label, chosen) {
  return h("select", { id }, values.map((value) =>
    h("option", { value, selected: value === chosen }, label(value))));
}

// The server's levels, named from the catalogue (by the server's English name for a level the
// client does not know), the server's default chosen.
function levelOptions(levels) {
  return levels.map(({ level, name, default: chosen }) =>
    h("option", { value: level, selected: chosen }, t(`level.${level}`, {}, name)));
}

function field(labelKey, control) {
  return h("label", { class: "field" }, h("span", {}, t(labelKey)), control);
}

// The game settings both forms share: preset (with a line on how it differs), players, deck
// look and points to win. Choosing scopone seats four.
function gameFields(prefix) {
  const about = h("p", { class: "about", id: `${prefix}-about` }, t("about.scopa"));
  const presets = select(`${prefix}-preset`, PRESETS, (p) => t(`preset.${p}`), "scopa");
  presets.addEventListener("change", () => {
    about.textContent = t(`about.${presets.value}`);
    document.getElementById(`${prefix}-players`).value = String(PRESET_PLAYERS[presets.value] ?? 2);
  });
  return [
    field("lobby.game", presets),
    about,
    field("lobby.players", select(`${prefix}-players`, ["2", "3", "4", "6"], (n) => n, "2")),
    field("lobby.look", select(`${prefix}-look`, LOOKS, (l) => t(`look.${l}`), dealtLook())),
    field("lobby.target", h("input", { id: `${prefix}-target`, type: "number", min: "1",
      max: "99", placeholder: t("lobby.target_default"), inputmode: "numeric" })),
    h("label", { class: "check" }, h("input", { id: `${prefix}-rated`, type: "checkbox" }),
      " ", t("lobby.rated")),
  ];
}

function readGame(prefix) {
  const value = (name) => document.getElementById(`${prefix}-${name}`).value;
  const target = value("target");
  return {
    preset: value("preset"),
    players: Number(value("players")),
    look: value("look"),
    target: target ? Number(target) : null,
    rated: document.getElementById(`${prefix}-rated`).checked,
  };
}

function myName() {
  const name = document.getElementById("name").value.trim() || t("lobby.guest");
  keepPlayerName(name);
  return name;
}

export function showLobby(main) {
  let tables = [];
  let levels = [];
  let problem = null;
  let retry = null; // the request refused for want of an answer, to make again

  async function take(request) {
    try {
      const grant = await request();
      keepSeatToken(grant.table.code, grant.token);
      location.hash = `#/t/${grant.table.code}`;
    } catch (error) {
      problem = problemOf(error);
      retry = () => take(request);
      render();
    }
  }

  // Only the list is redrawn: the forms keep what the person has chosen meanwhile.
  function showTables(open) {
    tables = open;
    document.getElementById("open-tables")?.replaceWith(openTables());
  }

  // The level lists are filled in place once the levels arrive, so nothing chosen is lost.
  // Offline they wait for the network, quietly: the known levels are offered meanwhile, and
  // nothing has been refused (the offline notice says what waits for the network).
  const back = backOnline();
  async function loadLevels() {
    try {
      levels = await botLevels();
      back.done();
    } catch (error) {
      if (error.unreachable) {
        back.wait(loadLevels);
        return;
      }
      problem = problemOf(error);
      retry = loadLevels;
      render();
      return;
    }
    for (const id of ["quick-level", "create-level"]) {
      document.getElementById(id)?.replaceChildren(...levelOptions(levels));
    }
    document.getElementById("play-level")?.replaceWith(levelChoice());
  }

  function openTables() {
    const rows = tables.map((table) => {
      const waiting = table.seats.filter((seat) => !seat.open && seat.kind === "human")
        .map((seat) => seat.name);
      const free = table.seats.filter((seat) => seat.open).length;
      return h("li", { class: "open-table" }, h("a", { href: `#/t/${table.code}` },
        h("strong", {}, t(`preset.${table.rules.name}`, {}, table.rules.name)),
        ` · ${table.players} · ${table.code}`),
      h("span", { class: "who-waits" }, t("lobby.waiting_for",
        { names: waiting.join(", ") || t("lobby.nobody"), count: free })));
    });
    return h("section", { class: "panel", id: "open-tables", "aria-live": "polite" },
      h("h2", {}, t("lobby.open")),
      rows.length ? h("ul", {}, rows) : h("p", {}, t("lobby.none_open")));
  }

  // The one-button play's choices, each a row of buttons to press in place, kept for next
  // time: a newcomer plays the beginner at scopa to its own 11 points.
  const kept = quickChoices();
  const quick = {
    game: QUICK_GAMES.includes(kept.game) ? kept.game : QUICK_GAMES[0],
    level: kept.level ?? NEWCOMER_LEVEL,
    points: QUICK_POINTS.includes(kept.points) ? kept.points : null,
  };

  // The panel is drawn again with the choice made; the focus stays on the choice, where the
  // arrow keys made it: on the panel drawn away, it fell to the page's body, and the next Tab
  // went back to the panel's first group (issue 35, item 8).
  function choose(change) {
    Object.assign(quick, change);
    keepQuickChoices(quick);
    const group = document.activeElement?.closest("#quick-choices fieldset")?.id;
    document.getElementById("quick-choices")?.replaceWith(quickChoicesPanel());
    if (group) document.querySelector(`#${group} input:checked`)?.focus();
  }

  function choiceRow(id, legendKey, options, chosen, onPick) {
    return h("fieldset", { class: "choice", id }, h("legend", {}, t(legendKey)),
      options.map(([value, label]) => h("label", {},
        h("input", { type: "radio", name: id, value: String(value), checked: value === chosen,
          onchange: () => onPick(value) }), h("span", {}, label))));
  }

  function levelChoice() {
    const known = levels.length ? levels.map((l) => l.level) : KNOWN_LEVELS;
    const level = known.includes(quick.level) ? quick.level : NEWCOMER_LEVEL;
    return choiceRow("play-level", "lobby.level", known.map((l) => [l, t(`level.${l}`)]), level,
      (value) => choose({ level: value }));
  }

  function quickChoicesPanel() {
    const points = quick.points ?? GAME_POINTS[quick.game];
    return h("div", { class: "quick-choices", id: "quick-choices", role: "group",
      "aria-label": t("lobby.quick") },
      choiceRow("play-game", "lobby.game", QUICK_GAMES.map((g) => [g, t(`preset.${g}`)]),
        quick.game, (value) => choose({ game: value })),
      levelChoice(),
      choiceRow("play-points", "lobby.target", QUICK_POINTS.map((p) => [p, String(p)]), points,
        (value) => choose({ points: value })));
  }

  // One click to a table against the computer, as chosen above: two players, dealt in the
  // deck of the header's choice or of the interface's language.
  function playNow() {
    const level = document.querySelector("#play-level input:checked")?.value ?? NEWCOMER_LEVEL;
    take(() => api("/play", { preset: quick.game, players: 2, look: dealtLook(), level,
      target: quick.points ?? GAME_POINTS[quick.game], name: myName() }));
  }

  function hero() {
    const look = dealtLook();
    return h("section", { class: "panel hero" },
      h("div", { class: "fan", "aria-hidden": "true" }, FAN.map((code, k) =>
        h("span", { class: "card", style: `--k: ${k - (FAN.length - 1) / 2}`,
          html: faceSvg(code, look) }))),
      h("div", { class: "hero-text" },
        h("h1", {}, t("app.title")),
        h("p", { class: "tagline" }, t("lobby.tagline")),
        field("lobby.name", h("input", { id: "name", value: playerName(), maxlength: "32",
          autocomplete: "nickname", placeholder: t("lobby.guest") })),
        quickChoicesPanel(),
        h("div", { class: "actions quick-play" },
          h("button", { type: "button", class: "primary", id: "play-now", onclick: playNow },
            t("lobby.play_now")),
          // The computer with no network (js/offlineplay.js, issue 37).
          h("a", { href: "#/offline", class: "button", id: "offline-link" },
            t("nav.offline")))));
  }

  function render() {
    const quick = h("form", { class: "panel", id: "quick", onsubmit: (event) => {
      event.preventDefault();
      const level = document.getElementById("quick-level").value;
      take(() => api("/play", { ...readGame("quick"), level, name: myName() }));
    } }, h("h2", {}, t("lobby.computer")), gameFields("quick"),
    field("lobby.level", h("select", { id: "quick-level" }, levelOptions(levels))),
    h("button", { type: "submit", class: "primary", id: "play-computer" }, t("lobby.play")));

    const create = h("form", { class: "panel", id: "create", onsubmit: (event) => {
      event.preventDefault();
      const game = readGame("create");
      // The computer takes the last seats; the creator sits at the first one left.
      const count = Math.min(Number(document.getElementById("create-bots").value),
        game.players - 1);
      const level = document.getElementById("create-level").value;
      const bots = Object.fromEntries(Array.from({ length: count },
        (_, k) => [game.players - 1 - k, level]));
      take(() => api("/tables", { ...game, bots, name: myName() }));
    } }, h("h2", {}, t("lobby.create")), gameFields("create"),
    field("lobby.bots", select("create-bots", ["0", "1", "2", "3", "4", "5"], (n) => n, "0")),
    field("lobby.level", h("select", { id: "create-level" }, levelOptions(levels))),
    h("button", { type: "submit", id: "create-table" }, t("lobby.create_button")));

    const join = h("form", { class: "panel", id: "join", onsubmit: (event) => {
      event.preventDefault();
      const text = document.getElementById("join-code").value.trim();
      const code = (text.match(/([A-Za-z0-9]{6})\s*$/) ?? [])[1];
      if (code) location.hash = `#/t/${code.toUpperCase()}`;
    } }, h("h2", {}, t("lobby.join")),
    field("lobby.code", h("input", { id: "join-code", autocomplete: "off", required: true })),
    h("button", { type: "submit", id: "join-button" }, t("lobby.join_button")));

    // What plays first: the computer now, a person now, then what the room holds today (friends,
    // the day's puzzle and deal, tournaments, tables waiting); the forms that choose every rule
    // come last, under their own heading, for those who want them.
    main.replaceChildren(...[
      hero(), playPersonPanel(),
      problemLine(problem, () => {
        problem = null;
        render();
        retry();
      }, { id: "lobby-problem" }),
      h("div", { class: "lobby" }, friendsPanel(),
        h("div", { class: "daily-cards" }, dailyPuzzleCard(), dailyDealCard()), tournamentsCard(),
        openTables()),
      h("h2", { class: "lobby-more" }, t("lobby.more")),
      h("div", { class: "lobby" }, quick, create, join),
    ].filter(Boolean));
  }

  render();
  const stopWatching = watchTables(showTables);
  loadLevels();
  return {
    render,
    close() {
      stopWatching();
      back.cancel();
    },
  };
}
