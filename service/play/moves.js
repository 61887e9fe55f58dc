// The listed moves as the moves panel orders them: those without cards first, then those that use
// the selected cards, the rest under "More moves". Pure.

/** How many moves with cards show before the rest go into "More moves". */
export const SHOWN_MOVES = 12;

/** @param {unknown} v @returns {string[]} */
const codes = (v) => (Array.isArray(v) ? v.filter((c) => typeof c === "string") : []);

/** The cards a move names: its card, cards, payment and melds. @param {Record<string, unknown>} move @returns {string[]} */
export function moveCards(move) {
  const out = [];
  if (typeof move.card === "string") out.push(move.card);
  out.push(...codes(move.cards), ...codes(move.payment));
  if (Array.isArray(move.melds)) for (const m of move.melds) out.push(...codes(m));
  return out;
}

/** Whether the move uses every selected card (a card selected twice, twice). @param {Record<string, unknown>} move @param {readonly string[]} selected */
export function usesAll(move, selected) {
  const left = moveCards(move);
  return selected.every((c) => {
    const at = left.indexOf(c);
    if (at < 0) return false;
    left.splice(at, 1);
    return true;
  });
}

/**
 * @template {Record<string, unknown>} M
 * @typedef {{plain: M[], shown: M[], more: M[]}} ArrangedMoves
 *   `plain`: moves without cards; `shown`: the first that use the selection; `more`: the rest
 */

/**
 * The listed moves in the panel's order.
 * @template {Record<string, unknown>} M
 * @param {readonly M[]} moves @param {readonly string[]} selected @param {number} [shown]
 * @returns {ArrangedMoves<M>}
 */
export function arrangeMoves(moves, selected, shown = SHOWN_MOVES) {
  const withCards = moves.filter((m) => moveCards(m).length);
  const matching = selected.length ? withCards.filter((m) => usesAll(m, selected)) : withCards;
  const rest = selected.length ? withCards.filter((m) => !usesAll(m, selected)) : [];
  return {
    plain: moves.filter((m) => !moveCards(m).length),
    shown: matching.slice(0, shown),
    more: [...matching.slice(shown), ...rest],
  };
}
