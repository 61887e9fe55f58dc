// The games of the web table, by id. Each game's module says how its moves and events read, what
// its table shows and what it adds to a seat of the ring (the ring itself is common: status.js), and which moves a player composes from selected cards (sten.js,
// conquian.js, siebenschlaefer.js, kanaster.js, keine-lahme-agame.js); the rest of the page asks
// it and never names a game. A game the page does not know gets plain words. Pure.

import { conquian } from "./conquian.js";
import { kanaster } from "./kanaster.js";
import { kla } from "./keine-lahme-agame.js";
import { text, wideBox } from "./parts.js";
import { siebenschlaefer } from "./siebenschlaefer.js";
import { sten } from "./sten.js";
import { fieldsText } from "./words.js";

/**
 * @typedef {import("./words.js").Namer} Namer
 * @typedef {import("./parts.js").Box} Box
 * @typedef {import("./parts.js").Summary} Summary
 * @typedef {import("./parts.js").Target} Target
 * @typedef {import("./types.js").View} View
 * @typedef {import("./types.js").GameEvent} GameEvent
 * @typedef {{name: Namer, aim: boolean}} TableContext what a table needs beside the view: the seats' names,
 *   and whether the viewer may aim the composer at melds or cards now (it is his turn)
 * @typedef {{label: string, move: Record<string, unknown>}} Composed a move built from selected cards
 * @typedef {{text: string, tone: "good" | "warn", confirm: {question: string, yes: string} | null}} MoveNote
 *   what the view says a listed move will do; with `confirm`, the table asks before sending it
 */

/**
 * One game at the web table: `V` its view, `E` its events.
 * @template V, E
 * @typedef {{
 *   moveText: (move: Record<string, unknown>, name: Namer) => string,
 *   eventText: (event: E, name: Namer) => string,
 *   seatNote: (view: V, seat: number) => string | null,
 *   table: (view: V, context: TableContext) => Box[],
 *   summary: (view: V, name: Namer) => Summary | null,
 *   compose: (view: V, selected: string[], groups: string[][], target: Target | null) => Composed[],
 *   note: (view: V, move: Record<string, unknown>) => MoveNote | null,
 *   hint: string,
 *   composite: string[],
 *   groups: boolean,
 * }} Game
 *   `seatNote`: one fact of the game about a seat, beside what the ring shows of every game's seats
 *   (name, who plays it, cards in hand, score, whose turn); `composite`: the move types built by
 *   selecting cards; `groups`: whether selected cards are grouped into melds first; `hint`: how to
 *   compose, in a sentence
 */

/** @type {Game<View, GameEvent>} */
const plain = {
  moveText: (move) => fieldsText(move),
  eventText: (event) => fieldsText(event),
  seatNote: () => null,
  table: (view) => [wideBox("Table", text(JSON.stringify(view.state)))],
  summary: () => null,
  compose: () => [],
  note: () => null,
  hint: "",
  composite: [],
  groups: false,
};

/** @type {Readonly<Record<string, Game<any, any>>>} */
export const GAMES = { sten, conquian, siebenschlaefer, kanaster, "keine-lahme-agame": kla };

/** The game of this id; an unknown one gets plain words. @param {string} id @returns {Game<View, GameEvent>} */
export const gameOf = (id) => (Object.hasOwn(GAMES, id) ? GAMES[id] : plain);
