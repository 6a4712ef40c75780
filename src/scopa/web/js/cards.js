// The project's own cards, drawn as SVG: a French, an Italian and a Spanish look, and a back.
// A card code is rank + suit (A 2 3 4 5 6 7 J Q K, then D H S C); D is coins in every look, so
// it is always drawn gold, on a coin, whatever its shape.

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

// Pip centres on the 60x90 card for 1..7 pips.
const PIPS = [
  [],
  [[30, 45]],
  [[30, 27], [30, 63]],
  [[30, 22], [30, 45], [30, 68]],
  [[20, 27], [40, 27], [20, 63], [40, 63]],
  [[20, 25], [40, 25], [30, 45], [20, 65], [40, 65]],
  [[20, 23], [40, 23], [20, 45], [40, 45], [20, 67], [40, 67]],
  [[20, 22], [40, 22], [30, 34], [20, 48], [40, 48], [20, 68], [40, 68]],
];

function symbol(look, suit, x, y, size) {
  const shapes = look === "french" ? SHAPES.french : SHAPES.latin;
  const scale = size / 20;
  return `<g transform="translate(${x - size / 2} ${y - size / 2}) scale(${scale})">` +
    shapes[suit](INK[look][suit]) + "</g>";
}

// Spanish cards break their inner frame ("la pinta") to tell the suit at a glance: no break
// for oros, one for copas, two for espadas, three for bastos.
const PINTA_BREAKS = { D: 0, H: 1, S: 2, C: 3 };

function pinta(suit, ink) {
  const gaps = Array.from({ length: PINTA_BREAKS[suit] }, (_, k) =>
    `<rect x="${24 + k * 5}" y="2" width="3" height="3" fill="#fffdf7"/>` +
    `<rect x="${33 - k * 5}" y="85" width="3" height="3" fill="#fffdf7"/>`).join("");
  return `<rect x="3.5" y="3.5" width="53" height="83" rx="3" fill="none" stroke="${ink}"
    stroke-width="1"/>${gaps}`;
}

// The face of a card as SVG markup; `code` is such as "7D".
export function faceSvg(code, look) {
  const rank = RANKS.indexOf(code[0]);
  const suit = code[1];
  const ink = INK[look][suit];
  const corner = CORNER[look][rank];
  const small = corner.length > 1 ? 11 : 13;
  let body = "";
  if (rank < 7) {
    const size = rank === 0 ? 30 : 15;
    for (const [x, y] of PIPS[rank + 1]) body += symbol(look, suit, x, y, size);
  } else {
    // Figures: a framed panel with the figure's letter and its suit, the same in every look.
    body = `<rect x="13" y="16" width="34" height="58" rx="4" fill="${ink}" opacity="0.12"
      stroke="${ink}" stroke-width="1"/>` + symbol(look, suit, 30, 58, 18) +
      `<text x="30" y="43" text-anchor="middle" font-size="20" font-weight="700"
      fill="${ink}" font-family="Georgia, serif">${corner}</text>`;
  }
  const cornerMark = (transform) => `<g transform="${transform}"><text x="7" y="13"
    text-anchor="middle" font-size="${small}" font-weight="700" fill="${ink}"
    font-family="Arial, Helvetica, sans-serif">${corner}</text>${symbol(look, suit, 7, 21, 9)}</g>`;
  return `<svg xmlns="${SVG}" viewBox="0 0 60 90" class="card-svg" aria-hidden="true"
    focusable="false"><rect x="0.5" y="0.5" width="59" height="89" rx="5" fill="#fffdf7"
    stroke="#4a5568" stroke-width="1"/>${look === "spanish" ? pinta(suit, ink) : ""}${body}${
    cornerMark("")}${
    cornerMark("rotate(180 30 45)")}</svg>`;
}

// The back of a card: the same for every look.
export function backSvg() {
  return `<svg xmlns="${SVG}" viewBox="0 0 60 90" class="card-svg" aria-hidden="true"
    focusable="false"><defs><pattern id="scopa-back" width="8" height="8"
    patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="8" height="8"
    fill="#2a4365"/><rect width="4" height="8" fill="#2c5282"/></pattern></defs>
    <rect x="0.5" y="0.5" width="59" height="89" rx="5" fill="#fff" stroke="#4a5568"/>
    <rect x="4" y="4" width="52" height="82" rx="3" fill="url(#scopa-back)"/>
    <circle cx="30" cy="45" r="11" fill="#f6e05e" stroke="#2a4365" stroke-width="2"/>
    <text x="30" y="50" text-anchor="middle" font-size="13" font-weight="700" fill="#2a4365"
    font-family="Georgia, serif">S</text></svg>`;
}
