// The ways into friends and challenges (js/friends.js, js/challenges.js), which load only for a
// logged-in player, when a page shows them, so that a guest's first load (and a table's) does
// not fetch them: the lobby's friends panel and a profile's buttons stand in as an empty,
// hidden spot until then.

import { whoAmI } from "./account.js";
import { h } from "./dom.js";
import { onDemand } from "./ondemand.js";

// The friends' module (with the challenges' it imports), fetched once.
export const friendsModule = onDemand("friends.js");

function later(make) {
  const spot = h("div", { hidden: true });
  whoAmI().then(async (me) => {
    if (!me) return;
    const module = await friendsModule();
    if (spot.isConnected) spot.replaceWith(make(module));
  });
  return spot;
}

// The lobby's friends panel, for a logged-in player.
export function friendsPanel() {
  return later((module) => module.friendsPanel());
}

// A profile's Follow, Challenge and Block buttons, for a logged-in player.
export function profileActions(name) {
  return later((module) => module.profileActions(name));
}
