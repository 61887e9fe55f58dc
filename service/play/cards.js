// Card codes in words: an accessible name ("7 of hearts"), a short text ("7♥") and the order a
// hand is held in. Standard codes are rank then suit ("7H", "10S"); Keine lahme Agame's are
// colour-value ("red-13"). Pure: faces.js draws the cards.

export const SUITS = /** @type {const} */ ({
  C: { symbol: "\u2663", name: "clubs" },
  D: { symbol: "\u2666", name: "diamonds" },
  H: { symbol: "\u2665", name: "hearts" },
  S: { symbol: "\u2660", name: "spades" },
});
/** @type {Record<string, string>} */
const RANK_NAMES = { A: "ace", J: "jack", Q: "queen", K: "king" };
const RANK_ORDER = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"];
/** Keine lahme Agame's colours, with a letter each so that colour is never the only cue. */
const AGAME_COLOURS = ["red", "yellow", "green", "blue", "purple"];

/**
 * @typedef {{code: string, kind: "standard", rank: string, suit: "C" | "D" | "H" | "S"}
 *   | {code: string, kind: "joker"}
 *   | {code: string, kind: "agame", colour: string, value: string}
 *   | {code: string, kind: "unknown"}} Parsed
 */

/** @param {string} code @returns {Parsed} */
export function parse(code) {
  if (code === "JK") return { code, kind: "joker" };
  const dash = code.lastIndexOf("-");
  if (dash > 0) return { code, kind: "agame", colour: code.slice(0, dash), value: code.slice(dash + 1) };
  const suit = code.slice(-1);
  const rank = code.slice(0, -1);
  if ((suit === "C" || suit === "D" || suit === "H" || suit === "S") && RANK_ORDER.includes(rank)) {
    return { code, kind: "standard", rank, suit };
  }
  return { code, kind: "unknown" };
}

/** "7 of hearts", "queen of spades", "joker", "red 13", "green hat". @param {string} code */
export function cardName(code) {
  const c = parse(code);
  switch (c.kind) {
    case "standard": return `${RANK_NAMES[c.rank] || c.rank} of ${SUITS[c.suit].name}`;
    case "joker": return "joker";
    case "agame": return `${c.colour} ${c.value}`;
    default: return code;
  }
}

/** Short text: "7♥", "Q♠", "Joker", "red 13". @param {string} code */
export function cardText(code) {
  const c = parse(code);
  switch (c.kind) {
    case "standard": return `${c.rank}${SUITS[c.suit].symbol}`;
    case "joker": return "Joker";
    case "agame": return `${c.colour} ${c.value}`;
    default: return code;
  }
}

/** A list of cards in words, for history lines and labels. @param {readonly string[]} codes */
export const cardsText = (codes) => codes.map(cardText).join(codes.some((c) => c.includes("-")) ? " + " : " ");

/** Sort key: suit then rank for standard cards (as a hand is held), colour then value otherwise. @param {string} code */
function sortKey(code) {
  const c = parse(code);
  if (c.kind === "standard") return "CDSH".indexOf(c.suit) * 20 + RANK_ORDER.indexOf(c.rank);
  if (c.kind === "joker") return 200;
  if (c.kind === "agame") {
    const v = c.value === "hat" ? 99 : Number(c.value);
    return 300 + AGAME_COLOURS.indexOf(c.colour) * 100 + v;
  }
  return 1000;
}

/** A hand sorted for display, keeping each card's index in the view's hand. @param {readonly string[]} hand */
export function sortedHand(hand) {
  return hand.map((code, index) => ({ code, index })).sort((a, b) => sortKey(a.code) - sortKey(b.code) || a.index - b.index);
}
