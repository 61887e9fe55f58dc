// Watching a finished game again (replay.js): an export's events read as their mover saw them, every
// seat named apart, the keys' steps kept within the game, and every entry of the golden exports
// (tests/golden/<game>/export-*.json, games really played by bots at every level) in its game's words.

import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";

import { gameOf } from "../../../service/play/games.js";
import { entryLines } from "../../../service/play/history.js";
import { entryAsLogged, eventAs, keyStep, pageOf, seatNamer, stepped, stepText } from "../../../service/play/replay.js";
import { HOLE } from "./real-games.mjs";

const GOLDEN = new URL("../../golden/", import.meta.url).pathname;

/** Every golden export, with its file's name. @returns {[string, any][]} */
function goldenExports() {
  return readdirSync(GOLDEN, { withFileTypes: true }).filter((d) => d.isDirectory()).flatMap((d) =>
    readdirSync(join(GOLDEN, d.name)).filter((f) => /^export-.*\.json$/.test(f))
      .map((f) => /** @type {[string, any]} */ ([`${d.name}/${f}`, JSON.parse(readFileSync(join(GOLDEN, d.name, f), "utf8"))])));
}

test("an event reads as the seat saw it: the public fields and that seat's own", () => {
  const drew = { type: "drew", public: { seat: 1, count: 2 }, private: { 1: { cards: ["7H", "8H"] } } };
  assert.deepEqual(eventAs(drew, 1), { type: "drew", seat: 1, count: 2, cards: ["7H", "8H"] });
  assert.deepEqual(eventAs(drew, 0), { type: "drew", seat: 1, count: 2 });
  const dealt = { type: "dealt", public: { hand: null }, private: { 0: { hand: ["AS"] }, 1: { hand: ["KD"] } } };
  assert.deepEqual(eventAs(dealt, 1), { type: "dealt", hand: ["KD"] }, "a private field overrides the public one");
  assert.equal(eventAs({ type: "x", public: { type: "y" }, private: {} }, 0).type, "x");
});

test("an export's entry reads as its mover's log entry", () => {
  const entry = { version: 3, seat: 1, bot: true, at: null, move: { type: "draw" },
    events: [{ type: "drew", public: { seat: 1 }, private: { 1: { card: "7H" } } }] };
  assert.deepEqual(entryAsLogged(/** @type {any} */ (entry)),
    { version: 3, seat: 1, bot: true, move: { type: "draw" }, events: [{ type: "drew", seat: 1, card: "7H" }] });
});

test("every seat is named apart: a shared name gets its seat's number", () => {
  const name = seatNamer([{ seat: 0, name: "Ann", kind: "human", level: null },
    { seat: 1, name: "Random bot", kind: "bot", level: "random" }, { seat: 2, name: "Random bot", kind: "bot", level: "random" }]);
  assert.deepEqual([0, 1, 2].map(name), ["Ann", "Random bot (seat 2)", "Random bot (seat 3)"]);
  assert.equal(name(null), "nobody");
  assert.equal(name(7), "Player 8");
});

test("a key steps one move, ten, or to either end, and never out of the game", () => {
  assert.equal(keyStep({ key: "ArrowRight" }, 3, 10), 4);
  assert.equal(keyStep({ key: "ArrowLeft" }, 3, 10), 2);
  assert.equal(keyStep({ key: "ArrowLeft" }, 0, 10), 0);
  assert.equal(keyStep({ key: "ArrowRight" }, 10, 10), 10);
  assert.equal(keyStep({ key: "Home" }, 7, 10), 0);
  assert.equal(keyStep({ key: "End" }, 2, 10), 10);
  assert.equal(keyStep({ key: "PageDown" }, 5, 10), 10);
  assert.equal(keyStep({ key: "PageUp" }, 5, 10), 0);
  assert.equal(keyStep({ key: "PageUp" }, 25, 40), 15);
  assert.equal(keyStep({ key: "a" }, 5, 10), null);
  assert.equal(keyStep({ key: "ArrowRight", altKey: true }, 5, 10), null, "Alt+Right is the browser's");
  assert.equal(keyStep({ key: "Home", ctrlKey: true }, 5, 10), null);
  assert.equal(stepped(4, "forward", 4), 4);
});

test("a step's page of positions and its words", () => {
  assert.deepEqual([0, 49, 50, 99, 100].map((s) => pageOf(s, 50)), [0, 0, 50, 50, 100]);
  const lines = [{ who: "Ann", move: "Play 7♥" }];
  assert.equal(stepText(0, lines), "The deal, before the first move");
  assert.equal(stepText(1, lines), "Move 1: Ann: Play 7♥");
  assert.equal(stepText(2, lines), "Move 2");
});

test("every entry of every golden export reads in its game's words", () => {
  const exports = goldenExports();
  assert.ok(exports.length >= 10, `golden exports found: ${exports.length}`);
  for (const [file, ex] of exports) {
    const game = gameOf(ex.game);
    const name = seatNamer(ex.seats);
    for (const entry of ex.entries) {
      const line = entryLines(entryAsLogged(entry), name, game);
      for (const text of [line.who, line.move, ...line.events]) {
        assert.ok(text && !HOLE.test(text), `${file} #${entry.version}: ${JSON.stringify(text)}`);
      }
      assert.equal(line.events.length, entry.events.length, `${file} #${entry.version}`);
    }
  }
});
