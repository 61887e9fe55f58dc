// When the live table needs the view (sync.js): a view is drawn only when newer than the one shown,
// and fetched only when the log tells of a move the shown view does not hold.

import assert from "node:assert/strict";
import { test } from "node:test";

import { compareViews, viewBehind } from "../../../service/play/sync.js";

const at = (/** @type {number} */ version) => /** @type {any} */ ({ version });

test("a view is newer, the same or older than the one shown, by its version", () => {
  assert.equal(compareViews(null, at(0)), "newer");
  assert.equal(compareViews(at(3), at(5)), "newer");
  assert.equal(compareViews(at(5), at(5)), "same", "the move's answer, then the same view from a poll: drawn once");
  assert.equal(compareViews(at(5), at(4)), "older", "an answer overtaken by a later one is dropped");
  assert.equal(compareViews(at(5), at(5), '"5.0.3.p1"', '"5.0.3.p3"'), "newer", "someone sat down: no new version");
  assert.equal(compareViews(at(5), at(5), '"5.0.3.p1"', '"5.0.3.p1"'), "same");
  assert.equal(compareViews(at(5), at(4), '"5.0.3.p1"', '"4.0.3.p3"'), "older");
});

test("the log asks for the view only beyond the shown version", () => {
  assert.equal(viewBehind(7, at(7)), false, "the entries of the page's own move (and its bots') are in the answer");
  assert.equal(viewBehind(8, at(7)), true, "another seat moved");
  assert.equal(viewBehind(3, at(7)), false);
  assert.equal(viewBehind(3, null), false, "no view yet: the first fetch is under way");
});
