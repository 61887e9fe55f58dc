// Views and log entries of real games, written by tests/web/test_node_units.py (which plays seeded
// games of every game through the API) and named by CARDTABLE_REAL_GAMES; null when run without it.

import { readFileSync } from "node:fs";

/** @returns {Record<string, {views: any[], entries: any[]}> | null} */
export function realGames() {
  const path = process.env.CARDTABLE_REAL_GAMES;
  return path ? JSON.parse(readFileSync(path, "utf8")) : null;
}

/** Seat names as the table gives them. @param {number | null | undefined} seat */
export const name = (seat) => (seat === null || seat === undefined ? "nobody" : `P${seat + 1}`);

/** Text with a hole in it: a value that never became words. */
export const HOLE = /undefined|NaN|\[object Object\]|\bnull\b/;
