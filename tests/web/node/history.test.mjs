// The history: each game words its own events and moves (seeds/<game>.md), history.js only walks the
// log's entries and asks the entry's game. Examples per event type, then every event and move of
// real games (tests/web/test_node_units.py plays them through the API).

import assert from "node:assert/strict";
import { test } from "node:test";

import { GAMES, gameOf } from "../../../service/play/games.js";
import { entryLines, newEntries } from "../../../service/play/history.js";
import { isTableEvent } from "../../../service/play/people.js";
import { fieldsText } from "../../../service/play/words.js";
import { HOLE, name, realGames } from "./real-games.mjs";

/** Per game: an event as the log shows it, and its words. */
const WORDS = {
  sten: [
    [{ type: "played", seat: 0, card: "7H", source: "hand" }, "P1 played 7♥"],
    [{ type: "played", seat: 1, card: "8H", source: "remainder" }, "P2 played 8♥ from the open leftover cards"],
    [{ type: "passed", seat: 2 }, "P3 said “Stein”"],
    [{ type: "took_stone", seat: 2, previous_holder: null }, "P3 took the stone"],
    [{ type: "took_stone", seat: 0, previous_holder: 2 }, "P1 took the stone from P3"],
    [{ type: "declared", seat: 1, success: true, cards: ["9H", "10H"] }, "P2 declared play-all: it worked (9♥ 10♥)"],
    [{ type: "declared", seat: 1, success: false, cards: [] }, "P2 declared play-all: it failed"],
    [{ type: "deal_ended", reason: "play_all", winner: 1, losers: [], stone_holder: 0, hands: [], cards_left: [], dead: [], layout: [], remainder: [] }, "The game ended: P2 laid the whole hand in one declaration"],
    [{ type: "deal_ended", reason: "max_turns", winner: null, losers: [], stone_holder: 0, hands: [], cards_left: [], dead: [], layout: [], remainder: [] }, "The game ended without a winner: the turn limit"],
    [{ type: "game_over", status: "finished", winners: [1], losers: [0, 2], scores: null }, "Game over: P2 won"],
    [{ type: "game_over", status: "aborted", winners: [], losers: [], scores: null }, "Game over: stopped without a winner"],
  ],
  conquian: [
    [{ type: "turned", seat: 1, card: "JH", stock_count: 19 }, "P2 turned J♥"],
    [{ type: "rejected", seat: 1, card: "JH" }, "P2 rejected J♥"],
    [{ type: "buried", seat: 0, card: "JH" }, "J♥ was buried: nobody took it"],
    [{ type: "melded", seat: 0, card: "JS", source: "offer", cards: ["JS", "JC", "JD"], melds: [["JC", "JD", "JS"]], melded_count: 3 }, "P1 melded J♠ J♣ J♦, taking the offered card; melds now: J♣ J♦ J♠"],
    [{ type: "melded", seat: 0, card: null, source: "hand", cards: ["5C", "5D", "5S"], melds: [["5C", "5D", "5S"]], melded_count: 3 }, "P1 melded 5♣ 5♦ 5♠; melds now: 5♣ 5♦ 5♠"],
    [{ type: "laid_off", seat: 0, card: "5H", source: "forced", cards: ["5H"], melds: [["5C", "5D", "5H", "5S"]], melded_count: 4 }, "P1 laid off 5♥, taking the forced card; melds now: 5♣ 5♦ 5♥ 5♠"],
    [{ type: "force_window", seat: 1, player: 0, card: "5H", window: "offer" }, "P2 may force P1 to take 5♥"],
    [{ type: "forced", seat: 1, player: 0, card: "5H" }, "P2 forced P1 to meld 5♥"],
    [{ type: "force_declined", seat: 0, player: 1, card: "KC" }, "P1 did not force P2"],
    [{ type: "discarded", seat: 0, card: "AS" }, "P1 discarded A♠"],
    [{ type: "passed", seat: 1, card: "6C" }, "P2 passed on 6♣ with the stock empty"],
    [{ type: "deal_ended", deal: 1, dealer: 0, outcome: "won", winner: 1, stake: 2 }, "Deal 1 ended: P2 won the stake of 2"],
    [{ type: "deal_ended", deal: 2, dealer: 1, outcome: "drawn", winner: null, stake: 1 }, "Deal 2 was drawn: the stake grows"],
    [{ type: "dealt", deal: 2, dealer: 1, turn: 0, stake: 1, hand_counts: [10, 10], stock_count: 20, cards: ["4C", "KD"] }, "Deal 2, dealt by P2; your cards: 4♣ K♦"],
    [{ type: "dealt", deal: 2, dealer: 1, turn: 0, stake: 1, hand_counts: [10, 10], stock_count: 20 }, "Deal 2, dealt by P2"],
    [{ type: "game_over", status: "finished", winners: [0, 1], losers: [], scores: [3, 3] }, "Game over: P1, P2 won"],
  ],
  siebenschlaefer: [
    [{ type: "played", seat: 0, cards: ["6S", "7C"], value: 13 }, "P1 laid 6♠ 7♣ (13)"],
    [{ type: "played", seat: 0, cards: ["AS", "AC"], value: null }, "P1 laid A♠ A♣ (aces: the table is free)"],
    [{ type: "drew", seat: 1, count: 2, reason: "seven" }, "P2 drew 2 cards because of a 7"],
    [{ type: "drew", seat: 1, count: 2, reason: "draw", cards: ["AD", "6C"] }, "P2 drew A♦ 6♣"],
    [{ type: "skipped", seat: 1 }, "P2 is skipped"],
    [{ type: "passed", seat: 1 }, "P2 passed"],
    [{ type: "reset", cards: ["9S", "3D"], value: 12 }, "Everybody passed: new start 9♠ 3♦ (12)"],
    [{ type: "reshuffled", count: 84 }, "The played pile became the new stock (84 cards)"],
    [{ type: "round_ended", round: 1, reason: "went_out", winner: 1 }, "Round 1 ended: P2 went out"],
    [{ type: "round_ended", round: 2, reason: "stalled", winner: null }, "Round 2 ended: it stalled, hands counted"],
    [{ type: "dealt", round: 2, opener: 0, hand_counts: [10, 10], stock_count: 74, cards: ["AC", "2D"] }, "Round 2, P1 opens; your cards: A♣ 2♦"],
    [{ type: "lot", seat: 0, card: "JS" }, "P1 drew J♠ in the lot for the opener"],
    [{ type: "game_over", status: "finished", winners: [0, 1], losers: [], scores: [3, 3] }, "Game over: P1, P2 won"],
  ],
  kanaster: [
    [{ type: "drew", seat: 0, count: 1, cards: ["JC"] }, "P1 drew J♣"],
    [{ type: "drew", seat: 1, count: 2 }, "P2 drew 2 cards"],
    [{ type: "red_three", seat: 0, cards: ["3D", "3H"], count: 2, source: "hand" }, "P1 laid out 3♦ 3♥, drew 2 replacements"],
    [{ type: "red_three", seat: 0, cards: ["3D"], count: 1, source: "talon", replacements: ["8S"] }, "P1 laid out 3♦, replaced by 8♠"],
    [{ type: "red_three", seat: 0, cards: ["3H"], count: 0, source: "pile" }, "P1 laid out 3♥"],
    [{ type: "melded", seat: 1, melds: [{ id: 0, rank: "J", cards: ["JC", "JH", "JS"], canasta: false }, { id: 1, rank: "7", cards: ["7H", "7S", "2C"], canasta: false }] }, "P2 melded J♣ J♥ J♠ | 7♥ 7♠ 2♣"],
    [{ type: "laid_off", seat: 1, meld: 2, cards: ["7H"], canasta: true }, "P2 laid off 7♥ on meld #2: a canasta now"],
    [{ type: "took_pile", seat: 1, top: "AS", cards: ["JK", "4D"] }, "P2 took the pile: A♠ to a meld, Joker 4♦ to the hand"],
    [{ type: "took_pile", seat: 1, top: "AS", cards: [] }, "P2 took the pile: A♠ to a meld"],
    [{ type: "tucked", seat: 0, meld: 0, cards: ["4D", "4S"] }, "P1 tucked 4♦ 4♠ under meld #0"],
    [{ type: "discarded", seat: 1, card: "4D" }, "P2 discarded 4♦"],
    [{ type: "hand_ended", number: 1, went_out: 1, concealed: true }, "Hand 1 ended: P2 went out concealed"],
    [{ type: "hand_ended", number: 2, went_out: null, concealed: false }, "Hand 2 ended"],
    [{ type: "dealt", hand_number: 2, dealer: 1, cutter: 0, cut_cards: [], counts: [13, 13], cards: ["4D", "JK"] }, "Hand 2, dealt by P2; your cards: 4♦ Joker"],
    [{ type: "turned", cards: ["4C"], talon_count: 81 }, "Turned up for the pile: 4♣"],
    [{ type: "game_over", status: "finished", winners: [0, 1], losers: [], scores: [3, 3] }, "Game over: P1, P2 won"],
  ],
  "keine-lahme-agame": [
    [{ type: "caught", seat: 1, card: "yellow-8", from_seat: 0, payment: ["yellow-3", "yellow-hat"] }, "P2 caught yellow 8 from P1, paying yellow 3 + yellow hat"],
    [{ type: "caught", seat: 1, card: "red-8", from_seat: null, payment: ["red-3"] }, "P2 caught red 8 from the pile, paying red 3"],
    [{ type: "passed", seat: 0 }, "P1 did not catch"],
    [{ type: "catching_ended", caught: [] }, "The catching round ended: caught cards go into the rows"],
    [{ type: "played", seat: 0, cards: ["red-13", "red-21"], value: 34, lead: true }, "P1 led red 13 + red 21 (34)"],
    [{ type: "played", seat: 1, cards: ["red-hat"], value: null, lead: false }, "P2 played red hat (the hat)"],
    [{ type: "trick_won", seat: 0, value: 34, cards: [] }, "P1 won the trick with 34"],
    [{ type: "trick_won", seat: 1, value: null, cards: [] }, "P2 won the trick with the hat"],
    [{ type: "placed", seat: 0, cards: ["red-13", "yellow-2"], rest: [], rest_to: "hand" }, "P1 placed red 13 + yellow 2 in the row"],
    [{ type: "placed", seat: 1, cards: [], rest: ["blue-5"], rest_to: "discard" }, "P2 placed nothing in the row; blue 5 onto the discard pile"],
    [{ type: "discarded", seat: 1, cards: ["yellow-5"], forced: true }, "P2 discarded yellow 5: no trick to lead"],
    [{ type: "section_ended", section: 1 }, "Section 1 ended"],
    [{ type: "dealt", section: 2, leader: 1, counts: [9, 9], cards: ["yellow-1"] }, "Section 2, P2 leads; your cards: yellow 1"],
    [{ type: "game_over", status: "finished", winners: [0, 1], losers: [], scores: [3, 3] }, "Game over: P1, P2 won"],
  ],
};

for (const [game, cases] of Object.entries(WORDS)) {
  test(`${game}'s events read in its own words`, () => {
    for (const [event, words] of cases) assert.equal(GAMES[game].eventText(event, name), words, JSON.stringify(event));
  });
}

test("every game has examples for each of its event types here", () => {
  assert.deepEqual(Object.keys(WORDS).sort(), Object.keys(GAMES).sort());
});

test("moves read as their buttons and history lines say them", () => {
  const cases = [
    ["sten", { type: "play", card: "7H" }, "Play 7\u2665"],
    ["sten", { type: "stein" }, "Say \u201cStein\u201d (take the stone)"],
    ["sten", { type: "play_all", cards: ["7H", "8H"] }, "Play all: 7\u2665 8\u2665"],
    ["conquian", { type: "meld", melds: [["5C", "5D", "5S"], ["7S", "JS", "QS"]] }, "Meld 5\u2663 5\u2666 5\u2660 | 7\u2660 J\u2660 Q\u2660"],
    ["conquian", { type: "decline_force" }, "Don't force"],
    ["siebenschlaefer", { type: "draw" }, "Draw"],
    ["siebenschlaefer", { type: "draw", count: 2 }, "Draw 2 cards"],
    ["siebenschlaefer", { type: "draw", count: 2, cards: ["AD", "6C"] }, "Draw A\u2666 6\u2663"],
    ["kanaster", { type: "take_pile_lay_off", meld: 3 }, "Take the pile onto meld #3"],
    ["kanaster", { type: "tuck", meld: 0, cards: ["4D"] }, "Tuck 4\u2666 under meld #0"],
    ["keine-lahme-agame", { type: "catch", card: "red-8", from_seat: null, payment: ["red-3"] }, "Catch red 8 from the pile, pay red 3"],
    ["keine-lahme-agame", { type: "catch", card: "red-8", from_seat: 1, payment: ["red-3"] }, "Catch red 8 from P2, pay red 3"],
    ["keine-lahme-agame", { type: "place", cards: [] }, "Place nothing"],
  ];
  for (const [game, move, words] of cases) assert.equal(GAMES[game].moveText(move, name), words);
});

test("a move or event of a type the spec does not list reads as its fields", () => {
  assert.equal(GAMES.sten.moveText({ type: "shuffle_again", times: 2 }, name), "shuffle again (times: 2)");
  assert.equal(GAMES.kanaster.eventText({ type: "comet", seat: 1, cards: ["7H"] }, name), "comet (seat: 1, cards: 7\u2665)");
  assert.equal(gameOf("no-such-game").eventText({ type: "played", card: "7H" }, name), "played (card: 7H)");
});

test("an entry is its mover, its move and one line per event, in the game's words", () => {
  /** @type {string[]} */
  const asked = [];
  const game = { ...gameOf("no-such-game"),
    moveText: (/** @type {any} */ m) => { asked.push(`move ${m.type}`); return `M:${m.type}`; },
    eventText: (/** @type {any} */ e) => { asked.push(`event ${e.type}`); return `E:${e.type}`; } };
  const entry = { version: 7, seat: 1, bot: true, move: { type: "x" }, events: [{ type: "a" }, { type: "b" }] };
  assert.deepEqual(entryLines(/** @type {any} */ (entry), name, game), { version: 7, who: "P2", move: "M:x", events: ["E:a", "E:b"] });
  assert.deepEqual(asked, ["move x", "event a", "event b"]);
});

test("entries already shown (a log read and the stream may bring the same) are left out", () => {
  const e = (/** @type {number} */ version) => ({ version, seat: 0, bot: false, move: {}, events: [] });
  assert.deepEqual(newEntries(/** @type {any} */ ([e(3), e(4), e(4), e(5)]), 3).map((x) => x.version), [4, 5]);
  assert.deepEqual(newEntries(/** @type {any} */ ([e(2)]), 5), []);
});

const real = realGames();

test("every event and move of real games reads in its game's words, without a hole", { skip: !real && "no real games (run by tests/web/test_node_units.py)" }, () => {
  for (const [game, sample] of Object.entries(real || {})) {
    const seen = new Set();
    for (const entry of sample.entries) {
      const lines = entryLines(entry, name, GAMES[game]);
      if (entry.move) assert.notEqual(lines.move, fieldsText(entry.move), `${game}: ${JSON.stringify(entry.move)} has no words`);
      assert.doesNotMatch(lines.move, HOLE, `${game}: ${lines.move}`);
      entry.events.forEach((/** @type {any} */ ev, /** @type {number} */ i) => {
        if (!isTableEvent(ev)) seen.add(ev.type);  // the table's events read alike in every game (people.test.mjs)
        assert.notEqual(lines.events[i], fieldsText(ev), `${game}: ${JSON.stringify(ev)} has no words`);
        assert.doesNotMatch(lines.events[i], HOLE, `${game}: ${lines.events[i]} (${JSON.stringify(ev)})`);
      });
    }
    assert.deepEqual([...seen].sort(), WORDS[game].map(([ev]) => ev.type).filter((t, i, all) => all.indexOf(t) === i).sort(),
      `${game}: the examples above cover exactly the event types real games show`);
  }
});
