// Time and leaving (clocks.js): a seat's clock counted down from the server's time, its text, the
// table's events of time and leaving in words, how a game ended, and the clock a new game asks for.

import assert from "node:assert/strict";
import { test } from "node:test";

import { clockOf, clockRequest, clockText, endingText, isLow, leavingEventText, moverText, remainingAt, timeBase }
  from "../../../service/play/clocks.js";
import { gameOf } from "../../../service/play/games.js";
import { entryLines } from "../../../service/play/history.js";
import { canResign, outcome, seatRows, turnText } from "../../../service/play/status.js";
import { name } from "./real-games.mjs";

const T = Date.parse("2026-11-25T12:00:00.000Z");

test("a seat's clock comes from its clock field; anything else is no clock", () => {
  assert.deepEqual(clockOf({ remaining_ms: 65_000, running: true }), { remainingMs: 65_000, running: true });
  assert.deepEqual(clockOf({ remaining_ms: -5, running: false }), { remainingMs: 0, running: false });
  for (const none of [null, undefined, {}, { remaining_ms: "5" }, { remaining_ms: Number.NaN }, 5]) assert.equal(clockOf(none), null);
});

test("a running clock counts down from the view's server time, whatever the browser's clock says", () => {
  const clock = { remainingMs: 65_000, running: true };
  // the browser's clock is three hours behind the server's: the offset is measured once, as the view arrives
  const arrived = T - 3 * 3600_000;
  const base = timeBase("2026-11-25T12:00:00.000Z", arrived);
  assert.equal(base.offsetMs, 3 * 3600_000);
  assert.equal(remainingAt(clock, base, arrived), 65_000, "as of the view, the clock holds what the view says");
  assert.equal(remainingAt(clock, base, arrived + 1_500), 63_500, "then it falls as time passes");
  assert.equal(remainingAt(clock, base, arrived + 90_000), 0, "and stops at 0");
  assert.equal(remainingAt({ remainingMs: 65_000, running: false }, base, arrived + 90_000), 65_000, "a stopped clock holds still");
  assert.equal(remainingAt(clock, base, arrived - 500), 65_000, "a browser clock that steps back gives no time");
  assert.deepEqual(timeBase("not a time", 42), { serverMs: 42, offsetMs: 0 }, "without a server time it counts from arrival");
});

test("a clock reads m:ss, tenths under 10 s, hours and days for long clocks, 0:00 once out", () => {
  const cases = [[65_000, "1:05"], [64_001, "1:05"], [10_000, "0:10"], [9_999, "0:10.0"], [9_400, "0:09.4"], [9_301, "0:09.4"],
    [100, "0:00.1"], [1, "0:00.1"], [0, "0:00"], [-20, "0:00"], [3_600_000, "1:00:00"], [3_723_000, "1:02:03"],
    [2 * 86_400_000 + 3 * 3600_000 + 4 * 60_000, "2d 03:04"]];
  for (const [ms, text] of cases) assert.equal(clockText(Number(ms)), text, String(ms));
  assert.equal(isLow({ remainingMs: 9_000, running: true }, 9_000), true);
  assert.equal(isLow({ remainingMs: 9_000, running: false }, 9_000), false, "a clock that waits is not urgent");
  assert.equal(isLow({ remainingMs: 10_000, running: true }, 10_000), false);
});

test("time and leaving in the history: names as given, a bot's move for a person says so", () => {
  assert.equal(leavingEventText({ type: "timed_out", seat: 0 }, name), "P1 ran out of time");
  assert.equal(leavingEventText({ type: "timed_out", seat: 0, outcome: "bot_moves" }, name), "P1 ran out of time; a bot moves for P1");
  assert.equal(leavingEventText({ type: "timed_out", seat: 0, outcome: "replaced" }, name),
    "P1 ran out of time; a bot plays the seat from now on");
  assert.equal(leavingEventText({ type: "timed_out", seat: 0, outcome: "lost" }, name), "P1 ran out of time and lost the game");
  assert.equal(leavingEventText({ type: "resigned", seat: 1 }, name), "P2 resigned");
  assert.equal(leavingEventText({ type: "resigned", seat: 1, outcome: "replaced" }, name), "P2 resigned; a bot plays the seat from now on");
  assert.equal(leavingEventText({ type: "resigned", seat: 1, outcome: "lost" }, name), "P2 resigned and lost the game");
  assert.equal(leavingEventText({ type: "game_abandoned" }, name), "Nobody moved for too long: the game was abandoned");
  const odd = (/** @type {number | null | undefined} */ s) => (s === 0 ? "<b>Ann</b>" : "Bo");
  assert.equal(leavingEventText({ type: "resigned", seat: 0 }, odd), "<b>Ann</b> resigned", "a name stays the text it is");
  const seats = [{ seat: 0, kind: "human", status: "playing" }, { seat: 1, kind: "bot", status: "replaced" }, { seat: 2, kind: "bot", status: "playing" }];
  assert.equal(moverText({ seat: 0, bot: true }, name, seats), "A bot for P1");
  assert.equal(moverText({ seat: 1, bot: true }, name, seats), "A bot for P2");
  assert.equal(moverText({ seat: 2, bot: true }, name, seats), "P3", "a bot's own seat is just its name");
  assert.equal(moverText({ seat: 0, bot: false }, name, seats), "P1");
  const timeout = /** @type {any} */ ({ version: 7, seat: 0, bot: false, move: null, at: null,
    events: [{ type: "timed_out", seat: 0, outcome: "bot_moves" }] });
  const botMove = /** @type {any} */ ({ version: 8, seat: 0, bot: true, move: { type: "pass" }, at: null, events: [] });
  for (const game of ["sten", "kanaster", "no-such-game"]) {
    assert.deepEqual(entryLines(timeout, name, gameOf(game), seats), { version: 7, who: "P1", move: "at the table",
      events: ["P1 ran out of time; a bot moves for P1"] });
    assert.equal(entryLines(botMove, name, gameOf(game), seats).who, "A bot for P1");
  }
});

test("the result says how the game ended: resignation, timeout, abandoned; who gave it up", () => {
  assert.equal(endingText({ termination: "resignation", forfeited: [1] }, name), "P2 resigned");
  assert.equal(endingText({ termination: "timeout", forfeited: [0] }, name), "P1 ran out of time");
  assert.equal(endingText({ termination: "abandoned", forfeited: [] }, name), "Abandoned: nobody moved for too long");
  assert.equal(endingText({ termination: "normal", forfeited: [2] }, name), "Gave the game up: P3");
  assert.equal(endingText({ termination: "normal", forfeited: [] }, name), "");
  const result = { status: "finished", termination: "resignation", forfeited: [1], winners: [0], losers: [1], ranking: [[0], [1]],
    scores: null, detail: null };
  const v = /** @type {any} */ ({ status: "finished", seat: 0, to_move: [], seats: [], result });
  assert.equal(outcome(v, name)?.ending, "P2 resigned");
});

test("the ring shows each seat's clock and who plays a seat a bot took over; a replaced seat neither moves nor resigns", () => {
  const seats = [
    { seat: 0, name: "Ann", kind: "human", level: null, status: "playing", replaced_because: null, hand_count: 3, score: null,
      connected: true, clock: { remaining_ms: 4_000, running: true } },
    { seat: 1, name: "Bo", kind: "bot", level: "greedy", status: "replaced", replaced_because: "resigned", hand_count: 3, score: null,
      connected: null, clock: null },
    { seat: 2, name: "Cy", kind: "bot", level: "greedy", status: "replaced", replaced_because: "timed_out", hand_count: 3, score: null,
      connected: null, clock: null }];
  const v = /** @type {any} */ ({ status: "active", seat: 0, to_move: [0], seats, players: 3, result: null });
  const rows = seatRows(v, () => null, name);
  assert.deepEqual(rows.map((r) => r.clock), [{ remainingMs: 4_000, running: true }, null, null]);
  assert.deepEqual(rows.map((r) => r.who), ["person", "bot (resigned)", "bot (out of time)"]);
  assert.equal(canResign(v, true), true);
  assert.equal(canResign(v, false), false, "no token: a spectator");
  assert.equal(canResign({ ...v, status: "finished" }, true), false);
  assert.equal(canResign({ ...v, seat: 1 }, true), false, "a seat a bot took over has resigned already");
  assert.equal(turnText({ ...v, seat: 1, to_move: [1] }, name), "You resigned: a bot plays your seat now.");
  assert.equal(turnText({ ...v, seat: 2, to_move: [0] }, name), "Your time ran out: a bot plays your seat now.");
  assert.equal(canResign({ ...v, seat: null }, true), false);
});

test("the setup form's clock becomes the create request's clock", () => {
  const base = { seconds: 30, minutes: 5, increment: 3, onTimeout: "bot", maxTimeouts: 3 };
  assert.equal(clockRequest({ ...base, kind: "none" }), null);
  assert.deepEqual(clockRequest({ ...base, kind: "per_move" }), { kind: "per_move", seconds: 30, on_timeout: "bot", max_timeouts: 3 });
  assert.deepEqual(clockRequest({ ...base, kind: "fischer", onTimeout: "forfeit" }),
    { kind: "fischer", initial_seconds: 300, increment_seconds: 3, on_timeout: "forfeit", max_timeouts: 3 });
  assert.equal(clockRequest({ ...base, kind: "per_move", onTimeout: "<anything>" })?.on_timeout, "bot");
});
