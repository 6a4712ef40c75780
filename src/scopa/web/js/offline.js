// The installable app's side of the page: the service worker that keeps the app shell (sw.js),
// and a plain notice while the network is gone, saying what still works without it.

import { t } from "./i18n.js";

// Registered only from the client's versioned folder, which the worker keeps: from it the
// worker's own URL says which release it caches.
function registerWorker() {
  if (!("serviceWorker" in navigator) || !import.meta.url.includes("/v/")) return;
  navigator.serviceWorker.register(new URL("../sw.js", import.meta.url), { scope: "/" })
    .catch(() => {}); // a browser that refuses workers (private mode) plays as before
}

// The notice under the header, shown while the browser says it is offline.
export function showOffline() {
  let notice = document.getElementById("offline");
  if (!notice) {
    notice = document.createElement("p");
    notice.id = "offline";
    notice.className = "offline";
    notice.setAttribute("role", "status");
    document.querySelector("header.top")?.after(notice);
  }
  notice.textContent = t("offline.notice");
  notice.hidden = navigator.onLine;
}

export function keepOffline() {
  registerWorker();
  window.addEventListener("online", showOffline);
  window.addEventListener("offline", showOffline);
}
