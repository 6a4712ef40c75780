// The puzzles (issue 24): a position of a round's last deal, where every card is known and one
// move is strictly best (docs/puzzles.md). "#/puzzles" is the first one, "#/puzzles/PRESET/ID"
// one puzzle, "#/puzzles/PRESET/daily" the day's. A try is right or wrong at once; the answer
// plays the solver's line on the felt (with motion, or step by step without it), says why in
// one sentence built from the puzzle's themes and values, and what every move was worth.
// It loads when first opened (puzzlelink.js), with its styles, puzzles.css.
// A logged-in player has a puzzle rating (docs/puzzles.md): the first try of each puzzle moves
// it, the page says by how much, lists their latest tries, and "next" asks for a puzzle near
// their rating; a guest is told that logging in keeps one.

import { whoAmI } from "./account.js";
import { api, backOnline } from "./api.js";
import { cardButton, cardImage } from "./cardview.js";
import { h } from "./dom.js";
import { cardName, t } from "./i18n.js";
import { animate, motionWanted, notePlaces } from "./motion.js";
import { movesOfCard, parseMove } from "./moves.js";
import { chosenBack, dealtLook } from "./prefs.js";
import { pile } from "./seats.js";

// The games with puzzles, and the themes in the order the server lists them (THEMES).
export const PUZZLE_PRESETS = ["scopa", "escoba"];
export const THEMES = ["sweep", "deny_sweep", "settebello", "coins", "cards", "primiera",
  "sevens", "last_capture", "match", "lose_least"];
// Which theme says why, when a best move has several: the first of these it has.
const WHY_ORDER = ["match", "sweep", "deny_sweep", "settebello", "last_capture", "primiera",
  "sevens", "coins", "cards"];
// Escoba's names for the settebello and the primiera.
const ESCOBA_NAMES = { settebello: "velo", primiera: "setenta" };
// The pause between two steps of the line, in ms: after the cards' flight, or without motion
// the time to read each step's end state.
const STEP_PAUSE = { moving: 450, still: 1100 };
// The theme chosen last, kept while the page is open: "next" stays on it.
let chosenTheme = "";
// The latest tries the history shows; the server keeps them all and lists its own limit.
const HISTORY_SHOWN = 10;
// Whether the history is open, kept while the page is open; at first, open where there is room.
let historyOpen = null;

const RANK_VALUE = { A: 1, J: 8, Q: 9, K: 10 };
const valueOf = (card) => RANK_VALUE[card[0]] ?? Number(card[0]);
const signed = (n) => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "0");

export function themeName(theme, preset) {
  return t(`theme.${preset === "escoba" ? ESCOBA_NAMES[theme] ?? theme : theme}`);
}

// The position after `moves` of the line (each by the seats in turn from the seat to move):
// hands, table, piles' counts, sweeps and the last capturer, the leftovers taken at the end.
export function positionAfter(puzzle, moves) {
  const p = puzzle.position;
  const hands = [[], []];
  hands[p.seat] = [...p.hand];
  hands[1 - p.seat] = [...p.other_hand];
  const state = { hands, table: [...p.table], piles: p.piles.map((cards) => cards.length),
    sweeps: [...p.sweeps], last: p.last, played: null, sweptUp: [] };
  moves.forEach((code, k) => {
    const seat = (p.seat + k) % 2;
    const move = parseMove(code);
    state.hands[seat] = state.hands[seat].filter((card) => card !== move.card);
    const lastPlay = state.hands.every((hand) => hand.length === 0);
    if (move.captures.length) {
      state.table = state.table.filter((card) => !move.captures.includes(card));
      state.piles[seat] += move.captures.length + 1;
      state.last = seat;
      if (!state.table.length && (!lastPlay || puzzle.rules.last_play_sweep)) state.sweeps[seat] += 1;
    } else state.table.push(move.card);
    state.played = { seat, card: move.card, taken: move.captures, side: seat };
    if (lastPlay && state.last >= 0 && state.table.length) {
      state.sweptUp = state.table;
      state.piles[state.last] += state.table.length;
      state.table = [];
    }
  });
  return state;
}

// A move in words: "the seven of coins takes the three of coins + the four of hearts".
function moveWords(code, look) {
  const move = parseMove(code);
  const card = cardName(move.card, look);
  return move.captures.length
    ? t("puzzle.move_take", { card, cards: move.captures.map((c) => cardName(c, look)).join(" + ") })
    : t("puzzle.move_trail", { card });
}

// Why the best move is best, in one or two short sentences, from what its themes say and the
// moves' values: nothing is claimed that the themes do not.
export function whySentence(puzzle, answer, look) {
  const themes = answer.themes;
  const parts = [];
  const main = WHY_ORDER.find((theme) => themes.includes(theme));
  const after = positionAfter(puzzle, [answer.best]);
  const { table } = after;
  const fifteen = puzzle.rules.capture === "fifteen";
  if (main === "sweep") {
    const seat = puzzle.position.seat;
    const sweepsNow = after.sweeps[seat] > puzzle.position.sweeps[seat];
    parts.push(t(sweepsNow ? "why.sweep_now" : "why.sweep_more"));
  } else if (main === "deny_sweep") {
    const total = table.reduce((sum, card) => sum + valueOf(card), 0);
    parts.push(table.length ? t(fifteen ? "why.deny_fifteen" : "why.deny_sweep", { total })
      : t("why.deny_any"));
  } else if (main === "match") {
    parts.push(t("why.match", { target: puzzle.rules.target }));
  } else if (main) {
    const key = main === "primiera" && puzzle.preset === "escoba" ? "setenta" : main;
    parts.push(t(`why.${key}`, { card: cardName("7D", look) }));
  }
  const others = Object.entries(answer.values).filter(([code]) => code !== answer.best)
    .map(([, value]) => value);
  if (themes.includes("lose_least")) parts.push(t("why.lose_least"));
  else if (others.length && main !== "match") {
    parts.push(t("why.margin", { best: signed(answer.values[answer.best]),
      next: signed(Math.max(...others)) }));
  }
  return parts.join(" ");
}

function puzzlePath(preset, id, theme) {
  if (id === "daily") return `/puzzles/${preset}/daily`;
  if (id) return `/puzzles/${preset}/${encodeURIComponent(id)}`;
  return `/puzzles/${preset}/next${theme ? `?theme=${theme}` : ""}`;
}

// `hash` is "#/puzzles", "#/puzzles/PRESET", "#/puzzles/PRESET/ID" or "#/puzzles/PRESET/daily".
export function showPuzzles(main, hash) {
  const [, , presetPart, idPart] = hash.split("/");
  const s = {
    preset: PUZZLE_PRESETS.includes(presetPart) ? presetPart : PUZZLE_PRESETS[0],
    id: idPart ? decodeURIComponent(idPart) : null, daily: idPart === "daily",
    puzzle: null, answer: null, tried: null, pending: null, step: 0, problem: "", busy: false,
    me: null, mine: null,
  };
  historyOpen ??= window.matchMedia("(min-width: 641px)").matches;
  // Who is here: a logged-in player's rating and tries are asked for, and "next" goes near it.
  const known = whoAmI().then((me) => {
    s.me = me;
    loadMine();
  });
  let run = 0; // the line being played: a later try, puzzle or screen stops an earlier one
  const back = backOnline(); // a puzzle asked for offline is dealt when the network is back
  let timer = null;
  const look = () => dealtLook();
  const mine = () => s.puzzle.position.seat;
  const lineMoves = () => (s.answer ? [s.answer.best, ...s.answer.line] : []);

  async function load(path) {
    stopLine();
    const asked = run;
    s.busy = true;
    render();
    try {
      const puzzle = await api(path);
      if (asked !== run) return;
      back.done();
      Object.assign(s, { puzzle, answer: null, tried: null, pending: null, step: 0,
        problem: "", busy: false });
    } catch (error) {
      if (asked !== run) return;
      Object.assign(s, { problem: error.message, busy: false });
      if (error.unreachable) back.wait(() => load(path));
    }
    render();
  }

  // The player's rating and latest tries in this game (a guest has none).
  async function loadMine() {
    if (!s.me) return;
    const preset = s.preset;
    const mine = await api(`/puzzles/${preset}/mine`).catch(() => null);
    if (mine && preset === s.preset) {
      s.mine = mine;
      render();
    }
  }

  // The next puzzle (of the theme chosen; near a logged-in player's rating, one they have not
  // tried), shown at its own address without a second load.
  async function next() {
    await known;
    await load(`/puzzles/${s.preset}/next?${new URLSearchParams({
      ...(chosenTheme ? { theme: chosenTheme } : {}), ...(s.puzzle ? { after: s.puzzle.id } : {}),
      ...(s.me ? { near: "true" } : {}),
    })}`);
    if (s.puzzle) {
      s.daily = false;
      history.pushState(null, "", `#/puzzles/${s.preset}/${s.puzzle.id}`);
    }
  }

  function chooseTheme(event) {
    chosenTheme = event.target.value;
    s.puzzle = null;
    next();
  }

  function choosePreset(event) {
    s.preset = event.target.value;
    s.puzzle = null;
    s.mine = null;
    loadMine();
    next();
  }

  async function tryMove(code) {
    if (s.answer || s.busy) return;
    s.pending = null;
    s.busy = true;
    render();
    try {
      const answer = await api(`/puzzles/${s.preset}/${s.puzzle.id}/try`, { move: code });
      Object.assign(s, { answer, tried: code, busy: false, step: 0 });
      if (answer.player) {
        s.mine = s.mine && { ...s.mine, rating: answer.player.rating };
        loadMine();
      }
      render();
      document.getElementById("puzzle-verdict")?.focus();
      playLine();
    } catch (error) {
      Object.assign(s, { problem: error.message, busy: false });
      render();
    }
  }

  function chooseCard(card) {
    const moves = movesOfCard(s.puzzle.legal_moves, card);
    if (moves.length === 1) tryMove(moves[0].code);
    else if (moves.length > 1) {
      s.pending = card;
      render();
      document.querySelector(".puzzle .options button")?.focus();
    }
  }

  function stopLine() {
    run += 1;
    clearTimeout(timer);
  }

  // Step to `step` of the line, the cards moving from where they were unless motion is off.
  function showStep(step) {
    const felt = main.querySelector(".felt");
    const before = motionWanted() && felt ? notePlaces(felt) : null;
    s.step = step;
    render();
    const state = positionAfter(s.puzzle, lineMoves().slice(0, step));
    const root = main.querySelector(".felt");
    const moving = before && state.played ? animate(root, before, { play: state.played,
      sweptUp: state.sweptUp, sweptSide: state.last, draw: (card) => cardImage(card, look()) }) : 0;
    main.querySelector(".puzzle").dataset.moving = moving;
    return moving;
  }

  // The line from the position: the best move, then the solver's replies, one at a time.
  function playLine() {
    stopLine();
    const mine = run;
    const total = lineMoves().length;
    const onward = async (step) => {
      if (mine !== run || step > total) return;
      const moving = showStep(step);
      if (moving) await Promise.all(document.getAnimations().map((a) => a.finished.catch(() => null)));
      if (mine !== run || step === total) return;
      timer = setTimeout(() => onward(step + 1), moving ? STEP_PAUSE.moving : STEP_PAUSE.still);
    };
    showStep(0);
    timer = setTimeout(() => onward(1), STEP_PAUSE.still);
  }

  function stepTo(step) {
    stopLine();
    showStep(Math.max(0, Math.min(lineMoves().length, step)));
  }

  function bar() {
    const p = s.puzzle;
    return h("div", { class: "puzzle-bar" },
      h("h1", { id: "puzzle-title" }, s.daily ? t("puzzle.daily") : t("puzzle.title")),
      p ? h("span", { class: "puzzle-rating", id: "puzzle-rating" },
        t("puzzle.rating", { rating: p.rating })) : null,
      s.me && s.mine ? h("span", { class: "puzzle-rating mine", id: "puzzle-my-rating" },
        t("puzzle.my_rating", { rating: s.mine.rating?.rating ?? 1000 })) : null,
      h("label", {}, h("span", { class: "sr-only" }, t("lobby.game")),
        h("select", { id: "puzzle-preset", onchange: choosePreset }, PUZZLE_PRESETS.map((preset) =>
          h("option", { value: preset, selected: preset === s.preset }, t(`preset.${preset}`))))),
      h("label", {}, h("span", { class: "sr-only" }, t("puzzle.theme")),
        h("select", { id: "puzzle-theme", onchange: chooseTheme },
          h("option", { value: "" }, t("puzzle.any_theme")),
          THEMES.map((theme) => h("option", { value: theme, selected: theme === chosenTheme },
            themeName(theme, s.preset))))),
      h("button", { type: "button", class: "primary", id: "puzzle-next", onclick: next },
        chosenTheme ? t("puzzle.next_theme", { theme: themeName(chosenTheme, s.preset) })
          : t("puzzle.next")));
  }

  function who(name, side, state, toMove) {
    const p = s.puzzle.position;
    return h("div", { class: "who" },
      h("span", { class: "name" }, toMove ? "▶ " : "", name),
      h("span", { class: "tags" }, t("puzzle.match_score", { score: p.scores[side],
        target: s.puzzle.rules.target })),
      state.sweeps[side] ? h("span", { class: "tags" },
        t("puzzle.sweeps", { count: state.sweeps[side] })) : null);
  }

  function felt(state) {
    const p = s.puzzle.position;
    const me = mine();
    const toMove = (me + s.step) % 2;
    const over = state.hands.every((hand) => hand.length === 0);
    const playable = !s.answer && !s.busy;
    const options = s.pending ? movesOfCard(s.puzzle.legal_moves, s.pending) : [];
    const candidates = new Set(options.flatMap((move) => move.captures));
    const names = [t("table.you"), t("puzzle.them")];
    return h("div", { class: "felt", "data-players": "2" },
      h("div", { class: `seat opponent at-top${!over && toMove !== me ? " to-move" : ""}`,
        "data-seat": 1 - me, "data-side": 1 - me, role: "group", "aria-label": names[1] },
      who(names[1], 1 - me, state, !over && toMove !== me),
      h("div", { class: "other-hand", role: "group", "aria-label": t("puzzle.their_hand") },
        state.hands[1 - me].map((card) => cardImage(card, look()))),
      pile(1 - me, state.piles[1 - me], [], look(), names[1], chosenBack())),
      h("div", { class: "centre" },
        h("div", { class: "table-area" },
          h("div", { class: "table-cards", role: "group", "aria-label": t("table.table"),
            style: `--n: ${Math.max(1, state.table.length)}; --n2: ${
              Math.ceil(state.table.length / 2) || 1}; --n3: ${Math.ceil(state.table.length / 3) || 1}` },
          state.table.map((card) => {
            const image = cardImage(card, look());
            if (candidates.has(card)) image.classList.add("candidate");
            return image;
          }),
          state.table.length ? null : h("p", { class: "empty" }, t("table.empty"))))),
      h("div", { class: `seat me at-bottom${!over && toMove === me ? " to-move" : ""}`,
        "data-seat": me, "data-side": me, role: "group", "aria-label": names[0] },
      h("div", { class: "mine-aside" }, who(names[0], me, state, !over && toMove === me),
        pile(me, state.piles[me], [], look(), names[0], chosenBack())),
      s.pending ? h("div", { class: "above-hand" }, captureChoice()) : null,
      h("div", { class: `hand${playable ? " my-turn" : ""}`, role: "group",
        "aria-label": t("table.hand"), style: `--n: ${Math.max(1, state.hands[me].length)}` },
      state.hands[me].map((card) => cardButton(card, look(), {
        class: `card${playable ? " playable" : ""}${s.pending === card ? " picked" : ""}`,
        "aria-disabled": playable ? null : "true",
        "aria-pressed": s.pending === card ? "true" : null,
        onclick: () => (playable ? chooseCard(card) : null),
      })))));
  }

  function captureChoice() {
    const options = movesOfCard(s.puzzle.legal_moves, s.pending);
    return h("div", { class: "options", role: "group", "aria-label": t("table.choose") },
      h("p", {}, t("table.choose_with", { card: cardName(s.pending, look()) })),
      options.map((move, index) => h("button", { type: "button", class: "option",
        "data-move": move.code, onclick: () => tryMove(move.code) },
      `${index + 1}. ${t("table.take", { cards: move.captures.map((c) => cardName(c, look())).join(", ") })}`)),
      h("button", { type: "button", onclick: () => { s.pending = null; render(); } },
        t("table.cancel")));
  }

  // What the try did to the player's rating: by how much, or nothing for a second try or for
  // a puzzle this browser or address tried as a guest today (and saw the answer to); a guest
  // is told that logging in keeps a rating.
  function ratingChange(a) {
    if (!a.player) {
      return h("p", { class: "rating-change guest", id: "puzzle-rating-change" },
        h("a", { href: "#/account" }, t("puzzle.guest_unrated")));
    }
    const { before, after, counted, reason } = a.player;
    if (!counted) {
      return h("p", { class: "rating-change", id: "puzzle-rating-change", "data-counted": "false",
        "data-reason": reason },
      t(reason === "tried_as_guest" ? "puzzle.not_counted_guest" : "puzzle.not_counted",
        { rating: after }));
    }
    return h("p", { class: `rating-change ${after >= before ? "up" : "down"}`,
      id: "puzzle-rating-change", "data-counted": "true" },
    t("puzzle.rating_change", { before, after, change: signed(after - before) }));
  }

  // The player's latest counted tries: each puzzle, solved or missed, when, the rating it left.
  function historyList() {
    if (!s.me || !s.mine) return null;
    const tries = s.mine.tries.slice(0, HISTORY_SHOWN);
    return h("details", { class: "puzzle-history", id: "puzzle-history", open: historyOpen },
    h("summary", {}, t("puzzle.history", { tries: s.mine.rating?.tries ?? 0 })),
    tries.length ? h("ol", { class: "tries" }, tries.map((row) => h("li", {
      "data-puzzle": row.puzzle, class: row.right ? "right" : "wrong" },
    h("span", { class: "mark", "aria-label": t(row.right ? "puzzle.solved" : "puzzle.missed") },
      row.right ? "✓" : "✗"),
    h("a", { href: `#/puzzles/${s.preset}/${encodeURIComponent(row.puzzle)}` }, row.puzzle),
    h("time", { datetime: row.at, title: new Date(row.at).toLocaleString(document.documentElement.lang) },
      new Date(row.at).toLocaleDateString(document.documentElement.lang,
        { day: "numeric", month: "short" })),
    h("span", { class: "after" }, String(row.after)),
    h("span", { class: "change" }, signed(row.after - row.before)))))
      : h("p", {}, t("puzzle.history_none")));
  }

  // Before a try: what to do. After: right or wrong, why, the line step by step, the values.
  function side() {
    const a = s.answer;
    if (!a) {
      return h("aside", { class: "puzzle-side panel" },
        h("p", { class: "puzzle-task", id: "puzzle-task" }, t("puzzle.task")), historyList());
    }
    const moves = lineMoves();
    const me = mine();
    const ranked = Object.entries(a.values).sort((x, y) => y[1] - x[1]);
    return h("aside", { class: "puzzle-side panel", "aria-live": "polite" },
      h("p", { class: `verdict ${a.right ? "right" : "wrong"}`, id: "puzzle-verdict",
        tabindex: "-1", "data-right": a.right ? "true" : "false" },
      a.right ? t("puzzle.right") : t("puzzle.wrong")),
      ratingChange(a),
      h("p", { class: "best", id: "puzzle-best" }, t("puzzle.best", { move: moveWords(a.best, look()) })),
      h("p", { class: "why-puzzle", id: "puzzle-why" }, whySentence(s.puzzle, a, look())),
      h("p", { class: "themes" }, a.themes.map((theme) => h("span", { class: "theme-tag" },
        themeName(theme, s.preset)))),
      h("h2", {}, t("puzzle.values")),
      h("ul", { class: "values", id: "puzzle-values" }, ranked.map(([code, value]) =>
        h("li", { "data-move": code, class: [code === a.best ? "best" : null,
          code === a.move ? "tried" : null].filter(Boolean).join(" ") || null },
        h("span", { class: "value" }, signed(value)), h("span", {}, moveWords(code, look()),
          code === a.move ? ` · ${t("puzzle.your_move")}` : null)))),
      h("h2", {}, t("puzzle.line")),
      h("ol", { class: "line", id: "puzzle-line" }, moves.map((code, k) =>
        h("li", { class: k < s.step ? "played" : k === s.step ? "now" : null },
          t((me + k) % 2 === me ? "puzzle.by_you" : "puzzle.by_them",
            { move: moveWords(code, look()) })))),
      h("div", { class: "actions line-steps" },
        h("button", { type: "button", id: "puzzle-step-back", disabled: s.step === 0,
          "aria-label": t("puzzle.step_back"), onclick: () => stepTo(s.step - 1) }, "◀"),
        h("button", { type: "button", id: "puzzle-replay", onclick: playLine }, t("puzzle.replay")),
        h("button", { type: "button", id: "puzzle-step-on", disabled: s.step === moves.length,
          "aria-label": t("puzzle.step_on"), onclick: () => stepTo(s.step + 1) }, "▶")),
      historyList());
  }

  function render() {
    document.body.classList.add("at-puzzle");
    // The list as the player left it: read at once, as a render can come before its toggle event.
    const shown = main.querySelector("#puzzle-history");
    if (shown) historyOpen = shown.open;
    let content;
    if (!s.puzzle) {
      content = h("p", { class: s.problem ? "problem" : null, role: s.problem ? "alert" : null },
        s.problem || t("puzzle.loading"));
    } else {
      const state = positionAfter(s.puzzle, lineMoves().slice(0, s.step));
      content = h("div", { class: "puzzle-body" }, felt(state), side());
    }
    main.replaceChildren(h("section", { class: "puzzle", id: "puzzle",
      "data-puzzle": s.puzzle?.id ?? "", "data-step": s.step, "data-answered": s.answer ? "true" : "false" },
    bar(), s.puzzle && s.problem ? h("p", { class: "problem", role: "alert" }, s.problem) : null,
    content));
  }

  if (s.id) load(puzzlePath(s.preset, s.id));
  else next();
  return {
    render,
    close() {
      stopLine();
      back.cancel();
      document.body.classList.remove("at-puzzle");
    },
  };
}
