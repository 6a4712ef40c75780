// The table's chat panel (js/chat.js, with chat.css), loaded when first opened, off the first
// load; once here, the table's state asks it whom the person muted.

import { onDemand } from "./ondemand.js";

const chatModule = onDemand("chat.js", "chat.css");
let loaded = null;

export function loadChat() {
  return chatModule().then((module) => {
    loaded = module;
    return module;
  });
}

// The panel's module, or null until it has loaded.
export function loadedChat() {
  return loaded;
}
