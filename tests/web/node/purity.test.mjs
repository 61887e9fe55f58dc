// Data apart from drawing: the modules that turn a view or a log into what the page shows never
// reach the DOM, the network or the page's storage, not even through what they import; only
// board.js, panels.js, faces.js and the page's controllers (table.js, watch.js, ...) draw.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

const PLAY = new URL("../../../service/play/", import.meta.url);

/** The modules whose functions are pure: from a view or a log to text and data. */
const PURE = ["cards.js", "words.js", "parts.js", "games.js", "sten.js", "conquian.js", "siebenschlaefer.js", "kanaster.js",
  "keine-lahme-agame.js", "history.js", "status.js", "moves.js", "sse.js", "sync.js", "options.js", "replay.js", "people.js",
  "clocks.js"];

/** What only the page's drawing and its connection to the server may touch. */
const IMPURE = /\b(document|window|location|sessionStorage|localStorage|navigator|fetch|HTMLElement|setTimeout)\b/;

/** @param {string} name @returns {string[]} the modules it imports */
const importsOf = (name) => [...readFileSync(new URL(name, PLAY), "utf8").matchAll(/^import .* from "\.\/([^"]+)";$/gm)].map((m) => m[1]);

test("the pure modules import only pure modules", () => {
  for (const name of PURE) {
    for (const imported of importsOf(name)) assert.ok(PURE.includes(imported), `${name} imports ${imported}`);
  }
});

test("the pure modules' code names no page, network or storage object", () => {
  for (const name of PURE) {
    const code = readFileSync(new URL(name, PLAY), "utf8").split("\n").filter((l) => !/^\s*(\/\/|\*|\/\*\*)/.test(l)).join("\n");
    assert.doesNotMatch(code, IMPURE, name);
  }
});

test("every game module is one of them", () => {
  for (const imported of importsOf("games.js")) assert.ok(PURE.includes(imported), imported);
});
