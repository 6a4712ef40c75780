// Web Push on the account page ("Notifications when the room is closed"), loaded with it:
// the "Notify me" button subscribes this browser (PushManager.subscribe with the room's VAPID
// key, GET /api/push/key), and only when pressed, never on load; the subscription is posted
// to /api/push/subscriptions, and posted again at each visit of the page so that the room
// knows it is still in use (it pushes to an account's 5 most recently seen). Each kind of
// notification is a switch of its own (PUT /api/push/kinds). The service worker (sw.js) shows
// what arrives in the language this page writes to the "push" cache. Its words are a catalogue
// of their own, i18n/push/<language>.json, which sw.js reads too.

import { api, problemLine, problemOf, request } from "./api.js";
import { h } from "./dom.js";
import { addWords, t } from "./i18n.js";

const KINDS = ["challenge", "tournament_start", "your_turn", "time_alarm", "pool_match"];
const LANGUAGE = "/push/language"; // in the "push" cache: the reader's language, for sw.js

export function pushSupported() {
  return "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
}

let wordsOf = null;

// This panel's words, added to the language's (and again after another language is chosen).
export async function pushWords() {
  const language = document.documentElement.lang || "en";
  if (wordsOf === language) return;
  const url = new URL(`../i18n/push/${language}.json`, import.meta.url);
  const loaded = await (await fetch(url)).json();
  if (document.documentElement.lang === language) addWords(loaded);
  wordsOf = language;
  // The service worker words notifications in the language the reader chose here.
  const cache = await caches.open("push");
  await cache.put(LANGUAGE, new Response(language));
}

async function subscription() {
  const worker = await navigator.serviceWorker.getRegistration("/");
  return worker ? worker.pushManager.getSubscription() : null;
}

// The browser's key as PushManager takes it: the bytes of the base64url text.
function keyBytes(text) {
  const plain = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(plain, (letter) => letter.charCodeAt(0));
}

// The panel: `onChange` draws the page again once the state changed.
export function pushPanel(onChange) {
  let state = { subscribed: false, kinds: null, problem: null, loaded: false };

  async function look() {
    try {
      await pushWords();
      const found = pushSupported() ? await subscription() : null;
      if (found && Notification.permission === "granted") {
        // Seen again: it stays among the ones pushed to.
        const kept = await api("/push/subscriptions", found.toJSON());
        state = { ...state, subscribed: true, kinds: kept.kinds };
      } else {
        state = { ...state, subscribed: false };
      }
    } catch (error) {
      state = { ...state, problem: problemOf(error) };
    }
    state.loaded = true;
    onChange();
  }

  async function act(action) {
    try {
      await action();
      state.problem = null;
    } catch (error) {
      state.problem = problemOf(error);
    }
    onChange();
  }

  const subscribe = () => act(async () => {
    if (await Notification.requestPermission() !== "granted") {
      state.subscribed = false;
      return;
    }
    const { key } = await api("/push/key");
    const worker = await navigator.serviceWorker.ready;
    const made = await worker.pushManager.subscribe({ userVisibleOnly: true,
      applicationServerKey: keyBytes(key) });
    try {
      const kept = await api("/push/subscriptions", made.toJSON());
      state = { ...state, subscribed: true, kinds: kept.kinds };
    } catch (error) {
      await made.unsubscribe(); // refused: nothing half kept on either side
      throw error;
    }
  });

  const unsubscribe = () => act(async () => {
    const found = await subscription();
    if (found) {
      await request("DELETE", "/push/subscriptions", { endpoint: found.endpoint });
      await found.unsubscribe();
    }
    state.subscribed = false;
  });

  const choose = (kind, on) => act(async () => {
    state.kinds = await (await request("PUT", "/push/kinds", { [kind]: on })).json();
  });

  function view() {
    if (!state.loaded) return null;
    const body = [];
    if (!pushSupported()) {
      body.push(h("p", {}, t("push.unsupported")));
    } else if (Notification.permission === "denied") {
      body.push(h("p", {}, t("push.denied")));
    } else if (!state.subscribed) {
      body.push(h("button", { type: "button", id: "push-subscribe", onclick: subscribe },
        t("push.subscribe")));
    } else {
      body.push(h("p", { role: "status" }, t("push.on")),
        h("fieldset", { class: "push-kinds" }, h("legend", {}, t("push.kinds")),
          KINDS.map((kind) => h("label", { class: "switch" },
            h("input", { type: "checkbox", role: "switch", id: `push-${kind}`,
              checked: state.kinds?.[kind] !== false,
              onchange: (event) => choose(kind, event.target.checked) }),
            " ", t(`push.kind.${kind}`)))),
        h("button", { type: "button", id: "push-unsubscribe", onclick: unsubscribe },
          t("push.unsubscribe")));
    }
    return h("section", { class: "panel", id: "push" }, h("h2", {}, t("push.title")),
      h("p", {}, t("push.why")), problemLine(state.problem, null), ...body);
  }

  look();
  return { view, state: () => state };
}
