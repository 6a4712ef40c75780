// Every WebSocket of the client to the room (docs/protocol.md) goes through `openSocket`: the
// table's, the lobby's, the person's (/ws/me), a tournament's and a pool's. It connects, sends
// the first message (a table's hello, a pool's join) each time it is open, parses what comes,
// and connects again after a drop, so each socket does not get these subtly different:
// - a close 1012 (the table or the room moved to another process): again at once;
// - `busy` (an error, or the close 1013): the server is turning connections away: later;
// - any other drop: after a second, doubling up to half a minute, plus up to half again at
//   random (the jitter that spreads a crowd of clients out), back to a second once a message
//   comes;
// - a close 1008 (a bad token, logged out, another site), or `replaced` (the seat is open in
//   newer places): never again by itself, or two tabs would take turns for ever; `reconnect()`
//   asks anew.
// `onLink(up, why)` hears when the connection is up (its first message after connecting) and
// when it is down: why is "moved", "busy" or "dropped" (trying again), or "replaced" or
// "closed" (not). `retry()` says whether a drop is worth coming back from at all (a pool's
// wait is not: the person asks again).

const FIRST_DELAY_MS = 1000;
const LAST_DELAY_MS = 30_000;
const SERVICE_RESTART = 1012;
const TRY_AGAIN_LATER = 1013;
const POLICY_VIOLATION = 1008;
// Refusals of the connection itself, said through onLink once the close comes, not as messages.
const LINK_ERRORS = new Set(["replaced", "busy"]);

function socketUrl(path) {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  return `${scheme}://${location.host}${path}`;
}

export function openSocket(path, {
  first = null, onMessage = () => {}, onLink = () => {}, retry = () => true,
} = {}) {
  let socket = null;
  let closed = false;
  let retries = 0;
  let timer = null;

  function delay() {
    const base = Math.min(LAST_DELAY_MS, FIRST_DELAY_MS * 2 ** retries);
    retries += 1;
    return base * (1 + Math.random() / 2);
  }

  function connect() {
    clearTimeout(timer);
    timer = null;
    const mine = new WebSocket(socketUrl(path));
    let refused = null;
    let up = false;
    socket = mine;
    mine.addEventListener("open", () => {
      const message = first?.();
      if (message) mine.send(JSON.stringify(message));
    });
    mine.addEventListener("message", (event) => {
      if (socket !== mine) return;
      const message = JSON.parse(event.data);
      if (message.type === "error" && LINK_ERRORS.has(message.code)) {
        refused = message.code;
        return;
      }
      if (!up) {
        up = true;
        retries = 0;
        onLink(true);
      }
      onMessage(message);
    });
    mine.addEventListener("close", (event) => {
      if (closed || socket !== mine) return;
      const busy = refused === "busy" || event.code === TRY_AGAIN_LATER;
      if (refused === "replaced") onLink(false, "replaced");
      else if (event.code === POLICY_VIOLATION || !retry()) onLink(false, "closed");
      else if (event.code === SERVICE_RESTART) {
        onLink(false, "moved");
        connect();
      } else {
        onLink(false, busy ? "busy" : "dropped");
        timer = setTimeout(connect, delay());
      }
    });
  }

  connect();
  return {
    // Whether the message went out: false while the connection is down.
    send(message) {
      if (socket.readyState !== WebSocket.OPEN) return false;
      socket.send(JSON.stringify(message));
      return true;
    },
    // Connect again now (a new seat token, or the person takes a replaced seat back).
    reconnect() {
      const old = socket;
      retries = 0;
      connect();
      old.close();
    },
    close() {
      closed = true;
      clearTimeout(timer);
      socket.close();
    },
  };
}
