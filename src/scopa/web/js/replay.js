// The replay of a finished match, "#/m/ID" (a link to share): step through it move by move with
// the buttons or the ← and → keys, jump to a round, every hand shown (the match is over), and
// each round's breakdown at its end. The frames come from the server (GET /api/replays/ID),
// which plays the match again with the core: the browser needs no rules of its own.
// It is drawn as the table is (issue 22, item 5): the felt, the same card art, every hand face
// up at its seat, the cards moving from step to step (not under reduced motion), the round's
// breakdown on the felt at its end, and the master's marks on the cards played. It loads when
// first opened (replaylink.js), with its styles, replay.css.

import { api, matchToken } from "./api.js";
import { roundTable } from "./breakdown.js";
import { backSvg } from "./cards.js";
import { cardImage } from "./cardview.js";
import { h } from "./dom.js";
import { cardName, decimal, t } from "./i18n.js";
import { animate, motionWanted, notePlaces } from "./motion.js";
import { parseMove } from "./moves.js";
import { chosenBack, chosenLook } from "./prefs.js";
import { pile, pileKeepers, placeOf } from "./seats.js";

// How often the page asks how far a running review is, in milliseconds.
const REVIEW_POLL_MS = 700;

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

export function showReplay(main, matchId, { offline = false } = {}) {
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

  // One step on is shown moving (the card played from its hand, what it took to the pile, a
  // new deal from the deck); a jump, a step back or reduced motion shows the step's end state.
  function go(to) {
    if (!replay) return;
    const from = step;
    step = Math.max(0, Math.min(replay.frames.length - 1, to));
    const felt = main.querySelector(".replay-felt");
    const before = step === from + 1 && motionWanted() && felt ? notePlaces(felt) : null;
    render();
    const frame = replay.frames[step];
    const root = main.querySelector(".replay-felt");
    if (before && root) {
      const play = frame.move === null ? null : (() => {
        const move = parseMove(frame.move);
        return { seat: frame.seat, card: move.card, taken: move.captures,
          side: sideOf(replay.players[frame.seat]) };
      })();
      root.dataset.moving = animate(root, before, { play,
        draw: (code) => cardImage(code, deckLook()) });
    }
    document.getElementById("replay-step")?.focus({ preventScroll: true });
  }

  function sideNames() {
    const sides = replay.scores.length;
    return Array.from({ length: sides }, (_, side) => replay.players
      .filter((player) => player.seat % sides === side).map((player) => player.name).join(" & "));
  }

  function sideOf(player) {
    return player.side ?? player.seat % replay.scores.length;
  }

  // The round's breakdown, on the felt at the round's end (breakdown.js's table).
  function breakdown(round) {
    return h("section", { class: "over replay-breakdown", id: "replay-breakdown",
      "aria-labelledby": "replay-breakdown-title" },
    h("h3", { id: "replay-breakdown-title" }, t("breakdown.title", { round: round.number })),
    h("div", { class: "breakdown-scroll" },
      roundTable(round.scores, sideNames(), replay.rules?.name ?? "scopa")));
  }

  // The master's mark on a card played: a coloured badge with its word.
  function markBadge(move) {
    return h("span", { class: `review-mark ${move.mark}`, "data-mark": move.mark },
      t(`mark.${move.mark}`));
  }

  // The move just played, as cards: the card played (with the master's mark when judged) and
  // what it took. Not data-card: the cards' own places are the hands, the table and the piles.
  function playedStrip(frame) {
    if (frame.move === null) return h("div", { class: "replay-played", id: "replay-played" });
    const move = parseMove(frame.move);
    const judgedMove = frame.number === undefined ? null : judged.get(frame.number);
    const shown = (code) => {
      const image = cardImage(code, deckLook());
      image.removeAttribute("data-card");
      image.dataset.cardShown = code;
      return image;
    };
    const card = shown(move.card);
    card.classList.add("played-card");
    if (judgedMove && judgedMove.mark !== "forced") card.append(markBadge(judgedMove));
    return h("div", { class: "replay-played", id: "replay-played", role: "group",
      "aria-label": t("replay.played_label") },
    card, move.captures.length ? h("span", { class: "takes", "aria-hidden": "true" }, "×") : null,
    move.captures.map((code) => {
      const taken = shown(code);
      taken.classList.add("taken");
      return taken;
    }),
    frame.sweep ? h("span", { class: "sweep-tag" }, t("table.sweep")) : null);
  }

  function seatBox(player, frame, bottom, keepers) {
    const look = deckLook();
    const side = sideOf(player);
    const place = placeOf(player.seat, bottom, replay.players.length);
    const played = frame.seat === player.seat;
    const sweeps = frame.sweeps[side] ?? 0;
    const who = h("div", { class: "who" },
      h("span", { class: "name" }, seatName(player)),
      sweeps ? h("span", { class: "tags" }, t("replay.sweeps", { count: sweeps })) : null);
    const cards = frame.hands[player.seat];
    const hand = h("div", { class: "replay-hand", role: "group", "aria-label": seatName(player),
      style: `--n: ${Math.max(3, cards.length)}` }, cards.map((code) => cardImage(code, look)));
    const keeps = keepers.get(side) === player.seat ? pile(side, frame.piles[side] ?? 0, [], look,
      sideNames()[side], chosenBack()) : null;
    return h("div", { class: `seat replay-seat at-${place}${played ? " just-played" : ""}`,
      "data-seat": player.seat, "data-side": side, role: "group",
      "aria-label": seatName(player) }, who, hand, keeps);
  }

  function board(frame, round) {
    const bottom = replay.players.some((p) => p.seat === reviewSeat) ? reviewSeat : 0;
    const keepers = pileKeepers(replay.players.map((p) => ({ seat: p.seat, side: sideOf(p) })),
      bottom);
    const count = Math.max(1, frame.table.length);
    return h("div", { class: "felt replay-felt", id: "felt",
      "data-players": replay.players.length },
    replay.players.map((player) => seatBox(player, frame, bottom, keepers)),
    h("div", { class: "centre" },
      playedStrip(frame),
      h("div", { class: "table-area" },
        h("div", { class: "deck", id: "deck", role: "img",
          "aria-label": t("table.deck", { count: frame.stock }),
          title: t("replay.stock", { count: frame.stock }) },
        frame.stock ? [h("span", { class: "card back", html: backSvg(chosenBack()) }),
          h("span", { class: "count", "aria-hidden": "true" }, String(frame.stock))] : null),
        h("div", { class: "table-cards", role: "group", "aria-label": t("table.table"),
          style: `--n: ${count}; --n2: ${Math.ceil(count / 2)}; --n3: ${Math.ceil(count / 3)}` },
        frame.table.map((code) => cardImage(code, deckLook())),
        frame.table.length ? null : h("p", { class: "empty" }, t("table.empty")))),
      frame.round_over && round?.scores?.length ? breakdown(round) : null));
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
          t("review.worst", { round: move.round + 1, played: moveWords(move.played, deckLook()),
            best: moveWords(move.best, deckLook()), mark: t(`mark.${move.mark}`) })));
        })) : h("p", {}, t("review.clean"))) : null);
  }

  // The judgement of the move just played, when it is one the review looked at.
  function verdict(frame) {
    const move = frame.number === undefined ? null : judged.get(frame.number);
    if (!move || move.mark === "forced") return null;
    // A share of the match's chance, plainly: "about 8%" (a tenth under 1%, not "about 0%").
    const percent = move.cost * 100;
    const cost = percent < 1 ? decimal(percent) : String(Math.round(percent));
    return h("p", { class: `verdict ${move.mark}`, id: "verdict" },
      h("span", { class: "mark" }, t(`mark.${move.mark}`)), " ",
      move.played === move.best ? t("review.same") : t("review.better",
        { best: moveWords(move.best, deckLook()), cost }));
  }

  // "Bruno resigned." before the winner, when the match was given up.
  function resignedWords() {
    const seat = replay.resigned;
    const player = seat === null || seat === undefined ? null
      : replay.players.find((p) => p.seat === seat);
    return player ? h("span", { class: "resigned", id: "replay-resigned" },
      t("replay.resigned", { name: player.name }), " ") : null;
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
    const share = new URL(`${offline ? "#/offline/" : "#/m/"}${matchId}`, location.href).href;
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
      board(frame, round),
      step === last ? h("p", { class: "panel winner", id: "replay-winner" },
        resignedWords(), t("replay.winner", { name: sideNames()[replay.winner] })) : null,
      offline ? null : reviewPanel()));
    if (focused) document.getElementById(focused)?.focus({ preventScroll: true });
  }

  async function load() {
    try {
      replay = await api(offline ? `/offline/matches/${matchId}` : `/replays/${matchId}`);
      // A deleted account's seat has no name: it reads "deleted player" in the reader's words.
      for (const player of replay.players) {
        if (player.deleted) player.name = t("account.deleted_player");
      }
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
