// Time and leaving, as data and words: each seat's clock from the view, counted down from the
// server's time (never the browser's clock alone), the table's events of time and leaving (a seat
// ran out of time, resigned, was taken over by a bot), how a game ended, and the `clock` a new game
// asks for. Pure: the current time comes in as an argument.

/** @typedef {import("./words.js").Namer} Namer */

/** Under this many milliseconds a running clock shows tenths and looks urgent. */
export const LOW_MS = 10_000;

/** @typedef {{remainingMs: number, running: boolean}} Clock a seat's clock as of the view's `server_time` */

/**
 * A seat's clock from its `clock` field; null where the game is not played on time (or the field is
 * not a clock).
 * @param {unknown} field @returns {Clock | null}
 */
export function clockOf(field) {
  if (!field || typeof field !== "object") return null;
  const c = /** @type {Record<string, unknown>} */ (field);
  if (typeof c.remaining_ms !== "number" || !Number.isFinite(c.remaining_ms)) return null;
  return { remainingMs: Math.max(0, c.remaining_ms), running: c.running === true };
}

/**
 * Where a view's clocks stand against the browser's clock: the server's time the view was made at
 * and the offset between the server's clock and the browser's, measured once, when the view arrived.
 * @typedef {{serverMs: number, offsetMs: number}} TimeBase
 */

/**
 * The time base of a view that arrived at the browser's time `nowMs`; without a readable
 * `server_time` the view counts from its arrival.
 * @param {unknown} serverTime the view's `server_time` (RFC 3339) @param {number} nowMs @returns {TimeBase}
 */
export function timeBase(serverTime, nowMs) {
  const serverMs = typeof serverTime === "string" ? Date.parse(serverTime) : Number.NaN;
  if (Number.isNaN(serverMs)) return { serverMs: nowMs, offsetMs: 0 };
  return { serverMs, offsetMs: serverMs - nowMs };
}

/** The server's time now, as the browser's clock and the measured offset say. @param {TimeBase} base @param {number} nowMs */
export const serverNow = (base, nowMs) => nowMs + base.offsetMs;

/**
 * What a clock holds at the browser's time `nowMs`: a running clock falls by the time the server's
 * clock moved on since the view was made, and stops at 0; a stopped one holds still.
 * @param {Clock} clock @param {TimeBase} base @param {number} nowMs @returns {number}
 */
export function remainingAt(clock, base, nowMs) {
  if (!clock.running) return clock.remainingMs;
  return Math.max(0, clock.remainingMs - Math.max(0, serverNow(base, nowMs) - base.serverMs));
}

/** @param {number} n */
const two = (n) => String(n).padStart(2, "0");

/**
 * A clock's time as the ring shows it: "m:ss" ("h:mm:ss" from an hour, "2d 03:04" from a day), with
 * tenths under 10 s ("0:09.4"), "0:00" at the end. A started second or tenth still counts, so that a
 * clock shows 0:00 only once it ran out.
 * @param {number} ms
 */
export function clockText(ms) {
  if (!(ms > 0)) return "0:00";
  if (ms < LOW_MS) {
    const tenths = Math.ceil(ms / 100);
    return `0:${two(Math.floor(tenths / 10))}.${tenths % 10}`;
  }
  const secs = Math.ceil(ms / 1000);
  const [d, h, m, s] = [Math.floor(secs / 86_400), Math.floor(secs / 3600) % 24, Math.floor(secs / 60) % 60, secs % 60];
  if (d) return `${d}d ${two(h)}:${two(m)}`;
  return h ? `${h}:${two(m)}:${two(s)}` : `${m}:${two(s)}`;
}

/** Whether a clock looks urgent: it runs and holds less than LOW_MS. @param {Clock} clock @param {number} ms */
export const isLow = (clock, ms) => clock.running && ms < LOW_MS;

/** The table's events of time and leaving (entries without a move). */
export const LEAVING_EVENTS = ["timed_out", "resigned", "game_abandoned"];

/**
 * An event of time or leaving in words, with what followed (`outcome`: a bot moves this turn, a bot
 * plays the seat from now on, or the game is lost); names are a person's text and only ever go into
 * text nodes.
 * @param {{type: string, [field: string]: unknown}} ev @param {Namer} name @returns {string}
 */
export function leavingEventText(ev, name) {
  const who = name(typeof ev.seat === "number" ? ev.seat : null);
  const then = ev.outcome === "bot_moves" ? `; a bot moves for ${who}`
    : ev.outcome === "replaced" ? "; a bot plays the seat from now on"
    : ev.outcome === "lost" ? " and lost the game" : "";
  switch (ev.type) {
    case "timed_out": return `${who} ran out of time${then}`;
    case "resigned": return `${who} resigned${then}`;
    case "game_abandoned": return "Nobody moved for too long: the game was abandoned";
    default: return "The table changed";
  }
}

/**
 * Who made a logged move, in words: a bot that moved for a person ("A bot for Ann": the person ran out
 * of time, or resigned and the bot plays on), else the seat's name.
 * @param {{seat: number | null, bot?: boolean}} entry @param {Namer} name
 * @param {readonly {seat: number, kind: string, status?: string}[]} seats
 */
export function moverText(entry, name, seats) {
  const seat = seats.find((s) => s.seat === entry.seat);
  const forPerson = entry.bot === true && seat !== undefined && (seat.kind === "human" || seat.status === "replaced");
  return forPerson ? `A bot for ${name(entry.seat)}` : name(entry.seat);
}

/**
 * How a game ended, in words, beyond who won: a resignation, a timeout, abandonment, and who gave the
 * game up (they are ranked last). Empty for a game played out.
 * @param {{termination?: string, forfeited?: readonly number[]}} result @param {Namer} name @returns {string}
 */
export function endingText(result, name) {
  const gaveUp = (result.forfeited || []).map(name).join(", ");
  switch (result.termination) {
    case "resignation": return gaveUp ? `${gaveUp} resigned` : "By resignation";
    case "timeout": return gaveUp ? `${gaveUp} ran out of time` : "On time";
    case "abandoned": return "Abandoned: nobody moved for too long";
    default: return gaveUp ? `Gave the game up: ${gaveUp}` : "";
  }
}

/**
 * @typedef {{kind: string, seconds: number, minutes: number, increment: number, onTimeout: string,
 *   maxTimeouts: number}} ClockChoice the setup form's clock: `none`, `per_move` (seconds a move) or
 *   `fischer` (minutes in the bank plus an increment in seconds a move), and what a timeout does
 */

/**
 * The `clock` of a create request from the setup form's choice; null for a game not played on time.
 * @param {ClockChoice} c @returns {Record<string, unknown> | null}
 */
export function clockRequest(c) {
  const policy = { on_timeout: c.onTimeout === "forfeit" ? "forfeit" : "bot", max_timeouts: Math.round(c.maxTimeouts) };
  if (c.kind === "per_move") return { kind: "per_move", seconds: Math.round(c.seconds), ...policy };
  if (c.kind === "fischer") {
    return { kind: "fischer", initial_seconds: Math.round(c.minutes * 60), increment_seconds: Math.round(c.increment), ...policy };
  }
  return null;
}
