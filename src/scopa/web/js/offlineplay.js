// Offline play's screen, "#/offline" (issue 37): download the runtime once (its progress in
// bytes), remove it, and play the computer at any level with the lobby's games and rules, with
// no network: the match runs in a Web Worker (js/offlineworker.js) and is shown by the same
// table as online (js/table.js), whose socket is the worker (js/offlineruntime.js's
// localSocket). Each finished match is kept in IndexedDB and uploaded to the account's history
// once online and logged in (js/offlinestore.js). Loaded on demand (js/main.js): nothing of
// it is in a first load. Its words are a catalogue of their own, i18n/offline/<language>.json.

import { whoAmI } from "./account.js";
import { LOOKS, PRESETS, PRESET_PLAYERS } from "./api.js";
import { h } from "./dom.js";
import { addWords, t } from "./i18n.js";
import { bucketName, download, localSocket, removeRuntime, runtimeState, startWorker }
  from "./offlineruntime.js";
import { keepMatch, keptMatches, uploadMatches } from "./offlinestore.js";
import { dealtLook, playerName } from "./prefs.js";
import { showTable } from "./table.js";

const LEVELS = ["random", "greedy", "expert", "master"];
const CODE = "OFFLINE";
const CHOICES = "scopa.offline.choices";

const megabytes = (bytes) => new Intl.NumberFormat(document.documentElement.lang,
  { maximumFractionDigits: 1 }).format(bytes / 1e6);
const number = (value) => new Intl.NumberFormat(document.documentElement.lang).format(value);

function select(id, values, label, chosen) {
  return h("select", { id }, values.map((value) =>
    h("option", { value: String(value), selected: String(value) === String(chosen) },
      label(value))));
}

function field(labelKey, control) {
  return h("label", { class: "field" }, h("span", {}, t(labelKey)), control);
}

export function showOfflinePlay(main) {
  let state = null;  // runtimeState(): what the room offers, what the browser keeps
  // [bytes, total] while downloading: bytes decoded so far toward the files' decoded size
  // (summary.bytes), as download() counts them (a fetch's stream gives a gzipped file
  // decoded); the download's size on the wire (summary.wire) is what the buttons say.
  let progress = null;
  let note = null;  // a sentence about the last thing done
  let problem = null;
  let starting = false;
  let table = null;  // the table screen, once a match is on
  let matches = [];
  let closed = false;
  let wordsOf = null;
  const kept = JSON.parse(localStorage.getItem(CHOICES) ?? "{}");

  // This screen's words, i18n/offline/<language>.json, added to the language's (and again
  // after another language is chosen): a first load does not carry them.
  async function words() {
    const language = document.documentElement.lang;
    if (wordsOf === language) return;
    const url = new URL(`../i18n/offline/${language}.json`, import.meta.url);
    const loaded = await (await fetch(url)).json();
    if (document.documentElement.lang === language) addWords(loaded);
    wordsOf = language;
  }

  async function refresh() {
    [state, matches] = await Promise.all([runtimeState(), keptMatches().catch(() => [])]);
    render();
  }

  // The runtime downloaded, or what the bucket keeps wrong fetched again.
  async function fetchRuntime() {
    const summary = state?.offered;
    if (!summary?.installed) return;
    problem = null;
    note = null;
    progress = [0, summary.bytes];
    render();
    try {
      await download(summary, (bytes, total) => {
        progress = [bytes, total];
        showProgress();
      });
      note = t("offline.ready_now");
    } catch (error) {
      problem = t("offline.download_failed", { reason: error.message });
    }
    progress = null;
    await refresh();
  }

  async function remove() {
    await removeRuntime();
    note = t("offline.removed");
    await refresh();
  }

  function readChoices() {
    const value = (name) => document.getElementById(`offline-${name}`).value;
    const choices = { preset: value("preset"), players: Number(value("players")),
      target: value("target") ? Number(value("target")) : null, look: value("look"),
      level: value("level") };
    localStorage.setItem(CHOICES, JSON.stringify(choices));
    return choices;
  }

  // A match: the worker started from the bucket; a damaged file is fetched again first when
  // the network is there, and never run.
  async function play(event) {
    event.preventDefault();
    const choices = readChoices();
    const seed = crypto.getRandomValues(new Uint32Array(2));
    const options = { ...choices, teams: null, levels: [choices.level],
      name: playerName() || t("lobby.guest"), seed: seed[0] * 2 ** 20 + (seed[1] >>> 12) };
    starting = true;
    problem = null;
    render();
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const { worker, ready } = startWorker(state.bucket, options);
      try {
        await ready;
      } catch (error) {
        if (error.damaged && attempt === 0 && navigator.onLine) {
          state = await runtimeState();
          if (state.offered?.installed && bucketName(state.offered) === state.bucket) {
            note = t("offline.damaged");
            await fetchRuntime();
            continue;
          }
        }
        starting = false;
        problem = error.damaged ? t("offline.damaged_offline")
          : t("offline.failed", { reason: error.message });
        render();
        return;
      }
      starting = false;
      if (closed) {
        worker.terminate();
        return;
      }
      table = showTable(main, CODE, (handlers) => localSocket(worker, handlers, finished));
      // The notice that playing waits for the network is not true of this table: hidden
      // while it is on, so on a phone the table is the screen.
      notice(false);
      return;
    }
  }

  function notice(shown) {
    const line = document.getElementById("offline");
    if (line) line.style.display = shown ? "" : "none";
  }

  // A match's end: kept first, then uploaded if the person is logged in and online.
  async function finished(message) {
    await keepMatch(message);
    uploadMatches(await whoAmI(true));
  }

  function showProgress() {
    const bar = document.getElementById("offline-progress");
    if (!bar || !progress) return;
    bar.value = progress[0];
    bar.max = progress[1];
    document.getElementById("offline-progress-text").textContent = t("offline.progress",
      { done: number(progress[0]), total: number(progress[1]) });
  }

  function runtimePanel() {
    const offered = state.offered;
    const ready = state.bucket !== null;
    const current = ready && offered?.installed && bucketName(offered) === state.bucket;
    // What comes over the network (gzipped where the room keeps a copy), and what it
    // unpacks to, which the browser keeps and the progress counts.
    const size = megabytes(offered?.wire ?? offered?.bytes ?? 0);
    let status;
    if (progress) status = t("offline.downloading");
    else if (ready) status = t("offline.ready", { size: megabytes(state.summary.bytes) });
    else if (offered && !offered.installed) status = t("offline.not_installed");
    else if (!offered) status = t("offline.needs_network");
    else status = t("offline.about", { size, unpacked: megabytes(offered.bytes) });
    return h("section", { class: "panel", id: "offline-runtime" },
      h("h2", {}, t("offline.title")),
      h("p", { id: "offline-status", role: "status" }, status),
      progress ? h("p", {}, h("progress", { id: "offline-progress", value: progress[0],
        max: progress[1] }), " ", h("span", { id: "offline-progress-text" })) : null,
      note ? h("p", { id: "offline-note", role: "status" }, note) : null,
      problem ? h("p", { class: "problem", role: "alert", id: "offline-problem" }, problem)
        : null,
      h("div", { class: "actions" },
        offered && !offered.installed && !ready ? h("button", { type: "button",
          id: "offline-download", disabled: true }, t("offline.not_installed")) : null,
        offered?.installed && !current ? h("button", { type: "button", class: "primary",
          id: "offline-download", disabled: Boolean(progress), onclick: fetchRuntime },
        ready ? t("offline.update", { size }) : t("offline.download", { size })) : null,
        ready ? h("button", { type: "button", id: "offline-remove", disabled: Boolean(progress),
          onclick: remove }, t("offline.remove")) : null));
  }

  function gamePanel() {
    const preset = kept.preset ?? "scopa";
    const presets = select("offline-preset", PRESETS, (p) => t(`preset.${p}`), preset);
    presets.addEventListener("change", () => {
      document.getElementById("offline-players").value =
        String(PRESET_PLAYERS[presets.value] ?? 2);
    });
    const ready = state.bucket !== null && !progress;
    return h("form", { class: "panel", id: "offline-game", onsubmit: play },
      h("h2", {}, t("lobby.computer")),
      field("lobby.game", presets),
      field("lobby.players", select("offline-players", [2, 3, 4, 6], String,
        kept.players ?? PRESET_PLAYERS[preset] ?? 2)),
      field("lobby.look", select("offline-look", LOOKS, (l) => t(`look.${l}`),
        kept.look ?? dealtLook())),
      field("lobby.target", h("input", { id: "offline-target", type: "number", min: "1",
        max: "99", placeholder: t("lobby.target_default"), inputmode: "numeric",
        value: kept.target ?? "" })),
      field("lobby.level", select("offline-level", LEVELS, (l) => t(`level.${l}`),
        kept.level ?? "random")),
      h("button", { type: "submit", class: "primary", id: "offline-play",
        disabled: !ready || starting }, starting ? t("offline.starting") : t("offline.play")));
  }

  function matchesPanel() {
    if (!matches.length) return null;
    const uploaded = matches.filter((match) => match.uploaded).length;
    return h("section", { class: "panel", id: "offline-matches" },
      h("h2", {}, t("offline.matches")),
      h("p", { id: "offline-matches-count" }, t("offline.matches_count",
        { played: number(matches.length), uploaded: number(uploaded) })),
      h("ul", {}, matches.filter((match) => match.problem).map((match) =>
        h("li", { class: "problem" }, t("offline.not_uploaded", {
          when: new Date(match.finished_at).toLocaleString(document.documentElement.lang),
          reason: match.problem })))));
  }

  async function render() {
    if (table || closed) {
      table?.render();
      return;
    }
    await words();
    if (table || closed) return;
    main.replaceChildren(state ? h("div", { class: "lobby offline-play" }, runtimePanel(),
      gamePanel(), matchesPanel()) : h("p", {}, t("offline.loading")));
    showProgress();
  }

  render();
  refresh();
  // What the room offers is asked again when the network comes or goes.
  addEventListener("online", refresh);
  addEventListener("offline", refresh);
  whoAmI().then((account) => uploadMatches(account)).then((after) => {
    if (after) {
      matches = after;
      render();
    }
  }, () => null);
  return {
    render,
    close() {
      closed = true;
      removeEventListener("online", refresh);
      removeEventListener("offline", refresh);
      table?.close();
      notice(true);
    },
  };
}
