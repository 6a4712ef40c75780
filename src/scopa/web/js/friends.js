// Friends: the lobby's panel of those a player follows (who is online, the table each plays
// at, if they show it, watched in one click, a challenge in two), a box to follow someone by
// name, whom the player takes challenges from and who of their followers sees where they play
// (those they follow back unless they choose otherwise: following needs no consent); and a
// profile's Follow, Challenge and Block buttons. The list comes live over /ws/me (me.js); what
// the buttons change comes back in their answer.

import { whoAmI } from "./account.js";
import { api } from "./api.js";
import { challengeForm } from "./challenges.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { onMe } from "./me.js";

const ACCEPTS = ["all", "follows", "none"];
const SHOWN = ["all", "follows", "none"];

function friendRow(friend, challenging, toggle) {
  const profile = `#/p/${encodeURIComponent(friend.name)}`;
  return h("li", { class: `friend${friend.online ? " online" : ""}`, "data-name": friend.name },
    h("span", { class: "presence", "aria-hidden": "true" }),
    h("a", { href: profile, class: "name" }, friend.name),
    h("span", { class: "where" }, t(friend.table ? "friends.playing"
      : (friend.online ? "friends.online" : "friends.offline"))),
    friend.online ? h("span", { class: "friend-actions" },
      friend.table ? h("a", { href: `#/t/${friend.table}`, class: "watch button" },
        t("friends.watch", { table: friend.table })) : null,
      h("button", { type: "button", class: "challenge",
        "aria-expanded": String(challenging === friend.name),
        onclick: () => toggle(friend.name) }, t("friends.challenge"))) : null,
    challenging === friend.name ? challengeForm(friend.name, () => toggle(null)) : null);
}

// The lobby's friends panel: empty for a guest (it shows nothing), filled for a player.
export function friendsPanel() {
  const panel = h("section", { class: "panel friends", id: "friends", hidden: true });
  let friends = null;
  let accepts = "all";
  let shown = "follows";
  let problem = "";
  let challenging = null;

  function toggle(name) {
    challenging = challenging === name ? null : name;
    render();
  }

  async function change(path, body) {
    try {
      const answer = await api(path, body);
      friends = answer.following;
      accepts = answer.challenges;
      shown = answer.playing_shown;
      problem = "";
    } catch (error) {
      problem = error.message;
    }
    render();
  }

  function render() {
    if (friends === null) return;
    panel.hidden = false;
    const typed = h("input", { id: "follow-name", autocomplete: "off", maxlength: "24",
      required: true });
    panel.replaceChildren(...[
      h("h2", {}, t("friends.title")),
      friends.length ? h("ul", { class: "friend-list" },
        friends.map((friend) => friendRow(friend, challenging, toggle)))
        : h("p", {}, t("friends.none")),
      problem ? h("p", { class: "problem", role: "alert" }, problem) : null,
      h("form", { class: "inline", id: "follow", onsubmit: (event) => {
        event.preventDefault();
        change("/friends/follow", { name: typed.value });
      } }, h("label", { class: "field" }, h("span", {}, t("friends.follow_name")), typed),
      h("button", { type: "submit" }, t("friends.follow"))),
      h("label", { class: "field" }, h("span", {}, t("friends.accepts")),
        h("select", { id: "accepts", onchange: (event) =>
          change("/friends/challenges", { accepts: event.target.value }) },
        ACCEPTS.map((value) => h("option", { value, selected: value === accepts },
          t(`friends.accepts_${value}`))))),
      h("label", { class: "field" }, h("span", {}, t("friends.shown")),
        h("select", { id: "playing-shown", onchange: (event) =>
          change("/friends/playing", { shown: event.target.value }) },
        SHOWN.map((value) => h("option", { value, selected: value === shown },
          t(`friends.shown_${value}`))))),
    ].filter(Boolean));
  }

  whoAmI().then(async (me) => {
    if (!me) return;
    const answer = await api("/friends").catch(() => null);
    if (!answer) return;
    accepts = answer.challenges;
    shown = answer.playing_shown;
    friends = answer.following;
    render();
    // Kept live by /ws/me; stops listening once the panel has left the page. onMe calls the
    // listener at once with the last list it had, before it returns the stop: hence the let.
    if (!panel.isConnected) return;
    let stop = null;
    stop = onMe("friends", (message) => {
      if (!panel.isConnected) {
        stop?.();
        return;
      }
      friends = message.friends;
      render();
    });
  });
  return panel;
}

// A profile's buttons for the player `name`: follow or unfollow, challenge, block or unblock.
// Nothing for a guest, or on one's own profile.
export function profileActions(name) {
  const box = h("div", { class: "actions profile-actions", id: "profile-actions", hidden: true });
  let following = false;
  let blocked = false;
  let challenging = false;
  let problem = "";

  async function change(path) {
    try {
      const answer = await api(path, { name });
      following = answer.following.some((one) => one.name === name);
      blocked = answer.blocked.includes(name);
      problem = "";
    } catch (error) {
      problem = error.message;
    }
    render();
  }

  function render() {
    box.hidden = false;
    box.replaceChildren(...[
      blocked ? null : h("button", { type: "button", id: "follow-button",
        onclick: () => change(following ? "/friends/unfollow" : "/friends/follow") },
      t(following ? "friends.unfollow" : "friends.follow")),
      blocked ? null : h("button", { type: "button", class: "primary", id: "challenge-button",
        "aria-expanded": String(challenging), onclick: () => {
          challenging = !challenging;
          render();
        } }, t("friends.challenge")),
      h("button", { type: "button", class: blocked ? "" : "danger", id: "block-button",
        onclick: () => change(blocked ? "/friends/unblock" : "/friends/block") },
      t(blocked ? "friends.unblock" : "friends.block")),
      problem ? h("p", { class: "problem", role: "alert" }, problem) : null,
      challenging && !blocked ? challengeForm(name, () => {
        challenging = false;
        render();
      }) : null,
    ].filter(Boolean));
  }

  whoAmI().then(async (me) => {
    if (!me || me.name === name) return;
    const answer = await api("/friends").catch(() => null);
    if (!answer) return;
    following = answer.following.some((one) => one.name === name);
    blocked = answer.blocked.includes(name);
    render();
  });
  return box;
}
