// Offline play's runtime in the browser (issue 37): Pyodide and the pure scopa wheel, the files
// GET /api/offline lists, kept in a Cache Storage bucket of their own ("offline-runtime:" and
// the release of Pyodide and of the wheel), downloaded only when the person asks, never by the
// service worker (sw.js leaves the bucket alone). Each file is checked against its sha256 as
// it comes and before it runs (js/offlineworker.js): a corrupt or partial one is fetched again.
// `localSocket` gives js/table.js a table socket that is the worker, so the table is the same.

import { request } from "./api.js";
import { digestHex } from "./offlinehash.js";

export const PREFIX = "offline-runtime:";
const SUMMARY = "/api/offline";
const TRIES = 3;
// The bots' pause before each move, as the room's (scopa serve --bot-delay), in ms.
const BOT_DELAY = [500, 1000];
const WORKER = new URL("./offlineworker.js", import.meta.url);

// The bucket of this summary's files: a new Pyodide or a new wheel is a new bucket.
export function bucketName(summary) {
  return `${PREFIX}${summary.pyodide}+${summary.files[summary.wheel].sha256.slice(0, 16)}`;
}

// The buckets of offline play the browser keeps, newest last (normally one at most).
async function buckets() {
  return (await caches.keys()).filter((name) => name.startsWith(PREFIX));
}

// What the server offers (null when it cannot be reached) and what the browser keeps: the
// bucket, its summary, and whether every file of it was downloaded (not yet checked: the
// worker checks each file before running it).
export async function runtimeState() {
  let offered = null;
  try {
    offered = await (await request("GET", "/offline")).json();
  } catch {
    offered = null;  // offline, or a room without the route: what is kept may still play
  }
  for (const name of (await buckets()).reverse()) {
    const cache = await caches.open(name);
    const summary = await (await cache.match(SUMMARY))?.json();
    if (summary) return { offered, bucket: name, summary };
  }
  return { offered, bucket: null, summary: null };
}

async function fits(body, facts) {
  return body.byteLength === facts.size && await digestHex(body) === facts.sha256;
}

// One file's bytes, read as they come so the bytes so far are shown (`onBytes(n)`).
async function fetchBytes(url, onBytes) {
  const answer = await fetch(url, { cache: "no-store" });
  if (!answer.ok) throw new Error(`${url}: ${answer.status}`);
  const reader = answer.body.getReader();
  const parts = [];
  let got = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(value);
    got += value.byteLength;
    onBytes(got);
  }
  const body = new Uint8Array(got);
  let at = 0;
  for (const part of parts) {
    body.set(part, at);
    at += part.byteLength;
  }
  return { body, type: answer.headers.get("Content-Type") ?? "application/octet-stream" };
}

// Downloads what the bucket lacks, or keeps wrong, of `summary` (GET /api/offline's answer):
// `onProgress(bytes, total)` as it goes, in decoded bytes toward summary.bytes (a fetch's
// stream gives a gzipped file decoded, so its bytes on the wire, summary.wire, are not what
// can be counted here; a file already kept counts its size). A file whose hash is not the
// summary's is fetched again, up to TRIES times, then the download fails; the summary is
// kept last, so a new bucket is never played from before it is whole (a file damaged later is
// refused by the worker's own check). Other releases' buckets go once this one is whole.
export async function download(summary, onProgress = () => {}) {
  const name = bucketName(summary);
  const cache = await caches.open(name);
  const total = summary.bytes;
  let done = 0;
  for (const [file, facts] of Object.entries(summary.files)) {
    const url = `/offline/${file}`;
    const kept = await cache.match(url);
    if (!kept || !await fits(new Uint8Array(await kept.arrayBuffer()), facts)) {
      let good = false;
      for (let attempt = 0; attempt < TRIES && !good; attempt += 1) {
        const { body, type } = await fetchBytes(url, (bytes) => onProgress(done + bytes, total));
        good = await fits(body, facts);
        if (good) await cache.put(url, new Response(body, { headers: { "Content-Type": type } }));
      }
      if (!good) throw new Error(`${file}: not the file /api/offline describes`);
    }
    done += facts.size;
    onProgress(done, total);
  }
  await cache.put(SUMMARY, new Response(JSON.stringify(summary),
    { headers: { "Content-Type": "application/json" } }));
  for (const old of await buckets()) if (old !== name) await caches.delete(old);
  // The worker's script asked once now, so the service worker keeps it with the app's shell
  // and a match starts with no network later.
  await fetch(WORKER).catch(() => null);
  return name;
}

// The runtime removed: every bucket of offline play deleted.
export async function removeRuntime() {
  for (const name of await buckets()) await caches.delete(name);
}

// A worker running a local table from `bucket`: resolves with it once Python is up, or
// rejects with the damaged files' names (`error.damaged`) or the worker's failure.
export function startWorker(bucket, table) {
  const worker = new Worker(WORKER, { type: "module" });
  const ready = new Promise((resolve, reject) => {
    const first = ({ data }) => {
      if (data.type === "message") return;
      worker.removeEventListener("message", first);
      if (data.type === "ready") resolve(data);
      else {
        worker.terminate();
        const error = new Error(data.message ?? `damaged: ${data.files?.join(", ")}`);
        error.damaged = data.files ?? null;
        reject(error);
      }
    };
    worker.addEventListener("message", first);
    worker.addEventListener("error", (event) => {
      worker.terminate();
      reject(new Error(event.message || "the offline worker did not start"));
    });
  });
  worker.postMessage({ type: "start", bucket, table, delay: BOT_DELAY });
  return { worker, ready };
}

// What js/table.js calls a socket (js/socket.js's `openSocket`): `first()` sent at once and
// on `reconnect`, every answer to `onMessage`, `onLink(true)` at the first; a match's record
// goes to `onRecord` instead, for the page to keep and upload.
export function localSocket(worker, { first = null, onMessage = () => {}, onLink = () => {} },
  onRecord = () => {}) {
  let up = false;
  const listener = ({ data }) => {
    if (data.type !== "message") return;
    const message = data.message;
    if (message.type === "record") {
      onRecord(message);
      return;
    }
    if (!up) {
      up = true;
      onLink(true);
    }
    onMessage(message);
  };
  worker.addEventListener("message", listener);
  const send = (message) => {
    worker.postMessage({ type: "send", message });
    return true;
  };
  const hello = first?.();
  if (hello) send(hello);
  return {
    send,
    reconnect() {
      const again = first?.();
      if (again) send(again);
    },
    close() {
      worker.removeEventListener("message", listener);
      worker.terminate();
    },
  };
}
