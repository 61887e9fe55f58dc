// The table's standing in words (status.js): seat names, whose turn, the ring of seats, the result.

import assert from "node:assert/strict";
import { test } from "node:test";

import { outcome, seatName, seatRows, turnAnnouncement, turnKey, turnText } from "../../../service/play/status.js";

/** A seat of the view's `seats`. @param {number} seat @param {Record<string, unknown>} rest @returns {any} */
const seat = (seat, rest = {}) => ({ seat, name: `Player ${seat + 1}`, kind: "human", level: null, status: "playing",
  replaced_because: null, connected: null, hand_count: 5, score: null, clock: null, ...rest });
const SEATS = [seat(0, { hand_count: 1, score: 3 }), seat(1, { score: 0 }), seat(2, { name: "Greedy bot", kind: "bot", level: "greedy", score: 7 })];
const name = (/** @type {number | null | undefined} */ s) => seatName(s, 0, SEATS);
/** @param {Record<string, unknown>} rest @returns {any} */
const view = (rest) => ({ version: 3, status: "active", players: 3, seat: 0, to_move: [1], result: null, state: {}, seats: SEATS, ...rest });

test("a seat is named as the view names it, the viewer's as you", () => {
  assert.deepEqual([0, 1, 2, null].map(name), ["Player 1 (you)", "Player 2", "Greedy bot", "nobody"]);
  assert.equal(seatName(0, null, SEATS), "Player 1", "a spectator is nobody's you");
  assert.equal(seatName(1, null, []), "Player 2", "a view without seats still names a seat");
});

test("seats that share a name are told apart by their number", () => {
  const twins = [seat(0), seat(1, { name: "Greedy bot" }), seat(2, { name: "Greedy bot" })];
  assert.deepEqual([0, 1, 2].map((s) => seatName(s, 0, twins)), ["Player 1 (you)", "Greedy bot (seat 2)", "Greedy bot (seat 3)"]);
});

test("a name is a person's text: markup in it stays text for the page to draw", () => {
  const odd = [seat(0, { name: "<img src=x onerror=alert(1)>" })];
  assert.equal(seatName(0, null, odd), "<img src=x onerror=alert(1)>");
});

test("the turn line and what a screen reader hears", () => {
  assert.equal(turnText(view({}), name), "Player 2 to move\u2026");
  assert.equal(turnAnnouncement(view({ to_move: [1, 2] }), name), "Player 2, Greedy bot to move.");
  assert.equal(turnText(view({ to_move: [0] }), name), "Your turn.");
  assert.equal(turnText(view({ status: "finished", to_move: [] }), name), "The game is over.");
  assert.notEqual(turnKey(view({})), turnKey(view({ to_move: [0] })));
});

test("the ring of seats comes from the view's seats: who plays, cards, score, the game's note and whose turn", () => {
  const note = (/** @type {number} */ s) => (s === 1 ? "red" : null);
  const rows = seatRows(view({}), note, name);
  assert.deepEqual(rows.map((r) => [r.seat, r.name, r.who, r.countLabel, r.score, r.note, r.moving, r.viewer]), [
    [0, "Player 1 (you)", "person", "1 card in hand", 3, null, false, true],
    [1, "Player 2", "person", "5 cards in hand", 0, "red", true, false],
    [2, "Greedy bot", "bot, greedy", "5 cards in hand", 7, null, false, false]]);
  assert.deepEqual(seatRows(view({ seat: 1 }), note, name).map((r) => r.seat), [1, 2, 0], "the viewer's seat first, then in turn");
  assert.deepEqual(seatRows(view({ seat: null }), note, name).map((r) => r.seat), [0, 1, 2], "a spectator's ring starts at seat 0");
  assert.deepEqual(seatRows(view({ status: "finished", to_move: [] }), note, name).map((r) => r.moving), [false, false, false]);
});

test("the result names the winners, says so to a winner, and reads the way it ended", () => {
  const result = { status: "finished", winners: [0], losers: [1, 2], scores: [5, 2, 1], detail: { reason: "play_all" } };
  const won = outcome(view({ status: "finished", result }), name);
  assert.deepEqual(won, { status: "finished", headline: "You won!", winners: "Player 1 (you)", losers: "Player 2, Greedy bot",
    ending: "play all", scores: [{ name: "Player 1 (you)", score: 5 }, { name: "Player 2", score: 2 }, { name: "Greedy bot", score: 1 }],
    places: [] });
  const ranked = outcome(view({ status: "finished", result: { ...result, ranking: [[0], [1, 2]] } }), name);
  assert.deepEqual(ranked?.places, [{ place: 1, names: "Player 1 (you)" }, { place: 2, names: "Player 2, Greedy bot" }]);
  const tied = outcome(view({ status: "finished", result: { ...result, ranking: [[0, 1], [2]] } }), name);
  assert.deepEqual(tied?.places.map((p) => p.place), [1, 3], "a shared place counts its seats");
  assert.equal(outcome(view({ status: "finished", seat: 1, result }), name)?.headline, "Player 1 (you) won");
  assert.equal(outcome(view({ status: "finished", result: { ...result, status: "aborted", winners: [] } }), name)?.headline,
    "The game was stopped without a winner");
  assert.equal(outcome(view({}), name), null);
});
