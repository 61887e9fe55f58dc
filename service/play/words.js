// Words every game's text shares: field readers that never throw on a missing field, plurals,
// meld lists, the closing game_over event (core's, the same in every game) and the plain words
// for a move or an event the page does not know (a newer server's). Pure.

import { cardsText } from "./cards.js";

/** A seat's name: "Player 2 (bot)", "nobody" for none. @typedef {(seat: number | null | undefined) => string} Namer */

/** The card codes of a field (anything else: none). @param {unknown} v @returns {string[]} */
export const codes = (v) => (Array.isArray(v) ? v.filter((c) => typeof c === "string") : []);

/** A number field, or null. @param {unknown} v @returns {number | null} */
export const num = (v) => (typeof v === "number" ? v : null);

/** A text field, or "". @param {unknown} v @returns {string} */
export const str = (v) => (typeof v === "string" ? v : "");

/** "1 card", "3 cards", "some cards". @param {number | null} n @param {string} one @param {string} many */
export const plural = (n, one, many) => (n === 1 ? `1 ${one}` : `${n ?? "some"} ${many}`);

/** Melds as "7♥ 8♥ 9♥ | Q♣ Q♠ Q♦". @param {readonly (readonly string[])[]} melds */
export const meldsText = (melds) => melds.map((m) => cardsText(m)).join(" | ");

/** The melds of a move field (lists of codes). @param {unknown} v @returns {string[][]} */
export const meldsOf = (v) => (Array.isArray(v) ? v.map(codes) : []);

/** Names of seats: "Player 1 (you), Player 3". @param {readonly number[]} seats @param {Namer} name */
const namesText = (seats, name) => seats.map((s) => name(s)).join(", ");

/** Any object in words, from its type and its plain fields: "red three (seat: 1, cards: 3♥)". @param {Record<string, unknown>} obj */
export function fieldsText(obj) {
  const type = String(obj.type || "move").replace(/_/g, " ");
  const parts = Object.entries(obj).filter(([k, v]) => k !== "type" && (v === null || typeof v !== "object"
    || (Array.isArray(v) && v.every((x) => typeof x === "string")))).map(([k, v]) => {
    const text = Array.isArray(v) ? cardsText(codes(v)) : String(v);
    return `${k.replace(/_/g, " ")}: ${text}`;
  });
  return parts.length ? `${type} (${parts.join(", ")})` : type;
}

/**
 * The words for a move or an event of a type the spec does not list (a newer server's): its fields.
 * `_kind` is what the game's switch ran on; it is `never` once every listed type has its case, so
 * the type checker fails while a game leaves one of its listed moves or events without words.
 * @param {never} _kind @param {Record<string, unknown>} obj @returns {string}
 */
export const unlistedText = (_kind, obj) => fieldsText(obj);

/** The last event of every game: who won. @param {{winners: number[], status: string}} ev @param {Namer} name */
export function gameOverText(ev, name) {
  if (ev.status === "aborted") return "Game over: stopped without a winner";
  return ev.winners.length ? `Game over: ${namesText(ev.winners, name)} won` : "Game over";
}
