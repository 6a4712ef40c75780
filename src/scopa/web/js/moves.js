// Move codes as RULES.md writes them: "5D" trails the five of coins, "5Dx2H+3C" takes two cards.

export function parseMove(code) {
  const [card, taken] = code.split("x");
  return { code, card, captures: taken ? taken.split("+") : [] };
}

// The legal moves that play `card`, parsed.
export function movesOfCard(legalMoves, card) {
  return legalMoves.map(parseMove).filter((move) => move.card === card);
}

// Of `moves`, those whose captures hold every card of `cards` (all of them when it is empty).
export function capturesHolding(moves, cards) {
  return moves.filter((move) => cards.every((card) => move.captures.includes(card)));
}
