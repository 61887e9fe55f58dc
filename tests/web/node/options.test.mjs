// The setup form's pure part (options.js, api.js): an option's help, the options sent (only the
// changed ones), the bots of a new game, and a refusal in words.

import assert from "node:assert/strict";
import { test } from "node:test";

import { ApiError, problemText } from "../../../service/play/api.js";
import { changedOptions, optionHelp, optionLabel } from "../../../service/play/options.js";

/** @param {Record<string, unknown>} o @returns {any} */
const option = (o) => ({ name: "target", type: "integer", default: 5000, description: "Points to win.", nullable: false, provisional: false, ...o });

test("an option's help says its bounds and default", () => {
  assert.equal(optionLabel(option({ name: "sections_per_game" })), "sections per game");
  assert.equal(optionHelp(option({ minimum: 100, maximum: 20000 })), "Points to win. (100\u201320000) Default: 5000.");
  assert.equal(optionHelp(option({ minimum: 1, nullable: true, default: null })), "Points to win. (at least 1; empty for none) Default: none.");
  assert.equal(optionHelp(option({ type: "boolean", default: false })), "Points to win. Default: false.");
});

test("only the options that differ from their defaults are sent, typed as the catalogue says", () => {
  const options = [option({}), option({ name: "cap", nullable: true, default: null }), option({ name: "open", type: "boolean", default: false }),
    option({ name: "scoring", type: "string", default: "a", choices: ["a", "b"] })];
  assert.deepEqual(changedOptions(options, { target: "5000", cap: "", open: false, scoring: "a" }), {});
  assert.deepEqual(changedOptions(options, { target: "3000", cap: "7", open: true, scoring: "b" }), { target: 3000, cap: 7, open: true, scoring: "b" });
  assert.deepEqual(changedOptions([option({ default: null, nullable: true })], { target: "" }), {});
});

test("a refusal reads as the problem's detail and reason", () => {
  const err = new ApiError(422, { detail: "That card is not in your hand.", reason: "card_not_in_hand" });
  assert.equal(problemText(err), "That card is not in your hand. (card not in hand)");
  assert.equal(problemText(new Error("offline")), "offline");
});
