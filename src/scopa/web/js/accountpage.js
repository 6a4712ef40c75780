// Accounts, optional: register, log in, log out, change the password, see and end sessions
// ("#/account"), loaded by js/account.js when first opened, and the browser's notifications
// while the room is closed (js/push.js). The server checks the Origin of every write it
// authorises.

import { showAccountLink, whoAmI } from "./account.js";
import { agentWords } from "./agents.js";
import { api, problemLine, problemOf, request } from "./api.js";
import { askToNotify, mayAskToNotify } from "./callback.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { modalDialog } from "./modal.js";
import { pushPanel } from "./push.js";

function field(id, labelKey, attributes) {
  return h("label", { class: "field", for: id }, h("span", {}, t(labelKey)),
    h("input", { id, required: true, ...attributes }));
}

export function showAccount(main) {
  let me = null;
  let sessions = [];
  let problem = null;
  let retry = null; // the action that got no answer, to make again
  let done = "";
  // Deleting the account is asked in a dialog, with the password again; its refusal shows there.
  let deleting = false;
  let deleteProblem = null;
  let push = null; // the notifications' panel, once logged in

  let loaded = false;
  async function load() {
    const was = me;
    me = await whoAmI(true);
    sessions = me ? await api("/account/sessions").catch(() => []) : [];
    if (me && !push) push = pushPanel(() => render());
    if (!me) push = null;
    render();
    showAccountLink();
    if (loaded && Boolean(me) !== Boolean(was)) loggedIn(me);
    loaded = true;
  }

  // Just logged in (or registered), or out: the header's count of correspondence matches
  // waiting for your move (js/gamesbadge.js) shown or taken away, and once in, back to the
  // page that sent the person here to log in (an offer's link, js/games.js), if one did.
  function loggedIn(now) {
    import("./gamesbadge.js").then((module) => module.keepBadge(), () => null);
    if (!now) return;
    const back = sessionStorage.getItem("scopa.after_login");
    sessionStorage.removeItem("scopa.after_login");
    if (back?.startsWith("#/games")) location.hash = back;
  }

  async function attempt(action, success = "") {
    try {
      await action();
      problem = null;
      done = success;
    } catch (error) {
      problem = problemOf(error);
      retry = () => attempt(action, success);
      done = "";
    }
    await load();
  }

  function value(id) {
    return document.getElementById(id).value;
  }

  function guest() {
    const login = h("form", { class: "panel", id: "login", onsubmit: (event) => {
      event.preventDefault();
      // What was typed, kept: "Try again" sends it again after the redraw emptied the password.
      const body = { name: value("login-name"), password: value("login-password") };
      attempt(() => api("/account/login", body));
    } }, h("h2", {}, t("account.login")),
    field("login-name", "account.name", { autocomplete: "username", maxlength: "24" }),
    field("login-password", "account.password", { type: "password",
      autocomplete: "current-password" }),
    h("button", { type: "submit", class: "primary", id: "login-button" }, t("account.login")));
    const register = h("form", { class: "panel", id: "register", onsubmit: (event) => {
      event.preventDefault();
      const body = { name: value("register-name"), password: value("register-password") };
      attempt(() => api("/account/register", body));
    } }, h("h2", {}, t("account.register")),
    h("p", {}, t("account.why")),
    field("register-name", "account.name", { autocomplete: "username", maxlength: "24" }),
    field("register-password", "account.new_password", { type: "password",
      autocomplete: "new-password", minlength: "8", maxlength: "256" }),
    h("button", { type: "submit", id: "register-button" }, t("account.register")));
    return [login, register];
  }

  function player() {
    const about = h("section", { class: "panel", id: "me" },
      h("h2", {}, t("account.signed_in", { name: me.name })),
      h("p", {}, h("a", { href: `#/p/${encodeURIComponent(me.name)}`, id: "my-profile" },
        t("account.profile"))),
      h("button", { type: "button", id: "logout", onclick: () =>
        attempt(() => request("POST", "/account/logout")) }, t("account.logout")));
    const password = h("form", { class: "panel", id: "password", onsubmit: (event) => {
      event.preventDefault();
      const body = { current: value("current-password"), new: value("new-password") };
      attempt(() => request("POST", "/account/password", body), t("account.password_changed"));
    } }, h("h2", {}, t("account.change_password")),
    field("current-password", "account.password", { type: "password",
      autocomplete: "current-password" }),
    field("new-password", "account.new_password", { type: "password",
      autocomplete: "new-password", minlength: "8", maxlength: "256" }),
    h("button", { type: "submit", id: "change-password" }, t("account.change_password")));
    const list = h("section", { class: "panel", id: "sessions" },
      h("h2", {}, t("account.sessions")),
      h("ul", {}, sessions.map((session) => h("li", {},
        h("span", { class: "agent", title: session.agent ?? "" }, agentWords(session.agent)),
        ` · ${new Date(session.created_at).toLocaleString()} `,
        session.current ? h("strong", {}, t("account.this_session"))
          : h("button", { type: "button", class: "revoke", onclick: () =>
            attempt(() => request("DELETE", `/account/sessions/${session.id}`)) },
          t("account.revoke"))))));
    return [about, push?.view(), password, list, yourData()];
  }

  // Your data: the download (a plain link: the browser saves the server's attachment with
  // the session's cookie) and the deletion, which asks first.
  function yourData() {
    return h("section", { class: "panel", id: "your-data" },
      h("h2", {}, t("account.your_data")),
      h("p", {}, t("account.your_data_why")),
      h("p", {}, h("a", { href: "/api/account/export", download: "", class: "button",
        id: "download-data" }, t("account.download"))),
      h("button", { type: "button", class: "danger", id: "delete-account", onclick: () => {
        deleting = true;
        deleteProblem = null;
        render(true);
        document.getElementById("delete-password")?.focus();
      } }, t("account.delete")));
  }

  function deleteDialog() {
    const keep = () => {
      deleting = false;
      render(true);
      document.getElementById("delete-account")?.focus();
    };
    const confirm = async (event) => {
      event.preventDefault();
      try {
        await request("DELETE", "/account", { password: value("delete-password") });
      } catch (error) {
        deleteProblem = problemOf(error);
        render(true);
        document.getElementById("delete-password")?.focus();
        return;
      }
      deleting = false;
      problem = null;
      done = t("account.deleted");
      await load();
    };
    return modalDialog({ class: "dialog", id: "delete-dialog", "aria-labelledby": "delete-title",
      "aria-describedby": "delete-question", onClose: keep },
    h("form", { onsubmit: confirm },
      h("h2", { id: "delete-title" }, t("account.delete_title")),
      h("p", { id: "delete-question" }, t("account.delete_question")),
      // Trying again is the form's own button: the password is still typed.
      problemLine(deleteProblem, null),
      field("delete-password", "account.password", { type: "password",
        autocomplete: "current-password" }),
      h("div", { class: "actions" },
        h("button", { type: "button", class: "primary", id: "delete-cancel", onclick: keep },
          t("account.delete_cancel")),
        h("button", { type: "submit", class: "danger", id: "delete-confirm" },
          t("account.delete_confirm")))));
  }

  // Being called back to a hidden tab: the title always changes; a notification only if the
  // person allows it here, asked on this click and never on load. Gone once they chose.
  function notifications() {
    if (!mayAskToNotify()) return null;
    return h("section", { class: "panel", id: "notifications" },
      h("h2", {}, t("callback.notify_title")),
      h("p", {}, t("callback.notify_why")),
      h("button", { type: "button", id: "ask-notify", onclick: async () => {
        await askToNotify();
        render(true);
      } }, t("callback.notify")));
  }

  // What the screen shows; drawn again only when it changes (or the language or deck did:
  // `force`), so the answer to the first "who am I" cannot wipe what someone already typed
  // into the forms (a slow answer did).
  let shown = "";

  let closed = false; // gone to another screen: a late answer (the push panel's) draws nothing
  function render(force = false) {
    if (closed) return;
    const state = JSON.stringify({ me, sessions, problem, done, deleting, deleteProblem,
      push: push?.state() });
    if (!force && state === shown) return;
    shown = state;
    // Names typed survive a redraw (after a refused login, say); passwords never do.
    const typed = [...main.querySelectorAll("input:not([type=password])")]
      .map((input) => [input.id, input.value]);
    main.replaceChildren(h("div", { class: "account" },
      h("h1", {}, t("account.title")),
      problemLine(problem, () => retry(), { id: "account-problem" }),
      done ? h("p", { class: "done", role: "status" }, done) : null,
      h("div", { class: "lobby" }, me ? player() : guest(), notifications()),
      me && deleting ? deleteDialog() : null));
    const dialog = document.getElementById("delete-dialog");
    if (dialog && !dialog.open) dialog.showModal();
    for (const [id, text] of typed) {
      const input = document.getElementById(id);
      if (input && !input.value) input.value = text;
    }
  }

  render();
  load();
  return {
    render: () => render(true),
    close() {
      closed = true;
    },
  };
}
