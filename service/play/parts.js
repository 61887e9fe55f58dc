// What a table shows, as data: boxes of parts (a text, cards, a face-down count, figures, melds,
// lines per seat, a score table). Each game builds them from its view (sten.js, ...); board.js
// draws them the same way for every game. Pure.

/**
 * What the composer may aim at, a meld or a card to catch; `key` names it on the page (data-target).
 * @typedef {{kind: "meld", key: string, id: number, label: string}
 *   | {kind: "catch", key: string, card: string, from_seat: number | null, label: string}} Target
 * @typedef {"big" | "empty" | "note" | "badge" | "num"} Tone
 * @typedef {{kind: "text", text: string, tone?: Tone}} TextPart
 * @typedef {{kind: "cards", cards: readonly string[], large: boolean, targets: readonly (Target | null)[]}} CardsPart
 *   cards face up; a card with a target is one the composer may aim at
 * @typedef {{kind: "back", count: number, label: string}} BackPart a face-down pile: how many cards
 * @typedef {{kind: "stats", stats: readonly (readonly [string, string | number])[]}} StatsPart named figures
 * @typedef {{kind: "meld", cards: readonly string[], label: string, target: Target | null}} MeldPart
 * @typedef {{label: string, parts: Part[], style: string}} Line one seat's (or suit's) row of parts
 * @typedef {{kind: "lines", layout: "seats" | "plays" | "suits", lines: Line[]}} LinesPart
 * @typedef {{kind: "more", summary: string, parts: Part[]}} MorePart shown on request
 * @typedef {{kind: "scores", head: string[], rows: Part[][]}} ScoresPart a table, one cell a part
 * @typedef {TextPart | CardsPart | BackPart | StatsPart | MeldPart | LinesPart | MorePart | ScoresPart} Part
 * @typedef {Part | null | false | undefined} MaybePart
 * @typedef {{title: string, parts: Part[], wide: boolean}} Box
 *   a titled box; wide ones take a line of their own, the others share one
 * @typedef {{key: string, title: string, parts: Part[]}} Summary
 *   the end of a hand, deal, round or section; `key` tells one from the next
 */

/** @param {readonly MaybePart[]} parts @returns {Part[]} */
const present = (parts) => /** @type {Part[]} */ (parts.filter(Boolean));

/** @param {string} text @param {Tone} [tone] @returns {TextPart} */
export const text = (text, tone) => (tone ? { kind: "text", text, tone } : { kind: "text", text });

/**
 * @param {readonly string[]} codes @param {{large?: boolean, targets?: readonly (Target | null)[]}} [opts]
 * @returns {CardsPart}
 */
export const cards = (codes, opts = {}) => ({ kind: "cards", cards: codes, large: opts.large ?? false, targets: opts.targets ?? [] });

/** @param {number} count @param {string} label @returns {BackPart} */
export const back = (count, label) => ({ kind: "back", count, label });

/**
 * Named figures; a null pair is left out. @param {...(readonly [string, string | number] | null)} pairs
 * @returns {StatsPart}
 */
export const stats = (...pairs) => ({ kind: "stats", stats: /** @type {(readonly [string, string | number])[]} */ (pairs.filter(Boolean)) });

/** @param {readonly string[]} cardCodes @param {string} label @param {Target | null} [target] @returns {MeldPart} */
export const meld = (cardCodes, label, target = null) => ({ kind: "meld", cards: cardCodes, label, target });

/** @param {string} label @param {readonly MaybePart[]} parts @param {string} [style] @returns {Line} */
export const line = (label, parts, style = "") => ({ label, parts: present(parts), style });

/** @param {LinesPart["layout"]} layout @param {Line[]} rows @returns {LinesPart} */
export const lines = (layout, rows) => ({ kind: "lines", layout, lines: rows });

/** @param {string} summary @param {...MaybePart} parts @returns {MorePart} */
export const more = (summary, ...parts) => ({ kind: "more", summary, parts: present(parts) });

/** @param {string[]} head @param {readonly (readonly MaybePart[])[]} rows @returns {ScoresPart} */
export const scores = (head, rows) => ({ kind: "scores", head, rows: rows.map(present) });

/** A box among others on one line. @param {string} title @param {...MaybePart} parts @returns {Box} */
export const box = (title, ...parts) => ({ title, parts: present(parts), wide: false });

/** A box on a line of its own. @param {string} title @param {...MaybePart} parts @returns {Box} */
export const wideBox = (title, ...parts) => ({ title, parts: present(parts), wide: true });

/** @param {number} id @param {string} label @returns {Target} */
export const meldTarget = (id, label) => ({ kind: "meld", key: `meld-${id}`, id, label });

/** @param {string} card @param {number | null} from @param {string} label @returns {Target} */
export const catchTarget = (card, from, label) => ({ kind: "catch", key: `catch-${card}-${from === null ? "pile" : from}`,
  card, from_seat: from, label });
