// What each game's table, seat notes and summary show, and the moves its composer builds from
// selected cards, as data (games.js and the game modules): no DOM is needed, node has none. Then
// every view of real games (tests/web/test_node_units.py plays them through the API) gives a table,
// seat notes and summary without a hole.

import assert from "node:assert/strict";
import { test } from "node:test";

import { GAMES, gameOf } from "../../../service/play/games.js";
import { HOLE, name, realGames } from "./real-games.mjs";

/** Every text a table's boxes (or a summary's parts) show, in order. @param {any[]} items @returns {string[]} */
function texts(items) {
  /** @type {string[]} */
  const out = [];
  /** @param {any} p */
  const part = (p) => {
    switch (p.kind) {
      case "text": out.push(p.text); break;
      case "cards": out.push(p.cards.join(" ")); break;
      case "back": out.push(p.label); break;
      case "stats": for (const [k, v] of p.stats) out.push(`${k} ${v}`); break;
      case "meld": out.push(`${p.label}: ${p.cards.join(" ")}`); break;
      case "lines": for (const l of p.lines) { out.push(l.label); l.parts.forEach(part); } break;
      case "more": out.push(p.summary); p.parts.forEach(part); break;
      case "scores": out.push(...p.head); p.rows.flat().forEach(part); break;
      default: throw new Error(`no such part: ${JSON.stringify(p)}`);
    }
  };
  for (const item of items) {
    out.push(item.title);
    item.parts.forEach(part);
  }
  return out;
}

/** Every target a table offers the composer. @param {any[]} boxes @returns {any[]} */
function targets(boxes) {
  /** @type {any[]} */
  const out = [];
  /** @param {any} p */
  const part = (p) => {
    if (p.kind === "cards") out.push(...p.targets.filter(Boolean));
    if (p.kind === "meld" && p.target) out.push(p.target);
    if (p.kind === "lines") for (const l of p.lines) l.parts.forEach(part);
  };
  for (const b of boxes) b.parts.forEach(part);
  return out;
}

/** A view with only what a case needs. @param {Record<string, unknown>} state @param {Record<string, unknown>} [rest] @returns {any} */
const view = (state, rest = {}) => ({ version: 5, status: "active", players: 2, seat: 0, to_move: [0], legal_moves: [], result: null, state, ...rest });

const context = { name, aim: true };

// --- Sten ----------------------------------------------------------------------------------------

const STEN = {
  hand_counts: [3, 4], stone_holder: 1, remainder: [], dead_count: 0, failed_play_all: false, play_all_wins: null, ended: null,
  layout: [
    { suit: "C", cards: [], fits: [] }, { suit: "D", cards: [], fits: [] },
    { suit: "H", cards: ["6H", "7H"], fits: ["5H", "8H"] }, { suit: "S", cards: [], fits: [] },
  ],
};

test("Sten's layout shows each suit's cards, or that it is not opened, and the cards that fit", () => {
  const shown = texts(GAMES.sten.table(view(STEN), context));
  assert.deepEqual(shown.slice(0, 13), ["Layout", "Clubs \u2663", "not opened", "closed", "Diamonds \u2666", "not opened", "closed",
    "Hearts \u2665", "6H 7H", "fits: 5\u2665 8\u2665", "Spades \u2660", "not opened", "closed"]);
  assert.deepEqual(shown.slice(13), ["The stone", "P2 holds the stone"], "no leftover, dead or play-all box while there is none");
  const more = texts(GAMES.sten.table(view({ ...STEN, stone_holder: null, remainder: ["2H"], dead_count: 3, failed_play_all: true }), context));
  assert.deepEqual(more.slice(13), ["The stone", "Nobody holds the stone", "Open leftover cards", "2H", "Dead cards",
    "3 face down, out of play", "Play-all", "A play-all declaration failed"]);
});

test("Sten's seat note says who holds the stone", () => {
  assert.deepEqual([0, 1].map((seat) => GAMES.sten.seatNote(view(STEN), seat)), [null, "holds the stone"]);
});

test("Sten's play-all is the selected cards in the order selected, only while a declaration is listed", () => {
  const listed = view(STEN, { legal_moves: [{ type: "play_all", cards: ["7C", "8C"] }] });
  assert.deepEqual(GAMES.sten.compose(listed, ["8C", "7C"], [], null),
    [{ label: "Play all 2 selected, in this order", move: { type: "play_all", cards: ["8C", "7C"] } }]);
  assert.deepEqual(GAMES.sten.compose(listed, [], [], null), []);
  assert.deepEqual(GAMES.sten.compose(view(STEN, { legal_moves: [{ type: "play", card: "7C" }] }), ["7C"], [], null), []);
});

test("a listed play-all says whether it wins now, and one that fails asks first", () => {
  const moves = [{ type: "play", card: "5H" }, { type: "play_all", cards: ["5H", "4H"] }, { type: "play_all", cards: ["4H", "5H"] }];
  const v = view({ ...STEN, play_all_wins: [false, true] }, { legal_moves: moves });
  const fails = GAMES.sten.note(v, moves[1]);
  assert.equal(fails?.tone, "warn");
  assert.match(fails?.confirm?.question || "", /take the stone/);
  assert.deepEqual(GAMES.sten.note(v, moves[2]), { text: "wins now: your whole hand goes down", tone: "good", confirm: null });
  assert.equal(GAMES.sten.note(v, moves[0]), null);
  assert.equal(GAMES.sten.note(view(STEN, { legal_moves: moves }), moves[1]), null, "no outlook in the view: no note");
});

// --- Conquian ------------------------------------------------------------------------------------

const CONQUIAN = {
  face_up: null, offer: "7H", stock_count: 20, deal: 1, dealer: 1, stake: 1, target: 3, drawn_deals: 0, phase: "choose",
  melds: [[["5H", "6H", "7H"]], [["KC", "KD", "KS"]]], dead: [], hand_counts: [7, 7], scores: [0, 1], melded_counts: [3, 3],
  last_deal: null, meld_rule: { card: "8H" },
};

test("Conquian's table aims the composer at the viewer's own melds only, while he may meld", () => {
  const melding = view(CONQUIAN, { legal_moves: [{ type: "meld", melds: [] }] });
  assert.deepEqual(targets(GAMES.conquian.table(melding, context)), [{ kind: "meld", key: "meld-0", id: 0, label: "your meld #0" }]);
  assert.deepEqual(targets(GAMES.conquian.table(melding, { name, aim: false })), [], "not his turn: nothing to aim at");
  assert.deepEqual(targets(GAMES.conquian.table(view(CONQUIAN), context)), [], "no meld listed: nothing to aim at");
  const shown = texts(GAMES.conquian.table(melding, context));
  assert.ok(shown.includes("Offered card") && shown.includes("P1: take the offered card or turn the stock"), shown.join(" / "));
});

test("a Conquian meld lists every meld of the seat: one grown by the card and the selection, or a new one", () => {
  const v = view(CONQUIAN, { legal_moves: [{ type: "meld", melds: [] }] });
  assert.deepEqual(GAMES.conquian.compose(v, ["9H"], [], { kind: "meld", key: "meld-0", id: 0, label: "your meld #0" }), [{
    label: "Lay 8\u2665 9\u2665 off on your meld #0", move: { type: "meld", melds: [["5H", "6H", "7H", "8H", "9H"]] } }]);
  assert.deepEqual(GAMES.conquian.compose(v, ["8C"], [["8D", "8S"]], null), [{
    label: "Meld 8\u2665 8\u2666 8\u2660 | 8\u2663", move: { type: "meld", melds: [["5H", "6H", "7H"], ["8H", "8D", "8S"], ["8C"]] } }]);
  assert.deepEqual(GAMES.conquian.compose(v, [], [], null), [], "nothing selected, nothing grouped, nothing aimed at");
  assert.deepEqual(CONQUIAN.melds[0], [["5H", "6H", "7H"]], "the view is left as it was");
});

// --- Siebenschläfer ------------------------------------------------------------------------------

const SIEBEN = {
  top_kind: "pair", top: ["6S", "7C"], free: false, to_beat: 13, stock_count: 30, discard_count: 4, discard_top: "7C", passes: 1,
  pass_threshold: 3, round: 1, rounds: 2, moves: 9, drawn: null, hand_counts: [5, 6], scores: [0, 12], paid: [0, 2], last_round: null,
};

test("Siebenschläfer's table says what a pair must beat, and that a free table takes any pair", () => {
  assert.ok(texts(GAMES.siebenschlaefer.table(view(SIEBEN), context)).includes("more than 13"));
  assert.ok(texts(GAMES.siebenschlaefer.table(view({ ...SIEBEN, free: true }), context)).includes("Free: any pair"));
  assert.deepEqual([0, 1].map((seat) => GAMES.siebenschlaefer.seatNote(view(SIEBEN), seat)), [null, "paid 2"]);
});

test("a Siebenschläfer pair is composed from exactly two selected cards", () => {
  const v = view(SIEBEN, { legal_moves: [{ type: "play", cards: ["8S", "8C"] }] });
  assert.deepEqual(GAMES.siebenschlaefer.compose(v, ["8S", "9C"], [], null),
    [{ label: "Play the pair 8\u2660 9\u2663", move: { type: "play", cards: ["8S", "9C"] } }]);
  assert.deepEqual(GAMES.siebenschlaefer.compose(v, ["8S"], [], null), []);
  assert.deepEqual(GAMES.siebenschlaefer.compose(v, ["8S", "9C", "9D"], [], null), []);
});

// --- Kanaster ------------------------------------------------------------------------------------

const KANASTER = {
  players: [
    { seat: 0, melded: true, canasta: false, minimum: 50, red_threes: ["3H"] },
    { seat: 1, melded: false, canasta: false, minimum: 50, red_threes: [] },
  ],
  hand_counts: [9, 11], scores: [120, 0],
  discard_pile: ["4C", "9D"], discard_count: 2, discard_top: "9D", pile_frozen: true, pile_blocked: false, stock_count: 60,
  hand_number: 1, target: 5000, dealer: 1, blocking_ranks: [], current_turn: { took_pile: false, pile_cards: [] }, last_hand: null,
  melds: [{ id: 0, owner: 0, rank: "Q", cards: ["QC", "QD", "QS"], tucked: [], canasta: false, natural: true, points: 30 }],
};

test("Kanaster's pile says how many cards lie in it and whether it is frozen", () => {
  const shown = texts(GAMES.kanaster.table(view(KANASTER), context));
  assert.ok(shown.includes("2 cards (frozen)"), shown.join(" / "));
  assert.ok(shown.includes("Whole pile"));
  assert.ok(shown.includes("#0 Qs \u00b7 30 pts: QC QD QS") && shown.includes("no melds"), shown.join(" / "));
});

test("Kanaster's seat note says whether the seat has melded, else its first meld's minimum, from players", () => {
  assert.deepEqual([0, 1].map((seat) => GAMES.kanaster.seatNote(view(KANASTER), seat)), ["has melded", "first meld 50+"]);
});

test("Kanaster composes lay-offs, tucks and taking the pile onto an own meld it aims at", () => {
  const kinds = ["lay_off", "tuck", "take_pile_lay_off"].map((type) => ({ type }));
  const v = view(KANASTER, { legal_moves: kinds });
  assert.deepEqual(targets(GAMES.kanaster.table(v, context)).map((t) => t.key), ["meld-0"]);
  const at = { kind: "meld", key: "meld-0", id: 0, label: "your meld #0" };
  assert.deepEqual(GAMES.kanaster.compose(v, ["QH"], [], /** @type {any} */ (at)).map((c) => c.move), [
    { type: "lay_off", meld: 0, cards: ["QH"] }, { type: "tuck", meld: 0, cards: ["QH"] }, { type: "take_pile_lay_off", meld: 0 }]);
});

test("taking the Kanaster pile puts its top card into the group of its rank, else the first", () => {
  const v = view(KANASTER, { legal_moves: [{ type: "take_pile", melds: [] }, { type: "meld", melds: [] }] });
  const composed = GAMES.kanaster.compose(v, ["9C", "9S"], [["5C", "5D", "5S"]], null);
  assert.deepEqual(composed.map((c) => c.move), [
    { type: "meld", melds: [["5C", "5D", "5S"], ["9C", "9S"]] },
    { type: "take_pile", melds: [["5C", "5D", "5S"], ["9D", "9C", "9S"]] }]);
  const joker = view({ ...KANASTER, discard_top: "JK" }, { legal_moves: [{ type: "take_pile", melds: [] }] });
  assert.deepEqual(GAMES.kanaster.compose(joker, ["9C", "9S"], [], null)[0].move, { type: "take_pile", melds: [["JK", "9C", "9S"]] });
});

// --- Keine lahme Agame -----------------------------------------------------------------------------

const AGAME = {
  players: [
    { seat: 0, colour: "red", row: ["red-1"], missing: ["2"], row_points: 10 },
    { seat: 1, colour: "blue", row: ["blue-3", "red-8"], missing: [], row_points: 100 },
  ],
  hand_counts: [4, 5], scores: [0, 10], discard_pile: ["green-5"], discard_count: 1, discard_top: "green-5", trick: [], phase: "lead",
  section: 1, sections_per_game: 2, leader: 0, caught: [], last_trick: null, last_section: null,
  catch_targets: [{ card: "red-8", from_seat: 1 }, { card: "green-5", from_seat: null }],
};

test("Keine lahme Agame offers as targets exactly the cards the view lists as catchable, on the catcher's turn", () => {
  const v = view(AGAME, { legal_moves: [{ type: "catch", card: "red-8", from_seat: 1, payment: ["red-3"] }] });
  assert.deepEqual(targets(GAMES["keine-lahme-agame"].table(v, context)).map((t) => [t.key, t.label]),
    [["catch-green-5-pile", "green 5 from the pile"], ["catch-red-8-1", "red 8 from P2"]]);
  assert.deepEqual(targets(GAMES["keine-lahme-agame"].table(v, { name, aim: false })), []);
  assert.deepEqual(targets(GAMES["keine-lahme-agame"].table(view(AGAME), context)), [], "no catch listed");
});

test("Keine lahme Agame's seat note is the seat's colour, from players", () => {
  assert.deepEqual([0, 1].map((seat) => GAMES["keine-lahme-agame"].seatNote(view(AGAME), seat)), ["red", "blue"]);
});

test("a Keine lahme Agame catch needs its target and a payment; a trick, nothing aimed at", () => {
  const v = view(AGAME, { legal_moves: [{ type: "catch" }, { type: "trick", cards: [] }] });
  const at = { kind: "catch", key: "catch-red-8-1", card: "red-8", from_seat: 1, label: "red 8 from P2" };
  assert.deepEqual(GAMES["keine-lahme-agame"].compose(v, ["red-3"], [], /** @type {any} */ (at)), [{
    label: "Catch red 8 from P2, pay red 3", move: { type: "catch", card: "red-8", from_seat: 1, payment: ["red-3"] } }]);
  assert.deepEqual(GAMES["keine-lahme-agame"].compose(v, ["red-3"], [], null), [{
    label: "Play red 3 to the trick", move: { type: "trick", cards: ["red-3"] } }]);
  assert.deepEqual(GAMES["keine-lahme-agame"].compose(v, [], [], /** @type {any} */ (at)), []);
});

test("a finished game's table says it is over rather than naming nobody to move", () => {
  const over = { status: "finished", to_move: [] };
  assert.ok(texts(GAMES["keine-lahme-agame"].table(view({ ...AGAME, phase: "over" }, over), context)).includes("The game is over"));
  assert.ok(texts(GAMES.conquian.table(view({ ...CONQUIAN, phase: "over" }, over), context)).includes("The match is over"));
});

// --- any game ------------------------------------------------------------------------------------

test("a game the page does not know shows its view's state as text and composes nothing", () => {
  const plain = gameOf("no-such-game");
  assert.deepEqual(texts(plain.table(view({ a: 1 }), context)), ["Table", '{"a":1}']);
  assert.deepEqual(plain.compose(view({}), ["7H"], [], null), []);
  assert.equal(gameOf("toString"), gameOf("no-such-game"), "only the games themselves are games");
});

const real = realGames();

test("every view of real games gives a table, seat notes and summary without a hole", { skip: !real && "no real games (run by tests/web/test_node_units.py)" }, () => {
  for (const [game, sample] of Object.entries(real || {})) {
    assert.ok(sample.views.length > 0, game);
    let summaries = 0;
    for (const v of sample.views) {
      const g = GAMES[game];
      const shown = [...texts(g.table(v, { name, aim: v.seat !== null && v.to_move.includes(v.seat) }))];
      const summary = g.summary(v, name);
      if (summary) { summaries += 1; shown.push(summary.key, ...texts([summary])); }
      for (let seat = 0; seat < v.players; seat++) shown.push(g.seatNote(v, seat) || "");
      for (const m of v.legal_moves) shown.push(g.moveText(m, name));
      for (const t of shown) assert.doesNotMatch(t, HOLE, `${game} v${v.version}: ${t}`);
      assert.equal(v.seats.length, v.players, `${game}: one seat per seat of the table`);
    }
    assert.ok(summaries > 0, `${game}: some sampled view shows a summary`);
  }
});
