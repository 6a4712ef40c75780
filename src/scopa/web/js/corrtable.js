// A correspondence table's clock of days (issue 36, item 4), for a player at a table of theirs
// played by correspondence: loaded by js/gamesbadge.js, which found the match among theirs,
// so a live table's first load never fetches it. It follows the table's redraws of #main
// (js/tableview.js replaces the screen on each) and adds to each:
// - on the felt, the time left for the mover ("Your move: 2 days, 5 hours left"), the vacation
//   days spent on the turn ("+24 h" each), and once the mover is out of time, "Claim the win"
//   for the one who waits or a sentence for the late mover;
// - in the table's menu, what happens if the opponent runs out of time (win, or wait for
//   them), and no "Leave": a correspondence seat is kept (the room refuses to let it go), so
//   resign instead.
// The clock is asked again from /api/correspondence/tables/CODE whenever the table shows a new
// state. With less than a fifth of your time left on your move, the page's title says so.

import { api, request } from "./api.js";
import { h } from "./dom.js";
import { days, duration, extraHours, gameWords, onNewWords, refreshBadge, say }
  from "./gamesbadge.js";
import { t } from "./i18n.js";

const LOW = 0.2; // the share of the mover's time under which the title calls them
const TICK = 15_000;

// Follow the table at `code` in `main`, where the player sits at `game.seat` (an entry of
// GET /api/correspondence), until the page goes elsewhere.
export function daysClock(main, code, game) {
  const here = `#/t/${code}`;
  const seat = game.seat;
  let clock = null;
  let since = 0; // performance.now() when the clock came
  let shownAt = null; // the match and version on screen when the clock was last asked
  let asking = null;
  let again = false; // a new state came while the clock was asked: asked once more
  let behind = 0; // answers in a row older than the state on screen
  let problem = null;
  let titled = false; // whether this page set the title, to put it back after

  const board = () => main.querySelector("#board");
  const version = () => Number(board()?.dataset.version ?? -1);
  const left = () => Math.max(0, (clock.seconds_left ?? 0) - (performance.now() - since) / 1000);
  const playing = () => clock?.status === "playing" && !main.querySelector("#over");
  const mine = () => clock.mover === seat;
  const opponent = () => game.opponents.join(", ");

  function ask() {
    if (asking) {
      again = true;
      return;
    }
    asking = Promise.all([gameWords(), api(`/correspondence/tables/${code}`)])
      .then(([, found]) => {
        clock = found;
        since = performance.now();
      }, () => null)
      .finally(() => {
        asking = null;
        // The clock is set just after the move is stored: an answer older than the state on
        // screen is asked again in a moment (a few times at most).
        const stale = clock !== null && clock.version < version() && behind < 5;
        behind = stale ? behind + 1 : 0;
        if (again || stale) setTimeout(ask, stale ? 600 : 0);
        again = false;
        draw();
        refreshBadge();
      });
  }

  async function act(method, path, body) {
    try {
      const answer = await request(method, `/correspondence/tables/${code}/${path}`, body);
      clock = await answer.json();
      since = performance.now();
      problem = null;
    } catch (error) {
      problem = error.message;
    }
    draw();
  }

  // Whose move and the time left, or who ran out of time.
  function clockWords() {
    if (clock.overdue) {
      return mine() ? say("overdue_late", { name: opponent() })
        : say("overdue_waiting", { name: opponent() });
    }
    const time = duration(left());
    return mine() ? say("clock_you", { time }) : say("clock_other", { name: opponent(), time });
  }

  const low = () => playing() && mine() && !clock.overdue && clock.deadline !== null &&
    left() < LOW * clock.days * 86400;

  function clockBox() {
    return h("div", { class: `days-clock${mine() ? " mine" : ""}${low() ? " low" : ""}${
      clock.overdue ? " overdue" : ""}`, id: "days-clock", "data-mover": clock.mover },
    h("p", { class: "days-left", id: "days-left", role: "timer" }, clockWords()),
    clock.vacation ? h("p", { class: "days-vacation", id: "days-vacation" },
      say("vacation", { days: days(clock.vacation), hours: extraHours(clock.vacation) }))
      : null,
    clock.overdue && !mine() ? h("button", { type: "button", class: "primary",
      id: "claim-win", onclick: () => act("POST", "claim") }, say("claim")) : null,
    problem ? h("p", { class: "problem", role: "alert" }, problem) : null);
  }

  // What happens if the opponent runs out of time: one of two, in the table's menu.
  function patience() {
    const waits = clock.patient.includes(seat);
    const choice = (wait, key) => h("label", { class: "check" },
      h("input", { type: "radio", name: "patience", id: `patience-${wait ? "wait" : "win"}`,
        checked: waits === wait, onchange: () => act("PUT", "patience", { wait }) }),
      " ", say(key));
    return h("fieldset", { class: "patience", id: "patience" },
      h("legend", {}, say("patience")), choice(false, "patience_win"),
      choice(true, "patience_wait"));
  }

  function title() {
    if (clock && low() && location.hash === here) {
      if (!document.title.startsWith("●")) {  // a call back (js/callback.js) comes first
        document.title = `⏰ ${say("title_alarm", { time: duration(left()) })}`;
        titled = true;
      }
    } else if (titled) {
      document.title = t("app.title");
      titled = false;
    }
  }

  // A part put in place of the last one drawn (the keyboard's focus kept on it), or added.
  function place(part, id, where) {
    const old = document.getElementById(id);
    const focused = old?.contains(document.activeElement) ? document.activeElement.id : null;
    if (old) old.replaceWith(part);
    else where(part);
    if (focused) document.getElementById(focused)?.focus();
  }

  // The table's screen, as last redrawn, with this clock's parts.
  function draw() {
    observer.disconnect();
    main.querySelector("#leave")?.remove();
    title();
    const centre = main.querySelector("#board .centre");
    if (clock && playing() && centre) place(clockBox(), "days-clock", (box) => centre.prepend(box));
    else document.getElementById("days-clock")?.remove();
    const rules = main.querySelector("#table-menu a[href='#/rules']");
    if (clock && playing() && rules) place(patience(), "patience", (set) => rules.before(set));
    observer.observe(main, { childList: true });
  }

  // Each redraw of the table: a new state asks for the clock again.
  const observer = new MutationObserver(() => {
    if (location.hash !== here) {
      stop();
      return;
    }
    const at = `${board()?.dataset.match}:${version()}`;
    if (board() && at !== shownAt) {
      if (shownAt !== null) ask();
      shownAt = at;
    }
    draw();
  });

  const ticker = setInterval(() => {
    if (location.hash !== here) {
      stop();
      return;
    }
    if (!clock || !playing()) return;
    const words = document.getElementById("days-left");
    if (words) words.textContent = clockWords();
    title();
    // Out of time by this page's reckoning: the room's sweep decides; asked again.
    if (!clock.overdue && clock.deadline !== null && left() === 0) ask();
  }, TICK);

  const unwords = onNewWords(() => draw());

  function stop() {
    unwords();
    observer.disconnect();
    clearInterval(ticker);
    title();
  }

  shownAt = board() ? `${board().dataset.match}:${version()}` : null;
  observer.observe(main, { childList: true });
  ask();
}
