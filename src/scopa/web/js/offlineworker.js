// Offline play's Web Worker (issue 37): Pyodide and the pure scopa wheel, read from the Cache
// Storage bucket js/offlineruntime.js filled, running scopa.local_table, the same core and
// bots as the room. A master's search takes a few hundred milliseconds; here it never holds
// up the page, which only posts the table socket's messages and hears the answers.
//
// The page posts {type: "start", bucket, table: {preset, players, teams, target, look, levels,
// name, seed}, delay: [low, high] (ms)} once, then {type: "send", message} for each message a
// table's socket would carry. The worker posts {type: "ready", seconds}, {type: "message",
// message} for each of the table's answers (the bots' moves each after a person-like pause),
// {type: "damaged", files} when a kept file is not what /api/offline said (never run: the page
// fetches it again), or {type: "failed", message}.
//
// Nothing is fetched: every file comes from the bucket, each checked against its sha256 before
// any of it runs, the modules imported from blob: URLs of those checked bytes, and fetch()
// answers Pyodide's own requests (the wasm, the standard library) from them too. The room
// sends this script with a Content-Security-Policy of its own that allows the WebAssembly.

import { digestHex } from "./offlinehash.js";

const INDEX = new URL("/offline/pyodide/", self.location.origin).href;
const SUMMARY = "/api/offline";
const TYPES = { mjs: "text/javascript", wasm: "application/wasm", zip: "application/zip",
  json: "application/json" };

let table = null;  // the Python functions of the table, once started
let booted = null;
let delay = [500, 1000];
let timer = null;
let prepared = false;

const post = (message) => self.postMessage(message);

// Every file the bucket keeps, checked against the summary kept with them.
async function keptFiles(bucket) {
  const cache = await caches.open(bucket);
  const summary = await (await cache.match(SUMMARY))?.json();
  if (!summary) return { files: null, damaged: ["manifest"] };
  const files = {};
  const damaged = [];
  await Promise.all(Object.entries(summary.files).map(async ([name, facts]) => {
    const kept = await cache.match(`/offline/${name}`);
    const body = kept ? new Uint8Array(await kept.arrayBuffer()) : null;
    if (!body || body.length !== facts.size || await digestHex(body) !== facts.sha256) {
      damaged.push(name);
    } else files[name] = body;
  }));
  return { summary, files, damaged };
}

const blobUrl = (body, type) => URL.createObjectURL(new Blob([body], { type }));
const typeOf = (name) => TYPES[name.split(".").pop()] ?? "application/octet-stream";

// Python's own start (its interpreter made, its first modules imported) is most of a boot:
// about 2 s of the 2.5 s to the first card. The first boot in a browser keeps a snapshot of
// the interpreter's memory just after it (Pyodide's memory snapshots), in the bucket beside
// the files; every later boot starts from it, in about a tenth of that time. It is made here,
// not downloaded (it belongs to this Pyodide build and this browser), kept with its SHA-256,
// and one that fails its hash or its start is thrown away and Python starts from nothing,
// making a new one. Taken before any scopa code runs, so it holds only Pyodide's own start;
// a snapshot fixes Python's string hashing seed, which no choice of the core or the bots
// depends on (tests/offline's differential test plays the same moves as native CPython,
// which seeds it at random).
const SNAPSHOT = "/offline/python-memory-snapshot";

async function keptSnapshot(cache) {
  const kept = await cache.match(SNAPSHOT);
  if (!kept) return null;
  const body = new Uint8Array(await kept.arrayBuffer());
  if (await digestHex(body) === kept.headers.get("X-SHA-256")) return body;
  await cache.delete(SNAPSHOT);
  return null;
}

async function startPython(loadPyodide, settings, bucket) {
  const cache = await caches.open(bucket);
  const snapshot = await keptSnapshot(cache);
  if (snapshot) {
    try {
      return await loadPyodide({ ...settings, _loadSnapshot: snapshot });
    } catch (error) {
      console.warn(`offline play's Python snapshot did not start (${error}): starting afresh`);
      await cache.delete(SNAPSHOT);
    }
  }
  const pyodide = await loadPyodide({ ...settings, _makeSnapshot: true });
  const made = pyodide.makeMemorySnapshot();
  // Kept while the match starts: the first card does not wait for 30 MB to be written.
  digestHex(made).then((sha) => cache.put(SNAPSHOT, new Response(made, {
    headers: { "Content-Type": "application/octet-stream", "X-SHA-256": sha } })))
    .catch((error) => console.warn(`offline play's Python snapshot was not kept (${error})`));
  return pyodide;
}

async function boot({ bucket, table: options, delay: wanted }) {
  const started = performance.now();
  if (wanted) delay = wanted;
  const { summary, files, damaged } = await keptFiles(bucket);
  if (damaged.length) return { damaged };
  // Pyodide's own requests, answered from the checked bytes; anything else is refused.
  self.fetch = async (input) => {
    const url = String(input?.url ?? input);
    const name = url.startsWith(INDEX) ? `pyodide/${url.slice(INDEX.length)}` : null;
    if (name && files[name]) {
      return new Response(files[name], { headers: { "Content-Type": typeOf(name) } });
    }
    throw new TypeError(`offline play fetches nothing (${url})`);
  };
  const { loadPyodide } = await import(blobUrl(files["pyodide/pyodide.mjs"], TYPES.mjs));
  const asm = await import(blobUrl(files["pyodide/pyodide.asm.mjs"], TYPES.mjs));
  const settings = {
    indexURL: INDEX,
    createPyodideModule: asm.default,
    lockFileContents: JSON.parse(new TextDecoder().decode(files["pyodide/pyodide-lock.json"])),
    stdout: () => {},
    stderr: (line) => console.warn(line),
  };
  const pyodide = await startPython(loadPyodide, settings, bucket);
  pyodide.unpackArchive(files[summary.wheel], "wheel");
  pyodide.globals.set("table_json", JSON.stringify(options));
  table = pyodide.runPython(`
import json
from scopa import Rules
from scopa.local_table import LocalTable

def _table(options):
    overrides = {key: options[key] for key in ("players", "teams", "target")
                 if options.get(key) is not None}
    return LocalTable(Rules.preset(options["preset"], **overrides), options["levels"],
                      options["seed"], name=options["name"], look=options["look"])

_local = _table(json.loads(table_json))
{"receive": lambda text: json.dumps(_local.receive(json.loads(text))),
 "bot": lambda: json.dumps(_local.play_bot()),
 "bot_to_move": lambda: _local.bot_to_move(),
 "prepare": lambda: _local.prepare()}
`).toJs({ dict_converter: Object.fromEntries });
  return { seconds: (performance.now() - started) / 1000 };
}

function answer(text) {
  for (const message of JSON.parse(text)) post({ type: "message", message });
  botsPlay();
}

// The bots play one move at a time, each after its pause, until the person's turn (or a
// round's end the table holds for them).
function botsPlay() {
  if (timer !== null || !table.bot_to_move()) return;
  const [low, high] = delay;
  timer = setTimeout(() => {
    timer = null;
    // Each bot move's time, as a User Timing measure: DevTools shows it in the worker's
    // track, and benchmarks/offline.py reads them beside the native master's.
    const started = performance.now();
    const text = table.bot();
    performance.measure("scopa:bot-move", { start: started });
    answer(text);
  }, low + Math.random() * (high - low));
}

self.addEventListener("message", async ({ data }) => {
  if (data.type === "start" && !booted) {
    // A Python error's message is its traceback: its last line says what went wrong.
    booted = boot(data).catch((error) => ({
      failed: String(error?.message ?? error).trim().split("\n").pop() }));
    const result = await booted;
    if (result.damaged) post({ type: "damaged", files: result.damaged });
    else if (result.failed) post({ type: "failed", message: result.failed });
    else post({ type: "ready", seconds: result.seconds });
  } else if (data.type === "send") {
    const result = await booted;
    if (table && !result?.damaged && !result?.failed) {
      answer(table.receive(JSON.stringify(data.message)));
      // Once the first deal is drawn, the bots' one-time work, while the person looks at
      // their hand (before any bot's pause is over): the master's first move stays a move.
      if (!prepared) {
        prepared = true;
        setTimeout(() => table.prepare(), 0);
      }
    }
  }
});
