// Kanaster at the web table (seeds/kanaster.md): its moves and events in words, the pile and the
// talon, every meld and red three, and the moves a player composes from selected cards (melds,
// taking the pile, laying off and tucking on an own meld). Pure.

import { cardsText, cardText, parse } from "./cards.js";
import { back, box, cards, line, lines, meld, meldTarget, more, scores, stats, text, wideBox } from "./parts.js";
import { codes, gameOverText, meldsOf, meldsText, num, plural, str, unlistedText } from "./words.js";

/** @typedef {import("./types.js").Schemas} S */
/** @typedef {S["KanasterView"]} View */
/** @typedef {Exclude<S["KanasterEvent"], import("./types.js").TableEvent>} Event the game's own events (the table's read in people.js) */

/** The count of a finished hand, column by column (the view's last_hand seats). */
const COUNT = /** @type {const} */ (["red_threes", "table", "canastas", "going_out", "hand", "total"]);

/** @param {unknown} meldId */
const meldNo = (meldId) => `meld #${num(meldId) ?? "?"}`;

/** @param {readonly (readonly string[])[]} melds @returns {string[][]} */
const copy = (melds) => melds.map((m) => [...m]);

/** @type {import("./games.js").Game<View, Event>} */
export const kanaster = {
  composite: ["meld", "take_pile", "lay_off", "tuck", "take_pile_lay_off"],
  groups: true,
  hint: "Select cards and group them into melds; aim at one of your melds to lay off or tuck.",

  moveText(move) {
    const type = /** @type {S["KanasterMove"]["type"]} */ (move.type);
    switch (type) {
      case "draw": return "Draw";
      case "take_pile": return `Take the pile: ${meldsText(meldsOf(move.melds))}`;
      case "take_pile_lay_off": return `Take the pile onto ${meldNo(move.meld)}`;
      case "meld": return `Meld ${meldsText(meldsOf(move.melds))}`;
      case "lay_off": return `Lay off ${cardsText(codes(move.cards))} on ${meldNo(move.meld)}`;
      case "tuck": return `Tuck ${cardsText(codes(move.cards))} under ${meldNo(move.meld)}`;
      case "discard": return `Discard ${cardText(str(move.card))}`;
      case "end_hand": return "End the hand";
      default: return unlistedText(type, move);
    }
  },

  eventText(ev, name) {
    switch (ev.type) {
      case "drew": return `${name(ev.seat)} drew ${ev.cards ? cardsText(ev.cards) : plural(ev.count, "card", "cards")}`;
      case "red_three": return `${name(ev.seat)} laid out ${cardsText(ev.cards)}${ev.replacements && ev.replacements.length
        ? `, replaced by ${cardsText(ev.replacements)}` : ev.count ? `, drew ${plural(ev.count, "replacement", "replacements")}` : ""}`;
      case "melded": return `${name(ev.seat)} melded ${meldsText(ev.melds.map((m) => m.cards))}${ev.melds.some((m) => m.canasta) ? " (a canasta)" : ""}`;
      case "laid_off": return `${name(ev.seat)} laid off ${cardsText(ev.cards)} on ${meldNo(ev.meld)}${ev.canasta ? ": a canasta now" : ""}`;
      case "took_pile": return `${name(ev.seat)} took the pile: ${cardText(ev.top)} to a meld${ev.cards.length ? `, ${cardsText(ev.cards)} to the hand` : ""}`;
      case "tucked": return `${name(ev.seat)} tucked ${cardsText(ev.cards)} under ${meldNo(ev.meld)}`;
      case "discarded": return `${name(ev.seat)} discarded ${cardText(ev.card)}`;
      case "hand_ended": return `Hand ${ev.number} ended${ev.went_out !== null ? `: ${name(ev.went_out)} went out${ev.concealed ? " concealed" : ""}` : ""}`;
      case "dealt": return `Hand ${ev.hand_number}, dealt by ${name(ev.dealer)}${ev.cards ? `; your cards: ${cardsText(ev.cards)}` : ""}`;
      case "turned": return `Turned up for the pile: ${cardsText(ev.cards)}`;
      case "game_over": return gameOverText(ev, name);
      default: return unlistedText(ev, ev);
    }
  },

  seatNote: (v, seat) => {
    const p = v.state.players[seat];
    return !p ? null : p.melded ? (p.canasta ? "has a canasta" : "has melded") : `first meld ${p.minimum}+`;
  },

  table(v, { name, aim }) {
    const s = v.state;
    const kinds = new Set(v.legal_moves.map((m) => m.type));
    const mine = aim && (kinds.has("lay_off") || kinds.has("tuck") || kinds.has("take_pile_lay_off")) ? v.seat : null;
    const pileNote = [s.pile_frozen ? "frozen" : "", s.pile_blocked ? "blocked for you" : ""].filter(Boolean).join(", ");
    return [
      box("Pile", s.discard_top ? cards([s.discard_top], { large: true }) : text("empty", "empty"),
        text(`${plural(s.discard_count, "card", "cards")}${pileNote ? ` (${pileNote})` : ""}`),
        s.discard_count > 1 ? more("Whole pile", cards(s.discard_pile)) : null),
      box("Talon", back(s.stock_count, `${s.stock_count} cards in the talon`)),
      box("Hand", stats(["hand", s.hand_number], ["target", s.target], ["dealer", name(s.dealer)],
        s.blocking_ranks.length ? ["blocking", s.blocking_ranks.join(" ")] : null)),
      s.current_turn.took_pile ? box("Taken with the pile", cards(s.current_turn.pile_cards)) : null,
      wideBox("Melds and red threes", lines("seats", s.players.map((seat) => {
        const own = s.melds.filter((m) => m.owner === seat.seat);
        return line(name(seat.seat), [
          seat.red_threes.length ? cards(seat.red_threes) : null,
          ...own.map((m) => meld(m.cards.concat(m.tucked),
            `#${m.id} ${m.canasta ? (m.natural ? "natural canasta" : "mixed canasta") : `${m.rank}s`} \u00b7 ${m.points} pts`,
            seat.seat === mine ? meldTarget(m.id, `your meld #${m.id}`) : null)),
          own.length ? null : text("no melds", "empty"),
        ]);
      }))),
    ].filter((b) => b !== null);
  },

  summary(v, name) {
    const last = v.state.last_hand;
    if (!last) return null;
    return {
      key: `hand-${last.number}`,
      title: `Hand ${last.number} counted${last.went_out !== null ? `: ${name(last.went_out)} went out${last.concealed ? " concealed" : ""}` : ""}`,
      parts: [scores(["Seat", ...COUNT.map((c) => c.replace("_", " ")), "Cards left"], last.seats.map((sc, i) => [
        text(name(i)), ...COUNT.map((c) => text(String(sc[c]), "num")), sc.hand_cards.length ? cards(sc.hand_cards) : text("none"),
      ]))],
    };
  },

  // Aimed at an own meld: lay the selected cards off, tuck them, or take the pile onto it. Otherwise
  // the groups (and the selection, as one more) are new melds; to take the pile, its top card goes
  // into the group of its rank, else the first.
  compose(v, selected, groups, target) {
    const kinds = new Set(v.legal_moves.map((m) => m.type));
    const out = [];
    const melds = [...copy(groups), ...(selected.length ? [[...selected]] : [])];
    if (target && target.kind === "meld") {
      const at = `meld #${target.id}`;
      if (kinds.has("lay_off") && selected.length) out.push({ label: `Lay off ${cardsText(selected)} on ${at}`, move: { type: "lay_off", meld: target.id, cards: selected } });
      if (kinds.has("tuck") && selected.length) out.push({ label: `Tuck ${cardsText(selected)} under ${at}`, move: { type: "tuck", meld: target.id, cards: selected } });
      if (kinds.has("take_pile_lay_off")) out.push({ label: `Take the pile onto ${at}`, move: { type: "take_pile_lay_off", meld: target.id } });
    }
    if (melds.length && kinds.has("meld")) out.push({ label: `Meld ${meldsText(melds)}`, move: { type: "meld", melds } });
    const top = v.state.discard_top;
    if (melds.length && kinds.has("take_pile") && top) {
      const withTop = copy(melds);
      const rank = (/** @type {string} */ c) => { const p = parse(c); return p.kind === "standard" ? p.rank : null; };
      const same = rank(top) === null ? undefined : withTop.find((m) => m.some((c) => rank(c) === rank(top)));
      (same || withTop[0]).unshift(top);
      out.push({ label: `Take the pile: ${meldsText(withTop)}`, move: { type: "take_pile", melds: withTop } });
    }
    return out;
  },

  note: () => null,
};
