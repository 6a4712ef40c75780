// The table's sounds, made in the page with the Web Audio API: a few short, quiet tones per
// moment, no sound files to fetch. On unless the person turned them off with the one control
// on the table's bar; the choice is remembered in the browser.

import { h } from "./dom.js";
import { t } from "./i18n.js";

const KEY = "scopa.sound";
const LOUDNESS = 0.06; // quiet: a card game heard beside other things, not over them

// Each cue: its tones as [start (s), frequency (Hz), length (s), waveform]. A card put down is
// a soft low tap, a capture two rising notes, a sweep a run up the scale; a round won rises,
// a round lost falls, the match's end is a longer chord.
const CUES = {
  deal: [[0, 520, 0.05, "triangle"], [0.07, 560, 0.05, "triangle"], [0.14, 600, 0.05, "triangle"]],
  played: [[0, 330, 0.08, "triangle"]],
  capture: [[0, 440, 0.08, "triangle"], [0.08, 660, 0.12, "triangle"]],
  sweep: [[0, 523, 0.1, "square"], [0.09, 659, 0.1, "square"], [0.18, 784, 0.1, "square"],
    [0.27, 1047, 0.25, "square"]],
  turn: [[0, 880, 0.07, "sine"], [0.1, 880, 0.07, "sine"]],
  won: [[0, 523, 0.12, "sine"], [0.12, 659, 0.12, "sine"], [0.24, 784, 0.3, "sine"]],
  lost: [[0, 392, 0.15, "sine"], [0.15, 330, 0.15, "sine"], [0.3, 262, 0.35, "sine"]],
  match: [[0, 523, 0.8, "sine"], [0, 659, 0.8, "sine"], [0, 784, 0.8, "sine"],
    [0.2, 1047, 0.7, "sine"]],
};

let context = null;

export function soundOn() {
  return localStorage.getItem(KEY) !== "off";
}

function setSound(on) {
  if (on) localStorage.removeItem(KEY);
  else localStorage.setItem(KEY, "off");
}

// The page's audio, made once the person has touched the page: browsers keep audio quiet
// until then (and warn about a context made earlier), so a cue before that is not heard.
function audio() {
  if (!context) {
    if (!navigator.userActivation?.hasBeenActive) return null;
    context = new AudioContext();
  }
  if (context.state === "suspended") context.resume();
  return context;
}

// Play cue `name` (one of CUES) `delay` seconds from now, unless the sound is off.
export function cue(name, delay = 0) {
  const ctx = soundOn() ? audio() : null;
  if (!ctx) return;
  const start = ctx.currentTime + delay;
  for (const [at, frequency, length, wave] of CUES[name]) {
    const tone = ctx.createOscillator();
    const level = ctx.createGain();
    tone.type = wave;
    tone.frequency.value = frequency;
    // A quick rise and a fall to nothing, so a tone starts and stops without a click.
    level.gain.setValueAtTime(0, start + at);
    level.gain.linearRampToValueAtTime(LOUDNESS / (wave === "square" ? 3 : 1), start + at + 0.01);
    level.gain.exponentialRampToValueAtTime(0.0001, start + at + length);
    tone.connect(level).connect(ctx.destination);
    tone.start(start + at);
    tone.stop(start + at + length + 0.02);
  }
}

// A loudspeaker drawn here (an emoji needs a font a machine may not have), with waves when the
// sound is on and a cross when it is off.
const SPEAKER = '<path d="M3 9h4l5-4v14l-5-4H3z" fill="currentColor"/>';
const WAVES = '<path d="M15 9a4 4 0 0 1 0 6M17.5 6.5a7.5 7.5 0 0 1 0 11" fill="none" ' +
  'stroke="currentColor" stroke-width="2" stroke-linecap="round"/>';
const CROSS = '<path d="M15 9l6 6M21 9l-6 6" stroke="currentColor" stroke-width="2" ' +
  'stroke-linecap="round"/>';

function speaker(on) {
  return `<svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true">${SPEAKER}${
    on ? WAVES : CROSS}</svg>`;
}

// The one sound control: a button that says whether the sound is on (aria-pressed) and turns
// it off or on; `changed` redraws what shows it.
export function soundButton(changed) {
  const on = soundOn();
  return h("button", { type: "button", class: "sound-button", id: "sound",
    "aria-pressed": on ? "true" : "false", "aria-label": t("table.sound"),
    title: t(on ? "table.sound_on" : "table.sound_off"),
    onclick: () => {
      setSound(!soundOn());
      changed();
      document.getElementById("sound")?.focus();
    }, html: speaker(on) });
}
