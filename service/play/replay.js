// Watching a finished game again, as data: the export's entries as the history reads them (each
// event as its mover saw it), the steps forward and back a key makes, and which page of positions
// holds a step. Pure: watch.js fetches and draws.

/** @typedef {import("./types.js").Export} Export */
/** @typedef {import("./types.js").ExportEntry} ExportEntry */
/** @typedef {import("./types.js").LogEntry} LogEntry */
/** @typedef {import("./types.js").GameEvent} GameEvent */
/** @typedef {import("./words.js").Namer} Namer */

/**
 * An event of the export (every viewer's part) as `seat` saw it: the public fields, and that seat's own.
 * @param {{type: string, public: Record<string, unknown>, private: Record<string, Record<string, unknown>>}} stored
 * @param {number} seat @returns {GameEvent}
 */
export function eventAs(stored, seat) {
  const own = Object.hasOwn(stored.private || {}, String(seat)) ? stored.private[String(seat)] : {};
  return { ...(stored.public || {}), ...own, type: stored.type };
}

/**
 * An export's entry as a log entry shows it to its mover: the move as posted, each event as the mover saw it.
 * @param {ExportEntry} entry @returns {LogEntry}
 */
export function entryAsLogged(entry) {
  return /** @type {LogEntry} */ ({ version: entry.version, seat: entry.seat, bot: entry.bot,
    move: /** @type {Record<string, unknown>} */ (entry.move),
    events: entry.events.map((e) => eventAs(/** @type {any} */ (e), entry.seat)) });
}

/**
 * The namer of an export's seats: each seat's name as the table showed it, and where two seats share
 * a name (two bots of one level), the seat's number after it, so that every seat reads apart.
 * @param {Export["seats"]} seats @returns {Namer}
 */
export function seatNamer(seats) {
  /** @type {Map<string, number>} */
  const count = new Map();
  for (const s of seats) count.set(s.name, (count.get(s.name) || 0) + 1);
  return (seat) => {
    if (seat === null || seat === undefined) return "nobody";
    const s = seats.find((x) => x.seat === seat);
    if (!s) return `Player ${seat + 1}`;
    return (count.get(s.name) || 0) > 1 ? `${s.name} (seat ${seat + 1})` : s.name;
  };
}

/** Steps a key makes, by `KeyboardEvent.key`: one move, ten moves, the start or the end. */
const KEYS = /** @type {Record<string, "back" | "forward" | "start" | "end" | "back10" | "forward10">} */ ({
  ArrowLeft: "back", ArrowRight: "forward", Home: "start", End: "end", PageUp: "back10", PageDown: "forward10",
});

/**
 * The step after `action` from `at` (0: the deal, `last`: the end), kept within the game.
 * @param {number} at @param {"back" | "forward" | "start" | "end" | "back10" | "forward10"} action @param {number} last
 */
export function stepped(at, action, last) {
  const to = { back: at - 1, forward: at + 1, start: 0, end: last, back10: at - 10, forward10: at + 10 }[action];
  return Math.max(0, Math.min(last, to));
}

/**
 * The step a key takes the watcher to, or null for a key that is not a step (or one with a modifier,
 * which belongs to the browser).
 * @param {{key: string, altKey?: boolean, ctrlKey?: boolean, metaKey?: boolean}} key @param {number} at @param {number} last
 * @returns {number | null}
 */
export function keyStep(key, at, last) {
  if (key.altKey || key.ctrlKey || key.metaKey || !Object.hasOwn(KEYS, key.key)) return null;
  return stepped(at, KEYS[key.key], last);
}

/** The first position of the page of `size` positions that holds `step`. @param {number} step @param {number} size */
export const pageOf = (step, size) => Math.floor(step / size) * size;

/**
 * What the step is, in words: the deal, or the move that led to it and who made it.
 * @param {number} step @param {readonly {who: string, move: string}[]} lines the history, one line per entry
 */
export function stepText(step, lines) {
  if (step === 0) return "The deal, before the first move";
  const line = lines[step - 1];
  return line ? `Move ${step}: ${line.who}: ${line.move}` : `Move ${step}`;
}
