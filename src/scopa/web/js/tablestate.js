// A table's state (js/table.js): what the server said of it, kept as the screen needs it, and
// heard (a sound for each new play, a call back when it becomes your turn). Nothing here
// draws; the table redraws after each message.

import { forgetSeatToken, keepMatchToken, seatToken } from "./api.js";
import { callBack } from "./callback.js";
import { loadedChat } from "./chatlink.js";
import { loadRefusals, refusal, t } from "./i18n.js";
import { parseMove } from "./moves.js";
import { cue } from "./sound.js";

// The `ref` of hint requests, so an error about one is told from an error about a move.
export const HINT_REF = "hint";
// The `ref` of continue messages: one refused because the table stopped waiting (its 15 s ran
// out, or the round was long over after a reload) needs no word to the person.
export const CONTINUE_REF = "continue";
// The `ref` of a resignation, so an error about it is not taken for one about a move.
export const RESIGN_REF = "resign";
// The `ref` of chat messages, so a refusal is said in the chat's panel.
export const CHAT_REF = "chat";

// A table's page as its three parts share it: the state `s`, what is said at the table
// (`chat`), the socket and the redraw (set by js/table.js once they are made).
export function newTable(main, code) {
  return {
    main, code, socket: null, render: () => {},
    s: {
      token: seatToken(code), seat: null, table: null, view: null, match: null, version: null,
      pending: null, seenRounds: null, roundShown: null, problem: "", linkDown: false,
      sweepCalled: null, focusBack: null, hint: null, hintAsked: null, why: null,
      sweptUp: null, motion: null, menuOpen: false, leaving: false, resigning: false,
      clockEnds: null, lastByStandIn: false, dialogWaits: false, account: null, hints: false,
      said: null,
    },
    // What is said at the table, kept and counted on the bar's button while the chat is
    // shut (a muted sender's too until the panel's module is here); free text for a
    // logged-in player.
    chat: { open: false, said: [], unread: 0, reported: new Set(), problem: null, draft: "" },
  };
}

// A message from the table's socket, kept; false when it changes nothing on screen.
export function receive(page, message) {
  const { s, chat } = page;
  if (message.type === "welcome") {
    s.seat = message.seat;
    // No hint button where the server says it gives none: a rated table, a tournament's
    // game, the daily deal (a result that counts must be the person's own play). A welcome
    // that does not say (an older server's) keeps the button; the server refuses anyway.
    s.hints = message.hints !== false;
  }
  else if (message.type === "said") keepSaid(page, message);
  else if (message.type === "chat") keepChat(chat, message);
  else if (message.type === "reported") chat.reported.add(message.id);
  else if (message.type === "error" && message.ref === CHAT_REF) chat.problem = message;
  else if (message.type === "table") s.table = message.table;
  else if (message.type === "state") takeState(s, message);
  else if (message.type === "hint") takeHint(s, message);
  else if (message.type === "error" && message.ref === CONTINUE_REF) return false;
  else if (message.type === "error") {
    if (message.ref === HINT_REF) s.hintAsked = null;
    if (message.code === "bad_token") {
      // The seat is no longer ours (left, or another browser's token): watch instead.
      forgetSeatToken(page.code);
      s.token = null;
      s.seat = null;
      page.socket.reconnect();
    } else if (message.code === "no_table") {
      s.problem = t("table.no_table");
    } else {
      // In the reader's language once the refusals' words are here (the first one asks).
      const words = () => refusal(message.code, message.params, message.message);
      s.problem = words();
      loadRefusals().then(() => {
        if (s.problem !== message.message) return;
        s.problem = words();
        page.render();
      });
    }
  }
  return true;
}

function keepSaid(page, message) {
  const { chat } = page;
  if (chat.said.some((kept) => kept.id === message.id)) return;  // came with `chat` too
  chat.said = [...chat.said, message].slice(-50);  // the 50 the table can have reported
  if (!chat.open && !loadedChat()?.isMuted(page.code, message)) chat.unread += 1;
}

// What was said before this socket came (after a reload, or the table's coming back from
// the database): kept with what this page already has, once each, and not counted as unread.
function keepChat(chat, message) {
  const earlier = new Set(message.said.map((kept) => kept.id));
  chat.said = [...message.said, ...chat.said.filter((kept) => !earlier.has(kept.id))]
    .sort((a, b) => a.id - b.id).slice(-50);
}

function takeState(s, message) {
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
  s.sweptUp = played && (newRound || over) ? leftovers(s, played, message.play.seat) : null;
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
  hear(s, message, played, newRound, over);
  // The play said aloud by the table's live region (js/tableview.js words it).
  if (played) {
    s.said = { ...message.play, version: message.version,
      byStandIn: Boolean(message.stand_in_played) };
  }
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
function hear(s, message, played, newRound, over) {
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
function leftovers(s, played, seat) {
  const table = played.captures.length
    ? s.view.table.filter((card) => !played.captures.includes(card))
    : [...s.view.table, played.card];
  const plays = [...s.view.plays, { seat, move: played.code }];
  const taker = plays.filter((play) => play.move.includes("x")).pop()?.seat;
  return table.length && taker !== undefined
    ? { cards: table, seat: taker, version: s.version + 1 } : null;
}

// A hint is for the version it was worked out at: one that arrives after a move is dropped.
function takeHint(s, message) {
  s.hintAsked = null;
  if (message.match === s.match && message.version === s.version) s.hint = message;
}

// The move the hint suggests, while it is still for the position on screen.
export function hinted(s) {
  const hint = s.hint;
  return hint && hint.match === s.match && hint.version === s.version
    ? parseMove(hint.move) : null;
}
