// A table: waiting for players (share the link, start), then the match, seen from one seat.
// Every server message re-renders the screen from the latest table and view.

import { whoAmI } from "./account.js";
import { api, forgetSeatToken, keepMatchToken, keepSeatToken, seatToken } from "./api.js";
import { breakdownDialog } from "./breakdown.js";
import { askToNotify, callBack, mayAskToNotify } from "./callback.js";
import { backSvg } from "./cards.js";
import { cardBacks, cardButton, cardImage } from "./cardview.js";
import { h } from "./dom.js";
import { cardName, rankName, t } from "./i18n.js";
import { animate, motionWanted, notePlaces } from "./motion.js";
import { movesOfCard, parseMove } from "./moves.js";
import { modalDialog } from "./modal.js";
import { chosenBack, chosenLook, keepPlayerName, playerName } from "./prefs.js";
import { pile, pileKeepers, placeOf, sweepCards } from "./seats.js";
import { cue, soundButton } from "./sound.js";
import { openSocket } from "./socket.js";

// The `ref` of hint requests, so an error about one is told from an error about a move.
const HINT_REF = "hint";
// The `ref` of continue messages: one refused because the table stopped waiting (its 15 s ran
// out, or the round was long over after a reload) needs no word to the person.
const CONTINUE_REF = "continue";
// The `ref` of a resignation, so an error about it is not taken for one about a move.
const RESIGN_REF = "resign";
// The `ref` of chat messages, so a refusal is said in the chat's panel.
const CHAT_REF = "chat";
// The chat's panel (js/chat.js, with chat.css), loaded when first opened, off the first load.
let chatLoading = null;
let chatModule = null;

export function showTable(main, code) {
  const s = {
    token: seatToken(code), seat: null, table: null, view: null, match: null, version: null,
    pending: null, seenRounds: null, roundShown: null, problem: "", linkDown: false,
    sweepCalled: null, focusBack: null, hint: null, hintAsked: null, why: null, sweptUp: null,
    motion: null, menuOpen: false, leaving: false, resigning: false, clockEnds: null,
    lastByStandIn: false, dialogWaits: false, account: null, hints: false,
  };
  // The hello says the seat's token and the last version seen, each time the socket is open,
  // so a connection that comes back is sent the plays it missed.
  const socket = openSocket(`/ws/tables/${code}`, {
    first: () => ({ type: "hello", token: s.token, match: s.match, version: s.version,
      continues: true }),
    onMessage: receive,
    onLink: (up, why) => {
      if (why === "closed") return;  // said by the error that came before the close
      s.linkDown = up ? false : why;
      // A hint asked on a connection that dropped will never be answered: ask again freely.
      s.hintAsked = null;
      render();
    },
  });
  // What is said at the table, kept and counted on the bar's button while the chat is shut
  // (a muted sender's too until the panel's module is here); free text for a logged-in player.
  const chat = { open: false, said: [], unread: 0, reported: new Set(), problem: null,
    draft: "" };
  whoAmI().then((account) => {
    s.account = account;
    render();
  });

  function receive(message) {
    if (message.type === "welcome") {
      s.seat = message.seat;
      // No hint button where the server says it gives none: a rated table, a tournament's
      // game, the daily deal (a result that counts must be the person's own play). A welcome
      // that does not say (an older server's) keeps the button; the server refuses anyway.
      s.hints = message.hints !== false;
    }
    else if (message.type === "said") keepSaid(message);
    else if (message.type === "chat") keepChat(message);
    else if (message.type === "reported") chat.reported.add(message.id);
    else if (message.type === "error" && message.ref === CHAT_REF) chat.problem = message;
    else if (message.type === "table") s.table = message.table;
    else if (message.type === "state") takeState(message);
    else if (message.type === "hint") takeHint(message);
    else if (message.type === "error" && message.ref === CONTINUE_REF) return;
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

  function keepSaid(message) {
    if (chat.said.some((kept) => kept.id === message.id)) return;  // came with `chat` too
    chat.said = [...chat.said, message].slice(-50);  // the 50 the table can have reported
    if (!chat.open && !chatModule?.isMuted(code, message)) chat.unread += 1;
  }

  // What was said before this socket came (after a reload, or the table's coming back from
  // the database): kept with what this page already has, once each, and not counted as unread.
  function keepChat(message) {
    const earlier = new Set(message.said.map((kept) => kept.id));
    chat.said = [...message.said, ...chat.said.filter((kept) => !earlier.has(kept.id))]
      .sort((a, b) => a.id - b.id).slice(-50);
  }

  function toggleChat(open = !chat.open) {
    chat.open = open;
    if (open) chat.unread = 0;
    if (open && !chatLoading) {
      document.head.append(h("link", { rel: "stylesheet",
        href: new URL("../chat.css", import.meta.url).href }));
      // Named without "./": a module loaded on demand is not one the page preloads.
      chatLoading = import(new URL("chat.js", import.meta.url).href);
    }
    render();
    if (!open) document.getElementById("chat-button")?.focus();
    else chatLoading.then((module) => {
      chatModule = module;
      render();
      document.getElementById("chat-close")?.focus();
    });
  }

  function chatButton() {
    return h("button", { type: "button", class: "chat-button", id: "chat-button",
      "aria-expanded": chat.open ? "true" : "false", "aria-controls": "chat-panel",
      "aria-label": chat.unread ? t("chat.button_unread", { count: chat.unread })
        : t("chat.button"), title: t("chat.button"), onclick: () => toggleChat() },
    h("span", { class: "bubble", "aria-hidden": "true" }),
    chat.unread ? h("span", { class: "unread", "aria-hidden": "true" }, String(chat.unread))
      : null);
  }

  function chatPanel() {
    const module = chat.open ? chatModule : null;
    return module ? module.chatPanel(chat, { code, send: (message) => socket.send(message),
      changed: render, toggle: toggleChat, nameOf: seatName, mySeat: s.seat,
      canWrite: Boolean(s.account) }) : null;
  }

  const fitChat = () => chatModule?.fitPanel(main);

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
    const next = message.match === s.match && message.version === s.version + 1;
    const played = next && message.play ? parseMove(message.play.move) : null;
    // A round's end is a new round of the same match: a new match (a rematch) starts again at
    // round 0 with no round scored, and taking it for one read the old match's last round
    // from an empty list and threw, so the screen stayed on the old match (issue 35, item 1).
    const newRound = s.view && message.match === s.match &&
      message.view.round_number !== s.view.round_number;
    const over = message.view.winner !== null && s.view?.winner === null;
    s.sweptUp = played && (newRound || over) ? leftovers(played, message.play.seat) : null;
    const sideOf = (seat) => s.table?.seats[seat]?.side ?? seat;
    s.motion = played ? {
      play: { seat: message.play.seat, card: played.card, taken: played.captures,
        side: sideOf(message.play.seat) },
      sweptUp: s.sweptUp?.cards ?? [], sweptSide: s.sweptUp ? sideOf(s.sweptUp.seat) : null,
      dealt: message.view.hand.filter((card) => !s.view?.hand.includes(card)),
      // The others' hands dealt again: their new backs come from the deck too.
      dealtTo: message.view.hand_sizes.flatMap((size, seat) =>
        (seat !== s.seat && size > (s.view?.hand_sizes[seat] ?? size) ? [seat] : [])),
    } : null;
    hear(message, played, newRound, over);
    // The clock of the person to move, when one runs: an away seat counts down to its
    // stand-in from it (finding 8).
    s.lastByStandIn = Boolean(message.stand_in_played);
    s.clockEnds = message.clock == null ? null : performance.now() + message.clock * 1000;
    if (s.token && message.match !== s.match && message.match !== null) {
      keepMatchToken(message.match, s.token);
    }
    s.match = message.match;
    s.version = message.version;
    s.view = message.view;
    s.problem = "";
    if (!s.view.legal_moves.length) s.pending = null;
    if (s.view.winner !== null) s.resigning = false;
  }

  // The sound of what a new state shows: the match's end, a round won or lost, a sweep, a
  // capture, a card put down or a deal; and a call when it becomes your turn.
  function hear(message, played, newRound, over) {
    const v = message.view;
    const mySide = s.table?.seats[s.seat ?? -1]?.side;
    let name = null;
    if (over) name = "match";
    else if (newRound && mySide !== undefined) {
      const last = v.round_scores[v.round_scores.length - 1];
      const best = Math.max(...last.map((side) => side.total));
      name = last[mySide].total === best ? "won" : "lost";
    } else if (played) name = message.play.sweep ? "sweep" : played.captures.length ? "capture"
      : "played";
    else if (!s.view || s.view.hand.length < v.hand.length) name = "deal";
    if (name) cue(name);
    if (s.seat === null) return;
    // A round's end waits a while for its people to continue: a hidden tab is called back for
    // that first, even when the next deal is its turn (its cue, won or lost, is heard already).
    if (newRound && !over && callBack(t("callback.round_over"), { sound: null, tag: "round" })) {
      return;
    }
    const myTurn = (view) => view && view.to_move === s.seat && view.winner === null;
    // A hidden tab is called back instead (its title, the same cue, a notification if allowed).
    if (myTurn(v) && !myTurn(s.view) && !callBack(t("callback.your_turn"), { tag: "turn" })) {
      cue("turn", name ? 0.45 : 0);
    }
  }

  // At a round's end the last to capture takes what is left on the table: the cards on the
  // table after the round's last move, and who takes them.
  function leftovers(played, seat) {
    const table = played.captures.length
      ? s.view.table.filter((card) => !played.captures.includes(card))
      : [...s.view.table, played.card];
    const plays = [...s.view.plays, { seat, move: played.code }];
    const taker = plays.filter((play) => play.move.includes("x")).pop()?.seat;
    return table.length && taker !== undefined
      ? { cards: table, seat: taker, version: s.version + 1 } : null;
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

  function hintWords(move) {
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

  // A stand-in plays for this seat (its turn timed out): any message brings the person back,
  // and this one asks for nothing else (a sync of what is on screen). Said at the person's
  // own seat on the felt, where the eye is, not under the hand.
  function backRow() {
    return h("div", { class: "come-back", role: "status" },
      h("p", {}, t("table.you_stand_in")),
      h("button", { type: "button", id: "come-back", class: "primary",
        onclick: () => socket.send({ type: "sync", match: s.match, version: s.version }) },
      t("table.back")));
  }

  function hintButton() {
    const v = s.view;
    const myTurn = v.to_move === s.seat && v.legal_moves.length > 0 && !s.linkDown;
    return h("button", { type: "button", id: "hint", "aria-label": t("hint.label"),
      disabled: !myTurn, "aria-disabled": myTurn && s.hintAsked === s.version ? "true" : null,
      "aria-describedby": "hint-text", onclick: askHint }, t("hint.button"));
  }

  function hintText() {
    const v = s.view;
    const asking = v.to_move === s.seat && !s.linkDown && s.hintAsked === s.version;
    const move = hinted();
    return h("p", { class: "hint-text", id: "hint-text", role: "status" },
      asking ? t("hint.thinking") : move ? hintWords(move) : null);
  }

  const look = () => chosenLook() ?? s.table?.look ?? "french";
  const seatOf = (seat) => s.table?.seats[seat];
  const seatName = (seat) => (seat === s.seat ? t("table.you") : botName(seatOf(seat)) ??
    seatOf(seat)?.name ?? t("table.seat", { number: seat + 1 }));
  // The room names its bots "Bot 2" and so on, in English: said in the page's language.
  const botName = (seat) => {
    const number = seat?.kind === "bot" ? /^Bot (\d+)$/.exec(seat.name ?? "")?.[1] : null;
    return number ? t("table.bot_name", { number }) : null;
  };
  const sideName = (side) => s.table.seats.filter((seat) => seat.side === side)
    .map((seat) => seatName(seat.seat)).join(" & ");
  const away = (seat) => seatOf(seat)?.kind === "human" && !seatOf(seat)?.open &&
    (!seatOf(seat)?.connected || Boolean(seatOf(seat)?.stand_in));
  const back = () => chosenBack();

  function play(move) {
    s.pending = null;
    s.why = null;
    if (!socket.send({ type: "move", move, version: s.version })) {
      // Not silently dropped: the person is told, and the card stays in the hand.
      s.problem = t("table.not_sent", { card: cardName(parseMove(move).card, look()) });
    }
    render();
  }

  // Why a card in the hand may not be played now, in the page's language.
  function whyNot(card) {
    const v = s.view;
    if (v.winner !== null) return t("table.why_over");
    if (v.to_move !== s.seat) return t("table.why_wait", { name: seatName(v.to_move) });
    const capture = v.legal_moves.map(parseMove).find((move) => move.captures.length);
    if (capture) {
      return t("table.why_capture", { card: cardName(capture.card, look()),
        cards: capture.captures.map((c) => cardName(c, look())).join(" + ") });
    }
    return cardName(card, look());
  }

  function explain(card) {
    s.why = { card, text: whyNot(card), version: s.version };
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

  // On the table the page's header folds into the bar's menu button (finding 7: on a phone
  // it took 200 px): opened, the header shows above the table, with the table's own choices.
  function toggleMenu(open = !s.menuOpen) {
    s.menuOpen = open;
    s.leaving = false;
    document.body.classList.toggle("menu-open", open);
    render();
    if (open) document.querySelector("#table-menu button")?.focus();
  }

  // Resigning ends the match for everyone and cannot be taken back: it is asked in a dialog
  // of its own, whose first button keeps playing.
  function askResign() {
    s.menuOpen = false;
    document.body.classList.remove("menu-open");
    s.resigning = true;
    s.focusBack = "menu-button";
    render();
    document.getElementById("resign-cancel")?.focus();
  }

  function resign() {
    s.resigning = false;
    if (!socket.send({ type: "resign", ref: RESIGN_REF })) s.problem = t("table.resign_not_sent");
    render();
  }

  function resignDialog() {
    const keepPlaying = () => {
      s.resigning = false;
      render();
    };
    return modalDialog({ class: "dialog", id: "resign-dialog", "aria-labelledby": "resign-title",
      "aria-describedby": "resign-question", onClose: keepPlaying },
    h("h2", { id: "resign-title" }, t("table.resign_title")),
    h("p", { id: "resign-question" }, t("table.resign_question")),
    h("div", { class: "actions" },
      h("button", { type: "button", class: "primary", id: "resign-cancel", onclick: keepPlaying },
        t("table.resign_cancel")),
      h("button", { type: "button", class: "danger", id: "resign-confirm", onclick: resign },
        t("table.resign_confirm"))));
  }

  // Leaving during a match is asked twice: the computer plays the seat to the match's end.
  function tableMenu() {
    const playing = s.view.winner === null && s.seat !== null;
    return h("div", { class: "table-menu", id: "table-menu", role: "group",
      "aria-label": t("table.menu") },
    s.leaving ? [
      h("p", { id: "leave-question" }, t("table.leave_question")),
      h("button", { type: "button", class: "danger", id: "leave-confirm", onclick: leave },
        t("table.leave_confirm")),
      h("button", { type: "button", id: "leave-cancel", onclick: () => toggleMenu(true) },
        t("table.stay")),
    ] : [
      playing ? h("button", { type: "button", id: "leave", onclick: () => {
        s.leaving = true;
        render();
        document.getElementById("leave-confirm")?.focus();
      } }, t("table.leave")) : null,
      playing ? h("button", { type: "button", id: "resign", onclick: askResign },
        t("table.resign")) : null,
      // Asked on this click only, never on load; gone once the person chose.
      s.seat !== null && mayAskToNotify() ? h("button", { type: "button", id: "ask-notify",
        onclick: async () => {
          await askToNotify();
          render();
        } }, t("callback.notify")) : null,
      h("a", { href: "#/rules", class: "button" }, t("footer.rules")),
      h("a", { href: "#/", class: "button" }, t("nav.lobby")),
      h("button", { type: "button", id: "menu-close", onclick: () => toggleMenu(false) },
        t("table.menu_close")),
    ]);
  }

  // How long until the computer plays for the away seat to move, ticking each second.
  function standInClock() {
    return s.clockEnds === null ? null : h("span", { class: "stand-in-clock", role: "timer" },
      clockWords());
  }

  function clockWords() {
    const seconds = Math.max(0, Math.ceil((s.clockEnds - performance.now()) / 1000));
    return t("table.stand_in_in", { count: seconds });
  }

  const ticker = setInterval(() => {
    for (const clock of main.querySelectorAll(".stand-in-clock")) {
      clock.textContent = clockWords();
    }
  }, 1000);

  function onKey(event) {
    if (event.key === "Escape" && chat.open && !s.menuOpen && !main.querySelector("dialog")) {
      toggleChat(false);
      return;
    }
    if (event.key === "Escape" && s.menuOpen && !main.querySelector("dialog")) {
      toggleMenu(false);
      document.getElementById("menu-button")?.focus();
      return;
    }
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
    const rules = table.rules;
    return h("section", { class: "panel waiting", id: "waiting" },
      h("h2", {}, t("table.waiting", { code })),
      // What table it is, before anyone takes a seat at it (finding 8: an invitee saw none).
      h("p", { class: "table-summary", id: "table-summary" }, [
        t(`preset.${rules.name}`, {}, rules.name),
        t("table.summary_target", { count: rules.target }),
        `${t("lobby.look")}: ${t(`look.${table.look}`)}`,
      ].join(" · ")),
      h("div", { class: "share" },
        field("table.share", h("input", { id: "share-link", readonly: true, value: link })),
        h("button", { type: "button", id: "copy-link", onclick: copyLink }, t("table.copy"))),
      h("p", {}, t("table.code", { code })),
      // Numbered by the list itself: a number in the text read "• 1. Marco" (finding 8).
      h("ol", { class: "seats" }, table.seats.map((seat) => h("li", {},
        seat.open ? t("table.free_seat") : seatName(seat.seat),
        seat.kind === "bot" ? ` (${t(`level.${seat.level}`)})` : ""))),
      s.seat === null && !full ? joinForm() : null,
      s.seat !== null ? h("div", { class: "actions" },
        h("button", { type: "button", class: "primary", id: "start", disabled: !full,
          onclick: () => seatAction("start", { token: s.token }) }, t("table.start")),
        h("button", { type: "button", onclick: leave }, t("table.leave"))) : null);
  }

  // The link on the clipboard, said on the button; where the browser refuses (no permission,
  // not a secure page), the link is selected for the person to copy themselves.
  async function copyLink(event) {
    const button = event.currentTarget;
    const input = document.getElementById("share-link");
    try {
      await navigator.clipboard.writeText(input.value);
      button.textContent = t("table.copied");
    } catch {
      input.select();
      button.textContent = t("table.copy_select");
    }
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
      // "6 of 3 points" read wrong once a side passed the target (finding 5).
      h("span", { class: "score" }, score >= v.rules.target
        ? t("table.score_over", { count: score }) : t("table.score", {
          score: t("table.points_scored", { count: score }),
          target: t("table.points_target", { count: v.rules.target }) })),
      v.sweeps[side] ? h("span", { class: "sweeps",
        "aria-label": t("table.sweeps", { count: v.sweeps[side] }) },
      `★ ${v.sweeps[side]}`) : null)));
  }

  function turnText() {
    const v = s.view;
    if (v.winner !== null) return resignedText() ?? t("table.over");
    if (v.to_move === s.seat) return t("table.your_turn");
    if (away(v.to_move)) {
      return seatOf(v.to_move)?.stand_in ? t("table.to_play_stand_in", { name: seatName(v.to_move) })
        : t("table.to_play_away", { name: seatName(v.to_move) });
    }
    return t("table.to_play", { name: seatName(v.to_move) });
  }

  function lastMoveText() {
    const last = s.view.last_move;
    if (!last) return t("table.first_move", { name: seatName(s.view.to_move ?? 0) });
    const move = parseMove(last.move);
    // Your seat's move made by your stand-in is not said to be yours (finding 8).
    const name = last.seat === s.seat && s.lastByStandIn ? t("table.your_stand_in")
      : seatName(last.seat);
    const card = cardName(move.card, look());
    const text = move.captures.length
      ? t("table.took", { name, card, cards: move.captures.map((c) => cardName(c, look()))
        .join(", ") })
      : t("table.trailed", { name, card });
    return last.sweep ? `${text} ${t("table.sweep")}` : text;
  }

  // A seat at the felt: who (a name, or the computer and its level), partner or dealer,
  // whether they are here or away (a word and a sign, not colour alone), their hand (backs
  // for the others, your own cards at yours), and their side's pile with its sweeps when
  // they keep it.
  function seatBox(seat, bottom, keepers, sweeps) {
    const v = s.view;
    const me = seat.seat === s.seat;
    const place = placeOf(seat.seat, bottom, s.table.seats.length);
    const mySide = s.table.seats[s.seat ?? -1]?.side;
    const tags = [
      seat.kind === "bot" ? t(`level.${seat.level}`) : null,
      !me && seat.side === mySide ? t("table.partner") : null,
      v.dealer === seat.seat ? t("table.dealer") : null,
    ].filter(Boolean);
    // Your own seat played for says so in its come-back notice instead, with the button.
    const comeBack = me && seat.stand_in && v.winner === null;
    const status = seat.kind !== "human" || comeBack ? null : seat.stand_in ? "stand-in"
      : seat.connected ? "here" : "away";
    const statusText = { here: t("table.here"), away: t("table.away"),
      "stand-in": t("table.stand_in") }[status];
    const toMove = v.to_move === seat.seat && v.winner === null;
    const who = h("div", { class: "who" },
      h("span", { class: "name" }, toMove ? "▶ " : "", seatName(seat.seat)),
      tags.length ? h("span", { class: "tags" }, tags.join(" · ")) : null,
      // Here is a dot (its words for screen readers); away is said in words on the felt.
      status ? h("span", { class: `status ${status}`, "data-status": status },
        status === "here" ? ["● ", h("span", { class: "sr-only" }, statusText)]
          : ["◌ ", statusText]) : null,
      status && status !== "here" && toMove ? standInClock() : null);
    const keeps = keepers.get(seat.side) === seat.seat ? pile(seat.side,
      v.piles[seat.side].length, sweeps[seat.side], look(), sideName(seat.side), back()) : null;
    return h("div", { class: `seat ${me ? "me" : "opponent"} at-${place}${toMove ? " to-move" : ""}${
      status && status !== "here" ? " away" : ""}`, "data-seat": seat.seat,
    "data-side": seat.side, role: "group", "aria-label": seatName(seat.seat) },
    me ? [h("div", { class: "mine-aside" }, who, keeps), aboveHand(comeBack), hand(),
      v.winner === null ? h("div", { class: "tools" }, s.hints ? hintButton() : null) : null]
      : [who, held(cardBacks(v.hand_sizes[seat.seat], back())), keeps]);
  }

  // What comes and goes at your seat (a capture's choice, why a card may not be played, the
  // hint's reason, the come-back notice): laid over the felt just above your hand, so that
  // the hand never moves when one of them appears (issue 22, finding 3).
  function aboveHand(comeBack) {
    const v = s.view;
    return h("div", { class: "above-hand" },
      comeBack ? backRow() : null,
      s.pending ? captureChoice() : null,
      v.winner === null ? whyText() : null,
      v.winner === null && s.hints ? hintText() : null);
  }

  function held(backs) {
    backs.classList.add("held");
    return backs;
  }

  function felt() {
    const v = s.view;
    const bottom = s.seat ?? 0;
    const keepers = pileKeepers(s.table.seats, bottom);
    const sweeps = sweepCards(v, (seat) => s.table.seats[seat].side);
    return h("div", { class: "felt", id: "felt", "data-players": s.table.seats.length },
      s.table.seats.map((seat) => seatBox(seat, bottom, keepers, sweeps)),
      h("div", { class: "centre" },
        h("p", { class: "last-move", id: "last-move", "aria-live": "polite" }, lastMoveText()),
        h("div", { class: "table-area" },
          // An empty deck is not drawn: a lone "0" on the felt read as a score (finding 8).
          h("div", { class: "deck", id: "deck", role: "img",
            "aria-label": t("table.deck", { count: v.stock_size }) },
          v.stock_size ? [h("span", { class: "card back", html: backSvg(back()) }),
            h("span", { class: "count", "aria-hidden": "true" }, String(v.stock_size))] : null),
          tableCards()),
        sweepUpText(),
        waitingNote(),
        v.winner !== null ? overPanel() : null,
        s.seat === null ? h("p", { class: "watching" }, t("table.watching")) : null,
        s.seat === null && s.table.seats.some((seat) => seat.open) ? joinForm() : null),
      s.sweepCalled === s.version ? h("p", { class: "sweep-call", role: "status" },
        t("table.sweep")) : null,
      chatPanel());
  }

  // "End of the round: Bruno takes the cards left on the table (...)", or "you take".
  function sweepUpWords() {
    const up = s.sweptUp;
    if (!up || up.version !== s.version) return null;
    const cards = up.cards.map((c) => cardName(c, look())).join(", ");
    return up.seat === s.seat ? t("table.sweep_up_you", { cards })
      : t("table.sweep_up", { name: seatName(up.seat), cards });
  }

  // Whom the table waits for at a round's end, once you have read it yourself.
  function waitingNote() {
    const waiting = (s.table.continuing ?? []).filter((seat) => seat !== s.seat);
    if (!waiting.length || s.roundShown !== null) return null;
    return h("p", { class: "waiting-note", id: "waiting-note", role: "status" },
      t("table.waiting_continue", { names: waiting.map(seatName).join(", ") }));
  }

  function sweepUpText() {
    const words = sweepUpWords();
    return words ? h("p", { class: "sweep-up", id: "sweep-up", role: "status" }, words) : null;
  }

  function tableCards() {
    const options = s.pending ? movesOfCard(s.view.legal_moves, s.pending) : [];
    const candidates = new Set(options.flatMap((move) => move.captures));
    const suggested = new Set(hinted()?.captures);
    const count = Math.max(1, s.view.table.length);
    // The CSS fits the cards in one, two or three rows of the table's fixed space, whichever
    // shows them largest: the table never grows into the hand (finding 3).
    return h("div", { class: "table-cards", role: "group", "aria-label": t("table.table"),
      style: `--n: ${count}; --n2: ${Math.ceil(count / 2)}; --n3: ${Math.ceil(count / 3)}` },
      s.view.table.map((card) => {
        const image = cardImage(card, look());
        if (candidates.has(card)) {
          image.classList.add("candidate");
          image.setAttribute("aria-label", `${image.getAttribute("aria-label")}, ${
            t("table.candidate")}`);
        }
        return suggested.has(card) ? markHinted(image) : image;
      }),
      s.view.table.length ? null : h("p", { class: "empty" }, t("table.empty")));
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

  function hand() {
    const v = s.view;
    const myTurn = v.to_move === s.seat && v.legal_moves.length > 0;
    const suggested = hinted()?.card;
    return h("div", { class: `hand${myTurn ? " my-turn" : ""}`, role: "group",
      "aria-label": t("table.hand"), style: `--n: ${Math.max(1, v.hand.length)}` },
    v.hand.map((card) => {
      const playable = myTurn && movesOfCard(v.legal_moves, card).length > 0;
      const button = cardButton(card, look(), {
        class: `card${playable ? " playable" : ""}${s.pending === card ? " picked" : ""}`,
        "aria-disabled": playable ? null : "true",
        "aria-pressed": s.pending === card ? "true" : null,
        "aria-describedby": s.why?.card === card ? "why" : null,
        onclick: () => (playable ? chooseCard(card) : explain(card)),
      });
      return card === suggested ? markHinted(button) : button;
    }));
  }

  function whyText() {
    const why = s.why;
    return h("p", { class: "why", id: "why", role: "status" },
      why && why.version === s.version ? why.text : null);
  }

  // The table is the screen: a bar (the menu, the scores, whose turn, the sound) over the
  // felt, which takes the rest of the viewport; your hand sits at your seat on its bottom
  // edge, and everything that comes and goes (a choice, a note) floats above the hand
  // instead of pushing it (issue 22, findings 1 and 3).
  function board() {
    const v = s.view;
    return h("section", { class: "board", id: "board", "data-version": s.version,
      "data-match": s.match },
    topBar(),
    s.menuOpen ? tableMenu() : null,
    felt());
  }

  function topBar() {
    const v = s.view;
    return h("div", { class: "bar" },
      h("button", { type: "button", class: "menu-button", id: "menu-button",
        "aria-expanded": s.menuOpen ? "true" : "false", "aria-controls": "table-menu",
        "aria-label": t("table.menu"), onclick: () => toggleMenu() }, "☰"),
      scoreboard(),
      h("p", { class: `turn${v.to_move === s.seat && v.winner === null ? " mine" : ""}`,
        id: "turn", "aria-live": "polite" }, turnText()),
      h("p", { class: "stock" }, t("table.stock", { count: v.stock_size,
        round: v.round_number + 1 })),
      chatButton(),
      soundButton(() => render()));
  }
  // What stays on the table once the match is over and its dialog closed: the winner, the
  // last round again, a rematch and the way back to the lobby.
  function overPanel() {
    const resigned = resignedText();
    return h("div", { class: "over", id: "over", role: "status" },
      resigned ? h("p", { class: "resigned", id: "resigned" }, resigned) : null,
      h("p", { class: "winner" }, winnerText()),
      h("div", { class: "actions" }, endActions(),
        // A match resigned in its first round has no round to show.
        s.view.round_scores.length ? h("button", { type: "button", id: "show-breakdown",
          onclick: () => {
            s.roundShown = s.view.round_scores.length - 1;
            render();
          } }, t("breakdown.show")) : null));
  }

  function endActions() {
    return [
      s.seat !== null ? h("button", { type: "button", class: "primary rematch",
        onclick: () => seatAction("rematch", { token: s.token }) }, t("breakdown.rematch"))
        : null,
      // The finished match's replay, where the master's review is asked for too.
      s.match !== null ? h("a", { href: `#/m/${s.match}`, class: "button replay-link" },
        t("breakdown.replay")) : null,
      h("a", { href: "#/", class: "button lobby-link" }, t("nav.lobby")),
    ];
  }

  // "Bruno resigned.", or "You resigned.": a match given up ends with no last breakdown.
  function resignedText() {
    const seat = s.view.resigned;
    if (seat == null) return null;
    return seat === s.seat ? t("table.resigned_you") : t("table.resigned",
      { name: seatName(seat) });
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
      // The table holds a round's end until its people have read it (finding 4).
      if (!over && s.seat !== null) {
        socket.send({ type: "continue", round: s.roundShown + 1, ref: CONTINUE_REF });
      }
      s.roundShown = null;
      render();
    };
    const [rematch, replay, lobby] = endActions();
    rematch?.setAttribute("id", "rematch");
    replay?.setAttribute("id", "breakdown-replay");
    lobby.setAttribute("id", "breakdown-lobby");
    const actions = over ? [rematch, replay, lobby,
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
      winner: over ? [resignedText(), winnerText()].filter(Boolean).join(" ") : null, actions,
      onClose: close,
      note: s.roundShown === v.round_scores.length - 1 ? sweepUpWords() : null,
      game: v.rules.name, rounds: over ? v.round_scores : null,
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
    // Asked only while the match is on and no breakdown is up (one dialog at a time).
    const resignNow = s.resigning && !dialogNow && s.view?.winner === null;
    const before = motionWanted() && s.motion ? notePlaces(main) : null;
    const motion = s.motion;
    s.motion = null;
    let content;
    if (!s.table) content = h("p", {}, s.problem || t("table.connecting"));
    else if (s.table.status === "waiting" || !s.view) content = waitingRoom();
    else content = board();
    // The table is the screen only while a match is on it; the waiting room is a page.
    document.body.classList.toggle("at-table", content.id === "board");
    main.replaceChildren(...[
      s.linkDown ? linkProblem() : null,
      s.problem && s.table ? h("p", { class: "problem", role: "alert" }, s.problem) : null,
      content,
      dialogNow ? dialog() : null,
      resignNow ? resignDialog() : null,
    ].filter(Boolean));
    fitChat();
    // How many cards the last redraw set moving: 0 under prefers-reduced-motion.
    main.dataset.moving = before ? animate(main, before, { ...motion,
      draw: (card) => cardImage(card, look()) }) : 0;
    // A round's breakdown opens once the leftovers have flown to the last taker's pile: opened
    // at once, its backdrop hid the flight.
    if (dialogNow && !dialogWas && Number(main.dataset.moving) > 0) {
      s.dialogWaits = true;
      Promise.all(document.getAnimations().map((flight) => flight.finished.catch(() => null)))
        .then(() => {
          // The dialog drawn last (a message may have redrawn the page meanwhile) opens now.
          s.dialogWaits = false;
          const waited = main.querySelector("dialog");
          if (waited && !waited.open) {
            waited.showModal();
            waited.querySelector(".primary, button")?.focus();
          }
        });
    }
    const modal = s.dialogWaits ? null : main.querySelector("dialog");
    if (modal && !modal.open) modal.showModal();
    if (dialogWas && !dialogNow && !resignNow) {
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
    fitChat();
  }

  // Why the connection is down, and for a seat opened in newer places, a way to take it back.
  function linkProblem() {
    const words = { replaced: "table.replaced", busy: "table.busy", moved: "table.moved" };
    return h("p", { class: "problem", role: "alert", id: "link-problem",
      "data-link": s.linkDown }, t(words[s.linkDown] ?? "table.reconnecting"),
    s.linkDown === "replaced" ? [" ", h("button", { type: "button", id: "take-back",
      onclick: () => socket.reconnect() }, t("table.take_back"))] : null);
  }

  addEventListener("resize", fitChat);

  render();
  return {
    render,
    close() {
      removeEventListener("resize", fitChat);
      document.removeEventListener("keydown", onKey);
      clearInterval(ticker);
      document.body.classList.remove("at-table", "menu-open");
      socket.close();
    },
  };
}
