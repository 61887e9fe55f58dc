// The history: each log entry as lines, its move and then what the move caused. The words come from
// the entry's game (games.js), or, for an entry of the table (no move: a seat claimed, the game
// started or called off), from people.js, and for time and leaving (a seat ran out of time,
// resigned, was taken over by a bot) from clocks.js; this module only walks the entries. Pure.

import { LEAVING_EVENTS, leavingEventText, moverText } from "./clocks.js";
import { isTableEvent, TABLE_MOVE, tableEventText } from "./people.js";

/** @typedef {import("./types.js").LogEntry} LogEntry */
/** @typedef {import("./types.js").GameEvent} GameEvent */
/** @typedef {import("./types.js").TableEvent} TableEvent */
/** @typedef {import("./words.js").Namer} Namer */
/** @typedef {import("./games.js").Game<any, any>} Game */
/** @typedef {{version: number, who: string, move: string, events: string[]}} HistoryLine */

/**
 * A log entry as history lines: who moved (a bot that moved for a person says so), the move, and each
 * of its events.
 * @param {LogEntry} entry @param {Namer} name @param {Game} game
 * @param {readonly {seat: number, kind: string, status?: string}[]} [seats] the view's seats
 * @returns {HistoryLine}
 */
export function entryLines(entry, name, game, seats = []) {
  const events = /** @type {GameEvent[]} */ (entry.events || []);
  return {
    version: entry.version,
    who: entry.move ? moverText(entry, name, seats) : name(entry.seat),
    move: entry.move ? game.moveText(entry.move, name) : TABLE_MOVE,
    events: events.map((e) => (LEAVING_EVENTS.includes(e.type) ? leavingEventText(e, name)
      : isTableEvent(e) ? tableEventText(/** @type {TableEvent} */ (e), name) : game.eventText(e, name))),
  };
}

/**
 * The entries newer than `after` (the log's version already shown), in order; a repeated or
 * older entry (the stream and a log read may both bring it) is left out.
 * @param {readonly LogEntry[]} entries @param {number} after @returns {LogEntry[]}
 */
export function newEntries(entries, after) {
  const out = [];
  let last = after;
  for (const e of entries) {
    if (e.version <= last) continue;
    out.push(e);
    last = e.version;
  }
  return out;
}
