// A table: waiting for players (share the link, start), then the match, seen from one seat.
// Every server message re-renders the screen from the latest table and view. In three parts,
// as lila's ui/round is: js/tablestate.js keeps what the server said, js/tableactions.js is
// what the person does, js/tableview.js draws the screen from the state; this joins them to
// the table's socket (js/socket.js), or to `connect`'s, offline play's (js/offlineplay.js).

import { whoAmI } from "./account.js";
import { openSocket } from "./socket.js";
import { tableActions } from "./tableactions.js";
import { newTable, receive } from "./tablestate.js";
import { tableView } from "./tableview.js";

export function showTable(main, code, connect = null) {
  const page = newTable(main, code);
  page.local = Boolean(connect);
  const { s } = page;
  // The hello says the seat's token and the last version seen, each time the socket is open,
  // so a connection that comes back is sent the plays it missed.
  page.socket = (connect ?? ((handlers) => openSocket(`/ws/tables/${code}`, handlers)))({
    first: () => ({ type: "hello", token: s.token, match: s.match, version: s.version,
      continues: true }),
    onMessage: (message) => {
      if (receive(page, message)) page.render();
    },
    onLink: (up, why) => {
      if (why === "closed") return;  // said by the error that came before the close
      s.linkDown = up ? false : why;
      // A hint asked on a connection that dropped will never be answered: ask again freely.
      s.hintAsked = null;
      page.render();
    },
  });
  const actions = tableActions(page);
  const view = tableView(page, actions);
  page.render = view.render;
  whoAmI().then((account) => {
    s.account = account;
    view.render();
  });
  const ticker = setInterval(view.tick, 1000);
  // The plays' live region stays beside the screen the redraws replace (js/tableview.js).
  main.after(view.said);
  document.addEventListener("keydown", actions.onKey);
  addEventListener("resize", view.fitChat);

  view.render();
  return {
    render: view.render,
    close() {
      removeEventListener("resize", view.fitChat);
      document.removeEventListener("keydown", actions.onKey);
      clearInterval(ticker);
      view.said.remove();
      document.body.classList.remove("at-table", "menu-open");
      page.socket.close();
    },
  };
}
