// A tournament's page ("#/tournaments/ID"): its standings, pushed live over
// /ws/tournaments/ID, the games in play to watch, the finished ones' replays, and the podium
// once it is over; the player joins, its maker starts it early. "#/tournaments/new" makes one.
// It loads when first opened (tournamentlink.js), with its styles, tournaments.css.
//
// A player who joined is taken to their table as soon as they are paired, wherever they are
// in the client: the tournament's socket stays open (one per tournament, kept by this module,
// not by the screen) until the tournament ends, so the next pairing reaches a player still
// looking at their last table's result. When the tab is hidden, callBack calls them back.

import { whoAmI } from "./account.js";
import { api, keepSeatToken } from "./api.js";
import { callBack } from "./callback.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { openSocket } from "./socket.js";
import { tournamentWhen } from "./tournamentlink.js";

const GAMES = ["scopa", "escoba", "scopa-classic", "escoba-classic"];

// One socket per tournament: its latest state and who listens (the page on screen).
const sockets = new Map();

function follow(id) {
  let kept = sockets.get(id);
  if (kept) return kept;
  kept = { id, socket: null, latest: null, listeners: new Set(), keep: false };
  sockets.set(id, kept);
  open(kept);
  return kept;
}

// Opened again after a drop (js/socket.js) while anyone still needs it.
function open(kept) {
  kept.socket = openSocket(`/ws/tournaments/${kept.id}`, {
    onMessage: (message) => {
      if (message.type === "tournament") {
        if (kept.latest && message.tournament.version < kept.latest.version) return;
        kept.latest = message.tournament;
        for (const listener of kept.listeners) listener(message.tournament);
        if (message.tournament.status === "finished") kept.keep = false;
      } else if (message.type === "paired") paired(message);
    },
    onLink: (up, why) => {
      if (why === "closed" && sockets.get(kept.id) === kept) sockets.delete(kept.id);
    },
    retry: () => kept.keep || kept.listeners.size > 0,
  });
}

// Closed once nobody needs it: no page shows the tournament, and the player is not in it.
function release(kept) {
  if (kept.keep || kept.listeners.size) return;
  sockets.delete(kept.id);
  kept.socket.close();
}

// The player's next game is ready: keep its seat, call them back if away, and go there.
function paired(message) {
  keepSeatToken(message.table, message.token);
  callBack(t("tournament.paired", { opponent: message.opponent }), { tag: "tournament" });
  location.hash = `#/t/${message.table}`;
}

export function showTournament(main, hash) {
  const id = hash.split("/")[2];
  return id === "new" ? newTournament(main) : tournamentPage(main, Number(id));
}

function tournamentPage(main, id) {
  let tournament = null;
  let me = null;
  let problem = null;
  let closed = false;
  const kept = follow(id);

  // A view older than the one shown (a push and an answer crossing) is left out.
  function newer(found) {
    return !tournament || found.version >= tournament.version;
  }

  function heard(latest) {
    if (!newer(latest)) return;
    const wasPaired = me?.table;
    tournament = latest;
    render();
    // A new pairing or a result: the player's own part (their table) is asked for again.
    if (me?.joined && !wasPaired !== !latest.games.some((g) => g.live && mine(g))) refresh();
  }

  function mine(game) {
    return me?.account && (game.first.id === me.account || game.second?.id === me.account);
  }

  async function refresh() {
    try {
      const found = await api(`/tournaments/${id}`);
      ({ me } = found);
      if (newer(found)) tournament = found;
      kept.keep = me.joined && found.status !== "finished";
      problem = null;
    } catch (error) {
      problem = error.message;
    }
    if (!closed) render();
  }

  async function act(path) {
    try {
      const found = await api(`/tournaments/${id}/${path}`, {});
      ({ me } = found);
      if (newer(found)) tournament = found;
      kept.keep = me.joined && found.status !== "finished";
      problem = null;
    } catch (error) {
      problem = error.message;
    }
    render();
  }

  function name(t_) {
    return t_.daily ? t("tournament.daily_name") : t_.name;
  }

  function statusLine() {
    const kind = t(`tournament.kind_${tournament.kind}`);
    const length = tournament.kind === "arena"
      ? t("tournament.minutes", { count: tournament.minutes })
      : t("tournament.round_of", { round: tournament.round, rounds: tournament.rounds });
    return h("p", { class: "tournament-status", id: "tournament-status",
      "data-status": tournament.status },
      `${kind} · ${t(`preset.${tournament.preset}`)} · ${length} · `,
      tournamentWhen(tournament), " · ",
      t("tournament.players", { count: tournament.players }));
  }

  function actions() {
    const buttons = [];
    if (me?.table) {
      buttons.push(h("a", { class: "button primary", id: "tournament-table",
        href: `#/t/${me.table}`, onclick: () => keepSeatToken(me.table, me.token) },
      t("tournament.your_table")));
    }
    // A player who withdrew may come back, in a Swiss under way too.
    const closedToJoin = tournament.status === "finished"
      || (tournament.kind === "swiss" && tournament.status !== "open" && !me?.withdrawn);
    if (me && !me.account && !closedToJoin) {
      buttons.push(h("a", { href: "#/account", class: "button", id: "tournament-login" },
        t("tournament.login")));
    } else if (me && !me.joined && !closedToJoin) {
      if (me.withdrawn) {
        buttons.push(h("span", { class: "withdrawn", id: "tournament-withdrawn" },
          t("tournament.withdrawn")));
      }
      buttons.push(h("button", { type: "button", class: "primary", id: "tournament-join",
        onclick: () => act("join") }, t(me.withdrawn ? "tournament.join_again"
        : "tournament.join")));
    } else if (me?.joined && tournament.status !== "finished") {
      buttons.push(h("span", { class: "joined", id: "tournament-joined" },
        me.table ? t("tournament.playing") : t("tournament.joined")));
      buttons.push(h("button", { type: "button", id: "tournament-withdraw",
        onclick: () => act("withdraw") }, t("tournament.withdraw")));
    }
    if (me?.creator && tournament.status === "open") {
      buttons.push(h("button", { type: "button", id: "tournament-start",
        onclick: () => act("start") }, t("tournament.start_now")));
    }
    return buttons.length ? h("div", { class: "actions" }, buttons) : null;
  }

  function podium() {
    if (!tournament.podium.length) return null;
    return h("ol", { class: "podium", id: "podium", "aria-label": t("tournament.podium") },
      tournament.podium.map((s) => h("li", { class: `place place-${s.rank}` },
        h("span", { class: "medal", "aria-hidden": "true" }, String(s.rank)),
        h("strong", {}, s.name), h("span", {}, t("tournament.points", { count: s.points })))));
  }

  function standings() {
    const swiss = tournament.kind === "swiss";
    const rows = tournament.standings.map((s) => h("tr", {
      "data-player": s.name, class: s.player === me?.account ? "me" : null },
    h("td", {}, String(s.rank)),
    h("td", {}, h("a", { href: `#/p/${encodeURIComponent(s.name)}` }, s.name),
      s.fire ? h("span", { class: "fire", title: t("tournament.fire"),
        "aria-label": t("tournament.fire") }, "×2") : null),
    h("td", { class: "points" }, String(s.points)),
    h("td", {}, `${s.wins}–${s.losses}`),
    swiss ? h("td", {}, String(s.buchholz)) : null,
    h("td", {}, s.margin > 0 ? `+${s.margin}` : String(s.margin).replace("-", "−"))));
    return h("section", { class: "panel" }, h("h2", {}, t("tournament.standings")),
      rows.length ? h("div", { class: "standings-scroll" }, h("table", {
        class: "standings", id: "standings" },
        h("thead", {}, h("tr", {}, h("th", {}, "#"), h("th", {}, t("tournament.col_player")),
          h("th", {}, t("tournament.col_points")), h("th", {}, t("tournament.col_record")),
          swiss ? h("th", {}, t("tournament.col_buchholz")) : null,
          h("th", {}, t("tournament.col_margin")))),
        h("tbody", {}, rows)))
        : h("p", {}, t("tournament.nobody")));
  }

  function games() {
    const live = tournament.games.filter((g) => g.live);
    const done = tournament.games.filter((g) => !g.live).reverse();
    const playing = live.map((g) => h("li", { "data-table": g.table },
      `${g.first.name} – ${g.second.name} `,
      g.table ? h("a", { href: `#/t/${g.table}`, class: "watch" }, t("tournament.watch")) : null));
    const finished = done.map((g) => (g.second === null
      ? h("li", { class: "bye" }, t("tournament.bye", { name: g.first.name, round: g.round }))
      : h("li", { "data-match": g.match },
        h("span", { class: g.winner === g.first.id ? "won" : null }, g.first.name),
        // A match resigned at its first move ends 0–0: only the winner's name says it.
        g.scores && g.scores[0] + g.scores[1] ? ` ${g.scores.join("–")} ` : " – ",
        h("span", { class: g.winner === g.second.id ? "won" : null }, g.second.name), " ",
        g.match ? h("a", { href: `#/m/${g.match}`, class: "replay" }, t("tournament.replay"))
          : null)));
    return [
      tournament.status === "finished" ? null : h("section", { class: "panel", id: "live-games" },
        h("h2", {}, t("tournament.live")),
        playing.length ? h("ul", {}, playing) : h("p", {}, t("tournament.none_live"))),
      finished.length ? h("section", { class: "panel", id: "finished-games" },
        h("h2", {}, t("tournament.finished_games")), h("ul", {}, finished)) : null,
    ];
  }

  function render() {
    if (closed) return;
    if (!tournament) {
      main.replaceChildren(problem ? h("p", { class: "problem", role: "alert" }, problem)
        : h("p", {}, t("tournament.loading")));
      return;
    }
    main.replaceChildren(h("div", { class: "tournament", id: "tournament",
      "data-tournament": tournament.id, "data-status": tournament.status },
    h("section", { class: "panel tournament-head" },
      h("h1", {}, name(tournament)), statusLine(), actions(),
      problem ? h("p", { class: "problem", role: "alert" }, problem) : null),
    podium(),
    h("div", { class: "tournament-columns" }, standings(), h("div", {}, games()))));
  }

  kept.listeners.add(heard);
  if (kept.latest) tournament = kept.latest;
  render();
  refresh();
  return {
    render,
    close() {
      closed = true;
      kept.listeners.delete(heard);
      release(kept);
    },
  };
}

// "#/tournaments/new": the form, for a logged-in player.
function newTournament(main) {
  let problem = null;
  let kind = "arena";
  let closed = false;

  function field(labelKey, input) {
    return h("label", { class: "field" }, h("span", {}, t(labelKey)), input);
  }

  function soon() {
    const start = new Date(Date.now() + 10 * 60_000);
    start.setSeconds(0, 0);
    const local = new Date(start.getTime() - start.getTimezoneOffset() * 60_000);
    return local.toISOString().slice(0, 16);
  }

  // What was typed, kept when a refusal draws the form again.
  const typed = { name: "", start: null, amount: null };

  async function submit(event) {
    event.preventDefault();
    typed.name = document.getElementById("tournament-name").value;
    typed.start = document.getElementById("tournament-start").value;
    typed.amount = document.getElementById("tournament-amount").value;
    const body = {
      name: document.getElementById("tournament-name").value,
      kind,
      preset: document.getElementById("tournament-game").value,
      starts_at: new Date(document.getElementById("tournament-start").value).toISOString(),
    };
    const amount = Number(document.getElementById("tournament-amount").value);
    if (kind === "arena") body.minutes = amount;
    else body.rounds = amount;
    try {
      const made = await api("/tournaments", body);
      location.hash = `#/tournaments/${made.id}`;
    } catch (error) {
      problem = error.message;
      render();
    }
  }

  function render(me = undefined) {
    if (closed) return;
    if (me === null) {
      main.replaceChildren(h("section", { class: "panel" },
        h("h1", {}, t("tournament.make")), h("p", {}, t("tournament.login_to_make")),
        h("a", { href: "#/account", class: "button primary", id: "tournament-login" },
          t("tournament.login"))));
      return;
    }
    const help = h("p", { class: "help", id: "tournament-help" }, t(`tournament.help_${kind}`));
    const amountLabel = h("span", {}, t("tournament.form_minutes"));
    const amount = h("input", { id: "tournament-amount", type: "number", min: "1", max: "1440",
      value: "30", required: true });
    // The kind changes the help and the amount's meaning in place: what was typed stays.
    function choose(chosen, fresh = true) {
      kind = chosen;
      help.textContent = t(`tournament.help_${kind}`);
      amountLabel.textContent = t(kind === "arena" ? "tournament.form_minutes"
        : "tournament.form_rounds");
      amount.max = kind === "arena" ? "1440" : "15";
      if (fresh) amount.value = kind === "arena" ? "30" : "5";
    }
    const kinds = h("fieldset", { class: "choice", id: "tournament-kind" },
      h("legend", {}, t("tournament.form_kind")),
      ["arena", "swiss"].map((k) => h("label", {},
        h("input", { type: "radio", name: "tournament-kind", value: k, checked: k === kind,
          onchange: () => choose(k) }),
        h("span", {}, t(`tournament.kind_${k}`)))));
    main.replaceChildren(h("form", { class: "panel tournament-form", id: "tournament-form",
      onsubmit: submit },
    h("h1", {}, t("tournament.make")),
    problem ? h("p", { class: "problem", role: "alert" }, problem) : null,
    field("tournament.form_name", h("input", { id: "tournament-name", required: true,
      maxlength: "64", value: typed.name })),
    field("tournament.form_game", h("select", { id: "tournament-game" },
      GAMES.map((g) => new Option(t(`preset.${g}`), g)))),
    kinds, help,
    h("label", { class: "field" }, amountLabel, amount),
    field("tournament.form_start", h("input", { id: "tournament-start",
      type: "datetime-local", required: true, value: typed.start ?? soon() })),
    h("button", { type: "submit", class: "primary", id: "tournament-make" },
      t("tournament.form_make"))));
    choose(kind, typed.amount === null);
    if (typed.amount !== null) amount.value = typed.amount;
  }

  whoAmI().then((me) => render(me));
  return { render: () => render(), close() { closed = true; } };
}
