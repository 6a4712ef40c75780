// Calling a person back to the room's tab when something waits for them there (their turn, a
// match found, a challenge) while they look at another tab or window: the tab's title changes
// until they come back, a sound plays, and, if they allowed it, the browser shows a notification.
// Permission is asked only when the person presses a button (askToNotify), never on load:
// browsers hold a prompt nobody asked for against the site.

import { cue } from "./sound.js";

let calling = null; // the title the tab had before the call, while the title says the call
const notes = new Map(); // the notifications shown while away, by tag: closed on coming back

function restore() {
  if (document.visibilityState !== "visible" || calling === null) return;
  document.title = calling;
  calling = null;
  // Back at the tab: what called them is on screen, so its notifications would only be stale.
  for (const note of notes.values()) note.close();
  notes.clear();
}

document.addEventListener("visibilitychange", restore);

// Whether the page is out of sight now: a call is for a person who is not looking.
export function hidden() {
  return document.visibilityState === "hidden";
}

// Call the person back with `text` (already in their language), if the page is hidden; `sound`
// is one of sound.js's cues (none: null). `tag` names the event, so a second call of the same
// kind replaces the first notification instead of piling up.
export function callBack(text, { sound = "turn", tag = "scopa" } = {}) {
  if (!hidden()) return false;
  if (calling === null) calling = document.title;
  document.title = `● ${text}`;
  if (sound) cue(sound);
  if ("Notification" in window && Notification.permission === "granted") {
    try {
      const note = new Notification(calling, { body: text, tag });
      note.onclick = () => { window.focus(); note.close(); };
      notes.set(tag, note);
    } catch {
      // Some browsers (Android's) allow notifications only from a service worker: the title
      // and the sound still call.
    }
  }
  return true;
}

// Whether notifications may be asked for: the browser has them and the person has not chosen.
export function mayAskToNotify() {
  return "Notification" in window && Notification.permission === "default";
}

// Ask the browser for notifications (from a button's click only); whether they are allowed.
export async function askToNotify() {
  if (!("Notification" in window)) return false;
  return (await Notification.requestPermission()) === "granted";
}
