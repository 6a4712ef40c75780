// The court cards' figures, drawn by the project: simple flat shapes in the spirit of the
// regional decks, never copied. French figures are double-ended busts (a half, and the same
// half turned round); Italian and Spanish ones stand full length, the knight on his horse.
// Every function returns SVG markup in the card's 60x90 space.

const SKIN = "#f4d2b0";
const LINE = "#2d2a26";
const GOLD = "#d69e2e";
const HAIR = { J: "#6b3e1f", Q: "#c9962b", K: "#e2e2e2", N: "#3b2414" };
// A second colour for sleeves, hose and trim, by suit, so the four of a rank differ.
const SECOND = { D: "#2b6cb0", H: "#2f855a", S: "#c53030", C: "#b7791f" };

const stroke = `stroke="${LINE}" stroke-width="0.7" stroke-linejoin="round"`;

function face(cx, cy, r, rank) {
  const beard = rank === "K" ? `<path d="M${cx - r * 0.9} ${cy + r * 0.2} Q${cx} ${cy + r * 2.4}
    ${cx + r * 0.9} ${cy + r * 0.2} Q${cx} ${cy + r * 1.1} ${cx - r * 0.9} ${cy + r * 0.2} Z"
    fill="${HAIR.K}" ${stroke}/>` : "";
  const hair = rank === "Q"
    ? `<path d="M${cx - r * 1.2} ${cy + r * 2.2} Q${cx - r * 1.5} ${cy - r * 1.3} ${cx}
      ${cy - r * 1.1} Q${cx + r * 1.5} ${cy - r * 1.3} ${cx + r * 1.2} ${cy + r * 2.2} Z"
      fill="${HAIR.Q}" ${stroke}/>`
    : `<path d="M${cx - r * 1.05} ${cy + r * 0.6} Q${cx - r * 1.2} ${cy - r * 1.3} ${cx}
      ${cy - r * 1.1} Q${cx + r * 1.2} ${cy - r * 1.3} ${cx + r * 1.05} ${cy + r * 0.6} Z"
      fill="${HAIR[rank] ?? HAIR.J}" ${stroke}/>`;
  return `${hair}<circle cx="${cx}" cy="${cy}" r="${r}" fill="${SKIN}" ${stroke}/>
    <circle cx="${cx - r * 0.38}" cy="${cy - r * 0.1}" r="${r * 0.12}" fill="${LINE}"/>
    <circle cx="${cx + r * 0.38}" cy="${cy - r * 0.1}" r="${r * 0.12}" fill="${LINE}"/>
    <path d="M${cx - r * 0.3} ${cy + r * 0.45} Q${cx} ${cy + r * 0.65} ${cx + r * 0.3}
    ${cy + r * 0.45}" fill="none" stroke="${LINE}" stroke-width="0.5"/>${beard}`;
}

// What a figure wears on its head: a feathered cap for the knave, crowns for queen and king.
function headgear(cx, top, r, rank, ink) {
  if (rank === "K") {
    return `<path d="M${cx - r} ${top + r * 0.9} L${cx - r} ${top - r * 0.3} L${cx - r * 0.5}
      ${top + r * 0.3} L${cx} ${top - r * 0.6} L${cx + r * 0.5} ${top + r * 0.3} L${cx + r}
      ${top - r * 0.3} L${cx + r} ${top + r * 0.9} Z" fill="${GOLD}" ${stroke}/>
      <circle cx="${cx}" cy="${top + r * 0.45}" r="${r * 0.18}" fill="${ink}"/>`;
  }
  if (rank === "Q") {
    return `<path d="M${cx - r * 0.8} ${top + r * 0.8} L${cx - r * 0.8} ${top + r * 0.1}
      L${cx - r * 0.4} ${top + r * 0.5} L${cx} ${top - r * 0.1} L${cx + r * 0.4} ${top + r * 0.5}
      L${cx + r * 0.8} ${top + r * 0.1} L${cx + r * 0.8} ${top + r * 0.8} Z" fill="${GOLD}"
      ${stroke}/>`;
  }
  return `<path d="M${cx - r * 1.25} ${top + r * 0.85} Q${cx - r * 0.2} ${top - r * 0.7}
    ${cx + r * 1.25} ${top + r * 0.7} Z" fill="${ink}" ${stroke}/>
    <path d="M${cx + r * 0.6} ${top + r * 0.3} Q${cx + r * 2.2} ${top - r * 1.2}
    ${cx + r * 1.9} ${top - r * 1.6}" fill="none" stroke="${GOLD}" stroke-width="${r * 0.35}"
    stroke-linecap="round"/>`;
}

// French: a bust in the top half (x 14..46, y 12..45) and the same bust turned round below,
// split by a diagonal as on Anglo-French court cards. `held` is the suit symbol's markup.
export function frenchCourt(rank, suit, ink, held) {
  const second = SECOND[suit];
  const bust = `<path d="M14 45 Q14 33 22 31 L38 31 Q46 33 46 45 Z" fill="${ink}" ${stroke}/>
    <path d="M22 31 L30 41 L38 31" fill="${second}" ${stroke}/>
    <path d="M14 45 Q14 38 17 35 L19 45 Z M46 45 Q46 38 43 35 L41 45 Z" fill="${GOLD}"
    opacity="0.85"/>
    <rect x="27" y="27" width="6" height="5" fill="${SKIN}" ${stroke}/>
    ${face(30, 22, 5.5, rank)}${headgear(30, 12.5, 5.5, rank, second)}
    ${rank === "K" ? `<path d="M42 44 L45 20" stroke="${GOLD}" stroke-width="1.4"/>
      <circle cx="45" cy="19" r="1.6" fill="${GOLD}" ${stroke}/>` : ""}
    ${rank === "Q" ? `<path d="M41 44 L43 27" stroke="#2f855a" stroke-width="0.9"/>
      <circle cx="43" cy="26" r="2" fill="#e53e3e" ${stroke}/>` : ""}
    <g transform="translate(15 33) scale(0.5)">${held}</g>`;
  return `<rect x="14" y="12" width="32" height="66" rx="2" fill="#fffaf0" stroke="${ink}"
    stroke-width="0.8"/><clipPath id="half-${rank}${suit}"><rect x="14" y="12" width="32"
    height="33"/></clipPath><g clip-path="url(#half-${rank}${suit})">${bust}</g>
    <g transform="rotate(180 30 45)"><g clip-path="url(#half-${rank}${suit})">${bust}</g></g>
    <path d="M14 46.4 L46 43.6" stroke="${ink}" stroke-width="0.8"/>`;
}

// A standing figure (knave or king) in the panel x 14..46, y 10..80, the suit held high.
function standing(rank, suit, ink, held) {
  const second = SECOND[suit];
  const king = rank === "K";
  const hem = king ? 78 : 62;
  const robe = `<path d="M24 33 L36 33 L${king ? 42 : 40} ${hem} L${king ? 18 : 20} ${hem} Z"
    fill="${ink}" ${stroke}/>`;
  const trim = king
    ? `<path d="M19 75 L41 75 L42 78 L18 78 Z" fill="#fff" ${stroke}/>
      <circle cx="24" cy="76.5" r="0.6" fill="${LINE}"/><circle cx="30" cy="76.5" r="0.6"
      fill="${LINE}"/><circle cx="36" cy="76.5" r="0.6" fill="${LINE}"/>
      <path d="M30 33 L30 75" stroke="${GOLD}" stroke-width="1.2"/>`
    : `<rect x="23.5" y="47" width="13" height="2.2" fill="${GOLD}" ${stroke}/>`;
  const legs = king ? "" : `<rect x="24.5" y="62" width="4" height="15" fill="${second}"
    ${stroke}/><rect x="31.5" y="62" width="4" height="15" fill="${second}" ${stroke}/>
    <path d="M23 77 L29 77 L29 79.5 L22 79.5 Z M31 77 L37 77 L38 79.5 L31 79.5 Z"
    fill="${LINE}"/>`;
  const arms = `<path d="M24 34 Q18 40 19 50" stroke="${second}" stroke-width="3.4"
    fill="none" stroke-linecap="round"/><path d="M36 34 Q42 32 42 24" stroke="${second}"
    stroke-width="3.4" fill="none" stroke-linecap="round"/>
    <circle cx="19" cy="50.5" r="1.6" fill="${SKIN}" ${stroke}/>
    <circle cx="42" cy="23.5" r="1.6" fill="${SKIN}" ${stroke}/>`;
  const sceptre = king ? `<path d="M19 50 L17 70" stroke="${GOLD}" stroke-width="1.3"/>` : "";
  return `${legs}${robe}${trim}${arms}${sceptre}
    <rect x="28" y="29" width="4" height="5" fill="${SKIN}" ${stroke}/>
    ${face(30, 24, 5, rank)}${headgear(30, 15.5, 5, rank, second)}
    <g transform="translate(35 9) scale(0.6)">${held}</g>`;
}

// The knight on horseback, riding to the left, the suit held up.
function rider(suit, ink, held) {
  const second = SECOND[suit];
  return `<path d="M43 52 Q50 56 47 68" stroke="#4a3426" stroke-width="2.6" fill="none"
    stroke-linecap="round"/>
    <rect x="20" y="58" width="3" height="19" fill="#8b5e3c" ${stroke}/>
    <rect x="26" y="59" width="3" height="18" fill="#8b5e3c" ${stroke}/>
    <rect x="35" y="59" width="3" height="18" fill="#8b5e3c" ${stroke}/>
    <rect x="40" y="58" width="3" height="19" fill="#8b5e3c" ${stroke}/>
    <ellipse cx="31" cy="55" rx="13" ry="7.5" fill="#a47148" ${stroke}/>
    <path d="M21 52 L14 38 Q12 34 15 33 L21 35 L25 49 Z" fill="#a47148" ${stroke}/>
    <path d="M15 33 L10 40 Q9 43 12 43 L17 40 Z" fill="#a47148" ${stroke}/>
    <circle cx="14" cy="37" r="0.8" fill="${LINE}"/>
    <path d="M17 35 Q19 33 21 35 L24 45" stroke="#4a3426" stroke-width="1.6" fill="none"/>
    <path d="M22 51 L40 51 L38 58 L24 58 Z" fill="${second}" ${stroke}/>
    <path d="M27 50 L25 36 L35 36 L34 50 Z" fill="${ink}" ${stroke}/>
    <path d="M31 50 L31 62" stroke="${ink}" stroke-width="3.2" stroke-linecap="round"/>
    <path d="M34 38 Q40 36 40 27" stroke="${second}" stroke-width="3" fill="none"
    stroke-linecap="round"/><circle cx="40" cy="26.5" r="1.5" fill="${SKIN}" ${stroke}/>
    <rect x="28.5" y="31" width="3.5" height="5" fill="${SKIN}" ${stroke}/>
    ${face(30, 26, 4.6, "N")}${headgear(30, 18, 4.6, "J", second)}
    <g transform="translate(33 12) scale(0.6)">${held}</g>`;
}

// An Italian or Spanish figure: J is the knave (fante, sota), Q the knight, K the king.
export function latinCourt(rank, suit, ink, held) {
  return rank === "Q" ? rider(suit, ink, held) : standing(rank, suit, ink, held);
}
