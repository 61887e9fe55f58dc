// Keine lahme Agame at the web table (seeds/keine-lahme-agame.md): its moves and events in words,
// the discard pile, the running trick, every player's row, and the catches and tricks a player
// composes from selected cards (a catch aims at a row card or the pile's top). Pure.

import { cardsText, cardText } from "./cards.js";
import { box, cards, catchTarget, line, lines, scores, stats, text, wideBox } from "./parts.js";
import { codes, gameOverText, num, str, unlistedText } from "./words.js";

/** @typedef {import("./types.js").Schemas} S */
/** @typedef {S["KeineLahmeAgameView"]} View */
/** @typedef {Exclude<S["KeineLahmeAgameEvent"], import("./types.js").TableEvent>} Event the game's own events (the table's read in people.js) */
/** @typedef {import("./words.js").Namer} Namer */

/** What the seat to move does now, by the view's phase. @type {Record<string, string>} */
const PHASE = {
  lead: "leads: catch first or play to the trick", catching: "may catch a card", trick_lead: "leads the trick",
  trick: "plays to the trick", place: "places won cards", over: "the game is over",
};

/** Where a caught card came from: a row, or the discard pile (null). @param {number | null} from @param {Namer} name */
const fromText = (from, name) => (from === null ? "the pile" : name(from));

/** A trick's value: null is the hat. @param {number | null} value */
const valueText = (value) => (value === null ? "the hat" : String(value));

/** @type {import("./games.js").Game<View, Event>} */
export const kla = {
  composite: ["catch", "trick"],
  groups: false,
  hint: "To catch: pick a target, then select one or two hand cards as the payment. To play: select one or two cards.",

  moveText(move, name) {
    const type = /** @type {S["KeineLahmeAgameMove"]["type"]} */ (move.type);
    switch (type) {
      case "catch": return `Catch ${cardText(str(move.card))} from ${fromText(num(move.from_seat), name)}, pay ${cardsText(codes(move.payment))}`;
      case "pass_catch": return "Don't catch";
      case "trick": return `Play ${cardsText(codes(move.cards))}`;
      case "discard_single": return `Discard ${cardText(str(move.card))}`;
      case "place": return codes(move.cards).length ? `Place ${cardsText(codes(move.cards))}` : "Place nothing";
      default: return unlistedText(type, move);
    }
  },

  eventText(ev, name) {
    switch (ev.type) {
      case "caught": return `${name(ev.seat)} caught ${cardText(ev.card)} from ${fromText(ev.from_seat, name)}, paying ${cardsText(ev.payment)}`;
      case "passed": return `${name(ev.seat)} did not catch`;
      case "catching_ended": return "The catching round ended: caught cards go into the rows";
      case "played": return `${name(ev.seat)} ${ev.lead ? "led" : "played"} ${cardsText(ev.cards)} (${valueText(ev.value)})`;
      case "trick_won": return `${name(ev.seat)} won the trick with ${valueText(ev.value)}`;
      case "placed": return `${name(ev.seat)} placed ${ev.cards.length ? cardsText(ev.cards) : "nothing"} in the row${ev.rest.length
        ? `; ${cardsText(ev.rest)} ${ev.rest_to === "hand" ? "back to the hand" : "onto the discard pile"}` : ""}`;
      case "discarded": return `${name(ev.seat)} discarded ${cardsText(ev.cards)}${ev.forced ? ": no trick to lead" : ""}`;
      case "section_ended": return `Section ${ev.section} ended`;
      case "dealt": return `Section ${ev.section}, ${name(ev.leader)} leads${ev.cards ? `; your cards: ${cardsText(ev.cards)}` : ""}`;
      case "game_over": return gameOverText(ev, name);
      default: return unlistedText(ev, ev);
    }
  },

  seatNote: (v, seat) => v.state.players[seat]?.colour ?? null,

  table(v, { name, aim }) {
    const s = v.state;
    const catching = aim && v.legal_moves.some((m) => m.type === "catch");
    /** A card the composer may aim a catch at, where the view lists it as a target. @param {string} card @param {number | null} from */
    const target = (card, from) => (catching && s.catch_targets.some((t) => t.card === card && t.from_seat === from)
      ? catchTarget(card, from, `${cardText(card)} from ${fromText(from, name)}`) : null);
    return [
      box("Discard pile", s.discard_top ? cards([s.discard_top], { targets: [target(s.discard_top, null)] }) : text("empty", "empty"),
        text(s.discard_count === 1 ? "1 card" : `${s.discard_count} cards`)),
      box("Running trick", s.trick.length
        ? lines("plays", s.trick.map((p) => line(name(p.seat), [cards(p.cards), text(p.value === null ? "hat" : `= ${p.value}`, "note")])))
        : text("no cards yet", "empty")),
      box("Now", text(v.status === "finished" ? "The game is over" : `${name(v.to_move[0])} ${PHASE[s.phase] || s.phase}`),
        stats(["section", `${s.section} of ${s.sections_per_game}`], ["leader", name(s.leader)])),
      s.caught.length ? box("Caught this round", lines("plays", s.caught.map((c) => line(name(c.seat),
        [cards([c.card]), text(`from ${fromText(c.from_seat, name)}`)])))) : null,
      s.last_trick ? box("Last trick", text(`${name(s.last_trick.winner)} won`),
        s.last_trick.placed.length ? lines("plays", [line("placed", [cards(s.last_trick.placed)])]) : null) : null,
      wideBox("Rows", lines("seats", s.players.map((p) => line(`${name(p.seat)} (${p.colour})`, [
        cards(p.row, { targets: p.row.map((c) => target(c, p.seat)) }),
        p.missing.length ? text(`missing: ${p.missing.join(" ")}`, "note") : text("complete", "badge"),
        text(`${p.row_points} pts`, "note"),
      ], `colour-${p.colour}`)))),
    ].filter((b) => b !== null);
  },

  summary(v, name) {
    const last = v.state.last_section;
    if (!last) return null;
    return {
      key: `section-${last.section}`,
      title: `Section ${last.section} ended`,
      parts: [scores(["Seat", "Points", "Row", "Hand"], last.points.map((pts, i) => [
        text(name(i)), text(String(pts), "num"), text(last.complete[i] ? "complete" : ""), text(last.emptied.includes(i) ? "emptied" : ""),
      ]))],
    };
  },

  // A catch needs its target (a card in a row or on the pile) and the payment selected; a trick
  // is the selected cards, while nothing is aimed at.
  compose(v, selected, _groups, target) {
    const kinds = new Set(v.legal_moves.map((m) => m.type));
    const out = [];
    if (target && target.kind === "catch" && kinds.has("catch") && selected.length) {
      out.push({ label: `Catch ${target.label}, pay ${cardsText(selected)}`,
        move: { type: "catch", card: target.card, from_seat: target.from_seat, payment: selected } });
    }
    if (kinds.has("trick") && selected.length && !target) out.push({ label: `Play ${cardsText(selected)} to the trick`, move: { type: "trick", cards: selected } });
    return out;
  },

  note: () => null,
};
