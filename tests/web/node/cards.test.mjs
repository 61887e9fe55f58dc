import assert from "node:assert/strict";
import { test } from "node:test";

import { cardName, cardsText, cardText, parse, sortedHand } from "../../../service/play/cards.js";

test("a standard code reads as rank and suit, in full and short", () => {
  assert.equal(cardName("7H"), "7 of hearts");
  assert.equal(cardName("QS"), "queen of spades");
  assert.equal(cardName("10C"), "10 of clubs");
  assert.equal(cardText("10C"), "10\u2663");
  assert.equal(cardText("AD"), "A\u2666");
});

test("the joker, Keine lahme Agame's colour cards and unknown codes", () => {
  assert.equal(cardName("JK"), "joker");
  assert.equal(cardText("JK"), "Joker");
  assert.deepEqual(parse("red-13"), { code: "red-13", kind: "agame", colour: "red", value: "13" });
  assert.equal(cardName("green-hat"), "green hat");
  assert.equal(parse("ZZ").kind, "unknown");
  assert.equal(cardText("ZZ"), "ZZ");
});

test("a list of colour cards is joined with plus signs, standard cards with spaces", () => {
  assert.equal(cardsText(["7H", "8H"]), "7\u2665 8\u2665");
  assert.equal(cardsText(["red-1", "blue-hat"]), "red 1 + blue hat");
  assert.equal(cardsText([]), "");
});

test("a hand is held by suit (clubs, diamonds, spades, hearts) then rank, the joker last, keeping indices", () => {
  const sorted = sortedHand(["AH", "JK", "2C", "KS", "3D", "2H"]);
  assert.deepEqual(sorted.map((c) => c.code), ["2C", "3D", "KS", "2H", "AH", "JK"]);
  assert.deepEqual(sorted.map((c) => c.index), [2, 4, 3, 5, 0, 1]);
});

test("equal cards keep their order in the view's hand", () => {
  assert.deepEqual(sortedHand(["5H", "5H"]).map((c) => c.index), [0, 1]);
  assert.deepEqual(sortedHand(["blue-1", "red-hat", "red-2"]).map((c) => c.code), ["red-2", "red-hat", "blue-1"]);
});
