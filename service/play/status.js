// The table's standing in words: the seats' names, whose turn it is, the seat list and how the
// game ended. Pure.

/** @typedef {import("./types.js").View} View */
/** @typedef {import("./words.js").Namer} Namer */
/** @typedef {import("./games.js").SeatInfo} SeatInfo */

/**
 * A seat's name as the table says it: "Player 2", with "(you)" for the viewer's and "(bot)" for a bot's.
 * @param {number | null | undefined} seat @param {number | null} viewer @param {ReadonlySet<number>} bots
 */
export function seatName(seat, viewer, bots) {
  if (seat === null || seat === undefined) return "nobody";
  return `Player ${seat + 1}${seat === viewer ? " (you)" : bots.has(seat) ? " (bot)" : ""}`;
}

/** @param {View} v */
const mine = (v) => v.seat !== null && v.to_move.includes(v.seat);

/** Whether the viewer is to move. @param {View} v */
export const myTurn = (v) => v.status === "active" && mine(v);

/** The turn line under the title. @param {View} v @param {Namer} name */
export function turnText(v, name) {
  if (v.status === "finished") return "The game is over.";
  if (mine(v)) return "Your turn.";
  return `${v.to_move.map(name).join(", ")} to move\u2026`;
}

/** What a screen reader hears when the turn passes. @param {View} v @param {Namer} name */
export function turnAnnouncement(v, name) {
  if (v.status === "finished") return "The game is over.";
  if (mine(v)) return "Your turn.";
  return `${v.to_move.map(name).join(", ")} to move.`;
}

/** Who is to move, as a key that changes when the turn passes. @param {View} v */
export const turnKey = (v) => (v.status === "finished" ? "over" : v.to_move.join(","));

/**
 * @typedef {{seat: number, name: string, count: number | null, countLabel: string, score: string | null,
 *   extra: string | null, moving: boolean, viewer: boolean}} SeatRow one seat as the seat list shows it
 */

/** Every seat of the table, with what its game says of it. @param {View} v @param {SeatInfo[]} infos @param {Namer} name @returns {SeatRow[]} */
export function seatRows(v, infos, name) {
  return Array.from({ length: v.players }, (_, seat) => {
    const info = infos[seat] || { count: null, score: null, extra: null };
    return {
      seat, name: name(seat), count: info.count,
      countLabel: info.count === null ? "" : `${info.count} card${info.count === 1 ? "" : "s"} in hand`,
      score: info.score, extra: info.extra, moving: v.status === "active" && v.to_move.includes(seat), viewer: seat === v.seat,
    };
  });
}

/**
 * @typedef {{status: string, headline: string, winners: string, losers: string, ending: string,
 *   scores: {name: string, score: number}[]}} Outcome how a finished game ended, in words
 */

/** How the game ended; null while it runs. @param {View} v @param {Namer} name @returns {Outcome | null} */
export function outcome(v, name) {
  const r = v.result;
  if (v.status !== "finished" || !r) return null;
  const winners = r.winners.map(name).join(", ");
  const detail = /** @type {Record<string, unknown>} */ (r.detail || {});
  const ending = typeof detail.reason === "string" ? detail.reason : typeof detail.end === "string" ? detail.end : "";
  return {
    status: r.status,
    headline: r.status === "aborted" ? "The game was stopped without a winner"
      : v.seat !== null && r.winners.includes(v.seat) ? "You won!" : winners ? `${winners} won` : "Game over",
    winners,
    losers: r.losers.map(name).join(", "),
    ending: ending.replace(/_/g, " "),
    scores: (r.scores || []).map((score, seat) => ({ name: name(seat), score })),
  };
}
