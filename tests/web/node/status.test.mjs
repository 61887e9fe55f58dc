// The table's standing in words (status.js): seat names, whose turn, the seat list, the result.

import assert from "node:assert/strict";
import { test } from "node:test";

import { outcome, seatName, seatRows, turnAnnouncement, turnKey, turnText } from "../../../service/play/status.js";

const name = (/** @type {number | null | undefined} */ seat) => seatName(seat, 0, new Set([2]));
/** @param {Record<string, unknown>} rest @returns {any} */
const view = (rest) => ({ version: 3, status: "active", players: 3, seat: 0, to_move: [1], result: null, state: {}, ...rest });

test("a seat is named by its number, the viewer's as you and a bot's as a bot", () => {
  assert.deepEqual([0, 1, 2, null].map(name), ["Player 1 (you)", "Player 2", "Player 3 (bot)", "nobody"]);
  assert.equal(seatName(0, null, new Set()), "Player 1", "a spectator is nobody's you");
});

test("the turn line and what a screen reader hears", () => {
  assert.equal(turnText(view({}), name), "Player 2 to move\u2026");
  assert.equal(turnAnnouncement(view({ to_move: [1, 2] }), name), "Player 2, Player 3 (bot) to move.");
  assert.equal(turnText(view({ to_move: [0] }), name), "Your turn.");
  assert.equal(turnText(view({ status: "finished", to_move: [] }), name), "The game is over.");
  assert.notEqual(turnKey(view({})), turnKey(view({ to_move: [0] })));
});

test("the seat list marks who moves and the viewer, and counts cards in words", () => {
  const rows = seatRows(view({}), [{ count: 1, score: "3 pts", extra: null }, { count: 5, score: null, extra: "red" }], name);
  assert.deepEqual(rows.map((r) => [r.name, r.countLabel, r.moving, r.viewer]), [
    ["Player 1 (you)", "1 card in hand", false, true], ["Player 2", "5 cards in hand", true, false], ["Player 3 (bot)", "", false, false]]);
});

test("the result names the winners, says so to a winner, and reads the way it ended", () => {
  const result = { status: "finished", winners: [0], losers: [1, 2], scores: [5, 2, 1], detail: { reason: "play_all" } };
  const won = outcome(view({ status: "finished", result }), name);
  assert.deepEqual(won, { status: "finished", headline: "You won!", winners: "Player 1 (you)", losers: "Player 2, Player 3 (bot)",
    ending: "play all", scores: [{ name: "Player 1 (you)", score: 5 }, { name: "Player 2", score: 2 }, { name: "Player 3 (bot)", score: 1 }] });
  assert.equal(outcome(view({ status: "finished", seat: 1, result }), name)?.headline, "Player 1 (you) won");
  assert.equal(outcome(view({ status: "finished", result: { ...result, status: "aborted", winners: [] } }), name)?.headline,
    "The game was stopped without a winner");
  assert.equal(outcome(view({}), name), null);
});
