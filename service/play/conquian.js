// Conquian at the web table (seeds/conquian.md): its moves and events in words, the offered or
// turned card, the stock, both players' melds, and the melds a player composes with the card on
// offer, new or laid off on his own. Pure.

import { cardsText, cardText } from "./cards.js";
import { back, box, cards, line, lines, meld, meldTarget, stats, text, wideBox } from "./parts.js";
import { gameOverText, meldsOf, meldsText, str, unlistedText } from "./words.js";

/** @typedef {import("./types.js").Schemas} S */
/** @typedef {S["ConquianView"]} View */
/** @typedef {Exclude<S["ConquianEvent"], import("./types.js").TableEvent>} Event the game's own events (the table's read in people.js) */

/** What the seat to move does now, by the view's phase. @type {Record<string, string>} */
const PHASE = {
  choose: "take the offered card or turn the stock", turned: "meld the turned card or reject it",
  discard: "discard a card", force_offer: "may force the opponent to take the card",
  force_reject: "may force the opponent to take the card", forced: "must meld the forced card", over: "the match is over",
};

/** Where a melded card came from (the melded and laid_off events' `source`). */
const SOURCE = { offer: "the offered card", turned: "the turned card", forced: "the forced card", hand: "the hand" };

/** @param {View} v */
const mayMeld = (v) => v.legal_moves.some((m) => m.type === "meld");

/** @param {readonly (readonly string[])[]} melds @returns {string[][]} */
const copy = (melds) => melds.map((m) => [...m]);

/** @type {import("./games.js").Game<View, Event>} */
export const conquian = {
  composite: ["meld"],
  groups: true,
  hint: "Select hand cards to go with the face-up card: aim at one of your melds to lay them off there, or make a new meld.",

  moveText(move) {
    const type = /** @type {S["ConquianMove"]["type"]} */ (move.type);
    switch (type) {
      case "draw": return "Draw";
      case "meld": return `Meld ${meldsText(meldsOf(move.melds))}`;
      case "reject": return "Reject the card";
      case "discard": return `Discard ${cardText(str(move.card))}`;
      case "pass": return "Pass";
      case "force": return "Force the opponent to meld it";
      case "decline_force": return "Don't force";
      default: return unlistedText(type, move);
    }
  },

  eventText(ev, name) {
    switch (ev.type) {
      case "turned": return `${name(ev.seat)} turned ${cardText(ev.card)}`;
      case "rejected": return `${name(ev.seat)} rejected ${cardText(ev.card)}`;
      case "buried": return `${cardText(ev.card)} was buried: nobody took it`;
      case "melded": return `${name(ev.seat)} melded ${cardsText(ev.cards)}${ev.card ? `, taking ${SOURCE[ev.source]}` : ""}; melds now: ${meldsText(ev.melds)}`;
      case "laid_off": return `${name(ev.seat)} laid off ${cardsText(ev.cards)}${ev.card ? `, taking ${SOURCE[ev.source]}` : ""}; melds now: ${meldsText(ev.melds)}`;
      case "force_window": return `${name(ev.seat)} may force ${name(ev.player)} to take ${cardText(ev.card)}`;
      case "forced": return `${name(ev.seat)} forced ${name(ev.player)} to meld ${cardText(ev.card)}`;
      case "force_declined": return `${name(ev.seat)} did not force ${name(ev.player)}`;
      case "discarded": return `${name(ev.seat)} discarded ${cardText(ev.card)}`;
      case "passed": return `${name(ev.seat)} passed${ev.card ? ` on ${cardText(ev.card)}` : ""} with the stock empty`;
      case "deal_ended": return ev.outcome === "won" ? `Deal ${ev.deal} ended: ${name(ev.winner)} won the stake of ${ev.stake}`
        : `Deal ${ev.deal} was drawn: the stake grows`;
      case "dealt": return `Deal ${ev.deal}, dealt by ${name(ev.dealer)}${ev.cards ? `; your cards: ${cardsText(ev.cards)}` : ""}`;
      case "game_over": return gameOverText(ev, name);
      default: return unlistedText(ev, ev);
    }
  },

  seatNote: (v, seat) => `${v.state.melded_counts[seat]} melded`,

  table(v, { name, aim }) {
    const s = v.state;
    const up = s.face_up || s.offer;
    const mine = aim && mayMeld(v) ? v.seat : null;
    return [
      box(s.face_up ? "Turned card" : "Offered card", up ? cards([up], { large: true }) : text("none", "empty")),
      box("Stock", back(s.stock_count, `${s.stock_count} cards in the stock`)),
      box("Deal", stats(["deal", s.deal], ["dealer", name(s.dealer)], ["stake", s.stake], ["target", s.target],
        s.drawn_deals ? ["drawn deals", s.drawn_deals] : null)),
      box("Now", text(v.status === "finished" ? "The match is over" : `${name(v.to_move[0])}: ${PHASE[s.phase] || s.phase}`)),
      wideBox("Melds", lines("seats", s.melds.map((melds, seat) => line(name(seat), melds.length
        ? melds.map((m, i) => meld(m, `#${i}`, seat === mine ? meldTarget(i, `your meld #${i}`) : null))
        : [text("no melds", "empty")])))),
      s.dead.length ? wideBox("Dead cards", cards(s.dead)) : null,
    ].filter((b) => b !== null);
  },

  summary(v, name) {
    const d = v.state.last_deal;
    if (!d) return null;
    return {
      key: `deal-${d.deal}`,
      title: d.outcome === "won" ? `Deal ${d.deal}: ${name(d.winner)} won (stake ${d.stake})` : `Deal ${d.deal} was drawn: the stake grows`,
      parts: [
        lines("seats", d.melds.map((melds, seat) => line(name(seat), melds.length ? melds.map((m) => cards(m)) : [text("no melds", "empty")]))),
        text(`${d.stock_left} cards were left in the stock.`),
      ],
    };
  },

  // A meld move lists all of the seat's melds after it: the ones on the table (one of them grown, when
  // the composer aims at it) and the new groups, the card on offer in the first new one.
  compose(v, selected, groups, target) {
    const rule = v.state.meld_rule;
    if (!mayMeld(v) || !rule || v.seat === null) return [];
    const mine = copy(v.state.melds[v.seat] || []);
    const card = rule.card;
    if (target && target.kind === "meld" && mine[target.id]) {
      mine[target.id].push(card, ...selected);
      return [{ label: `Lay ${cardsText([card, ...selected])} off on your meld #${target.id}`,
        move: { type: "meld", melds: [...mine, ...copy(groups)] } }];
    }
    const fresh = copy(groups);
    if (selected.length) fresh.push([...selected]);
    if (!fresh.length) return [];
    fresh[0].unshift(card);
    return [{ label: `Meld ${meldsText(fresh)}`, move: { type: "meld", melds: [...mine, ...fresh] } }];
  },

  note: () => null,
};
