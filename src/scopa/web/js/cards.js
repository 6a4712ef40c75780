// The project's own cards, drawn as SVG: a French, an Italian and a Spanish look, and backs.
// A card code is rank + suit (A 2 3 4 5 6 7 J Q K, then D H S C); D is coins in every look, so
// it is always drawn gold, on a coin, whatever its shape.

import { frenchCourt, latinCourt } from "./figures.js";

const SVG = "http://www.w3.org/2000/svg";
const RANKS = ["A", "2", "3", "4", "5", "6", "7", "J", "Q", "K"];

// What each look prints in the corner, by rank index (Spanish figures are 10, 11, 12).
const CORNER = {
  french: ["A", "2", "3", "4", "5", "6", "7", "J", "Q", "K"],
  italian: ["A", "2", "3", "4", "5", "6", "7", "F", "C", "R"],
  spanish: ["1", "2", "3", "4", "5", "6", "7", "10", "11", "12"],
};

const INK = {
  french: { D: "#b7791f", H: "#c53030", S: "#1a202c", C: "#1a202c" },
  italian: { D: "#b7791f", H: "#c53030", S: "#2b6cb0", C: "#276749" },
  spanish: { D: "#b7791f", H: "#c53030", S: "#2c5282", C: "#7b341e" },
};

// Suit symbols in a 20x20 box centred on (10, 10).
function coin(ink) {
  return `<circle cx="10" cy="10" r="9" fill="#f6e05e" stroke="${ink}" stroke-width="1.6"/>
    <circle cx="10" cy="10" r="5.5" fill="none" stroke="${ink}" stroke-width="1.2"/>
    <circle cx="10" cy="10" r="2" fill="${ink}"/>`;
}

const SHAPES = {
  french: {
    // Diamonds sit on a coin so that the coins suit reads as coins in the French look too.
    D: (ink) => `<circle cx="10" cy="10" r="9.5" fill="#fefcbf" stroke="${ink}" stroke-width="1"/>
      <path d="M10 1.5 L17 10 L10 18.5 L3 10 Z" fill="${ink}"/>`,
    H: (ink) => `<path d="M10 18 C2 12 0.5 8 2.5 4.5 C4.5 1.5 8.5 2 10 5.5 C11.5 2 15.5 1.5 17.5 4.5
      C19.5 8 18 12 10 18 Z" fill="${ink}"/>`,
    S: (ink) => `<path d="M10 1.5 C14 6 18.5 8.5 18 12.5 C17.5 15.5 13.5 16 11 13.5 L12.5 18.5 H7.5
      L9 13.5 C6.5 16 2.5 15.5 2 12.5 C1.5 8.5 6 6 10 1.5 Z" fill="${ink}"/>`,
    C: (ink) => `<circle cx="10" cy="5.5" r="4" fill="${ink}"/><circle cx="5" cy="11.5" r="4"
      fill="${ink}"/><circle cx="15" cy="11.5" r="4" fill="${ink}"/>
      <path d="M9 10 H11 L12.5 18.5 H7.5 Z" fill="${ink}"/>`,
  },
  latin: {
    D: coin,
    H: (ink) => `<path d="M3 2.5 H17 C17 8 14 11 11 11.5 V15 L14.5 17.5 V18.5 H5.5 V17.5 L9 15
      V11.5 C6 11 3 8 3 2.5 Z" fill="${ink}"/><rect x="3" y="2.5" width="14" height="2"
      fill="#fff" opacity="0.45"/>`,
    S: (ink) => `<path d="M10 0.5 L12 3.5 V12.5 H8 V3.5 Z" fill="${ink}"/>
      <rect x="3.5" y="12.3" width="13" height="2.4" rx="1.2" fill="${ink}"/>
      <rect x="8.9" y="14.5" width="2.2" height="3.4" fill="${ink}"/>
      <circle cx="10" cy="18.6" r="1.4" fill="${ink}"/>`,
    // A knotty cudgel, thick end up, leaning as on Italian and Spanish cards.
    C: (ink) => `<g transform="rotate(20 10 10)"><path d="M7 2.5 C7 0.5 13 0.5 13 2.5
      L12.6 6 L13.4 7 L12.2 8.5 L11.4 18 C11.3 19.3 8.7 19.3 8.6 18 L7.8 8.5 L6.6 7 L7.4 6 Z"
      fill="${ink}"/><path d="M8.5 4.5 L11.5 4.5 M9 11 L11 11 M9.2 14.5 L10.8 14.5"
      stroke="#fff" stroke-width="0.8" opacity="0.6"/></g>`,
  },
};

// Pip centres on the 60x90 card for 2..7 pips, inside the corners' columns (x 4..13).
const PIPS = [
  [],
  [[30, 45]],
  [[30, 25], [30, 65]],
  [[30, 22], [30, 45], [30, 68]],
  [[21, 25], [39, 25], [21, 65], [39, 65]],
  [[21, 24], [39, 24], [30, 45], [21, 66], [39, 66]],
  [[21, 23], [39, 23], [21, 45], [39, 45], [21, 67], [39, 67]],
  [[21, 22], [39, 22], [30, 33.5], [21, 45], [39, 45], [21, 68], [39, 68]],
];

function shape(look, suit) {
  return (look === "french" ? SHAPES.french : SHAPES.latin)[suit](INK[look][suit]);
}

// A suit symbol of `size` centred on (x, y); `turned` stands it on its head, as the lower
// pips of French cards are.
function symbol(look, suit, x, y, size, turned = false) {
  const scale = size / 20;
  const turn = turned ? " rotate(180 10 10)" : "";
  return `<g transform="translate(${x - size / 2} ${y - size / 2}) scale(${scale})${turn}">` +
    shape(look, suit) + "</g>";
}

// Spanish cards break their inner frame ("la pinta") to tell the suit at a glance: no break
// for oros, one for copas, two for espadas, three for bastos. The frame runs outside the
// corner numbers, which sit in its top-left and bottom-right corners.
const PINTA_BREAKS = { D: 0, H: 1, S: 2, C: 3 };

function pinta(suit, ink) {
  const gaps = Array.from({ length: PINTA_BREAKS[suit] }, (_, k) =>
    `<rect x="${22 + k * 6}" y="1.8" width="3.5" height="3.4" fill="#fffdf7"/>` +
    `<rect x="${34.5 - k * 6}" y="84.8" width="3.5" height="3.4" fill="#fffdf7"/>`).join("");
  return `<rect class="pinta" x="3.5" y="3.5" width="53" height="83" rx="3" fill="none"
    stroke="${ink}" stroke-width="1"/>${gaps}`;
}

// Where the corner index and its small suit go: x is their centre line, y the baselines.
const CORNER_AT = {
  other: { x: 8.5, y: 12.5, size: 10.5, wideY: 12, wideSize: 8.5, suitY: 19.5 },
  spanish: { x: 9.3, y: 13.5, size: 10, wideY: 13, wideSize: 7.5, suitY: 20.5 },
};

// The ace: one large symbol, on a medallion for the coins as the Latin decks do.
function ace(look, suit) {
  const ink = INK[look][suit];
  if (look === "french") return symbol(look, suit, 30, 45, 28);
  const ring = suit === "D" ? `<circle cx="30" cy="45" r="20" fill="none" stroke="${ink}"
    stroke-width="0.8" stroke-dasharray="2 1.5"/>` : "";
  return ring + symbol(look, suit, 30, 45, suit === "D" ? 32 : 40);
}

// The face of a card as SVG markup; `code` is such as "7D".
export function faceSvg(code, look) {
  const rank = RANKS.indexOf(code[0]);
  const suit = code[1];
  const ink = INK[look][suit];
  const corner = CORNER[look][rank];
  const wide = corner.length > 1;
  let body = "";
  if (rank === 0) body = ace(look, suit);
  else if (rank < 7) {
    for (const [x, y] of PIPS[rank + 1]) {
      body += symbol(look, suit, x, y, 13, look === "french" && y > 45);
    }
  } else if (look === "french") {
    body = frenchCourt(code[0], suit, ink, shape(look, suit));
  } else {
    body = latinCourt(code[0], suit, ink, shape(look, suit));
  }
  // Corners: the index and a small suit, in a column (x 4..13) that no pip or figure enters;
  // Spanish ones sit further in, clear of the frame, two-digit numbers a size smaller.
  const at = CORNER_AT[look === "spanish" ? "spanish" : "other"];
  const cornerMark = (transform) => `<g class="corner" transform="${transform}"><text x="${
    at.x}" y="${wide ? at.wideY : at.y}" text-anchor="middle" font-size="${
    wide ? at.wideSize : at.size}" font-weight="700" fill="${ink}" ${
    wide ? 'letter-spacing="-0.6"' : ""} font-family="Arial, Helvetica, sans-serif">${corner}</text>${
    symbol(look, suit, at.x, at.suitY, 7)}</g>`;
  return `<svg xmlns="${SVG}" viewBox="0 0 60 90" class="card-svg" aria-hidden="true"
    focusable="false"><rect x="0.5" y="0.5" width="59" height="89" rx="5" fill="#fffdf7"
    stroke="#4a5568" stroke-width="1"/>${look === "spanish" ? pinta(suit, ink) : ""}<g class="${
    rank < 7 ? "pips" : "figure"}">${body}</g>${
    cornerMark("")}${
    cornerMark("rotate(180 30 45)")}</svg>`;
}

// The backs, each the project's own pattern: a blue lattice, a red rosette, a green tartan.
const BACK_ART = {
  lattice: `<defs><pattern id="back-lattice" width="7" height="7" patternUnits="userSpaceOnUse"
    patternTransform="rotate(45)"><rect width="7" height="7" fill="#1e3a68"/><path
    d="M0 0 H7 M0 0 V7" stroke="#6b8fd6" stroke-width="1"/><circle cx="3.5" cy="3.5" r="0.9"
    fill="#f6e05e"/></pattern></defs>
    <rect x="4" y="4" width="52" height="82" rx="3" fill="url(#back-lattice)"/>
    <rect x="6.5" y="6.5" width="47" height="77" rx="2" fill="none" stroke="#f6e05e"
    stroke-width="0.8"/><circle cx="30" cy="45" r="10" fill="#1e3a68" stroke="#f6e05e"
    stroke-width="1.4"/><path d="M30 38 L33 45 L30 52 L27 45 Z" fill="#f6e05e"/>`,
  rosette: `<rect x="4" y="4" width="52" height="82" rx="3" fill="#9b2c2c"/>
    <rect x="6.5" y="6.5" width="47" height="77" rx="2" fill="none" stroke="#fbd38d"
    stroke-width="0.8"/><g fill="none" stroke="#fbd38d" stroke-width="0.7">${
    Array.from({ length: 12 }, (_, k) => `<ellipse cx="30" cy="45" rx="4.5" ry="17"
      transform="rotate(${k * 15} 30 45)"/>`).join("")}</g>
    <circle cx="30" cy="45" r="4" fill="#fbd38d"/>${
    [[12, 14], [48, 14], [12, 76], [48, 76]].map(([x, y]) => `<circle cx="${x}" cy="${y}"
      r="2.4" fill="none" stroke="#fbd38d" stroke-width="0.7"/>`).join("")}`,
  tartan: `<defs><pattern id="back-tartan" width="12" height="12"
    patternUnits="userSpaceOnUse"><rect width="12" height="12" fill="#22543d"/><rect width="12"
    height="4" y="4" fill="#2f855a" opacity="0.8"/><rect width="4" height="12" x="4"
    fill="#2f855a" opacity="0.8"/><path d="M0 10 H12 M10 0 V12" stroke="#f6e05e"
    stroke-width="0.6"/><path d="M0 2 H12 M2 0 V12" stroke="#1a202c" stroke-width="0.8"
    opacity="0.6"/></pattern></defs><rect x="4" y="4" width="52" height="82" rx="3"
    fill="url(#back-tartan)"/><rect x="20" y="36" width="20" height="18" rx="3"
    fill="#fffdf7" stroke="#22543d" stroke-width="1"/><text x="30" y="49.5"
    text-anchor="middle" font-size="12" font-weight="700" fill="#22543d"
    font-family="Georgia, serif">S</text>`,
};

// The back of a card, the same for every look: `back` is one of prefs.BACKS.
export function backSvg(back = "lattice") {
  return `<svg xmlns="${SVG}" viewBox="0 0 60 90" class="card-svg" aria-hidden="true"
    focusable="false"><rect x="0.5" y="0.5" width="59" height="89" rx="5" fill="#fff"
    stroke="#4a5568"/>${BACK_ART[back] ?? BACK_ART.lattice}</svg>`;
}
