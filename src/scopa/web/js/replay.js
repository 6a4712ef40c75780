// The replay of a finished match, "#/m/ID" (a link to share): step through it move by move with
// the buttons or the ← and → keys, jump to a round, every hand shown (the match is over), and
// each round's breakdown at its end. The frames come from the server (GET /api/replays/ID),
// which plays the match again with the core: the browser needs no rules of its own.

import { api, matchToken } from "./api.js";
import { cardImage } from "./cardview.js";
import { h } from "./dom.js";
import { cardName, decimal, t } from "./i18n.js";
import { chosenLook } from "./prefs.js";

// How often the page asks how far a running review is, in milliseconds.
const REVIEW_POLL_MS = 700;

// The rows of a round's breakdown: the category's key and how its figures read.
const ROWS = [
  ["cards", (s) => `${s.card_count} → ${s.cards}`],
  ["coins", (s) => `${s.coin_count} → ${s.coins}`],
  ["settebello", (s) => String(s.settebello)],
  ["primiera", (s) => `${s.primiera_total} → ${s.primiera}`],
  ["sweeps", (s) => String(s.sweeps)],
];

// A move in words, in the deck look chosen: "seven of coins × two of cups, five of swords".
function moveWords(code, look) {
  const [card, taken] = code.split("x");
  const named = cardName(card, look);
  return taken ? `${named} × ${taken.split("+").map((c) => cardName(c, look)).join(", ")}`
    : named;
}

function seatName(player) {
  return player.kind === "bot" && player.level
    ? `${player.name} (${t(`level.${player.level}`, {}, player.level)})` : player.name;
}

export function showReplay(main, matchId) {
  let replay = null;
  let step = 0;
  let problem = "";
  // The master's review: the seat chosen, its progress while it runs, then the result with
  // each judged move by its number in the match.
  let reviewSeat = 0;
  let reviewState = null;
  let judged = new Map();
  let polling = null;
  let closed = false;

  const onKey = (event) => {
    if (!replay || event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.target.closest?.("input, select, textarea")) return;
    if (event.key === "ArrowRight") go(step + 1);
    else if (event.key === "ArrowLeft") go(step - 1);
    else if (event.key === "Home") go(0);
    else if (event.key === "End") go(replay.frames.length - 1);
    else return;
    event.preventDefault();
  };
  document.addEventListener("keydown", onKey);

  // The look chosen in the header, else the one the match was played in.
  function deckLook() {
    return chosenLook() ?? replay?.look ?? "french";
  }

  function go(to) {
    if (!replay) return;
    step = Math.max(0, Math.min(replay.frames.length - 1, to));
    render();
    document.getElementById("replay-step")?.focus({ preventScroll: true });
  }

  function sideNames() {
    const sides = replay.scores.length;
    return Array.from({ length: sides }, (_, side) => replay.players
      .filter((player) => player.seat % sides === side).map((player) => player.name).join(" & "));
  }

  function breakdown(round) {
    const names = sideNames();
    return h("section", { class: "panel replay-breakdown", id: "replay-breakdown",
      "aria-labelledby": "replay-breakdown-title" },
    h("h3", { id: "replay-breakdown-title" }, t("breakdown.title", { round: round.number })),
    h("div", { class: "breakdown-scroll" }, h("table", { class: "breakdown" },
      h("thead", {}, h("tr", {}, h("td", {}), names.map((name) => h("th", { scope: "col" },
        name)))),
      h("tbody", {}, ROWS.map(([key, show]) => h("tr", {},
        h("th", { scope: "row" }, t(`breakdown.${key}`)),
        round.scores.map((side) => h("td", {}, show(side))))),
      h("tr", { class: "total" }, h("th", { scope: "row" }, t("breakdown.round")),
        round.scores.map((side) => h("td", {}, String(side.total))))))));
  }

  function board(frame) {
    const look = deckLook();
    const sides = replay.scores.length;
    const seats = replay.players.map((player) => h("section", {
      class: `replay-seat${frame.seat === player.seat ? " just-played" : ""}`,
      "aria-label": seatName(player) },
    h("h3", {}, seatName(player)),
    h("div", { class: "replay-hand" }, frame.hands[player.seat].length
      ? frame.hands[player.seat].map((code) => cardImage(code, look))
      : h("span", { class: "empty-hand" }, t("replay.empty_hand"))),
    h("p", { class: "replay-pile" }, t("replay.pile", {
      cards: t("replay.cards", { count: frame.piles[player.seat] }),
      sweeps: t("replay.sweeps", { count: frame.sweeps[player.seat % sides] }) }))));
    return h("div", { class: "replay-board" },
      h("section", { class: "replay-table", "aria-label": t("replay.table") },
        h("h3", {}, t("replay.table"), " ", h("span", { class: "stock" },
          t("replay.stock", { count: frame.stock }))),
        h("div", { class: "table-cards" }, frame.table.map((code) => cardImage(code, look)))),
      h("div", { class: "replay-seats" }, seats));
  }

  function showState(state) {
    reviewState = state;
    judged = new Map((state.review?.moves ?? []).map((move) => [move.number, move]));
    render();
    if (state.status === "running" && !closed) {
      polling = setTimeout(async () => {
        try {
          showState(await api(`/replays/${matchId}/reviews/${reviewSeat}`));
        } catch (error) {
          problem = error.message;
          render();
        }
      }, REVIEW_POLL_MS);
    }
  }

  async function askReview() {
    clearTimeout(polling);
    reviewSeat = Number(document.getElementById("review-seat").value);
    reviewState = { status: "running", done: 0, total: 0, review: null };
    judged = new Map();
    render();
    try {
      // A guest who played the match asks with its seat token; an account with its cookie.
      const token = matchToken(matchId) ?? undefined;
      showState(await api(`/replays/${matchId}/reviews`, { seat: reviewSeat, token }));
    } catch (error) {
      reviewState = null;
      problem = error.message;
      render();
    }
  }

  function stepOf(number) {
    return replay.frames.findIndex((frame) => frame.number === number);
  }

  // The review's panel: the seat to review and the button, then its progress, then the
  // summary (accuracy, the marks counted, the biggest mistakes as links to their moves).
  function reviewPanel() {
    const seats = h("select", { id: "review-seat" }, replay.players.map((player) =>
      h("option", { value: String(player.seat), selected: player.seat === reviewSeat },
        player.name)));
    const running = reviewState?.status === "running";
    const review = reviewState?.review;
    return h("section", { class: "panel review", id: "review", "aria-labelledby": "review-title" },
      h("h2", { id: "review-title" }, t("review.title")),
      h("div", { class: "review-ask" },
        h("label", { class: "field" }, h("span", {}, t("review.seat")), seats),
        h("button", { type: "button", class: "primary", id: "review-button", disabled: running,
          onclick: askReview }, t("review.ask"))),
      running ? h("p", { id: "review-progress", role: "status" },
        t("review.progress", { done: reviewState.done, total: reviewState.total || "…" }),
        " ", h("progress", { max: String(reviewState.total || 1),
          value: String(reviewState.done) })) : null,
      reviewState?.status === "failed" ? h("p", { class: "problem", role: "alert" },
        reviewState.error) : null,
      review ? h("div", { id: "review-summary" },
        h("p", {}, h("strong", {}, t("review.accuracy", { accuracy: decimal(review.accuracy, true) })), " · ",
          ["inaccuracy", "mistake", "blunder"].map((mark) =>
            t(`review.count.${mark}`, { count: review.marks[mark] })).join(" · ")),
        review.worst.length ? h("ol", { class: "worst" }, review.worst.map((number) => {
          const move = judged.get(number);
          return h("li", {}, h("button", { type: "button", class: "jump",
            onclick: () => go(stepOf(number)) },
          t("review.worst", { round: move.round, played: moveWords(move.played, deckLook()),
            best: moveWords(move.best, deckLook()), mark: t(`mark.${move.mark}`) })));
        })) : h("p", {}, t("review.clean"))) : null);
  }

  // The judgement of the move just played, when it is one the review looked at.
  function verdict(frame) {
    const move = frame.number === undefined ? null : judged.get(frame.number);
    if (!move || move.mark === "forced") return null;
    const cost = decimal(move.cost * 100);
    return h("p", { class: `verdict ${move.mark}`, id: "verdict" },
      h("span", { class: "mark" }, t(`mark.${move.mark}`)), " ",
      move.played === move.best ? t("review.same") : t("review.better",
        { best: moveWords(move.best, deckLook()), cost }));
  }

  function render() {
    if (!replay) {
      main.replaceChildren(h("section", { class: "panel" },
        h("h1", {}, t("replay.title", { match: matchId })),
        problem ? h("p", { class: "problem", role: "alert" }, problem)
          : h("p", {}, t("replay.loading"))));
      return;
    }
    const frame = replay.frames[step];
    const last = replay.frames.length - 1;
    const round = replay.rounds.find((r) => r.start <= step && step <= (r.end ?? last));
    const mover = frame.seat === null ? null : replay.players[frame.seat];
    const said = frame.move === null
      ? t("replay.dealt", { round: frame.round + 1 })
      : t(frame.sweep ? "replay.played_sweep" : "replay.played",
        { name: mover.name, move: moveWords(frame.move, deckLook()) });
    const jump = h("select", { id: "replay-round", onchange: (event) =>
      go(replay.rounds[Number(event.target.value)].start) },
    replay.rounds.map((r, k) => h("option", { value: String(k), selected: r === round },
      t("replay.round", { round: r.number }))));
    const share = new URL(`#/m/${matchId}`, location.href).href;
    // Redrawn as a whole (a poll of the review's progress too): the control that had the
    // focus gets it back, so a keyboard user is never thrown to the top of the page.
    const focused = document.activeElement?.id;
    main.replaceChildren(h("div", { class: "replay" },
      h("section", { class: "panel replay-head" },
        h("h1", {}, t("replay.title", { match: matchId })),
        h("p", {}, sideNames().map((name, side) => `${name} ${replay.scores[side]}`)
          .join(" · ")),
        h("p", { class: "share" }, h("label", { class: "field" },
          h("span", {}, t("replay.share")),
          h("input", { id: "replay-link", readonly: true, value: share,
            onfocus: (event) => event.target.select() })))),
      h("nav", { class: "panel replay-controls", "aria-label": t("replay.controls") },
        h("button", { type: "button", id: "replay-first", disabled: step === 0,
          onclick: () => go(0) }, "« ", t("replay.first")),
        h("button", { type: "button", id: "replay-prev", disabled: step === 0,
          onclick: () => go(step - 1) }, "◀ ", t("replay.prev")),
        h("button", { type: "button", id: "replay-next", disabled: step === last,
          onclick: () => go(step + 1) }, t("replay.next"), " ▶"),
        h("button", { type: "button", id: "replay-last", disabled: step === last,
          onclick: () => go(last) }, t("replay.last"), " »"),
        h("label", {}, h("span", { class: "sr-only" }, t("replay.jump")), jump),
        h("p", { id: "replay-step", tabindex: "-1", "aria-live": "polite" },
          t("replay.step", { step, last }), " · ", said)),
      verdict(frame),
      board(frame),
      frame.round_over && round ? breakdown(round) : null,
      reviewPanel(),
      step === last ? h("p", { class: "panel winner", id: "replay-winner" },
        t("replay.winner", { name: sideNames()[replay.winner] })) : null));
    if (focused) document.getElementById(focused)?.focus({ preventScroll: true });
  }

  async function load() {
    try {
      replay = await api(`/replays/${matchId}`);
    } catch (error) {
      problem = error.message;
    }
    render();
  }

  render();
  load();
  function close() {
    closed = true;
    clearTimeout(polling);
    document.removeEventListener("keydown", onKey);
  }

  return { render, close };
}
