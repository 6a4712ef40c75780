// Modal dialogs: a native <dialog>, opened with showModal(), makes the page behind it inert and
// is read out as a modal dialog. Tab and Shift+Tab also wrap around inside it here: at either
// end Chromium would let them out to the browser's own controls. Escape calls `onClose`.

import { h } from "./dom.js";

const STOPS = "a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), " +
  "textarea:not([disabled]), [tabindex]:not([tabindex='-1'])";

function keepTabInside(event) {
  if (event.key !== "Tab") return;
  const stops = [...event.currentTarget.querySelectorAll(STOPS)];
  if (!stops.length) return;
  const [first, last] = [stops[0], stops[stops.length - 1]];
  const wrapTo = event.shiftKey ? (document.activeElement === first ? last : null)
    : (document.activeElement === last ? first : null);
  if (wrapTo) {
    event.preventDefault();
    wrapTo.focus();
  }
}

export function modalDialog({ onClose, ...attributes }, ...children) {
  return h("dialog", { ...attributes, onkeydown: keepTabInside,
    oncancel: (event) => {
      event.preventDefault();
      onClose();
    },
    // Chromium may close without a cancel event (a second Escape with no click between); a
    // dialog taken out of the page by a re-render is not being closed by anyone.
    onclose: (event) => event.target.isConnected && onClose() }, ...children);
}
