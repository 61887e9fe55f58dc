// The moves panel's order (moves.js): moves without cards first, then those that use every selected
// card, the rest under "More moves".

import assert from "node:assert/strict";
import { test } from "node:test";

import { arrangeMoves, moveCards, usesAll } from "../../../service/play/moves.js";

test("the cards of a move are its card, cards, payment and melds", () => {
  assert.deepEqual(moveCards({ type: "catch", card: "red-8", payment: ["red-3"] }), ["red-8", "red-3"]);
  assert.deepEqual(moveCards({ type: "meld", melds: [["5H", "6H"], ["7C"]] }), ["5H", "6H", "7C"]);
  assert.deepEqual(moveCards({ type: "draw" }), []);
});

test("a selected card counts once per selection: two of a card need two in the move", () => {
  const move = { type: "play", cards: ["5H", "6C"] };
  assert.ok(usesAll(move, ["6C", "5H"]));
  assert.ok(!usesAll(move, ["5H", "5H"]));
  assert.ok(usesAll({ type: "play", cards: ["5H", "5H"] }, ["5H", "5H"]));
  assert.ok(usesAll(move, []));
});

test("without a selection, card moves show up to the limit and the rest go under More moves", () => {
  const draw = { type: "draw" };
  const plays = ["2H", "3H", "4H", "5H"].map((card) => ({ type: "play", card }));
  const arranged = arrangeMoves([plays[0], draw, ...plays.slice(1)], [], 3);
  assert.deepEqual(arranged.plain, [draw]);
  assert.deepEqual(arranged.shown, plays.slice(0, 3));
  assert.deepEqual(arranged.more, plays.slice(3));
});

test("with a selection, the moves that use it come first and every other card move goes under More moves", () => {
  const a = { type: "play", cards: ["5H", "6C"] };
  const b = { type: "play", cards: ["5H", "7C"] };
  const c = { type: "play", cards: ["8D", "9D"] };
  const arranged = arrangeMoves([a, b, c, { type: "pass" }], ["5H"]);
  assert.deepEqual(arranged, { plain: [{ type: "pass" }], shown: [a, b], more: [c] });
});
