// The lobby: quick play against the computer in one click, a game chosen in full, a table to
// share, joining one by its link or code, and the open tables with who is waiting at them.

import { LOOKS, PRESETS, PRESET_PLAYERS, api, botLevels, keepSeatToken } from "./api.js";
import { faceSvg } from "./cards.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { chosenLook, keepPlayerName, playerName } from "./prefs.js";

// The fan of cards over the lobby: the settebello and its friends, in the deck look chosen.
const FAN = ["7D", "KH", "QC", "JS", "AD"];

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
    field("lobby.look", select(`${prefix}-look`, LOOKS, (l) => t(`look.${l}`),
      chosenLook() ?? "french")),
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
  let problem = "";

  async function take(request) {
    try {
      const grant = await request();
      keepSeatToken(grant.table.code, grant.token);
      location.hash = `#/t/${grant.table.code}`;
    } catch (error) {
      problem = error.message;
      render();
    }
  }

  // Only the list is redrawn: the forms keep what the person has chosen meanwhile.
  async function refresh() {
    try {
      tables = await api("/tables");
    } catch (error) {
      problem = error.message;
      render();
      return;
    }
    document.getElementById("open-tables")?.replaceWith(openTables());
  }

  // The level lists are filled in place once the levels arrive, so nothing chosen is lost.
  async function loadLevels() {
    try {
      levels = await botLevels();
    } catch (error) {
      problem = error.message;
      render();
      return;
    }
    for (const id of ["quick-level", "create-level"]) {
      document.getElementById(id)?.replaceChildren(...levelOptions(levels));
    }
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
    return h("section", { class: "panel", id: "open-tables" },
      h("h2", {}, t("lobby.open")),
      rows.length ? h("ul", {}, rows) : h("p", {}, t("lobby.none_open")),
      h("button", { type: "button", onclick: refresh }, t("lobby.refresh")));
  }

  // One click to a table against the computer: the game named, two players, the level the
  // server suggests, the deck look chosen in the header.
  function quickPlay(preset) {
    const level = document.getElementById("quick-level")?.value || undefined;
    take(() => api("/play", { preset, players: 2, look: chosenLook() ?? "french", level,
      name: myName() }));
  }

  function hero() {
    const look = chosenLook() ?? "french";
    return h("section", { class: "panel hero" },
      h("div", { class: "fan", "aria-hidden": "true" }, FAN.map((code, k) =>
        h("span", { class: "card", style: `--k: ${k - (FAN.length - 1) / 2}`,
          html: faceSvg(code, look) }))),
      h("div", { class: "hero-text" },
        h("h1", {}, t("app.title")),
        h("p", { class: "tagline" }, t("lobby.tagline")),
        field("lobby.name", h("input", { id: "name", value: playerName(), maxlength: "32",
          autocomplete: "nickname", placeholder: t("lobby.guest") })),
        h("div", { class: "actions quick-play", role: "group", "aria-label": t("lobby.quick") },
          h("button", { type: "button", class: "primary", id: "quick-scopa",
            onclick: () => quickPlay("scopa") }, t("lobby.quick_scopa")),
          h("button", { type: "button", class: "primary", id: "quick-escoba",
            onclick: () => quickPlay("escoba") }, t("lobby.quick_escoba")))));
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

    main.replaceChildren(...[
      hero(),
      problem ? h("p", { class: "problem", role: "alert" }, problem) : null,
      h("div", { class: "lobby" }, quick, create, join, openTables()),
    ].filter(Boolean));
  }

  render();
  refresh();
  loadLevels();
  return { render };
}
