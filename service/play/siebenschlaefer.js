// Siebenschläfer at the web table (seeds/siebenschlaefer.md): its moves and events in words, the
// pair to beat, the stock, the passes and rounds, and the pair a player composes. Pure.

import { cardsText, cardText } from "./cards.js";
import { back, box, cards, scores, stats, text } from "./parts.js";
import { codes, gameOverText, num, plural, unlistedText } from "./words.js";

/** @typedef {import("./types.js").Schemas} S */
/** @typedef {S["SiebenschlaeferView"]} View */
/** @typedef {Exclude<S["SiebenschlaeferEvent"], import("./types.js").TableEvent>} Event the game's own events (the table's read in people.js) */

/** A pair's value as the played and reset events give it: null for a pair of aces, which frees the table. @param {number | null} value */
const valueText = (value) => (value === null ? "aces: the table is free" : String(value));

/** @type {import("./games.js").Game<View, Event>} */
export const siebenschlaefer = {
  composite: ["play"],
  groups: false,
  hint: "Select two cards to lay them as a pair.",

  moveText(move) {
    const type = /** @type {S["SiebenschlaeferMove"]["type"]} */ (move.type);
    switch (type) {
      case "play": return `Play ${cardsText(codes(move.cards))}`;
      case "draw": {
        // the log shows the drawer his cards, the others how many (the drew event's fields)
        const drawn = codes(move.cards);
        const count = num(move.count);
        return drawn.length ? `Draw ${cardsText(drawn)}` : count !== null ? `Draw ${plural(count, "card", "cards")}` : "Draw";
      }
      case "pass": return "Pass";
      default: return unlistedText(type, move);
    }
  },

  eventText(ev, name) {
    switch (ev.type) {
      case "played": return `${name(ev.seat)} laid ${cardsText(ev.cards)} (${valueText(ev.value)})`;
      case "drew": return `${name(ev.seat)} drew ${ev.cards ? cardsText(ev.cards) : plural(ev.count, "card", "cards")}${ev.reason === "seven" ? " because of a 7" : ""}`;
      case "skipped": return `${name(ev.seat)} is skipped`;
      case "passed": return `${name(ev.seat)} passed`;
      case "reshuffled": return `The played pile became the new stock (${plural(ev.count, "card", "cards")})`;
      case "reset": return `Everybody passed: new start ${cardsText(ev.cards)} (${valueText(ev.value)})`;
      case "round_ended": return `Round ${ev.round} ended: ${ev.winner !== null ? `${name(ev.winner)} went out` : "it stalled, hands counted"}`;
      case "dealt": return `Round ${ev.round}, ${name(ev.opener)} opens${ev.cards ? `; your cards: ${cardsText(ev.cards)}` : ""}`;
      case "lot": return `${name(ev.seat)} drew ${cardText(ev.card)} in the lot for the opener`;
      case "game_over": return gameOverText(ev, name);
      default: return unlistedText(ev, ev);
    }
  },

  seatNote: (v, seat) => (v.state.paid[seat] ? `paid ${v.state.paid[seat]}` : null),

  table(v) {
    const s = v.state;
    return [
      box(s.top_kind === "start" ? "Start value" : "Top pair", s.top ? cards(s.top, { large: true }) : text("empty", "empty")),
      box("To beat", text(s.free || s.to_beat === null ? "Free: any pair" : `more than ${s.to_beat}`, "big")),
      box("Stock", back(s.stock_count, `${s.stock_count} cards in the stock`), stats(["played pile", s.discard_count])),
      box("Passes", text(`${s.passes} of ${s.pass_threshold}`)),
      box("Round", stats(["round", `${s.round} of ${s.rounds}`], ["moves", s.moves])),
      s.drawn && s.drawn.length ? box("You drew", cards(s.drawn)) : null,
    ].filter((b) => b !== null);
  },

  summary(v, name) {
    const r = v.state.last_round;
    if (!r) return null;
    return {
      key: `round-${r.round}`,
      title: `Round ${r.round}: ${r.winner !== null ? `${name(r.winner)} went out` : "the round stalled, hands counted"}`,
      parts: [scores(["Seat", "Hand", "Value", "Pays"], r.hands.map((hand, i) => [
        text(name(i)), hand.length ? cards(hand) : text("out"), text(String(r.hand_values[i] ?? ""), "num"),
        text(r.payers.includes(i) ? "pays" : ""),
      ]))],
    };
  },

  compose(v, selected) {
    if (!v.legal_moves.some((m) => m.type === "play") || selected.length !== 2) return [];
    return [{ label: `Play the pair ${cardsText(selected)}`, move: { type: "play", cards: selected } }];
  },

  note: () => null,
};
