// A table drawn from its state (js/table.js, js/tablestate.js): the waiting room, or the bar
// over the felt with its seats, the table's cards and your hand, the capture choice, hints,
// the round's breakdown and the match's end. `render` redraws it all after each change,
// keeping the keyboard's focus and setting the cards moving (js/motion.js); every button
// calls one of the person's actions (js/tableactions.js).

import { breakdownDialog } from "./breakdown.js";
import { mayAskToNotify } from "./callback.js";
import { backSvg } from "./cards.js";
import { cardBacks, cardButton, cardImage } from "./cardview.js";
import { loadedChat } from "./chatlink.js";
import { h } from "./dom.js";
import { cardName, rankName, t } from "./i18n.js";
import { animate, motionWanted, notePlaces } from "./motion.js";
import { capturesHolding, movesOfCard, parseMove } from "./moves.js";
import { modalDialog } from "./modal.js";
import { chosenBack, chosenLook, playerName } from "./prefs.js";
import { pile, pileKeepers, placeOf, sweepCards } from "./seats.js";
import { soundButton } from "./sound.js";
import { hinted } from "./tablestate.js";

export function tableView(page, actions) {
  const { s, chat, code, main } = page;

  function chatButton() {
    return h("button", { type: "button", class: "chat-button", id: "chat-button",
      "aria-expanded": chat.open ? "true" : "false", "aria-controls": "chat-panel",
      "aria-label": chat.unread ? t("chat.button_unread", { count: chat.unread })
        : t("chat.button"), title: t("chat.button"), onclick: () => actions.toggleChat() },
    h("span", { class: "bubble", "aria-hidden": "true" }),
    chat.unread ? h("span", { class: "unread", "aria-hidden": "true" }, String(chat.unread))
      : null);
  }

  function chatPanel() {
    const module = chat.open ? loadedChat() : null;
    return module ? module.chatPanel(chat, { code,
      send: (message) => page.socket.send(message),
      changed: render, toggle: actions.toggleChat, nameOf: seatName, mySeat: s.seat,
      canWrite: Boolean(s.account), canReport: s.seat !== null || Boolean(s.account) })
      : null;
  }

  const fitChat = () => loadedChat()?.fitPanel(main);

  // A suggested card is ringed and tagged with a word, and says so to screen readers: never
  // colour alone.
  function markHinted(element) {
    element.classList.add("hinted");
    element.setAttribute("aria-label", `${element.getAttribute("aria-label")}, ${
      t("hint.suggested")}`);
    element.append(h("span", { class: "hint-mark", "aria-hidden": "true" }, t("hint.badge")));
    return element;
  }

  // What the hint plays, and why. On a phone the what is read out only: the rings and tags
  // on the cards show it, and the felt has room for the why alone.
  function hintWords(move) {
    const card = cardName(move.card, look());
    const what = move.captures.length
      ? t("hint.take", { card, cards: move.captures.map((c) => cardName(c, look())).join(", ") })
      : t("hint.trail", { card });
    const { key, params, text } = s.hint.reason;
    const words = { ...params };
    if (params.card) words.card = cardName(params.card, look());
    if (params.rank) words.rank = rankName(params.rank, look());
    return [h("span", { class: "hint-what" }, what), " ", t(`hint.reason.${key}`, words, text)];
  }

  // A stand-in plays for this seat (its turn timed out): any message brings the person back,
  // and this one asks for nothing else (a sync of what is on screen). Said at the person's
  // own seat on the felt, where the eye is, not under the hand.
  function backRow() {
    return h("div", { class: "come-back", role: "status" },
      h("p", {}, t("table.you_stand_in")),
      h("button", { type: "button", id: "come-back", class: "primary",
        onclick: actions.comeBack },
      t("table.back")));
  }

  function hintButton() {
    const v = s.view;
    const myTurn = v.to_move === s.seat && v.legal_moves.length > 0 && !s.linkDown;
    return h("button", { type: "button", id: "hint", "aria-label": t("hint.label"),
      disabled: !myTurn, "aria-disabled": myTurn && s.hintAsked === s.version ? "true" : null,
      "aria-describedby": "hint-text", onclick: actions.askHint }, t("hint.button"));
  }

  function hintText() {
    const v = s.view;
    const asking = v.to_move === s.seat && !s.linkDown && s.hintAsked === s.version;
    const move = hinted(s);
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

  function resignDialog() {
    return modalDialog({ class: "dialog", id: "resign-dialog", "aria-labelledby": "resign-title",
      "aria-describedby": "resign-question", onClose: actions.keepPlaying },
    h("h2", { id: "resign-title" }, t("table.resign_title")),
    h("p", { id: "resign-question" }, t("table.resign_question")),
    h("div", { class: "actions" },
      h("button", { type: "button", class: "primary", id: "resign-cancel",
        onclick: actions.keepPlaying },
        t("table.resign_cancel")),
      h("button", { type: "button", class: "danger", id: "resign-confirm",
        onclick: actions.resign },
        t("table.resign_confirm"))));
  }

  // Leaving during a match is asked twice: the computer plays the seat to the match's end.
  function tableMenu() {
    const playing = s.view.winner === null && s.seat !== null;
    return h("div", { class: "table-menu", id: "table-menu", role: "group",
      "aria-label": t("table.menu") },
    s.leaving ? [
      h("p", { id: "leave-question" }, t("table.leave_question")),
      h("button", { type: "button", class: "danger", id: "leave-confirm", onclick: actions.leave },
        t("table.leave_confirm")),
      h("button", { type: "button", id: "leave-cancel", onclick: () => actions.toggleMenu(true) },
        t("table.stay")),
    ] : [
      playing && !page.local ? h("button", { type: "button", id: "leave",
        onclick: actions.askLeave },
        t("table.leave")) : null,
      playing ? h("button", { type: "button", id: "resign", onclick: actions.askResign },
        t("table.resign")) : null,
      // Asked on this click only, never on load; gone once the person chose.
      s.seat !== null && mayAskToNotify() ? h("button", { type: "button", id: "ask-notify",
        onclick: actions.notify }, t("callback.notify")) : null,
      h("a", { href: "#/rules", class: "button" }, t("footer.rules")),
      h("a", { href: "#/", class: "button" }, t("nav.lobby")),
      h("button", { type: "button", id: "menu-close", onclick: () => actions.toggleMenu(false) },
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
        h("button", { type: "button", id: "copy-link", onclick: actions.copyLink },
          t("table.copy"))),
      h("p", {}, t("table.code", { code })),
      // Numbered by the list itself: a number in the text read "• 1. Marco" (finding 8).
      h("ol", { class: "seats" }, table.seats.map((seat) => h("li", {},
        seat.open ? t("table.free_seat") : seatName(seat.seat),
        seat.kind === "bot" ? ` (${t(`level.${seat.level}`)})` : ""))),
      s.seat === null && !full ? joinForm() : null,
      s.seat !== null ? h("div", { class: "actions" },
        h("button", { type: "button", class: "primary", id: "start", disabled: !full,
          onclick: actions.start }, t("table.start")),
        h("button", { type: "button", onclick: actions.leave }, t("table.leave"))) : null);
  }

  function field(key, control) {
    return h("label", { class: "field" }, h("span", {}, t(key)), control);
  }

  function joinForm() {
    return h("form", { class: "join", onsubmit: actions.join },
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
      // The smallest phones show the score as "3/11", the words above read out.
      h("span", { class: "score-short", "aria-hidden": "true" }, `${score}/${v.rules.target}`),
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
    return playWords(last, s.lastByStandIn);
  }

  // Who played what, and what it took: "Bot 2 played the seven of coins and took: ...".
  function playWords(play, byStandIn) {
    const move = parseMove(play.move);
    // Your seat's move made by your stand-in is not said to be yours (finding 8).
    const name = play.seat === s.seat && byStandIn ? t("table.your_stand_in")
      : seatName(play.seat);
    const card = cardName(move.card, look());
    const text = move.captures.length
      ? t("table.took", { name, card, cards: move.captures.map((c) => cardName(c, look()))
        .join(", ") })
      : t("table.trailed", { name, card });
    return play.sweep ? `${text} ${t("table.sweep")}` : text;
  }

  // Each new play said to screen readers (issue 35, item 9), with the leftovers a round's
  // last play leaves to its taker. The region outlives the redraws: one made anew with each
  // redraw, as #last-move is, is not reliably read out, since a live region is only heard
  // when its words change, not when it arrives with them.
  const said = h("p", { class: "sr-only", id: "plays-said", "aria-live": "polite",
    "aria-atomic": "true" });

  function sayPlay() {
    const play = s.said;
    if (!play || said.dataset.version === String(play.version)) return;
    said.dataset.version = String(play.version);
    said.textContent = [playWords(play, play.byStandIn), sweepUpWords()].filter(Boolean)
      .join(" ");
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
      v.winner === null ? h("div", { class: "tools" }, s.hints ? hintButton() : null) : null,
      s.pending ? captureChoice() : null]
      : [who, held(cardBacks(v.hand_sizes[seat.seat], back())), keeps]);
  }

  // The come-back notice at your seat: laid over the felt just above your hand, so that the
  // hand never moves when it appears (issue 22, finding 3).
  function aboveHand(comeBack) {
    return h("div", { class: "above-hand" }, comeBack ? backRow() : null);
  }

  // Why a card may not be played, and the hint's reason: laid over the felt, never in the
  // flow, so that neither moves the hand or the table's cards when it appears. The CSS puts
  // them just above your hand where the felt has room for them, and over the seats at the
  // felt's top on a phone, whose felt has none between the table's cards and the hand
  // (issue 35, item 4). Not said while the come-back notice is up: coming back comes first.
  function notes() {
    if (s.view.winner !== null || s.seat === null || seatOf(s.seat)?.stand_in) return null;
    return h("div", { class: "notes" }, whyText(), s.hints ? hintText() : null);
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
      notes(),
      h("div", { class: "centre" },
        h("p", { class: "last-move", id: "last-move" }, lastMoveText()),
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

  // While a capture is chosen, the cards of the captures still offered are raised, and each
  // is tapped to take it (actions.tapTable); those tapped, and all of the one capture left,
  // are marked as taken. The list (captureChoice) stays the keyboard's and screen reader's way.
  function tableCards() {
    const tapped = s.pending ? s.tapped : [];
    const options = s.pending ? capturesHolding(movesOfCard(s.view.legal_moves, s.pending),
      tapped) : [];
    const candidates = new Set(options.flatMap((move) => move.captures));
    const taken = new Set(options.length === 1 && tapped.length ? options[0].captures : tapped);
    const suggested = new Set(hinted(s)?.captures);
    const count = Math.max(1, s.view.table.length);
    // The CSS fits the cards in one, two or three rows of the table's fixed space, whichever
    // shows them largest: the table never grows into the hand (finding 3).
    return h("div", { class: "table-cards", role: "group", "aria-label": t("table.table"),
      style: `--n: ${count}; --n2: ${Math.ceil(count / 2)}; --n3: ${Math.ceil(count / 3)}` },
      s.view.table.map((card) => {
        const image = cardImage(card, look());
        if (candidates.has(card)) {
          image.classList.add("candidate");
          image.classList.toggle("tapped", taken.has(card));
          image.setAttribute("aria-label", `${image.getAttribute("aria-label")}, ${
            t("table.candidate")}`);
          image.addEventListener("click", () => actions.tapTable(card));
        }
        return suggested.has(card) ? markHinted(image) : image;
      }),
      s.view.table.length ? null : h("p", { class: "empty" }, t("table.empty")));
  }

  // The capture's choice as a list, laid over your own seat while it is open (the hand's card
  // is picked, and the hand waits), never over the table whose cards are tapped instead. Once
  // taps have narrowed the captures to one, its confirming button comes first.
  function captureChoice() {
    const options = movesOfCard(s.view.legal_moves, s.pending);
    const left = capturesHolding(options, s.tapped);
    const confirm = s.tapped.length && left.length === 1 ? left[0] : null;
    // One option is shown at a time: the one last pointed at or focused.
    const mark = (captures, on) => {
      for (const card of document.querySelectorAll(".table-cards .card")) {
        card.classList.toggle("chosen", on && captures.includes(card.dataset.card));
      }
    };
    return h("div", { class: "options", role: "group", "aria-label": t("table.choose") },
      confirm ? h("button", { type: "button", class: "primary", id: "take-tapped",
        onclick: () => actions.play(confirm.code) },
      t("table.take_tapped", { cards: confirm.captures.map((c) => cardName(c, look()))
        .join(", ") }))
        : h("p", {}, t("table.choose_with", { card: cardName(s.pending, look()) })),
      options.map((move, index) => {
        const names = move.captures.map((c) => cardName(c, look())).join(", ");
        return h("button", { type: "button", class: "option", "data-move": move.code,
          onclick: () => actions.play(move.code),
          onmouseenter: () => mark(move.captures, true), onmouseleave: () => mark(move.captures, false),
          onfocus: () => mark(move.captures, true), onblur: () => mark(move.captures, false) },
        `${index + 1}. ${t("table.take", { cards: names })}`);
      }),
      h("button", { type: "button", onclick: actions.cancelChoice },
        t("table.cancel")));
  }

  function hand() {
    const v = s.view;
    const myTurn = v.to_move === s.seat && v.legal_moves.length > 0;
    const suggested = hinted(s)?.card;
    return h("div", { class: `hand${myTurn ? " my-turn" : ""}`, role: "group",
      "aria-label": t("table.hand"), style: `--n: ${Math.max(1, v.hand.length)}` },
    v.hand.map((card) => {
      const playable = myTurn && movesOfCard(v.legal_moves, card).length > 0;
      const button = cardButton(card, look(), {
        class: `card${playable ? " playable" : ""}${s.pending === card ? " picked" : ""}`,
        "aria-disabled": playable ? null : "true",
        "aria-pressed": s.pending === card ? "true" : null,
        "aria-describedby": s.why?.card === card ? "why" : null,
        onclick: () => (playable ? actions.chooseCard(card) : actions.explain(card)),
      });
      return card === suggested ? markHinted(button) : button;
    }));
  }

  function whyText() {
    const why = s.why;
    return h("p", { class: "why", id: "why", role: "status" },
      why && why.version === s.version ? whyNot(why.card) : null);
  }

  // The table is the screen: a bar (the menu, the scores, whose turn, the sound) over the
  // felt, which takes the rest of the viewport; your hand sits at your seat on its bottom
  // edge, and everything that comes and goes (a choice, a note) floats above the hand
  // instead of pushing it (issue 22, findings 1 and 3).
  function board() {
    const v = s.view;
    return h("section", { class: "board", id: "board", "data-version": s.version,
      "data-match": s.match },
    // The page's heading for screen readers, which list a page by its headings; the bar and
    // the felt show what it names.
    h("h1", { class: "sr-only" }, t("table.heading", { code })),
    topBar(),
    s.menuOpen ? tableMenu() : null,
    felt());
  }

  function topBar() {
    const v = s.view;
    return h("div", { class: "bar" },
      h("button", { type: "button", class: "menu-button", id: "menu-button",
        "aria-expanded": s.menuOpen ? "true" : "false", "aria-controls": "table-menu",
        "aria-label": t("table.menu"), onclick: () => actions.toggleMenu() }, "☰"),
      scoreboard(),
      h("p", { class: `turn${v.to_move === s.seat && v.winner === null ? " mine" : ""}`,
        id: "turn", "aria-live": "polite" }, turnText()),
      h("p", { class: "stock" }, t("table.stock", { count: v.stock_size,
        round: v.round_number + 1 })),
      page.local ? null : chatButton(),
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
          onclick: actions.showBreakdown }, t("breakdown.show")) : null));
  }

  function endActions() {
    return [
      s.seat !== null ? h("button", { type: "button", class: "primary rematch",
        onclick: actions.rematch }, t("breakdown.rematch"))
        : null,
      // The finished match's replay, where the master's review is asked for too.
      s.match !== null && !page.local ? h("a", { href: `#/m/${s.match}`,
        class: "button replay-link" },
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
    const close = actions.closeRound;
    const [rematch, replay, lobby] = endActions();
    rematch?.setAttribute("id", "rematch");
    replay?.setAttribute("id", "breakdown-replay");
    lobby.setAttribute("id", "breakdown-lobby");
    const buttons = over ? [rematch, replay, lobby,
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
      winner: over ? [resignedText(), winnerText()].filter(Boolean).join(" ") : null,
      actions: buttons,
      onClose: close,
      note: s.roundShown === v.round_scores.length - 1 ? sweepUpWords() : null,
      game: v.rules.name, rounds: over ? v.round_scores : null,
    });
  }

  // Where the keyboard goes when a dialog closes: back where it was before the dialog opened,
  // or, when that card has been played meanwhile, to the hand, or once the match is over to
  // what comes next (a rematch, the replay).
  function focusAfterDialog() {
    const back = s.focusBack ? main.querySelector(`[data-card="${s.focusBack}"]`) ??
      document.getElementById(s.focusBack) : null;
    back?.focus();
    if (!back || document.activeElement !== back) focusHand();
  }

  const nowhere = () => !document.activeElement || document.activeElement === document.body;

  // The keyboard to the hand: its first card that may be played, else its first card, else
  // (the match over) the over panel's first choice. A card played, a capture chosen, a
  // round's dialog closed all take away what had the focus, and a browser then leaves it on
  // the page's body: 4 Tabs back to the hand on each turn (issue 35, item 8).
  function focusHand() {
    (main.querySelector(".hand button.playable") ?? main.querySelector(".hand button.card") ??
      main.querySelector("#over .actions button, #over .actions a"))?.focus();
  }

  function render() {
    const focused = document.activeElement;
    // Whether the focus was on the table's screen, which this redraw replaces.
    const hadFocus = focused !== main && main.contains(focused);
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
      sayPlay();
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
    // Lost with what it was on, or nowhere when your turn comes: to the hand.
    const myTurn = s.view?.to_move === s.seat && s.view?.winner === null &&
      Boolean(s.view?.legal_moves.length);
    if (!modal && !resignNow && nowhere() && (hadFocus || myTurn)) focusHand();
    sayPlay();
    fitChat();
  }

  // Why the connection is down, and for a seat opened in newer places, a way to take it back.
  function linkProblem() {
    const words = { replaced: "table.replaced", busy: "table.busy", moved: "table.moved" };
    return h("p", { class: "problem", role: "alert", id: "link-problem",
      "data-link": s.linkDown }, t(words[s.linkDown] ?? "table.reconnecting"),
    s.linkDown === "replaced" ? [" ", h("button", { type: "button", id: "take-back",
      onclick: actions.takeBack }, t("table.take_back"))] : null);
  }

  // How long until the computer plays for the away seat to move, each second.
  function tick() {
    for (const clock of main.querySelectorAll(".stand-in-clock")) {
      clock.textContent = clockWords();
    }
  }

  return { render, fitChat, tick, said };
}
