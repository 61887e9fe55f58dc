// Readable lines from moves and events (the events of each log entry). The shared vocabulary of
// event types is written out here; any other type gets a readable fallback from its fields.

import { cardText, cardsText } from "./cards.js";

/** @typedef {import("./types.js").GameEvent} GameEvent */
/** @typedef {import("./types.js").LogEntry} LogEntry */
/** @typedef {(seat: number | null | undefined) => string} Namer */

/** @param {unknown} v @returns {string[]} */
const codes = (v) => (Array.isArray(v) ? v.filter((c) => typeof c === "string") : []);
/** @param {unknown} v @returns {number | null} */
const num = (v) => (typeof v === "number" ? v : null);

/** @param {number | null} n @param {string} one @param {string} many */
const plural = (n, one, many) => (n === 1 ? `1 ${one}` : `${n ?? "some"} ${many}`);

/** The cards a move names: its card, cards, payment and melds. @param {Record<string, unknown>} move */
export function moveCards(move) {
  const out = [];
  if (typeof move.card === "string") out.push(move.card);
  out.push(...codes(move.cards), ...codes(move.payment));
  if (Array.isArray(move.melds)) for (const m of move.melds) out.push(...codes(m));
  return out;
}

/** @param {unknown} melds */
const meldsText = (melds) => (Array.isArray(melds) ? melds.map((m) => cardsText(codes(m))).join(" | ") : "");

/**
 * A move in words, as a button label ("Play 7♥") or, with `who`, a history line.
 * @param {Record<string, unknown>} move
 * @param {Namer} name
 */
export function moveText(move, name) {
  const c = typeof move.card === "string" ? cardText(move.card) : "";
  const cs = cardsText(codes(move.cards));
  const meld = typeof move.meld === "number" ? `meld #${move.meld}` : "a meld";
  switch (move.type) {
    case "play": return c ? `Play ${c}` : `Play ${cs}`;
    case "stein": return "Say \u201cStein\u201d (take the stone)";
    case "play_all": return `Play all: ${cs}`;
    case "draw": return "Draw";
    case "pass": return "Pass";
    case "reject": return "Reject the card";
    case "force": return "Force the opponent to meld it";
    case "decline_force": return "Don't force";
    case "discard": case "discard_single": return `Discard ${c}`;
    case "meld": return `Meld ${meldsText(move.melds)}`;
    case "take_pile": return `Take the pile: ${meldsText(move.melds)}`;
    case "take_pile_lay_off": return `Take the pile onto ${meld}`;
    case "lay_off": return `Lay off ${cs} on ${meld}`;
    case "tuck": return `Tuck ${cs} under ${meld}`;
    case "end_hand": return "End the hand";
    case "catch": {
      const from = move.from_seat === null || move.from_seat === undefined ? "the pile" : name(num(move.from_seat));
      return `Catch ${c} from ${from}, pay ${cardsText(codes(move.payment))}`;
    }
    case "pass_catch": return "Don't catch";
    case "trick": return `Play ${cs}`;
    case "place": return codes(move.cards).length ? `Place ${cs}` : "Place nothing";
    default: return fallback(move);
  }
}

/** Any object in words: its type and its fields. @param {Record<string, unknown>} obj */
function fallback(obj) {
  const type = String(obj.type || "move").replace(/_/g, " ");
  const parts = Object.entries(obj).filter(([k, v]) => k !== "type" && (v === null || typeof v !== "object"
    || (Array.isArray(v) && v.every((x) => typeof x === "string")))).map(([k, v]) => {
    const text = Array.isArray(v) ? cardsText(codes(v)) : String(v);
    return `${k.replace(/_/g, " ")}: ${text}`;
  });
  return parts.length ? `${type} (${parts.join(", ")})` : type;
}

/** The cards of an event: `cards`, else `card`, else the pile's `top`. @param {GameEvent} ev */
function eventCards(ev) {
  const cards = codes(ev.cards);
  if (cards.length) return cards;
  if (typeof ev.card === "string") return [ev.card];
  if (typeof ev.top === "string") return [ev.top];
  return [];
}

/** Melds of an event: lists of codes or objects with `cards`. @param {unknown} melds */
function eventMelds(melds) {
  if (!Array.isArray(melds)) return "";
  return melds.map((m) => cardsText(codes(Array.isArray(m) ? m : m && typeof m === "object" ? /** @type {{cards?: unknown}} */ (m).cards : []))).join(" | ");
}

/**
 * One event in words.
 * @param {GameEvent} ev
 * @param {Namer} name
 */
export function eventText(ev, name) {
  const who = "seat" in ev ? name(num(ev.seat)) : "";
  const cards = eventCards(ev);
  const count = num(ev.count);
  const shown = cards.length ? cardsText(cards) : plural(count, "card", "cards");
  const meldNo = typeof ev.meld === "number" ? ` meld #${ev.meld}` : "";
  const t = ev.type;
  switch (t) {
    case "dealt": {
      const n = num(ev.deal) ?? num(ev.hand_number) ?? num(ev.section) ?? num(ev.count);
      return `New deal${n !== null ? ` (${n})` : ""}${cards.length ? `; your cards: ${cardsText(cards)}` : ""}`;
    }
    case "drew": return `${who || "Someone"} drew ${shown}`;
    case "took_pile": return `${who} took the pile${cards.length ? `: ${cardsText(cards)}` : ""}`;
    case "turned": return `${who ? `${who} turned` : "Turned"} ${shown}`;
    case "rejected": return `${who} rejected ${shown}`;
    case "buried": return `${shown} was buried: nobody took it`;
    case "played": return `${who} played ${shown}${typeof ev.value === "number" ? ` (${ev.value})` : ev.value === null ? " (hat)" : ""}`;
    case "melded": return `${who} melded ${eventMelds(ev.melds) || shown}`;
    case "laid_off": return `${who} laid off ${shown}${meldNo ? ` on${meldNo}` : ""}`;
    case "tucked": return `${who} tucked ${shown} under${meldNo}`;
    case "discarded": return `${who} discarded ${shown}`;
    case "passed": return `${who} passed`;
    case "skipped": return `${who} is skipped`;
    case "reset": return `Everybody passed: new start${cards.length ? ` ${cardsText(cards)}` : ""}`;
    case "reshuffled": return `The played pile became the new stock${count !== null ? ` (${plural(count, "card", "cards")})` : ""}`;
    case "lot": return `${who} drew ${shown} as a lot`;
    case "red_three": return `${who} laid out ${cards.length ? cardsText(cards) : "a red three"}`;
    case "caught": {
      const from = ev.from_seat === null || ev.from_seat === undefined ? "the pile" : name(num(ev.from_seat));
      const pay = codes(ev.payment);
      return `${who} caught ${shown} from ${from}${pay.length ? `, paying ${cardsText(pay)}` : ""}`;
    }
    case "catching_ended": return "The catching round ended: caught cards go into the rows";
    case "trick_won": return `${who} won the trick${typeof ev.value === "number" ? ` with ${ev.value}` : ev.value === null ? " with the hat" : ""}`;
    case "placed": return cards.length ? `${who} placed ${cardsText(cards)} in the row` : `${who} placed nothing`;
    case "force_window": return `${who} may force ${name(num(ev.player))} to take ${shown}`;
    case "forced": return `${who} forced ${"player" in ev ? name(num(ev.player)) : "the opponent"} to meld ${shown}`;
    case "force_declined": return `${who} did not force`;
    case "took_stone": return `${who} took the stone${ev.previous_holder === null || ev.previous_holder === undefined ? "" : ` from ${name(num(ev.previous_holder))}`}`;
    case "declared": return `${who} declared play-all: ${ev.success ? "it worked" : "it failed"}${cards.length ? ` (${cardsText(cards)})` : ""}`;
    case "game_over": {
      const winners = Array.isArray(ev.winners) ? ev.winners : [];
      const names = winners.map((s) => name(num(s))).join(", ");
      return names ? `Game over: ${names} won` : "Game over";
    }
    default:
      if (t.endsWith("_ended")) {
        const what = t.slice(0, -"_ended".length).replace(/_/g, " ");
        const n = num(ev.number) ?? num(ev.deal) ?? num(ev.section) ?? num(ev.round);
        const winner = "winner" in ev ? ev.winner : "went_out" in ev ? ev.went_out : undefined;
        const by = winner === undefined ? "" : winner === null ? "" : `: ${name(num(winner))} ${"went_out" in ev ? "went out" : "won"}`;
        return `The ${what}${n !== null ? ` ${n}` : ""} ended${by}`;
      }
      return fallback(ev);
  }
}

/**
 * A log entry as history lines: the move, then what it caused.
 * @param {LogEntry} entry
 * @param {Namer} name
 * @returns {{version: number, who: string, move: string, events: string[]}}
 */
export function entryLines(entry, name) {
  const events = /** @type {GameEvent[]} */ (entry.events || []);
  return {
    version: entry.version,
    who: name(entry.seat),
    move: moveText(entry.move, name),
    events: events.map((e) => eventText(e, name)),
  };
}
