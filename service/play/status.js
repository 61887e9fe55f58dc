// The table's standing in words: the seats' names, whose turn it is, the ring of seats and how the
// game ended, from the view's common fields (`seats`, `to_move`, `result`), the same for every game.
// Pure.

import { clockOf, endingText } from "./clocks.js";

/** @typedef {import("./types.js").View} View */
/** @typedef {import("./types.js").Seat} Seat */
/** @typedef {import("./words.js").Namer} Namer */

/**
 * A seat's name as the table says it: the view's name for it ("Player 2", "Greedy bot"), with
 * "(you)" for the viewer's; a name that several seats share gets the seat's number ("Greedy bot
 * (seat 3)"). The name is a person's text: it is only ever drawn as text.
 * @param {number | null | undefined} seat @param {number | null} viewer @param {readonly Seat[]} seats
 */
export function seatName(seat, viewer, seats) {
  if (seat === null || seat === undefined) return "nobody";
  const own = seats[seat];
  const base = own ? own.name : `Player ${seat + 1}`;
  const shared = own && seats.some((s) => s.seat !== seat && s.name === own.name);
  return `${base}${shared ? ` (seat ${seat + 1})` : ""}${seat === viewer ? " (you)" : ""}`;
}

/** Whether the viewer's seat is to move (a seat a bot took over is the bot's to play). @param {View} v */
const mine = (v) => v.seat !== null && v.to_move.includes(v.seat) && !replaced(v, v.seat);

/** Whether a bot took the seat over. @param {View} v @param {number} seat */
const replaced = (v, seat) => (v.seats || []).some((s) => s.seat === seat && s.status === "replaced");

/**
 * Whether the viewer may resign: a person seated at a game that runs, whose seat no bot took over.
 * @param {View} v @param {boolean} hasToken
 */
export const canResign = (v, hasToken) => hasToken && v.status === "active" && v.seat !== null
  && (v.seats || []).some((s) => s.seat === v.seat && s.kind === "human" && s.status !== "replaced");

/** Whether the viewer is to move. @param {View} v */
export const myTurn = (v) => v.status === "active" && mine(v);

/** The turn line under the title. @param {View} v @param {Namer} name */
export function turnText(v, name) {
  if (v.status === "waiting") return "Waiting for players\u2026";
  if (v.status === "finished") return "The game is over.";
  const own = v.seat === null ? undefined : (v.seats || []).find((s) => s.seat === v.seat);
  if (own && own.status === "replaced") {
    return own.replaced_because === "timed_out" ? "Your time ran out: a bot plays your seat now." : "You resigned: a bot plays your seat now.";
  }
  if (mine(v)) return "Your turn.";
  return `${v.to_move.map(name).join(", ")} to move\u2026`;
}

/** What a screen reader hears when the turn passes. @param {View} v @param {Namer} name */
export function turnAnnouncement(v, name) {
  if (v.status === "waiting") return "Waiting for players.";
  if (v.status === "finished") return "The game is over.";
  if (mine(v)) return "Your turn.";
  return `${v.to_move.map(name).join(", ")} to move.`;
}

/** Who is to move, as a key that changes when the turn passes. @param {View} v */
export const turnKey = (v) => (v.status === "finished" ? "over" : v.status === "waiting" ? "waiting" : v.to_move.join(","));

/**
 * @typedef {{seat: number, name: string, kind: string, who: string, count: number, countLabel: string,
 *   score: number | null, note: string | null, moving: boolean, viewer: boolean, connected: boolean | null,
 *   clock: import("./clocks.js").Clock | null}} SeatRow
 *   one seat as the ring shows it: its name, who plays it ("bot, greedy"), its cards in hand, its
 *   score (null where the game keeps none), one fact of its game, whether it is to move, and whether
 *   its person is at the table (null: a bot's or open seat, or not known), and its clock as of the
 *   view's `server_time` (null: no clock)
 */

/** Who plays a seat, in words. @param {Seat} s */
function playedBy(s) {
  if (s.status === "replaced") return s.replaced_because === "timed_out" ? "bot (out of time)" : s.replaced_because === "resigned" ? "bot (resigned)" : "bot (left)";
  if (s.kind === "bot") return s.level ? `bot, ${s.level}` : "bot";
  return s.kind === "open" ? "open seat" : "person";
}

/**
 * The ring of seats, from the view's `seats`: the viewer's seat first, then the others in the order
 * they play (the spectator's ring starts at seat 0); `note` adds one fact of the game per seat.
 * @param {View} v @param {(seat: number) => string | null} note @param {Namer} name @returns {SeatRow[]}
 */
export function seatRows(v, note, name) {
  const seats = v.seats || [];
  const first = v.seat === null ? 0 : seats.findIndex((s) => s.seat === v.seat);
  const ring = [...seats.slice(Math.max(first, 0)), ...seats.slice(0, Math.max(first, 0))];
  return ring.map((s) => ({
    seat: s.seat, name: name(s.seat), kind: s.kind, who: playedBy(s), count: s.hand_count,
    countLabel: `${s.hand_count} card${s.hand_count === 1 ? "" : "s"} in hand`, score: s.score ?? null,
    note: note(s.seat), moving: v.status === "active" && v.to_move.includes(s.seat), viewer: s.seat === v.seat,
    connected: s.connected ?? null, clock: clockOf(s.clock),
  }));
}

/**
 * @typedef {{status: string, headline: string, winners: string, losers: string, ending: string,
 *   scores: {name: string, score: number}[], places: {place: number, names: string}[]}} Outcome
 *   how a finished game ended, in words; `places` from the result's ranking, best first (tied seats
 *   share a place, and the next place counts them: 1, 1, 3)
 */

/** How the game ended; null while it runs. @param {View} v @param {Namer} name @returns {Outcome | null} */
export function outcome(v, name) {
  const r = v.result;
  if (v.status !== "finished" || !r) return null;
  const winners = r.winners.map(name).join(", ");
  const detail = /** @type {Record<string, unknown>} */ (r.detail || {});
  const told = typeof detail.reason === "string" ? detail.reason : typeof detail.end === "string" ? detail.end : "";
  const ending = endingText(r, name) || told.replace(/_/g, " ");
  return {
    status: r.status,
    headline: r.termination === "aborted" ? "The game was called off before it started"
      : r.status === "aborted" ? "The game was stopped without a winner"
      : v.seat !== null && r.winners.includes(v.seat) ? "You won!" : winners ? `${winners} won` : "Game over",
    winners,
    losers: r.losers.map(name).join(", "),
    ending,
    scores: (r.scores || []).map((score, seat) => ({ name: name(seat), score })),
    places: placesOf(r.ranking || [], name),
  };
}

/** @param {readonly (readonly number[])[]} ranking @param {Namer} name */
function placesOf(ranking, name) {
  let place = 1;
  return ranking.map((seats) => {
    const shown = { place, names: seats.map(name).join(", ") };
    place += seats.length;
    return shown;
  });
}
