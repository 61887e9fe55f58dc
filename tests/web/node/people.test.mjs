// The people at the table (people.js): the table's events in words, the seats of a new game, the
// invite link, and the tokens this browser keeps.

import assert from "node:assert/strict";
import { test } from "node:test";

import { entryLines } from "../../../service/play/history.js";
import { gameOf } from "../../../service/play/games.js";
import { forgetSeats, joinLink, keepSeat, keptSeats, keptToken, KEPT_MAX, seatHash, seatsLine, seatsOf,
  tableEventText } from "../../../service/play/people.js";
import { name } from "./real-games.mjs";

test("the table's events read the same in every game, names as given", () => {
  assert.equal(tableEventText({ type: "seat_taken", seat: 1, name: "Bo <b>" }, name), "Bo <b> sat down at seat 2");
  assert.equal(tableEventText({ type: "bot_seated", seat: 2, level: "greedy" }, name), "A greedy bot took seat 3");
  assert.equal(tableEventText({ type: "game_started" }, name), "The game started");
  assert.equal(tableEventText({ type: "game_aborted", seat: 0 }, name), "P1 called the game off");
});

test("an entry without a move reads as the table's doing in every game's history", () => {
  const entry = /** @type {any} */ ({ version: 1, seat: 1, bot: false, move: null, at: null,
    events: [{ type: "seat_taken", seat: 1, name: "Bo" }, { type: "game_started" }] });
  for (const game of ["sten", "kanaster", "no-such-game"]) {
    assert.deepEqual(entryLines(entry, name, gameOf(game)),
      { version: 1, who: "P2", move: "at the table", events: ["Bo sat down at seat 2", "The game started"] });
  }
});

test("a new game's seats: the player named, bots at their level, people and open seats", () => {
  const kinds = { 1: "bot", 2: "open", 3: "human" };
  assert.deepEqual(seatsOf(4, " Ann ", (s) => ({ kind: kinds[s], level: s === 1 ? "strong" : null })),
    [{ name: "Ann" }, { bot: "strong" }, { open: true }, { name: "Player 4" }]);
  assert.deepEqual(seatsOf(2, "  ", () => ({ kind: "bot", level: null })), [{ name: "Player 1" }, { bot: "greedy" }]);
});

test("the invite rides in the link's fragment, never in its path or query", () => {
  const link = joinLink("http://127.0.0.1:8000", "sten", "G1", "x/y+z");
  const url = new URL(link);
  assert.equal(url.pathname, "/play/");
  assert.equal(url.search, "");
  assert.equal(url.hash, "#join=G1&g=sten&invite=x%2Fy%2Bz");
  assert.equal(new URLSearchParams(url.hash.slice(1)).get("invite"), "x/y+z");
  assert.equal(joinLink("http://h", "sten", "G1", null), "http://h/play/#join=G1&g=sten");
  assert.equal(seatHash("sten", "G1", "t.k"), "#game=G1&g=sten&token=t.k");
});

test("this browser keeps each seat's token once, newest first, at most as many as a lookup takes", () => {
  /** @type {Map<string, string>} */
  const map = new Map();
  const store = { getItem: (k) => map.get(k) ?? null, setItem: (k, v) => { map.set(k, v); } };
  assert.deepEqual(keptSeats(store), []);
  keepSeat(store, { game: "sten", id: "A", token: "A.1" });
  keepSeat(store, { game: "sten", id: "B", token: "B.1" });
  keepSeat(store, { game: "sten", id: "A", token: "A.1" });
  assert.deepEqual(keptSeats(store).map((k) => k.token), ["A.1", "B.1"]);
  assert.equal(keptToken(store, "B"), "B.1");
  forgetSeats(store, ["A.1"]);
  assert.deepEqual(keptSeats(store).map((k) => k.token), ["B.1"]);
  for (let i = 0; i < KEPT_MAX + 5; i++) keepSeat(store, { game: "sten", id: `G${i}`, token: `G${i}.t` });
  assert.equal(keptSeats(store).length, KEPT_MAX);
  map.set("cardtable:games", "not json");
  assert.deepEqual(keptSeats(store), []);
});

test("a game of the lobby in a line: who sits there and the open seats", () => {
  assert.equal(seatsLine({ seats: [{ name: "Ann", kind: "human" }, { name: "Player 2", kind: "open" },
    { name: "Greedy bot", kind: "bot" }] }), "Ann, Greedy bot \u00b7 1 open seat");
  assert.equal(seatsLine({ seats: [{ name: "P", kind: "open" }, { name: "Q", kind: "open" }] }), "2 open seats");
});
