// Sten ("Stein") at the web table (seeds/sten.md): its moves and events in words, the layout of
// four suits, the stone, and the play-all a player composes card by card. Pure.

import { cardsText, cardText } from "./cards.js";
import { box, cards, lines, line, scores, text, wideBox } from "./parts.js";
import { codes, gameOverText, str, unlistedText } from "./words.js";

/** @typedef {import("./types.js").Schemas} S */
/** @typedef {S["StenView"]} View */
/** @typedef {Exclude<S["StenEvent"], import("./types.js").TableEvent>} Event the game's own events (the table's read in people.js) */

/** @type {Record<string, string>} */
const SUIT_NAME = { C: "Clubs \u2663", D: "Diamonds \u2666", H: "Hearts \u2665", S: "Spades \u2660" };

/** How the winner ended a game of Sten, by the deal_ended event's `reason` (seeds/sten.md 7). */
const WON_BY = {
  empty_hand: "emptied the hand",
  play_all: "laid the whole hand in one declaration",
  stalled: "had the fewest cards when nobody could move",
  max_turns: "had the fewest cards at the turn limit",
};
/** Why a game of Sten ended without a winner. */
const ENDED_BY = { empty_hand: "a hand was emptied", play_all: "a declaration", stalled: "nobody could move", max_turns: "the turn limit" };

/** @type {import("./games.js").Game<View, Event>} */
export const sten = {
  composite: ["play_all"],
  groups: false,
  hint: "Select cards in the order to lay them, then declare them all in one turn.",

  moveText(move) {
    const type = /** @type {S["StenMove"]["type"]} */ (move.type);
    switch (type) {
      case "play": return `Play ${cardText(str(move.card))}`;
      case "stein": return "Say \u201cStein\u201d (take the stone)";
      case "play_all": return `Play all: ${cardsText(codes(move.cards))}`;
      default: return unlistedText(type, move);
    }
  },

  eventText(ev, name) {
    switch (ev.type) {
      case "played": return `${name(ev.seat)} played ${cardText(ev.card)}${ev.source === "remainder" ? " from the open leftover cards" : ""}`;
      case "passed": return `${name(ev.seat)} said \u201cStein\u201d`;
      case "took_stone": return `${name(ev.seat)} took the stone${ev.previous_holder === null ? "" : ` from ${name(ev.previous_holder)}`}`;
      case "declared": return `${name(ev.seat)} declared play-all: ${ev.success ? "it worked" : "it failed"}${ev.cards.length ? ` (${cardsText(ev.cards)})` : ""}`;
      case "deal_ended": return ev.winner === null ? `The game ended without a winner: ${ENDED_BY[ev.reason]}`
        : `The game ended: ${name(ev.winner)} ${WON_BY[ev.reason]}`;
      case "game_over": return gameOverText(ev, name);
      default: return unlistedText(ev, ev);
    }
  },

  seatNote: (v, seat) => (v.state.stone_holder === seat ? "holds the stone" : null),

  table(v, { name }) {
    const s = v.state;
    return [
      wideBox("Layout", lines("suits", s.layout.map((pile) => line(SUIT_NAME[pile.suit] || pile.suit, [
        pile.cards.length ? cards(pile.cards) : text("not opened", "empty"),
        text(pile.fits.length ? `fits: ${cardsText(pile.fits)}` : "closed", "note"),
      ], `suit-${pile.suit}`)))),
      box("The stone", text(s.stone_holder === null ? "Nobody holds the stone" : `${name(s.stone_holder)} holds the stone`)),
      s.remainder.length ? box("Open leftover cards", cards(s.remainder)) : null,
      s.dead_count ? box("Dead cards", text(`${s.dead_count} face down, out of play`)) : null,
      s.failed_play_all ? box("Play-all", text("A play-all declaration failed")) : null,
    ].filter((b) => b !== null);
  },

  summary(v, name) {
    const e = v.state.ended;
    if (!e) return null;
    return {
      key: "ended",
      title: e.winner !== null ? `${name(e.winner)} emptied the hand` : "The game ended",
      parts: [
        text(e.stone_holder !== null ? `${name(e.stone_holder)} holds the stone and loses.` : "Nobody holds the stone."),
        scores(["Seat", "Cards left", "Count"], e.hands.map((hand, i) => [
          text(name(i)), hand.length ? cards(hand) : text("none"), text(String(e.cards_left[i] ?? hand.length), "num"),
        ])),
      ],
    };
  },

  compose(v, selected) {
    if (!v.legal_moves.some((m) => m.type === "play_all") || !selected.length) return [];
    return [{ label: `Play all ${selected.length} selected, in this order`, move: { type: "play_all", cards: selected } }];
  },

  // The view's play_all_wins has one entry per listed declaration, in the listed order: whether posting it
  // now wins. A losing one is still legal (it costs the stone), so the table asks before sending it.
  note(v, move) {
    const outlook = v.state.play_all_wins;
    if (move.type !== "play_all" || !outlook) return null;
    const key = JSON.stringify(move);
    const at = v.legal_moves.filter((x) => x.type === "play_all").findIndex((x) => JSON.stringify(x) === key);
    const wins = outlook[at];
    if (wins === undefined) return null;
    if (wins) return { text: "wins now: your whole hand goes down", tone: "good", confirm: null };
    return { text: "would fail: these cards cannot all be laid now", tone: "warn", confirm: {
      question: "This declaration fails: its cards cannot all be laid on the layout this turn. Your cards come back and you take the stone. Declare anyway?",
      yes: "Declare anyway, take the stone" } };
  },
};
