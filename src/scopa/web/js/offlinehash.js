// A file's SHA-256 in hex, as /api/offline lists it: offline play's runtime is checked with it
// after each download (js/offlineruntime.js) and before it runs (js/offlineworker.js).

export async function digestHex(bytes) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join("");
}
