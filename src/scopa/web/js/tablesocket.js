// One seat's WebSocket to a table (docs/protocol.md): says hello with the seat token and the
// last version seen, and says it again after a dropped connection so no play is missed.
// `onLink(up, why)` hears when the connection drops and when it is back; `why` says what the
// page should tell the person while it is down:
// - "moved": the table moved to another process (close 1012): connect again at once;
// - "busy": the server is turning connections away (`busy`, close 1013): try again later,
//   waiting longer each time, so many clients do not all come back in the same second;
// - "dropped": the connection broke: try again after a second, then longer;
// - "replaced": the seat is open in newer places (`replaced`, close 1008): gone for good
//   until the person asks for it back (`reconnect()`), or two tabs would take turns for ever.
// Other 1008 closes (a bad token, no such table) are said by their error message: no retry.

const FIRST_DELAY_MS = 1000;
const LAST_DELAY_MS = 30_000;
const SERVICE_RESTART = 1012;
const TRY_AGAIN_LATER = 1013;
const POLICY_VIOLATION = 1008;

export function openTableSocket(code, hello, onMessage, onLink = () => {}) {
  let socket = null;
  let closed = false;
  let retries = 0;
  let timer = null;

  // How long to wait before the next try: doubling from a second to half a minute, plus up to
  // half again at random (the jitter that spreads a crowd of clients out).
  function delay() {
    const base = Math.min(LAST_DELAY_MS, FIRST_DELAY_MS * 2 ** retries);
    retries += 1;
    return base * (1 + Math.random() / 2);
  }

  function connect() {
    clearTimeout(timer);
    timer = null;
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const mine = new WebSocket(`${scheme}://${location.host}/ws/tables/${code}`);
    let refused = null;
    socket = mine;
    mine.addEventListener("open", () => {
      mine.send(JSON.stringify({ type: "hello", ...hello() }));
    });
    mine.addEventListener("message", (event) => {
      if (socket !== mine) return;
      const message = JSON.parse(event.data);
      if (message.type === "error" && (message.code === "replaced" || message.code === "busy")) {
        refused = message.code;  // said by onLink once the close comes
        return;
      }
      if (message.type === "welcome") {
        retries = 0;
        onLink(true);
      }
      onMessage(message);
    });
    mine.addEventListener("close", (event) => {
      if (closed || socket !== mine) return;
      if (refused === "replaced") onLink(false, "replaced");
      else if (event.code === POLICY_VIOLATION) return;
      else if (event.code === SERVICE_RESTART) {
        onLink(false, "moved");
        connect();
      } else {
        const busy = refused === "busy" || event.code === TRY_AGAIN_LATER;
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
