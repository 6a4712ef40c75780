// A table: waiting for players (share the link, start), then the match, seen from one seat.
// Every server message re-renders the screen from the latest table and view.

import { api, forgetSeatToken, keepSeatToken, seatToken } from "./api.js";
import { breakdownDialog } from "./breakdown.js";
import { cardBacks, cardButton, cardImage } from "./cardview.js";
import { h } from "./dom.js";
import { cardName, rankName, t } from "./i18n.js";
import { movesOfCard, parseMove } from "./moves.js";
import { chosenLook, keepPlayerName, playerName } from "./prefs.js";
import { openTableSocket } from "./tablesocket.js";

// The `ref` of hint requests, so an error about one is told from an error about a move.
const HINT_REF = "hint";

export function showTable(main, code) {
  const s = {
    token: seatToken(code), seat: null, table: null, view: null, match: null, version: null,
    pending: null, seenRounds: null, roundShown: null, problem: "", shown: new Set(),
    leaving: [], leavingTimer: null, linkDown: false, sweepCalled: null, focusBack: null,
    hint: null, hintAsked: null,
  };
  const calm = matchMedia("(prefers-reduced-motion: reduce)");
  const socket = openTableSocket(code,
    () => ({ token: s.token, match: s.match, version: s.version }), receive, (up) => {
      s.linkDown = !up;
      render();
    });

  function receive(message) {
    if (message.type === "welcome") s.seat = message.seat;
    else if (message.type === "table") s.table = message.table;
    else if (message.type === "state") takeState(message);
    else if (message.type === "hint") takeHint(message);
    else if (message.type === "error") {
      if (message.ref === HINT_REF) s.hintAsked = null;
      if (message.code === "bad_token") {
        // The seat is no longer ours (left, or another browser's token): watch instead.
        forgetSeatToken(code);
        s.token = null;
        s.seat = null;
        socket.reconnect();
      } else if (message.code === "no_table") {
        s.problem = t("table.no_table");
      } else {
        s.problem = message.message;
      }
    }
    render();
  }

  function takeState(message) {
    const rounds = message.view.round_scores.length;
    if (message.match !== s.match) {
      // A new match, or the first state after a reload: older rounds are not shown again, but
      // a finished match shows its last round and the winner.
      s.seenRounds = message.view.winner !== null ? rounds - 1 : rounds;
      s.roundShown = null;
      s.pending = null;
    }
    if (rounds > s.seenRounds) {
      s.roundShown = rounds - 1;
      s.seenRounds = rounds;
    }
    // A sweep just made is called out once, as people at a real table would.
    s.sweepCalled = message.play?.sweep ? message.version : null;
    // Cards just taken stay a moment to be seen leaving (unless motion is unwanted).
    const taken = message.play ? parseMove(message.play.move) : null;
    if (taken?.captures.length && message.version === s.version + 1 && !calm.matches) {
      s.leaving = [taken.card, ...taken.captures];
      clearTimeout(s.leavingTimer);
      s.leavingTimer = setTimeout(() => {
        s.leaving = [];
        render();
      }, 600);
    }
    s.match = message.match;
    s.version = message.version;
    s.view = message.view;
    s.problem = "";
    if (!s.view.legal_moves.length) s.pending = null;
  }

  // A hint is for the version it was worked out at: one that arrives after a move is dropped.
  function takeHint(message) {
    s.hintAsked = null;
    if (message.match === s.match && message.version === s.version) s.hint = message;
  }

  function askHint() {
    if (s.hintAsked === s.version) return;
    s.hintAsked = s.version;
    socket.send({ type: "hint", ref: HINT_REF });
    render();
  }

  // The move the hint suggests, while it is still for the position on screen.
  function hinted() {
    const hint = s.hint;
    return hint && hint.match === s.match && hint.version === s.version
      ? parseMove(hint.move) : null;
  }

  // A suggested card is ringed and tagged with a word, and says so to screen readers: never
  // colour alone.
  function markHinted(element) {
    element.classList.add("hinted");
    element.setAttribute("aria-label", `${element.getAttribute("aria-label")}, ${
      t("hint.suggested")}`);
    element.append(h("span", { class: "hint-mark", "aria-hidden": "true" }, t("hint.badge")));
    return element;
  }

  function hintText(move) {
    const card = cardName(move.card, look());
    const what = move.captures.length
      ? t("hint.take", { card, cards: move.captures.map((c) => cardName(c, look())).join(", ") })
      : t("hint.trail", { card });
    const { key, params, text } = s.hint.reason;
    const words = { ...params };
    if (params.card) words.card = cardName(params.card, look());
    if (params.rank) words.rank = rankName(params.rank, look());
    return `${what} ${t(`hint.reason.${key}`, words, text)}`;
  }

  function hintRow() {
    const v = s.view;
    const myTurn = v.to_move === s.seat && v.legal_moves.length > 0;
    const asking = myTurn && s.hintAsked === s.version;
    const move = hinted();
    return h("div", { class: "hint-row" },
      h("button", { type: "button", id: "hint", "aria-label": t("hint.label"),
        disabled: !myTurn, "aria-disabled": asking ? "true" : null, onclick: askHint },
      t("hint.button")),
      h("p", { class: "hint-text", id: "hint-text", role: "status" },
        asking ? t("hint.thinking") : move ? hintText(move) : null));
  }

  const look = () => chosenLook() ?? s.table?.look ?? "french";
  const seatOf = (seat) => s.table?.seats[seat];
  const seatName = (seat) => (seat === s.seat ? t("table.you")
    : seatOf(seat)?.name ?? t("table.seat", { number: seat + 1 }));
  const sideName = (side) => s.table.seats.filter((seat) => seat.side === side)
    .map((seat) => seatName(seat.seat)).join(" & ");

  function play(move) {
    s.pending = null;
    socket.send({ type: "move", move, version: s.version });
    render();
  }

  function chooseCard(card) {
    const moves = movesOfCard(s.view.legal_moves, card);
    if (moves.length === 1) play(moves[0].code);
    else if (moves.length > 1) {
      s.pending = card;
      render();
      document.querySelector(".options button")?.focus();
    }
  }

  async function seatAction(path, body) {
    try {
      const answer = await api(`/tables/${code}/${path}`, body);
      return answer;
    } catch (error) {
      s.problem = error.message;
      render();
      return null;
    }
  }

  async function join(event) {
    event.preventDefault();
    const name = document.getElementById("join-name").value.trim() || t("lobby.guest");
    keepPlayerName(name);
    const grant = await seatAction("join", { name });
    if (grant) {
      keepSeatToken(code, grant.token);
      s.token = grant.token;
      socket.reconnect();
    }
  }

  async function leave() {
    if (await seatAction("leave", { token: s.token })) {
      forgetSeatToken(code);
      location.hash = "#/";
    }
  }

  function onKey(event) {
    // Left and right move along a row of cards, as in a hand held in front of you.
    const row = event.target.closest?.(".hand");
    if (row && (event.key === "ArrowLeft" || event.key === "ArrowRight")) {
      const cards = [...row.querySelectorAll("button.card")];
      const next = cards.indexOf(event.target) + (event.key === "ArrowLeft" ? -1 : 1);
      cards[(next + cards.length) % cards.length]?.focus();
      event.preventDefault();
      return;
    }
    if (!s.pending) return;
    if (event.key === "Escape") {
      const card = s.pending;
      s.pending = null;
      render();
      document.querySelector(`.hand [data-card="${card}"]`)?.focus();
    } else if (/^[1-9]$/.test(event.key)) {
      const move = movesOfCard(s.view.legal_moves, s.pending)[Number(event.key) - 1];
      if (move) play(move.code);
    }
  }
  document.addEventListener("keydown", onKey);

  function waitingRoom() {
    const table = s.table;
    const link = `${location.origin}${location.pathname}#/t/${code}`;
    const full = table.seats.every((seat) => !seat.open);
    return h("section", { class: "panel waiting", id: "waiting" },
      h("h2", {}, t("table.waiting", { code })),
      field("table.share", h("input", { id: "share-link", readonly: true, value: link })),
      h("p", {}, t("table.code", { code })),
      h("ul", { class: "seats" }, table.seats.map((seat) => h("li", {},
        `${seat.seat + 1}. `, seat.open ? t("table.free_seat") : seatName(seat.seat),
        seat.kind === "bot" ? ` (${t(`level.${seat.level}`)})` : ""))),
      s.seat === null && !full ? joinForm() : null,
      s.seat !== null ? h("div", { class: "actions" },
        h("button", { type: "button", class: "primary", id: "start", disabled: !full,
          onclick: () => seatAction("start", { token: s.token }) }, t("table.start")),
        h("button", { type: "button", onclick: leave }, t("table.leave"))) : null);
  }

  function field(key, control) {
    return h("label", { class: "field" }, h("span", {}, t(key)), control);
  }

  function joinForm() {
    return h("form", { class: "join", onsubmit: join },
      field("lobby.name", h("input", { id: "join-name", value: playerName(), maxlength: "32" })),
      h("button", { type: "submit", class: "primary", id: "take-seat" }, t("table.take_seat")));
  }

  function scoreboard() {
    const v = s.view;
    return h("div", { class: "scoreboard" }, v.scores.map((score, side) =>
      h("div", { class: `side${s.table.seats[s.seat ?? -1]?.side === side ? " mine" : ""}`,
        "data-side": side },
      h("strong", {}, sideName(side)),
      h("span", { class: "score" }, t("table.score", { score, target: v.rules.target })),
      h("span", { class: "pile", "aria-label": t("table.pile", { count: v.piles[side].length }) },
        `▤ ${v.piles[side].length}`),
      v.sweeps[side] ? h("span", { class: "sweeps",
        "aria-label": t("table.sweeps", { count: v.sweeps[side] }) },
      `★ ${v.sweeps[side]}`) : null)));
  }

  function turnText() {
    const v = s.view;
    if (v.winner !== null) return t("table.over");
    if (v.to_move === s.seat) return t("table.your_turn");
    return t("table.to_play", { name: seatName(v.to_move) });
  }

  function lastMoveText() {
    const last = s.view.last_move;
    if (!last) return t("table.first_move", { name: seatName(s.view.to_move ?? 0) });
    const move = parseMove(last.move);
    const name = seatName(last.seat);
    const card = cardName(move.card, look());
    const text = move.captures.length
      ? t("table.took", { name, card, cards: move.captures.map((c) => cardName(c, look()))
        .join(", ") })
      : t("table.trailed", { name, card });
    return last.sweep ? `${text} ${t("table.sweep")}` : text;
  }

  function opponents() {
    const v = s.view;
    return h("div", { class: "opponents" }, s.table.seats.filter((seat) => seat.seat !== s.seat)
      .map((seat) => h("div", { class: `opponent${v.to_move === seat.seat ? " to-move" : ""}`,
        "data-seat": seat.seat },
      h("span", { class: "name" }, v.to_move === seat.seat ? "▶ " : "", seatName(seat.seat)),
      cardBacks(v.hand_sizes[seat.seat]))));
  }

  function tableCards(fresh) {
    const options = s.pending ? movesOfCard(s.view.legal_moves, s.pending) : [];
    const candidates = new Set(options.flatMap((move) => move.captures));
    const suggested = new Set(hinted()?.captures);
    return h("div", { class: "table-cards", role: "group", "aria-label": t("table.table") },
      s.view.table.map((card) => {
        const image = cardImage(card, look());
        if (fresh.has(card)) image.classList.add("arrived");
        if (candidates.has(card)) {
          image.classList.add("candidate");
          image.setAttribute("aria-label", `${image.getAttribute("aria-label")}, ${
            t("table.candidate")}`);
        }
        return suggested.has(card) ? markHinted(image) : image;
      }),
      s.leaving.map((card) => {
        const image = cardImage(card, look());
        image.classList.add("leaving");
        image.removeAttribute("data-card");
        image.setAttribute("aria-hidden", "true");
        return image;
      }),
      s.view.table.length || s.leaving.length ? null
        : h("p", { class: "empty" }, t("table.empty")));
  }

  function captureChoice() {
    const options = movesOfCard(s.view.legal_moves, s.pending);
    // One option is shown at a time: the one last pointed at or focused.
    const mark = (captures, on) => {
      for (const card of document.querySelectorAll(".table-cards .card")) {
        card.classList.toggle("chosen", on && captures.includes(card.dataset.card));
      }
    };
    return h("div", { class: "options", role: "group", "aria-label": t("table.choose") },
      h("p", {}, t("table.choose_with", { card: cardName(s.pending, look()) })),
      options.map((move, index) => {
        const names = move.captures.map((c) => cardName(c, look())).join(", ");
        return h("button", { type: "button", class: "option", "data-move": move.code,
          onclick: () => play(move.code),
          onmouseenter: () => mark(move.captures, true), onmouseleave: () => mark(move.captures, false),
          onfocus: () => mark(move.captures, true), onblur: () => mark(move.captures, false) },
        `${index + 1}. ${t("table.take", { cards: names })}`);
      }),
      h("button", { type: "button", onclick: () => { s.pending = null; render(); } },
        t("table.cancel")));
  }

  function hand(fresh) {
    const v = s.view;
    const myTurn = v.to_move === s.seat && v.legal_moves.length > 0;
    const suggested = hinted()?.card;
    return h("div", { class: "hand", role: "group", "aria-label": t("table.hand") },
      v.hand.map((card) => {
        const playable = myTurn && movesOfCard(v.legal_moves, card).length > 0;
        const button = cardButton(card, look(), {
          class: `card${playable ? " playable" : ""}${s.pending === card ? " picked" : ""}${
            fresh.has(card) ? " arrived" : ""}`,
          "aria-disabled": playable ? null : "true",
          "aria-pressed": s.pending === card ? "true" : null,
          onclick: () => playable && chooseCard(card),
        });
        return card === suggested ? markHinted(button) : button;
      }));
  }

  function board() {
    const v = s.view;
    // Cards not on screen before this render move in; the others stay still.
    const fresh = new Set([...v.table, ...v.hand].filter((card) => !s.shown.has(card)));
    s.shown = new Set([...v.table, ...v.hand]);
    return h("section", { class: "board", id: "board", "data-version": s.version,
      "data-match": s.match },
    scoreboard(),
    h("p", { class: `turn${v.to_move === s.seat ? " mine" : ""}`, id: "turn",
      "aria-live": "polite" }, turnText()),
    opponents(),
    tableCards(fresh),
    s.pending ? captureChoice() : null,
    h("p", { class: "last-move", id: "last-move", "aria-live": "polite" }, lastMoveText()),
    s.sweepCalled === s.version ? h("p", { class: "sweep-call", role: "status" },
      `★ ${t("table.sweep")} ★`) : null,
    s.seat !== null ? hand(fresh) : h("p", {}, t("table.watching")),
    s.seat !== null && v.winner === null ? hintRow() : null,
    h("p", { class: "stock" }, t("table.stock", { count: v.stock_size, round: v.round_number + 1 })),
    s.seat === null && s.table.seats.some((seat) => seat.open) ? joinForm() : null);
  }

  function winnerText() {
    const v = s.view;
    if (v.winner === null) return null;
    const mySide = s.table.seats[s.seat ?? -1]?.side;
    return v.winner === mySide ? t("breakdown.you_win") : t("breakdown.wins",
      { name: sideName(v.winner) });
  }

  function dialog() {
    const v = s.view;
    const over = v.winner !== null && s.roundShown === v.round_scores.length - 1;
    const close = () => {
      s.roundShown = null;
      render();
    };
    const actions = over ? [
      s.seat !== null ? h("button", { type: "button", class: "primary", id: "rematch",
        onclick: () => seatAction("rematch", { token: s.token }) }, t("breakdown.rematch"))
        : null,
      h("a", { href: "#/", class: "button", id: "breakdown-lobby" }, t("nav.lobby")),
      h("button", { type: "button", id: "breakdown-close", onclick: close },
        t("breakdown.close"))]
      : [h("button", { type: "button", class: "primary", id: "continue", onclick: close },
        t("breakdown.continue"))];
    return breakdownDialog({
      round: v.round_scores[s.roundShown], roundNumber: s.roundShown + 1,
      scores: v.round_scores.slice(0, s.roundShown + 1)
        .reduce((sum, round) => sum.map((total, side) => total + round[side].total),
          v.scores.map(() => 0)),
      sideNames: v.scores.map((_, side) => sideName(side)),
      winner: over ? winnerText() : null, actions, onClose: close,
    });
  }

  // Where the keyboard goes when a dialog closes: back where it was before the dialog opened,
  // or, when that card has been played meanwhile, to the hand.
  function focusAfterDialog() {
    const back = s.focusBack ? main.querySelector(`[data-card="${s.focusBack}"]`) ??
      document.getElementById(s.focusBack) : null;
    back?.focus();
    if (!back || document.activeElement !== back) main.querySelector(".hand button.card")?.focus();
  }

  function render() {
    const focused = document.activeElement;
    const focusKey = focused?.dataset?.card ?? focused?.dataset?.move ?? focused?.id;
    const dialogWas = main.querySelector("dialog") !== null;
    const dialogNow = Boolean(s.view && s.roundShown !== null &&
      s.view.round_scores[s.roundShown]);
    if (dialogNow && !dialogWas) s.focusBack = focusKey;
    let content;
    if (!s.table) content = h("p", {}, s.problem || t("table.connecting"));
    else if (s.table.status === "waiting" || !s.view) content = waitingRoom();
    else content = board();
    main.replaceChildren(...[
      s.linkDown ? h("p", { class: "problem", role: "alert" }, t("table.reconnecting")) : null,
      s.problem && s.table ? h("p", { class: "problem", role: "alert" }, s.problem) : null,
      content,
      dialogNow ? dialog() : null,
    ].filter(Boolean));
    const modal = main.querySelector("dialog");
    modal?.showModal();
    if (dialogWas && !dialogNow) {
      focusAfterDialog();
      return;
    }
    // Re-rendering replaces the elements: keep the keyboard where it was.
    if (focusKey) {
      const again = main.querySelector(`[data-card="${focusKey}"], [data-move="${focusKey}"]`) ??
        document.getElementById(focusKey);
      again?.focus();
    }
    if (modal && !modal.contains(document.activeElement)) {
      modal.querySelector(".primary, button")?.focus();
    }
  }

  render();
  return {
    render,
    close() {
      clearTimeout(s.leavingTimer);
      document.removeEventListener("keydown", onKey);
      socket.close();
    },
  };
}
