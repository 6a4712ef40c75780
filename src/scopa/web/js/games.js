// "Your games" (issue 36, item 4), loaded when first opened: "#/games", every correspondence
// match of yours (your move first, then the least time left), one click to each table in your
// seat, the offers you made or were made, and the form that offers a match to a player by
// name, as a link or as a seek in the correspondence pool; and "#/games/offer/ID", the page an
// offer's link opens, to accept or decline it. Its words are i18n/games/<language>.json.

import { whoAmI } from "./account.js";
import { PRESETS, PRESET_PLAYERS, api, keepSeatToken, problemLine, problemOf, seatToken }
  from "./api.js";
import { h } from "./dom.js";
import { days, duration, extraHours, followSeats, gameWords, refreshBadge, say }
  from "./gamesbadge.js";
import { t } from "./i18n.js";
import { dealtLook } from "./prefs.js";

const DAYS = [1, 2, 3, 5, 7, 14];
const TWO_PLAYER_GAMES = PRESETS.filter((preset) => (PRESET_PLAYERS[preset] ?? 2) === 2);
const KINDS = ["name", "link", "seek"];
const CHOICES = "scopa.games.choices"; // the form's last choices: game, days, rated
const AFTER_LOGIN = "scopa.after_login"; // where the account page sends a person back
const REFRESH = 60_000;
const LOW = 0.2; // under this share of a move's days left on your move, the time is in red
const TICK = 20_000;

export function showGames(main, hash) {
  const offer = hash.match(/^#\/games\/offer\/([\w-]+)$/);
  return offer ? offerPage(main, offer[1]) : gamesPage(main);
}

// "Scopa · 3 days a move · casual": what an offer or a match plays.
function what({ preset, target, days: perMove, rated }) {
  return [t(`preset.${preset}`, {}, preset),
    target ? t("challenge.to_points", { count: target }) : null,
    say("days_move", { days: days(perMove) }),
    t(rated ? "challenge.rated" : "challenge.casual")].filter(Boolean).join(" · ");
}

function field(id, key, control) {
  return h("label", { class: "field", for: id }, h("span", {}, say(key)), control);
}

// "21 Dec", "21 dic": a day in the reader's language.
const shortDate = (iso) => new Date(iso).toLocaleDateString(document.documentElement.lang,
  { day: "numeric", month: "short" });

// The link of an offer, on this site.
const offerLink = (offer) => `${location.origin}/#/games/offer/${offer.id}`;

async function copy(event, text) {
  const button = event.currentTarget;
  try {
    await navigator.clipboard.writeText(text);
    button.textContent = t("table.copied");
  } catch {
    button.closest("li, section")?.querySelector("input")?.select();
    button.textContent = t("table.copy_select");
  }
}

// The login's prompt for a guest: the account page brings them back here once logged in.
function loginPrompt(key) {
  return h("section", { class: "panel", id: "games-login" },
    h("p", {}, say(key)),
    h("a", { href: "#/account", class: "button primary", id: "games-login-link",
      onclick: () => sessionStorage.setItem(AFTER_LOGIN, location.hash) }, say("login_link")));
}

// Redraw `main` with `children`, the keyboard's focus kept on the control of the same id.
function redraw(main, children) {
  const focused = document.activeElement;
  const id = main.contains(focused) ? focused.id : null;
  main.replaceChildren(...children.filter(Boolean));
  if (id) document.getElementById(id)?.focus();
}

function gamesPage(main) {
  let me;
  let overview = null;
  let since = 0; // performance.now() when the overview came
  let problem = null;
  let note = null; // what the last offer made became: {key, params, link}
  let closed = false;
  let form = null;

  async function load() {
    try {
      await gameWords();
      me = await whoAmI();
      if (me) {
        [overview] = await Promise.all([api("/correspondence"), followSeats()]);
        since = performance.now();
        problem = null;
      }
    } catch (error) {
      problem = problemOf(error);
    }
    if (!closed) render();
  }

  async function act(action) {
    try {
      await action();
      problem = null;
    } catch (error) {
      problem = problemOf(error);
      note = null;
    }
    await load();
    refreshBadge();
  }

  const left = (game) => (game.seconds_left ?? 0) - (performance.now() - since) / 1000;

  function gameLine(game) {
    const names = game.opponents.join(", ");
    const playing = game.status === "playing";
    const over = game.result ? say(game.result === "win" ? "over_won" : "over_lost")
      : say("over");
    const turn = !playing ? over : game.your_turn ? say("your_move")
      : say("their_move", { name: names });
    let state = null;
    if (playing && game.overdue) {
      state = say(game.your_turn ? "overdue_late" : "overdue_waiting", { name: names });
    } else if (playing && game.deadline) {
      state = say("time_left", { time: duration(left(game)) });
    }
    return h("li", { class: `game${game.your_turn ? " mine" : ""}${playing ? "" : " over"}`,
      "data-table": game.table, "data-your-turn": String(game.your_turn) },
    h("a", { href: `#/t/${game.table}`, class: "game-link", id: `game-${game.table}` },
      h("span", { class: "game-who" }, say("against", { name: names })),
      h("span", { class: "game-turn" }, game.your_turn ? "▶ " : "", turn),
      state ? h("span", { class: `game-left${game.overdue ? " overdue" : ""}${game.your_turn &&
        left(game) < LOW * game.days * 86400 ? " low" : ""}` }, state) : null,
      playing && game.vacation ? h("span", { class: "game-vacation" }, say("vacation", {
        days: days(game.vacation), hours: extraHours(game.vacation) })) : null,
      h("span", { class: "game-what" }, what({ ...game, preset: game.rules.name }))));
  }

  function gamesList() {
    const games = overview.games;
    const playing = games.filter((game) => game.status === "playing").length;
    return h("section", { class: "panel", id: "games-list", "aria-labelledby": "games-list-title" },
      h("h2", { id: "games-list-title" }, say("matches")),
      games.length ? h("ul", { class: "games" }, games.map(gameLine))
        : h("p", { class: "none" }, say("none")),
      h("p", { class: "games-most" }, say("most", { playing, most: overview.most })));
  }

  function offerLine(offer) {
    const mine = offer.by === me.name;
    const whom = { name: say("offer_to", { name: offer.to ?? "" }), link: say("offer_link"),
      seek: say("offer_seek") }[offer.kind];
    const until = shortDate(offer.expires);
    return h("li", { class: `offer ${mine ? "sent" : "received"}`, "data-offer": offer.id,
      "data-kind": offer.kind },
    h("p", { class: "offer-who" }, h("strong", {}, mine ? whom
      : say("offer_from", { name: offer.by }))),
    h("p", { class: "offer-what" }, what(offer), " · ", say("expires", { date: until })),
    mine && offer.kind === "link" ? h("input", { class: "offer-url", readonly: true,
      value: offerLink(offer), "aria-label": say("link_label"), id: `url-${offer.id}` }) : null,
    h("div", { class: "actions" }, mine ? [
      offer.kind !== "seek" ? h("button", { type: "button", id: `copy-${offer.id}`,
        onclick: (event) => copy(event, offerLink(offer)) }, t("table.copy")) : null,
      h("button", { type: "button", id: `cancel-${offer.id}`, onclick: () => act(() =>
        api(`/correspondence/offers/${offer.id}/decline`, {})) }, say("cancel")),
    ] : [
      h("button", { type: "button", class: "primary", id: `accept-${offer.id}`,
        onclick: () => accept(offer.id) }, t("challenge.accept")),
      h("button", { type: "button", id: `decline-${offer.id}`, onclick: () => act(() =>
        api(`/correspondence/offers/${offer.id}/decline`, {})) }, t("challenge.decline")),
    ]));
  }

  async function accept(id) {
    try {
      await accepted(await api(`/correspondence/offers/${id}/accept`, {}));
    } catch (error) {
      problem = problemOf(error);
      await load();
    }
  }

  function offersList() {
    const offers = overview.offers;
    if (!offers.length) return null;
    const received = offers.filter((offer) => offer.by !== me.name);
    const sent = offers.filter((offer) => offer.by === me.name);
    return h("section", { class: "panel", id: "offers", "aria-labelledby": "offers-title" },
      h("h2", { id: "offers-title" }, say("offers")),
      received.length ? [h("h3", {}, say("received")),
        h("ul", { class: "offers", id: "offers-received" }, received.map(offerLine))] : null,
      sent.length ? [h("h3", {}, say("sent")),
        h("ul", { class: "offers", id: "offers-sent" }, sent.map(offerLine))] : null);
  }

  function choices() {
    return { preset: "scopa", days: 3, rated: false, kind: "name",
      ...JSON.parse(localStorage.getItem(CHOICES) ?? "{}") };
  }

  // The form, made again only when its words change (another language): what was typed stays.
  function offerForm() {
    const was = form ? read() : { ...choices(), to: "" };
    const kinds = h("fieldset", { class: "kinds" }, h("legend", {}, say("kind")),
      KINDS.map((kind) => h("label", { class: "check" },
        h("input", { type: "radio", name: "offer-kind", id: `offer-kind-${kind}`, value: kind,
          checked: was.kind === kind, onchange: showName }), " ", say(`kind_${kind}`))));
    const name = field("offer-to", "name", h("input", { id: "offer-to", value: was.to,
      maxlength: "24", autocomplete: "off", spellcheck: "false" }));
    name.id = "offer-to-field";
    form = h("form", { class: "panel", id: "offer-form", "aria-labelledby": "offer-title",
      onsubmit: send },
    h("h2", { id: "offer-title" }, say("new")),
    kinds, name,
    field("offer-preset", "game", h("select", { id: "offer-preset" },
      TWO_PLAYER_GAMES.map((preset) => h("option", { value: preset,
        selected: preset === was.preset }, t(`preset.${preset}`))))),
    field("offer-days", "days", h("select", { id: "offer-days" },
      DAYS.map((count) => h("option", { value: String(count),
        selected: count === Number(was.days) }, days(count))))),
    h("label", { class: "check" }, h("input", { type: "checkbox", id: "offer-rated",
      checked: was.rated }), " ", say("rated")),
    h("button", { type: "submit", class: "primary", id: "offer-send" }, say("send")));
    showName();
    return form;
  }

  function read() {
    const value = (id) => form.querySelector(`#${id}`).value;
    return { kind: form.querySelector("input[name=offer-kind]:checked")?.value ?? "name",
      to: value("offer-to").trim(), preset: value("offer-preset"),
      days: Number(value("offer-days")), rated: form.querySelector("#offer-rated").checked };
  }

  function showName() {
    const byName = form.querySelector("#offer-kind-name").checked;
    form.querySelector("#offer-to-field").hidden = !byName;
    form.querySelector("#offer-to").required = byName;
  }

  async function send(event) {
    event.preventDefault();
    const chosen = read();
    const { to, ...kept } = chosen;
    localStorage.setItem(CHOICES, JSON.stringify(kept));
    const body = { ...kept, look: dealtLook() };
    if (chosen.kind === "name") body.to = to;
    await act(async () => {
      const made = await api("/correspondence/offers", body);
      if (made.grant) {
        await accepted(made.grant);
        return;
      }
      note = { key: `sent_${chosen.kind}`, params: { name: made.offer.to ?? "" },
        offer: made.offer };
      if (chosen.kind === "name") form.querySelector("#offer-to").value = "";
    });
    document.getElementById(note?.offer.kind === "link" ? "note-url" : "offer-note")?.focus();
  }

  function noteLine() {
    if (!note) return null;
    const link = note.offer.kind === "link";
    return h("div", { class: "done", id: "offer-note", role: "status", tabindex: "-1" },
      h("p", {}, say(note.key, note.params)),
      link ? h("div", { class: "share" },
        h("input", { id: "note-url", readonly: true, value: offerLink(note.offer),
          "aria-label": say("link_label") }),
        h("button", { type: "button", id: "note-copy",
          onclick: (event) => copy(event, offerLink(note.offer)) }, t("table.copy"))) : null);
  }

  function vacationLine() {
    const { year, used, left: remaining } = overview.vacation;
    return h("p", { class: "games-vacation", id: "games-vacation" },
      say("vacation_left", { year, left: days(remaining), total: days(used + remaining) }));
  }

  function render() {
    const heading = h("h1", {}, say("title"));
    if (!me) {
      redraw(main, [heading, problemLine(problem, load), loginPrompt("login")]);
      return;
    }
    if (!overview) {
      redraw(main, [heading, problemLine(problem, load) ?? h("p", {}, say("loading"))]);
      return;
    }
    if (!form || form.dataset.lang !== document.documentElement.lang) {
      offerForm();
      form.dataset.lang = document.documentElement.lang;
    }
    redraw(main, [h("div", { class: "games-page" }, heading,
      h("p", { class: "games-about" }, say("about")),
      problemLine(problem, load, { id: "games-problem" }),
      h("div", { class: "games-columns" },
        h("div", {}, gamesList(), offersList()),
        h("div", {}, noteLine(), form, vacationLine())))]);
  }

  // Only the times left change between answers: their lines are drawn again.
  function tick() {
    if (!overview || document.visibilityState !== "visible") return;
    for (const game of overview.games) {
      const line = main.querySelector(`li.game[data-table="${game.table}"] .game-left`);
      if (line && !game.overdue && game.deadline) {
        line.textContent = say("time_left", { time: duration(left(game)) });
      }
    }
  }

  const visible = () => {
    if (document.visibilityState === "visible") load();
  };
  const timers = [setInterval(visible, REFRESH), setInterval(tick, TICK)];
  document.addEventListener("visibilitychange", visible);
  main.replaceChildren(h("p", {}, "…"));
  load();
  return {
    render: () => gameWords().then(render),
    close() {
      closed = true;
      timers.forEach(clearInterval);
      document.removeEventListener("visibilitychange", visible);
    },
  };
}

// A seat granted (an offer accepted, a seek paired at once): kept, and its table opened.
async function accepted(grant) {
  keepSeatToken(grant.table.code, grant.token);
  refreshBadge();
  location.hash = `#/t/${grant.table.code}`;
}

function offerPage(main, id) {
  let me;
  let offer = null;
  let problem = null;
  let missing = false;
  let closed = false;

  async function load() {
    try {
      await gameWords();
      me = await whoAmI();
      if (me) offer = await api(`/correspondence/offers/${encodeURIComponent(id)}`);
      problem = null;
    } catch (error) {
      if (error.code === "unknown_offer") missing = true;
      else problem = problemOf(error);
    }
    if (!closed) render();
  }

  async function answer(action) {
    try {
      if (action === "accept") {
        await accepted(await api(`/correspondence/offers/${id}/accept`, {}));
        return;
      }
      await api(`/correspondence/offers/${id}/decline`, {});
      problem = null;
    } catch (error) {
      problem = problemOf(error);
    }
    await load();
  }

  function state() {
    const expired = offer.state === "open" && Date.parse(offer.expires) <= Date.now();
    if (expired) return h("p", { class: "offer-state", id: "offer-state" }, say("offer_expired"));
    if (offer.state !== "open") {
      const seated = offer.table && seatToken(offer.table);
      return [h("p", { class: "offer-state", id: "offer-state" },
        say(`offer_${offer.state}`)),
      offer.table ? h("a", { href: `#/t/${offer.table}`, class: "button primary",
        id: "offer-table" }, say(seated ? "to_table" : "watch")) : null];
    }
    const mine = offer.by === me.name;
    if (mine) {
      return [h("p", { id: "offer-state" }, say(offer.kind === "seek" ? "offer_your_seek"
        : "offer_yours")),
      offer.kind !== "seek" ? h("div", { class: "share" },
        h("input", { id: "offer-url", readonly: true, value: offerLink(offer),
          "aria-label": say("link_label") }),
        h("button", { type: "button", id: "offer-copy",
          onclick: (event) => copy(event, offerLink(offer)) }, t("table.copy"))) : null,
      h("div", { class: "actions" }, h("button", { type: "button", id: "offer-cancel",
        onclick: () => answer("decline") }, say("cancel")))];
    }
    const forMe = offer.kind === "link" || (offer.kind === "name" && offer.to === me.name);
    if (!forMe) {
      return h("p", { id: "offer-state" }, offer.kind === "seek" ? say("offer_pool")
        : say("offer_not_yours", { name: offer.to ?? "" }));
    }
    return h("div", { class: "actions" },
      h("button", { type: "button", class: "primary", id: "offer-accept",
        onclick: () => answer("accept") }, t("challenge.accept")),
      offer.kind === "name" ? h("button", { type: "button", id: "offer-decline",
        onclick: () => answer("decline") }, t("challenge.decline")) : null);
  }

  function render() {
    const heading = h("h1", {}, say("offer_title"));
    let body;
    if (!me) body = loginPrompt("offer_login");
    else if (missing) body = h("p", { class: "offer-state", id: "offer-state" }, say("offer_missing"));
    else if (!offer) body = problemLine(problem, load) ?? h("p", {}, say("loading"));
    else {
      const whom = offer.kind === "name" ? (offer.to === me.name ? say("to_you")
        : say("offer_to", { name: offer.to ?? "" })) : say(`offer_${offer.kind}`);
      body = h("section", { class: "panel offer-page", id: "offer", "data-state": offer.state },
        h("p", { class: "offer-lead" }, h("strong", {}, say("offer_by", { name: offer.by })),
          " ", whom),
        h("p", { class: "offer-what" }, what(offer), offer.state === "open"
          ? [" · ", say("expires", { date: shortDate(offer.expires) })] : null),
        h("p", { class: "offer-about" }, say("offer_about", { days: days(offer.days) })),
        problemLine(problem, load, { id: "offer-problem" }),
        state());
    }
    redraw(main, [h("div", { class: "games-page" }, heading, body,
      h("p", {}, h("a", { href: "#/games", id: "offer-games" }, say("all"))))]);
  }

  main.replaceChildren(h("p", {}, "…"));
  load();
  return {
    render: () => gameWords().then(render),
    close() {
      closed = true;
    },
  };
}
