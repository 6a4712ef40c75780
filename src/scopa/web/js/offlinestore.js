// The matches played offline (issue 37, item 4), kept in IndexedDB with their records until
// they are in the account's history: once online and logged in, each one not uploaded yet is
// sent to POST /api/offline/matches ({id, seat, opponents, look, record, finished_at}); a 200
// or 201, or a 409 (uploaded already, from this or another tab), marks it uploaded. Another
// refusal is kept with the match, in the room's words, and shown on offline play's screen: a
// 429 or a 5xx is tried again later, any other (an illegal or too large record) never is, as
// it would be refused the same each time.
//
// localStorage's "scopa.offline.waiting" says that some are waiting, so js/main.js loads this
// module to upload them only then, never on a first load.

import { loadRefusals, refusal, t } from "./i18n.js";

const DB = "scopa-offline";
const MATCHES = "matches";
export const WAITING = "scopa.offline.waiting";

function opened() {
  return new Promise((resolve, reject) => {
    const asked = indexedDB.open(DB, 1);
    asked.onupgradeneeded = () => asked.result.createObjectStore(MATCHES, { keyPath: "id" });
    asked.onsuccess = () => resolve(asked.result);
    asked.onerror = () => reject(asked.error);
  });
}

async function inStore(mode, work) {
  const db = await opened();
  try {
    return await new Promise((resolve, reject) => {
      const done = db.transaction(MATCHES, mode);
      const result = work(done.objectStore(MATCHES));
      done.oncomplete = () => resolve(result?.result);
      done.onerror = () => reject(done.error);
    });
  } finally {
    db.close();
  }
}

// Every match kept, oldest first.
export async function keptMatches() {
  const all = await inStore("readonly", (store) => store.getAll());
  return all.sort((a, b) => a.finished_at.localeCompare(b.finished_at));
}

const waiting = (match) => !match.uploaded && !match.refused;

function noteWaiting(matches) {
  if (matches.some(waiting)) localStorage.setItem(WAITING, "1");
  else localStorage.removeItem(WAITING);
}

// A finished match (the local table's `record` message), kept before anything else is tried.
export async function keepMatch(message) {
  const match = {
    id: crypto.randomUUID(), seat: message.seat, opponents: message.opponents,
    look: message.look, record: message.record, finished_at: new Date().toISOString(),
    uploaded: false, refused: false, problem: null,
  };
  await inStore("readwrite", (store) => store.put(match));
  localStorage.setItem(WAITING, "1");
  return match;
}

let uploading = null;

// Each match not uploaded yet, sent once online and logged in (`account`: whoAmI's answer).
// Resolves with the matches as kept afterwards.
export function uploadMatches(account) {
  uploading ??= (async () => {
    try {
      const matches = await keptMatches();
      if (!account || !navigator.onLine) return matches;
      for (const match of matches.filter(waiting)) {
        const body = { id: match.id, seat: match.seat, opponents: match.opponents,
          look: match.look, record: match.record, finished_at: match.finished_at };
        let answer;
        try {
          answer = await fetch("/api/offline/matches", { method: "POST",
            headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
        } catch {
          break;  // the network went: the rest wait for it
        }
        if (answer.ok || answer.status === 409) {
          match.uploaded = true;
          match.problem = null;
        } else {
          const data = await answer.json().catch(() => ({}));
          await loadRefusals();
          match.problem = refusal(data.code, data.params, data.detail ??
            t("refusal.status", { status: answer.status }));
          match.refused = answer.status !== 429 && answer.status < 500;
        }
        await inStore("readwrite", (store) => store.put(match));
        if (answer.status === 429) break;  // the account's limit: the rest wait too
      }
      noteWaiting(matches);
      return matches;
    } finally {
      uploading = null;
    }
  })();
  return uploading;
}
