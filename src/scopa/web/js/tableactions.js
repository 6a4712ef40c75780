// What the person does at a table (js/table.js): play a card or choose its capture, ask for a
// hint, take a seat, start, leave, resign, continue after a round, open the menu or the chat,
// and the keyboard's ways to all of it. Each changes the state, tells the server where it
// must, and redraws.

import { api, forgetSeatToken, keepSeatToken } from "./api.js";
import { askToNotify } from "./callback.js";
import { loadChat } from "./chatlink.js";
import { cardName, t } from "./i18n.js";
import { capturesHolding, movesOfCard, parseMove } from "./moves.js";
import { chosenLook, keepPlayerName } from "./prefs.js";
import { CONTINUE_REF, HINT_REF, RESIGN_REF } from "./tablestate.js";

export function tableActions(page) {
  const { s, chat, code, main } = page;
  const render = () => page.render();
  const send = (message) => page.socket.send(message);
  const look = () => chosenLook() ?? s.table?.look ?? "french";

  function play(move) {
    s.pending = null;
    s.tapped = [];
    s.why = null;
    if (!send({ type: "move", move, version: s.version })) {
      // Not silently dropped: the person is told, and the card stays in the hand.
      s.problem = t("table.not_sent", { card: cardName(parseMove(move).card, look()) });
    }
    render();
  }

  // A card that may not be played now says why (js/tableview.js words it).
  function explain(card) {
    s.why = { card, version: s.version };
    render();
  }

  function chooseCard(card) {
    const moves = movesOfCard(s.view.legal_moves, card);
    if (moves.length === 1) play(moves[0].code);
    else if (moves.length > 1) {
      s.pending = card;
      s.tapped = [];
      render();
      document.querySelector(".options button")?.focus();
    }
  }

  function cancelChoice() {
    s.pending = null;
    s.tapped = [];
    render();
  }

  // A table card tapped to choose the capture: those holding every card tapped stay offered.
  // A first tap on a card of one capture takes it; narrowed down to one by more taps, it
  // waits for a confirming tap (a tap may be a slip). Tapped again, a card is let go; one
  // in none of the captures left starts again from itself.
  function tapTable(card) {
    const options = movesOfCard(s.view.legal_moves, s.pending);
    if (!options.some((move) => move.captures.includes(card))) return;
    const first = !s.tapped.length;
    const tapped = s.tapped.includes(card) ? s.tapped.filter((c) => c !== card)
      : [...s.tapped, card];
    s.tapped = capturesHolding(options, tapped).length ? tapped : [card];
    const left = capturesHolding(options, s.tapped);
    if (first && left.length === 1) play(left[0].code);
    else render();
  }

  function askHint() {
    if (s.hintAsked === s.version) return;
    s.hintAsked = s.version;
    s.why = null;  // one question at a time: the hint's words take the refusal's place
    send({ type: "hint", ref: HINT_REF });
    render();
  }

  // Any message brings a person played for by a stand-in back; this one asks for nothing
  // else (a sync of what is on screen).
  function comeBack() {
    send({ type: "sync", match: s.match, version: s.version });
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
      page.socket.reconnect();
    }
  }

  const start = () => seatAction("start", { token: s.token });
  // Offline, the page's own table deals it.
  const rematch = () => (page.local ? send({ type: "rematch" })
    : seatAction("rematch", { token: s.token }));

  async function leave() {
    if (await seatAction("leave", { token: s.token })) {
      forgetSeatToken(code);
      location.hash = "#/";
    }
  }

  // Leaving during a match is asked twice: the computer plays the seat to the match's end.
  function askLeave() {
    s.leaving = true;
    render();
    document.getElementById("leave-confirm")?.focus();
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

  async function notify() {
    await askToNotify();
    render();
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

  function keepPlaying() {
    s.resigning = false;
    render();
  }

  function resign() {
    s.resigning = false;
    if (!send({ type: "resign", ref: RESIGN_REF })) s.problem = t("table.resign_not_sent");
    render();
  }

  function showBreakdown() {
    s.roundShown = s.view.round_scores.length - 1;
    render();
  }

  // A round's breakdown read: the table holds a round's end until its people have read it
  // (finding 4).
  function closeRound() {
    const v = s.view;
    const over = v.winner !== null && s.roundShown === v.round_scores.length - 1;
    if (!over && s.seat !== null) {
      send({ type: "continue", round: s.roundShown + 1, ref: CONTINUE_REF });
    }
    s.roundShown = null;
    render();
  }

  function toggleChat(open = !chat.open) {
    chat.open = open;
    if (open) chat.unread = 0;
    const loading = open ? loadChat() : null;
    render();
    if (!open) document.getElementById("chat-button")?.focus();
    else loading.then(() => {
      render();
      document.getElementById("chat-close")?.focus();
    });
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

  return {
    play, explain, chooseCard, cancelChoice, tapTable, askHint, comeBack, join, start, rematch,
    leave, askLeave, toggleMenu, notify, askResign, keepPlaying, resign, showBreakdown, closeRound,
    toggleChat, copyLink, onKey, takeBack: () => page.socket.reconnect(),
  };
}
