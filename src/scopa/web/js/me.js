// The person's socket (/ws/me), open on every page while the player is logged in: it makes
// them online in the room and brings, at once, the list of those they follow ("friends") and
// their challenges (challenges.js, loaded with the first). Screens listen to its messages by type (onMe); a dropped socket is opened
// again, waiting longer each time, unless the server said no (1008: logged out, or another
// site). Looked at again at every change of screen, so a login or logout opens or closes it.

import { whoAmI } from "./account.js";
import { openSocket } from "./socket.js";

const listeners = new Map(); // type -> set of functions
const last = new Map(); // type -> the last message of that type (the friends list)
let socket = null; // open, or waiting to open again (js/socket.js)
let owner = null; // the account name the socket is open for

// The messages of a challenge: the first one loads challenges.js, which listens from then on
// (and gets this first message at once, as the last of its type).
const CHALLENGES = new Set(["challenge", "challenge_answer", "challenge_gone"]);
let challenges = null;

function deliver(message) {
  last.set(message.type, message);
  if (CHALLENGES.has(message.type) && challenges === null) {
    challenges = import(new URL("challenges.js", import.meta.url).href)
      .then((module) => module.listenForChallenges());
    return;
  }
  for (const listener of listeners.get(message.type) ?? []) listener(message);
}

// Call `listener` with each message of `type` (and at once with the last one, if any); the
// function returned stops it.
export function onMe(type, listener) {
  if (!listeners.has(type)) listeners.set(type, new Set());
  listeners.get(type).add(listener);
  if (last.has(type)) listener(last.get(type));
  return () => listeners.get(type).delete(listener);
}

function stop() {
  socket?.close();
  socket = null;
  owner = null;
  last.clear();
}

// Open the socket if a player is logged in and it is not open for them yet; close it for a
// guest.
export async function keepMe() {
  const me = await whoAmI();
  if (!me) {
    if (owner !== null) stop();
    return;
  }
  if (owner === me.name && socket) return;
  if (owner !== null) stop();
  owner = me.name;
  const opened = openSocket("/ws/me", {
    onMessage: deliver,
    onLink: (up, why) => {
      if (why === "closed" && socket === opened) socket = null;  // looked at again later
    },
  });
  socket = opened;
}

window.addEventListener("hashchange", keepMe);
