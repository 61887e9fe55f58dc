// The people at the table, in words and data: the events of the table (a seat claimed, bots seated,
// the game started or called off), the seats a new game asks for, the invite link (the invite rides
// in the URL fragment, which browsers never send to a server), and the seat tokens this browser
// keeps for "your games". Pure: storage comes in as an argument.

import { LEAVING_EVENTS } from "./clocks.js";

/** @typedef {import("./types.js").TableEvent} TableEvent */
/** @typedef {import("./words.js").Namer} Namer */

/** The table's event types: the same in every game, and no game's own (time and leaving read in clocks.js). */
export const TABLE_EVENTS = ["seat_taken", "bot_seated", "game_started", "game_aborted", ...LEAVING_EVENTS];

/** Whether an event is the table's (not a move's). @param {{type: string}} ev */
export const isTableEvent = (ev) => TABLE_EVENTS.includes(ev.type);

/**
 * An event of the table in words. The name a person gave is text: it only ever goes into text nodes.
 * @param {TableEvent} ev @param {Namer} name @returns {string}
 */
export function tableEventText(ev, name) {
  switch (ev.type) {
    case "seat_taken": return `${ev.name} sat down at seat ${ev.seat + 1}`;
    case "bot_seated": return `A ${ev.level} bot took seat ${ev.seat + 1}`;
    case "game_started": return "The game started";
    case "game_aborted": return `${name(ev.seat)} called the game off`;
    default: return "The table changed";
  }
}

/** What an entry without a move says in the history's move column. */
export const TABLE_MOVE = "at the table";

/**
 * The `seats` of a create request from the setup form: seat 0 is the player (named, or "Player 1"),
 * every other seat a bot at its level, a person whose link the creator hands out, or open (a friend
 * joins it with the invite link).
 * @param {number} players @param {string} myName
 * @param {(seat: number) => {kind: string, level: string | null}} choice
 * @returns {Record<string, unknown>[]}
 */
export function seatsOf(players, myName, choice) {
  /** @type {Record<string, unknown>[]} */
  const seats = [{ name: myName.trim() || "Player 1" }];
  for (let seat = 1; seat < players; seat++) {
    const { kind, level } = choice(seat);
    if (kind === "open") seats.push({ open: true });
    else if (kind === "human") seats.push({ name: `Player ${seat + 1}` });
    else seats.push({ bot: level || "greedy" });
  }
  return seats;
}

/**
 * The link that invites a friend: the page's join route, the game and its invite in the fragment.
 * @param {string} origin @param {string} game @param {string} id @param {string | null} invite
 */
export function joinLink(origin, game, id, invite) {
  const base = `${origin}/play/#join=${encodeURIComponent(id)}&g=${encodeURIComponent(game)}`;
  return invite ? `${base}&invite=${encodeURIComponent(invite)}` : base;
}

/** The link that plays a seat. @param {string} game @param {string} id @param {string | null} token */
export const seatHash = (game, id, token) =>
  `#game=${encodeURIComponent(id)}&g=${encodeURIComponent(game)}${token ? `&token=${encodeURIComponent(token)}` : ""}`;

/** Where this browser keeps its seats' tokens, and how many at most (a lookup takes 50). */
export const KEPT_KEY = "cardtable:games";
export const KEPT_MAX = 50;

/**
 * @typedef {{game: string, id: string, token: string}} KeptSeat a seat this browser holds the token of
 * @typedef {{getItem: (key: string) => string | null, setItem: (key: string, value: string) => void}} Store
 */

/** The seats this browser keeps, newest first. @param {Store} store @returns {KeptSeat[]} */
export function keptSeats(store) {
  try {
    const kept = JSON.parse(store.getItem(KEPT_KEY) || "[]");
    return Array.isArray(kept) ? kept.filter((k) => k && typeof k.token === "string" && typeof k.id === "string"
      && typeof k.game === "string") : [];
  } catch {
    return [];
  }
}

/** Keep a seat's token (the newest first, each token once, at most KEPT_MAX). @param {Store} store @param {KeptSeat} seat */
export function keepSeat(store, seat) {
  const rest = keptSeats(store).filter((k) => k.token !== seat.token);
  store.setItem(KEPT_KEY, JSON.stringify([seat, ...rest].slice(0, KEPT_MAX)));
}

/** Forget the tokens a lookup found no seat for. @param {Store} store @param {readonly string[]} tokens */
export function forgetSeats(store, tokens) {
  store.setItem(KEPT_KEY, JSON.stringify(keptSeats(store).filter((k) => !tokens.includes(k.token))));
}

/** The token this browser keeps for a game, if any. @param {Store} store @param {string} id */
export const keptToken = (store, id) => {
  const found = keptSeats(store).find((k) => k.id === id);
  return found ? found.token : null;
};

/**
 * A game of the lobby in a line: who sits there and how many seats are open.
 * @param {{seats: {name: string, kind: string}[]}} g
 */
export function seatsLine(g) {
  const taken = g.seats.filter((s) => s.kind !== "open").map((s) => s.name);
  const open = g.seats.length - taken.length;
  return `${taken.join(", ")}${taken.length ? " \u00b7 " : ""}${open} open seat${open === 1 ? "" : "s"}`;
}
