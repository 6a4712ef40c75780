// Every text the client shows comes from a message catalogue, i18n/<language>.json.
// The language is the one chosen before (kept in the browser), else the browser's, else English.
// A message whose words change with a number is an object of plural forms keyed by CLDR
// category ("one", "two", "few", "many", "other"), chosen for its `count` by the browser's own
// Intl.PluralRules: Slovenian needs four forms, Italian and Spanish two, Turkish one.

export const LANGUAGES = ["en", "it", "es", "sl", "tr"];
const KEY = "scopa.language";
let messages = {};
let plurals = new Intl.PluralRules("en");

export function pickLanguage() {
  const kept = localStorage.getItem(KEY);
  if (LANGUAGES.includes(kept)) return kept;
  for (const wanted of navigator.languages || [navigator.language]) {
    const base = String(wanted).slice(0, 2).toLowerCase();
    if (LANGUAGES.includes(base)) return base;
  }
  return "en";
}

export async function setLanguage(code, remember = false) {
  // Remembered at once, so a reload while the catalogue loads still keeps the choice.
  if (remember) localStorage.setItem(KEY, code);
  // Beside this module, so under the client's versioned name: the one the page preloads.
  const answer = await fetch(new URL(`../i18n/${code}.json`, import.meta.url));
  messages = await answer.json();
  plurals = new Intl.PluralRules(code);
  document.documentElement.lang = code;
  // The refusals' words follow the language, asked again at the next refusal.
  refusals = {};
  refusalsAsked = null;
}

// Words of a part loaded on demand (js/offlineplay.js's), added to the language's.
export const addWords = (words) => Object.assign(messages, words);

// The message `key` with its {placeholders} filled from `params`; `fallback` when the
// catalogue lacks it (a text the server sent, for a key it knows and the client does not).
// Plural forms are chosen by `params.count`; "other" serves a category a catalogue leaves out
// (Spanish's "many", for millions) and a message given no count.
export function t(key, params = {}, fallback = key) {
  const entry = messages[key] ?? fallback;
  const text = typeof entry === "string" ? entry
    : entry[Number.isFinite(params.count) ? plurals.select(params.count) : "other"] ?? entry.other;
  return text.replace(/\{(\w+)\}/g, (_, name) => String(params[name] ?? ""));
}

// The words of the room's refusals, by code, in i18n/refusals/<language>.json: a catalogue of
// their own, asked for by the first refusal (js/api.js waits for it), so that a first load,
// which is refused nothing, does not carry 150 sentences it will not show.
let refusals = {};
let refusalsAsked = null;

export function loadRefusals() {
  const language = document.documentElement.lang || "en";
  refusalsAsked ??= fetch(new URL(`../i18n/refusals/${language}.json`, import.meta.url))
    .then((answer) => answer.json())
    .then((words) => {
      if (document.documentElement.lang === language) refusals = words;
    })
    .catch(() => {
      refusalsAsked = null; // offline, and not kept yet: the server's sentence serves
    });
  return refusalsAsked;
}

// A refusal of the room in the reader's language: its code's words filled from the refusal's
// `params`, or the server's own (English) `sentence` for a code this client does not know yet
// or whose words have not arrived (docs/protocol.md, "Refusals").
export function refusal(code, params, sentence) {
  const entry = code ? refusals[code] : undefined;
  return entry === undefined ? sentence : t(`refusal.${code}`, params ?? {}, entry);
}

// A number with one decimal as the page's language writes it: "1.5" in English, "1,5" in
// Italian, Spanish, Slovenian and Turkish. `whole` leaves a whole number's ".0" off ("100").
export function decimal(value, whole = false) {
  return new Intl.NumberFormat(document.documentElement.lang,
    { maximumFractionDigits: 1, minimumFractionDigits: whole ? 0 : 1 }).format(value);
}

// Figures have their own words in the Italian and Spanish looks (fante, cavallo; sota, caballo).
const LATIN_FIGURES = { J: "F", Q: "N", K: "K" };

// A rank's name in the current language and look, such as "seven" or "knave".
export function rankName(rank, look) {
  const latin = look !== "french";
  return t(`rank.${latin && LATIN_FIGURES[rank] ? LATIN_FIGURES[rank] : rank}`);
}

// A card's full name in the current language and look, such as "seven of coins".
export function cardName(code, look) {
  const suit = `suit.${look !== "french" ? "latin" : "french"}.${code[1]}`;
  return t("card.name", { rank: rankName(code[0], look), suit: t(suit) });
}

// Fill the static page's texts: data-i18n sets the text, data-i18n-label the aria-label.
export function translatePage(root = document) {
  for (const node of root.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
  for (const node of root.querySelectorAll("[data-i18n-label]")) {
    node.setAttribute("aria-label", t(node.dataset.i18nLabel));
  }
  document.title = t("app.title");
}
