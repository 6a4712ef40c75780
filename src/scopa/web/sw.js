// The service worker: the app shell kept in the browser, so that a return visit starts from it
// without asking the network for a file, and so that with no network the page still opens,
// with the rules and the replays last watched.
//
// It is served from the client's versioned folder (/v/<version>/sw.js, allowed to control "/"),
// so a new release is a new worker, with a cache of its own; the old one's is deleted.
// - the page ("/"): the network first, so a new release is seen at once; the kept copy when
//   there is no network;
// - the versioned files: from the cache (they never change under their name), else fetched
//   and kept;
// - a replay (GET /api/replays/ID): the network first, the last KEPT_REPLAYS kept for later;
// - everything else (the lobby's API, the tables' sockets): the network, untouched.
//
// Offline play's runtime (Pyodide and the wheel, /offline/...) is never precached nor kept
// here: js/offlineruntime.js downloads it into a bucket of its own ("offline-runtime:...")
// when the person asks, and this worker never opens nor deletes that bucket. Only once such a
// bucket exists does a new release's shell also keep offline play's own modules (OFFLINE_SHELL,
// a few kilobytes), so the match still starts with no network after an update.
//
// Web Push: a push (from the room, docs/protocol.md "Notifications") is shown in the reader's
// language, the one the account page wrote to the "push" cache (js/push.js), else the
// browser's, with the words of i18n/push/<language>.json (kept with the shell) and the games'
// names of the main catalogue; its tag replaces the last notification of that match and kind.
// A click focuses a window already at its URL (any of the room's for "/"), or takes one of
// the room's windows there, or opens one (lila's service worker).

const PREFIX = new URL("./", self.location.href).pathname;
const SHELL = `shell:${PREFIX}`;
const REPLAYS = "replays";
const KEPT_REPLAYS = 12;
const PAGE = "/";
const LANGUAGES = ["en", "it", "es", "sl", "tr"];
const REPLAY = /^\/api\/replays\/\d+$/;
const OFFLINE_BUCKET = "offline-runtime:";
const OFFLINE_SHELL = ["js/offlineplay.js", "js/offlineruntime.js", "js/offlineworker.js",
  "js/offlinehash.js", "js/offlinestore.js", ...LANGUAGES.map((l) => `i18n/offline/${l}.json`)];

// The page, and every versioned file it names (its styles, modules, icon and manifest), and
// every language's catalogue and rules: a language chosen offline still has its words.
async function keepShell() {
  const cache = await caches.open(SHELL);
  const page = await fetch(PAGE, { cache: "no-cache" });
  const html = await page.clone().text();
  const named = [...html.matchAll(/(?:href|src)="([^"]+)"/g)].map((match) => match[1])
    .filter((url) => url.startsWith(PREFIX));
  const words = LANGUAGES.flatMap((language) => [`${PREFIX}i18n/${language}.json`,
    `${PREFIX}i18n/push/${language}.json`, `${PREFIX}rules/${language}.html`]);
  const asked = (await caches.keys()).some((name) => name.startsWith(OFFLINE_BUCKET));
  const offline = asked ? OFFLINE_SHELL.map((name) => `${PREFIX}${name}`) : [];
  await cache.addAll([...new Set([...named, ...words, ...offline])]);
  await cache.put(PAGE, page);
}

self.addEventListener("install", (event) => {
  if (PREFIX.startsWith("/v/")) event.waitUntil(keepShell().then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith("shell:") && name !== SHELL) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

async function pageFirstFromNetwork(request) {
  try {
    const answer = await fetch(request);
    if (answer.ok) (await caches.open(SHELL)).put(PAGE, answer.clone());
    return answer;
  } catch (error) {
    const kept = await caches.match(PAGE, { cacheName: SHELL });
    if (kept) return kept;
    throw error;
  }
}

async function versioned(request) {
  const cache = await caches.open(SHELL);
  const kept = await cache.match(request, { ignoreVary: true });
  if (kept) return kept;
  const answer = await fetch(request);
  if (answer.ok) cache.put(request, answer.clone());
  return answer;
}

async function replay(request) {
  const cache = await caches.open(REPLAYS);
  try {
    const answer = await fetch(request);
    if (answer.ok) {
      // Put last, so the keys are oldest first: the oldest go once there are too many.
      await cache.delete(request);
      await cache.put(request, answer.clone());
      const keys = await cache.keys();
      for (const old of keys.slice(0, Math.max(0, keys.length - KEPT_REPLAYS))) {
        await cache.delete(old);
      }
    }
    return answer;
  } catch (error) {
    const kept = await cache.match(request);
    if (kept) return kept;
    throw error;
  }
}

self.addEventListener("fetch", (event) => {
  // Only a worker of a versioned folder caches: under any other name it would keep files
  // that change.
  if (!PREFIX.startsWith("/v/")) return;
  const { request } = event;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (request.mode === "navigate" && (url.pathname === PAGE || url.pathname === "/index.html")) {
    event.respondWith(pageFirstFromNetwork(request));
  } else if (url.pathname.startsWith(PREFIX)) {
    event.respondWith(versioned(request));
  } else if (REPLAY.test(url.pathname)) {
    event.respondWith(replay(request));
  }
});

// The reader's language: the one the account page chose, else the browser's first we speak.
async function readerLanguage() {
  const kept = await caches.match("/push/language", { cacheName: "push" });
  const chosen = kept ? await kept.text() : null;
  if (LANGUAGES.includes(chosen)) return chosen;
  const spoken = (self.navigator.languages ?? []).map((tag) => tag.slice(0, 2).toLowerCase());
  return spoken.find((language) => LANGUAGES.includes(language)) ?? "en";
}

// A catalogue of this release, from the shell, else from the network (a push comes online).
async function catalogue(path) {
  try {
    return await (await versioned(new Request(`${PREFIX}${path}`))).json();
  } catch {
    return {};
  }
}

async function showPush(push) {
  const language = await readerLanguage();
  const [words, main] = await Promise.all([catalogue(`i18n/push/${language}.json`),
    catalogue(`i18n/${language}.json`)]);
  const params = { ...push.params };
  if (params.preset) params.game = main[`preset.${params.preset}`] ?? params.preset;
  // A push about a correspondence match carries its days a move: its words, where a kind has
  // words of its own for that (a challenge waits two weeks, not a minute), are push.<kind>.days.*.
  const wordsOf = (part) => (params.days && words[`push.${push.kind}.days.${part}`] !== undefined
    ? `push.${push.kind}.days.${part}` : `push.${push.kind}.${part}`);
  const fill = (key) => (words[key] ?? "").replace(/\{(\w+)\}/g,
    (_, name) => String(params[name] ?? ""));
  const title = fill(wordsOf("title")) || main["app.title"] || "Scopa";
  await self.registration.showNotification(title, {
    body: fill(wordsOf("body")), tag: push.tag, renotify: Boolean(push.tag),
    lang: language, icon: `${PREFIX}icons/icon-192.png`, data: { url: push.url ?? "/" },
  });
}

self.addEventListener("push", (event) => {
  let push = {};
  try {
    push = event.data?.json() ?? {};
  } catch {
    // Not the room's JSON: shown with the room's name alone, as a push must be.
  }
  event.waitUntil(showPush(push));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const target = new URL(event.notification.data?.url ?? "/", self.location.origin).href;
  event.waitUntil((async () => {
    const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
    // The room's own page ("/": a challenge, which every page of the room is offered) is any
    // window of the room; another (a table, a tournament) is the window already there.
    const root = new URL("/", self.location.origin).href;
    const there = windows.find((client) => client.url === target || target === root);
    if (there) return there.focus();
    for (const client of windows) {
      try {
        const moved = await client.navigate(target);
        if (moved) return moved.focus();
      } catch {
        // Not controlled by this worker: it cannot be taken there; try the next, or open one.
      }
    }
    return self.clients.openWindow(target);
  })());
});
