// One seat's WebSocket to a table (docs/protocol.md): says hello with the seat token and the
// last version seen, and says it again after a dropped connection so no play is missed.
// `onLink(up)` hears when the connection drops and when it is back.

export function openTableSocket(code, hello, onMessage, onLink = () => {}) {
  let socket = null;
  let closed = false;

  function connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const mine = new WebSocket(`${scheme}://${location.host}/ws/tables/${code}`);
    socket = mine;
    mine.addEventListener("open", () => {
      mine.send(JSON.stringify({ type: "hello", ...hello() }));
      onLink(true);
    });
    mine.addEventListener("message", (event) => {
      if (socket === mine) onMessage(JSON.parse(event.data));
    });
    // Closed by the server for good (1008: bad token or no table), by us, or replaced: no retry.
    mine.addEventListener("close", (event) => {
      if (!closed && socket === mine && event.code !== 1008) {
        onLink(false);
        setTimeout(connect, 1000);
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
    reconnect() {
      const old = socket;
      connect();
      old.close();
    },
    close() {
      closed = true;
      socket.close();
    },
  };
}
