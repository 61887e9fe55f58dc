// Each game's public table, its seats, its end-of-hand summary and the moves a player composes,
// drawn from the view (the state's fields are typed in schemas/<game>.py and the spec).

import { backEl, cardEl, cardsText, cardText, parse } from "./cards.js";
import { h } from "./dom.js";

/** @typedef {import("./types.js").Schemas} S */
/** @typedef {import("./types.js").View} View */
/** @typedef {import("./types.js").Move} Move */
/**
 * @typedef {{kind: "meld", id: number, label: string}
 *   | {kind: "catch", card: string, from_seat: number | null, label: string}} Target
 * @typedef {{
 *   name: (seat: number | null | undefined) => string,
 *   seat: number | null,
 *   target: Target | null,
 *   pick: ((t: Target) => void) | null,
 * }} Ctx
 * @typedef {{count: number | null, score: string | null, extra?: string}} SeatInfo
 * @typedef {{label: string, move: Record<string, unknown>}} Composed
 * @typedef {{
 *   text: string,
 *   tone: "good" | "warn",
 *   confirm: {question: string, yes: string} | null,
 * }} MoveNote what the view says a listed move will do; with `confirm`, the table asks before sending it
 * @typedef {{
 *   seats: (v: any) => SeatInfo[],
 *   table: (v: any, ctx: Ctx) => HTMLElement,
 *   summary: (v: any, ctx: Ctx) => {key: string, title: string, body: HTMLElement} | null,
 *   compose: (v: any, sel: string[], groups: string[][], target: Target | null) => Composed[],
 *   groups: boolean,
 *   hint: string,
 *   composite: string[],
 *   note?: (v: any, m: Record<string, unknown>) => MoveNote | null,
 * }} GameUI
 */

/** @param {readonly string[]} codes @param {boolean} [small] */
const row = (codes, small = true) => h("span", { class: "cards" }, codes.map((c) => cardEl(c, { small })));
/** @param {string} label @param {...(Node | string | null | false | undefined)} body */
const box = (label, ...body) => h("div", { class: "box" }, h("h3", null, label), ...body);
/** @param {string} k @param {string | number} v */
const stat = (k, v) => h("span", { class: "stat" }, h("span", { class: "k" }, k), " ", h("b", null, String(v)));
/** @param {View} v */
const kinds = (v) => new Set(v.legal_moves.map((m) => m.type));

/**
 * A meld on the table; a button when the composer may aim at it.
 * @param {readonly string[]} cards @param {string} label @param {Target | null} target @param {Ctx} ctx
 */
function meldEl(cards, label, target, ctx) {
  const chosen = target && ctx.target && ctx.target.kind === "meld" && target.kind === "meld" && ctx.target.id === target.id;
  const attrs = { class: "meld" + (chosen ? " chosen" : ""), "aria-label": `${label}: ${cards.map((c) => cardText(c)).join(", ")}` };
  const inner = [h("span", { class: "meld-label", "aria-hidden": "true" }, label), row(cards)];
  if (target && ctx.pick) {
    const pick = ctx.pick;
    return h("button", { ...attrs, type: "button", "data-target": `meld-${target.kind === "meld" ? target.id : ""}`,
      "aria-pressed": chosen ? "true" : "false", onclick: () => pick(target) }, ...inner);
  }
  return h("div", attrs, ...inner);
}

/** @param {readonly (readonly string[])[]} groups @returns {string[][]} */
const copyGroups = (groups) => groups.map((g) => [...g]);

// --- Sten ------------------------------------------------------------------------------------

/** @type {Record<string, string>} */
const SUIT_NAME = { C: "Clubs \u2663", D: "Diamonds \u2666", H: "Hearts \u2665", S: "Spades \u2660" };

/** @type {GameUI} */
const sten = {
  composite: ["play_all"],
  groups: false,
  hint: "Select cards in the order to lay them, then declare them all in one turn.",
  seats: (/** @type {S["StenView"]} */ v) => v.state.hand_counts.map((n, i) => ({
    count: n, score: v.state.stone_holder === i ? "holds the stone" : null,
  })),
  table(/** @type {S["StenView"]} */ v, ctx) {
    const s = v.state;
    const layout = h("div", { class: "layout" }, s.layout.map((pile) => h("div", { class: `suitrow suit-${pile.suit}` },
      h("span", { class: "suitname" }, SUIT_NAME[pile.suit] || pile.suit),
      pile.cards.length ? row(pile.cards) : h("span", { class: "empty" }, "not opened"),
      h("span", { class: "fits" }, pile.fits.length ? `fits: ${cardsText(pile.fits)}` : "closed"))));
    return h("div", { class: "public" },
      box("Layout", layout),
      h("div", { class: "boxes" },
        box("The stone", h("p", { class: "stone" }, s.stone_holder === null ? "Nobody holds the stone" : `${ctx.name(s.stone_holder)} holds the stone`)),
        s.remainder.length ? box("Open leftover cards", row(s.remainder)) : null,
        s.dead_count ? box("Dead cards", h("p", null, `${s.dead_count} face down, out of play`)) : null,
        s.failed_play_all ? box("Play-all", h("p", null, "A play-all declaration failed")) : null));
  },
  summary(/** @type {S["StenView"]} */ v, ctx) {
    const e = v.state.ended;
    if (!e) return null;
    return { key: "ended", title: e.winner !== null ? `${ctx.name(e.winner)} emptied the hand` : "The game ended", body: h("div", null,
      h("p", null, e.stone_holder !== null ? `${ctx.name(e.stone_holder)} holds the stone and loses.` : "Nobody holds the stone."),
      h("table", { class: "scores" }, h("thead", null, h("tr", null, h("th", null, "Seat"), h("th", null, "Cards left"), h("th", null, "Count"))),
        h("tbody", null, e.hands.map((hand, i) => h("tr", null, h("td", null, ctx.name(i)),
          h("td", null, hand.length ? row(hand) : "none"), h("td", { class: "num" }, String(e.cards_left[i] ?? hand.length))))))) };
  },
  compose(/** @type {S["StenView"]} */ v, sel) {
    if (!kinds(v).has("play_all") || !sel.length) return [];
    return [{ label: `Play all ${sel.length} selected, in this order`, move: { type: "play_all", cards: sel } }];
  },
  // The view's play_all_wins has one entry per listed declaration, in the listed order: whether posting it
  // now wins. A losing one is still legal (it costs the stone), so the table asks before sending it.
  note(/** @type {S["StenView"]} */ v, m) {
    const outlook = v.state.play_all_wins;
    if (m.type !== "play_all" || !outlook) return null;
    const key = JSON.stringify(m);
    const at = v.legal_moves.filter((x) => x.type === "play_all").findIndex((x) => JSON.stringify(x) === key);
    const wins = outlook[at];
    if (wins === undefined) return null;
    if (wins) return { text: "wins now: your whole hand goes down", tone: "good", confirm: null };
    return { text: "would fail: these cards cannot all be laid now", tone: "warn", confirm: {
      question: "This declaration fails: its cards cannot all be laid on the layout this turn. Your cards come back and you take the stone. Declare anyway?",
      yes: "Declare anyway, take the stone" } };
  },
};

// --- Conquian --------------------------------------------------------------------------------

/** @type {Record<string, string>} */
const CONQUIAN_PHASE = {
  choose: "take the offered card or turn the stock", turned: "meld the turned card or reject it",
  discard: "discard a card", force_offer: "may force the opponent to take the card",
  force_reject: "may force the opponent to take the card", forced: "must meld the forced card", over: "the match is over",
};

/** @type {GameUI} */
const conquian = {
  composite: ["meld"],
  groups: true,
  hint: "Select hand cards to go with the face-up card: aim at one of your melds to lay them off there, or make a new meld.",
  seats: (/** @type {S["ConquianView"]} */ v) => v.state.hand_counts.map((n, i) => ({
    count: n, score: `${v.state.scores[i]} won`, extra: `${v.state.melded_counts[i]} melded`,
  })),
  table(/** @type {S["ConquianView"]} */ v, ctx) {
    const s = v.state;
    const canMeld = kinds(v).has("meld");
    const up = s.face_up || s.offer;
    return h("div", { class: "public" },
      h("div", { class: "boxes" },
        box(s.face_up ? "Turned card" : "Offered card", up ? cardEl(up) : h("p", { class: "empty" }, "none")),
        box("Stock", backEl(s.stock_count, `${s.stock_count} cards in the stock`)),
        box("Deal", stat("deal", s.deal), stat("dealer", ctx.name(s.dealer)), stat("stake", s.stake),
          stat("target", s.target), s.drawn_deals ? stat("drawn deals", s.drawn_deals) : null),
        box("Now", h("p", null, `${ctx.name(v.to_move[0] ?? null)}: ${CONQUIAN_PHASE[s.phase] || s.phase}`))),
      box("Melds", ...s.melds.map((melds, seat) => h("div", { class: "meldline" },
        h("span", { class: "who" }, ctx.name(seat)),
        melds.length ? melds.map((m, i) => meldEl(m, `#${i}`, canMeld && seat === v.seat ? { kind: "meld", id: i, label: `your meld #${i}` } : null, ctx))
          : h("span", { class: "empty" }, "no melds")))),
      s.dead.length ? box("Dead cards", row(s.dead)) : null);
  },
  summary(/** @type {S["ConquianView"]} */ v, ctx) {
    const d = v.state.last_deal;
    if (!d) return null;
    const title = d.outcome === "won" ? `Deal ${d.deal}: ${ctx.name(d.winner)} won (stake ${d.stake})` : `Deal ${d.deal} was drawn: the stake grows`;
    return { key: `deal-${d.deal}`, title, body: h("div", null,
      d.melds.map((melds, seat) => h("div", { class: "meldline" }, h("span", { class: "who" }, ctx.name(seat)),
        melds.length ? melds.map((m) => row(m)) : h("span", { class: "empty" }, "no melds"))),
      h("p", null, `${d.stock_left} cards were left in the stock.`)) };
  },
  compose(/** @type {S["ConquianView"]} */ v, sel, groups, target) {
    const rule = v.state.meld_rule;
    if (!kinds(v).has("meld") || !rule || v.seat === null) return [];
    const mine = copyGroups(v.state.melds[v.seat] || []);
    const card = rule.card;
    const extra = groups.flat().concat(sel);
    if (target && target.kind === "meld" && mine[target.id]) {
      mine[target.id].push(card, ...sel);
      return [{ label: `Lay ${cardsText([card, ...sel])} off on your meld #${target.id}`,
        move: { type: "meld", melds: [...mine, ...copyGroups(groups)] } }];
    }
    if (!extra.length) return [];
    const fresh = [...copyGroups(groups)];
    if (sel.length) fresh.push([...sel]);
    fresh[0].unshift(card);
    return [{ label: `Meld ${fresh.map((m) => cardsText(m)).join(" | ")}`, move: { type: "meld", melds: [...mine, ...fresh] } }];
  },
};

// --- Siebenschläfer ----------------------------------------------------------------------------

/** @type {GameUI} */
const siebenschlaefer = {
  composite: ["play"],
  groups: false,
  hint: "Select two cards to lay them as a pair.",
  seats: (/** @type {S["SiebenschlaeferView"]} */ v) => v.state.hand_counts.map((n, i) => ({
    count: n, score: `${v.state.totals[i]} points`, extra: v.state.paid[i] ? `paid ${v.state.paid[i]}` : undefined,
  })),
  table(/** @type {S["SiebenschlaeferView"]} */ v) {
    const s = v.state;
    return h("div", { class: "public" }, h("div", { class: "boxes" },
      box(s.top_kind === "start" ? "Start value" : "Top pair", s.top ? row(s.top, false) : h("p", { class: "empty" }, "empty")),
      box("To beat", h("p", { class: "big" }, s.free || s.target === null ? "Free: any pair" : `more than ${s.target}`)),
      box("Stock", backEl(s.stock_count, `${s.stock_count} cards in the stock`), stat("played pile", s.pile_count)),
      box("Passes", h("p", null, `${s.passes} of ${s.pass_threshold}`)),
      box("Round", stat("round", `${s.round} of ${s.rounds}`), stat("moves", s.moves)),
      s.drawn && s.drawn.length ? box("You drew", row(s.drawn)) : null));
  },
  summary(/** @type {S["SiebenschlaeferView"]} */ v, ctx) {
    const r = v.state.last_round;
    if (!r) return null;
    const title = `Round ${r.round}: ` + (r.winner !== null ? `${ctx.name(r.winner)} went out` : "the round stalled, hands counted");
    return { key: `round-${r.round}`, title, body: h("table", { class: "scores" },
      h("thead", null, h("tr", null, h("th", null, "Seat"), h("th", null, "Hand"), h("th", null, "Value"), h("th", null, "Pays"))),
      h("tbody", null, r.hands.map((hand, i) => h("tr", null, h("td", null, ctx.name(i)),
        h("td", null, hand.length ? row(hand) : "out"), h("td", null, String(r.hand_values[i] ?? "")),
        h("td", null, r.payers.includes(i) ? "pays" : ""))))) };
  },
  compose(/** @type {S["SiebenschlaeferView"]} */ v, sel) {
    if (!kinds(v).has("play") || sel.length !== 2) return [];
    return [{ label: `Play the pair ${cardsText(sel)}`, move: { type: "play", cards: sel } }];
  },
};

// --- Kanaster --------------------------------------------------------------------------------

/** @type {GameUI} */
const kanaster = {
  composite: ["meld", "take_pile", "lay_off", "tuck", "take_pile_lay_off"],
  groups: true,
  hint: "Select cards and group them into melds; aim at one of your melds to lay off or tuck.",
  seats: (/** @type {S["KanasterView"]} */ v) => v.state.seats.map((s) => ({
    count: s.hand_count, score: `${s.score} pts`, extra: s.melded ? (s.canasta ? "has a canasta" : "has melded") : `first meld ${s.minimum}+`,
  })),
  table(/** @type {S["KanasterView"]} */ v, ctx) {
    const s = v.state;
    const k = kinds(v);
    const aim = k.has("lay_off") || k.has("tuck") || k.has("take_pile_lay_off");
    const pileNote = [s.pile_frozen ? "frozen" : "", s.pile_blocked ? "blocked for you" : ""].filter(Boolean).join(", ");
    return h("div", { class: "public" },
      h("div", { class: "boxes" },
        box("Pile", s.pile_top ? cardEl(s.pile_top) : h("p", { class: "empty" }, "empty"),
          h("p", null, `${s.pile.length} card${s.pile.length === 1 ? "" : "s"}${pileNote ? ` (${pileNote})` : ""}`),
          s.pile.length > 1 ? h("details", null, h("summary", null, "Whole pile"), row(s.pile)) : null),
        box("Talon", backEl(s.talon_count, `${s.talon_count} cards in the talon`)),
        box("Hand", stat("hand", s.hand_number), stat("target", s.target), stat("dealer", ctx.name(s.dealer)),
          s.blocking_ranks.length ? stat("blocking", s.blocking_ranks.join(" ")) : null),
        s.turn.took_pile ? box("Taken with the pile", row(s.turn.pile_cards)) : null),
      box("Melds and red threes", ...s.seats.map((seat) => h("div", { class: "meldline" },
        h("span", { class: "who" }, ctx.name(seat.seat)),
        seat.red_threes.length ? h("span", { class: "red3" }, row(seat.red_threes)) : null,
        ...s.melds.filter((m) => m.owner === seat.seat).map((m) => meldEl(m.cards.concat(m.tucked),
          `#${m.id} ${m.canasta ? (m.natural ? "natural canasta" : "mixed canasta") : `${m.rank}s`} \u00b7 ${m.points} pts`,
          aim && seat.seat === v.seat ? { kind: "meld", id: m.id, label: `your meld #${m.id}` } : null, ctx)),
        s.melds.some((m) => m.owner === seat.seat) ? null : h("span", { class: "empty" }, "no melds")))));
  },
  summary(/** @type {S["KanasterView"]} */ v, ctx) {
    const last = v.state.last_hand;
    if (!last) return null;
    const title = `Hand ${last.number} counted` + (last.went_out !== null ? `: ${ctx.name(last.went_out)} went out${last.concealed ? " concealed" : ""}` : "");
    const cols = ["red_threes", "table", "canastas", "going_out", "hand", "total"];
    return { key: `hand-${last.number}`, title, body: h("table", { class: "scores" },
      h("thead", null, h("tr", null, h("th", null, "Seat"), cols.map((c) => h("th", null, c.replace("_", " "))), h("th", null, "Cards left"))),
      h("tbody", null, last.seats.map((sc, i) => h("tr", null, h("td", null, ctx.name(i)),
        cols.map((c) => h("td", { class: "num" }, String(/** @type {Record<string, unknown>} */ (sc)[c]))),
        h("td", null, sc.hand_cards.length ? row(sc.hand_cards) : "none"))))) };
  },
  compose(/** @type {S["KanasterView"]} */ v, sel, groups, target) {
    const k = kinds(v);
    const out = [];
    const melds = [...copyGroups(groups), ...(sel.length ? [[...sel]] : [])];
    if (target && target.kind === "meld") {
      if (k.has("lay_off") && sel.length) out.push({ label: `Lay off ${cardsText(sel)} on meld #${target.id}`, move: { type: "lay_off", meld: target.id, cards: sel } });
      if (k.has("tuck") && sel.length) out.push({ label: `Tuck ${cardsText(sel)} under meld #${target.id}`, move: { type: "tuck", meld: target.id, cards: sel } });
      if (k.has("take_pile_lay_off")) out.push({ label: `Take the pile onto meld #${target.id}`, move: { type: "take_pile_lay_off", meld: target.id } });
    }
    if (melds.length && k.has("meld")) out.push({ label: `Meld ${melds.map((m) => cardsText(m)).join(" | ")}`, move: { type: "meld", melds } });
    const top = v.state.pile_top;
    if (melds.length && k.has("take_pile") && top) {
      const withTop = copyGroups(melds);
      const tp = parse(top);
      const same = withTop.find((m) => m.some((c) => { const p = parse(c); return tp.kind === "standard" && p.kind === "standard" && p.rank === tp.rank; }));
      (same || withTop[0]).unshift(top);
      out.push({ label: `Take the pile: ${withTop.map((m) => cardsText(m)).join(" | ")}`, move: { type: "take_pile", melds: withTop } });
    }
    return out;
  },
};

// --- Keine lahme Agame -------------------------------------------------------------------------

/** @type {Record<string, string>} */
const KLA_PHASE = {
  lead: "leads: catch first or play to the trick", catching: "may catch a card", trick_lead: "leads the trick",
  trick: "plays to the trick", place: "places won cards", over: "the game is over",
};

/** @type {GameUI} */
const kla = {
  composite: ["catch", "trick"],
  groups: false,
  hint: "To catch: pick a target, then select one or two hand cards as the payment. To play: select one or two cards.",
  seats: (/** @type {S["KeineLahmeAgameView"]} */ v) => v.state.players.map((p) => ({
    count: p.hand_count, score: `${p.score} pts`, extra: p.colour,
  })),
  table(/** @type {S["KeineLahmeAgameView"]} */ v, ctx) {
    const s = v.state;
    const canCatch = kinds(v).has("catch") && ctx.pick;
    /** @param {string} card @param {number | null} from */
    const targetOf = (card, from) => s.catch_targets.find((t) => t.card === card && t.from_seat === from);
    /** @param {string} card @param {number | null} from */
    const catchable = (card, from) => {
      const t = canCatch ? targetOf(card, from) : undefined;
      const pick = ctx.pick;
      if (!t || !pick) return cardEl(card, { small: true });
      const chosen = ctx.target && ctx.target.kind === "catch" && ctx.target.card === card && ctx.target.from_seat === from;
      const where = from === null ? "the pile" : ctx.name(from);
      const el = cardEl(card, { small: true, button: true, label: `catch ${card.replace("-", " ")} from ${where}` });
      el.classList.add("target");
      el.dataset.target = `catch-${card}-${from === null ? "pile" : from}`;
      el.setAttribute("aria-pressed", chosen ? "true" : "false");
      if (chosen) el.classList.add("chosen");
      el.addEventListener("click", () => pick({ kind: "catch", card, from_seat: from, label: `${card.replace("-", " ")} from ${where}` }));
      return el;
    };
    return h("div", { class: "public" },
      h("div", { class: "boxes" },
        box("Discard pile", s.discard_top ? catchable(s.discard_top, null) : h("p", { class: "empty" }, "empty"),
          h("p", null, `${s.discard.length} card${s.discard.length === 1 ? "" : "s"}`)),
        box("Running trick", s.trick.length ? h("div", null, s.trick.map((p) => h("div", { class: "play" },
          h("span", { class: "who" }, ctx.name(p.seat)), row(p.cards), h("span", { class: "val" }, p.value === null ? "hat" : `= ${p.value}`))))
          : h("p", { class: "empty" }, "no cards yet")),
        box("Now", h("p", null, `${ctx.name(v.to_move[0] ?? null)} ${KLA_PHASE[s.phase] || s.phase}`),
          stat("section", `${s.section} of ${s.sections_per_game}`), stat("leader", ctx.name(s.leader))),
        s.caught.length ? box("Caught this round", h("div", null, s.caught.map((c) => h("div", { class: "play" },
          h("span", { class: "who" }, ctx.name(c.seat)), row([c.card]), h("span", null, c.from_seat === null ? "from the pile" : `from ${ctx.name(c.from_seat)}`)))))
          : null,
        s.last_trick ? box("Last trick", h("p", null, `${ctx.name(s.last_trick.winner)} won`),
          s.last_trick.placed.length ? h("p", null, "placed ", row(s.last_trick.placed)) : null) : null),
      box("Rows", ...s.players.map((p) => h("div", { class: `meldline colour-${p.colour}` },
        h("span", { class: "who" }, `${ctx.name(p.seat)} (${p.colour})`),
        h("span", { class: "cards" }, p.row.map((c) => catchable(c, p.seat))),
        p.missing.length ? h("span", { class: "missing" }, `missing: ${p.missing.join(" ")}`) : h("span", { class: "badge" }, "complete"),
        h("span", { class: "val" }, `${p.row_points} pts`)))));
  },
  summary(/** @type {S["KeineLahmeAgameView"]} */ v, ctx) {
    const last = v.state.last_section;
    if (!last) return null;
    return { key: `section-${last.section}`, title: `Section ${last.section} ended`, body: h("table", { class: "scores" },
      h("thead", null, h("tr", null, h("th", null, "Seat"), h("th", null, "Points"), h("th", null, "Row"), h("th", null, "Hand"))),
      h("tbody", null, last.points.map((pts, i) => h("tr", null, h("td", null, ctx.name(i)), h("td", { class: "num" }, String(pts)),
        h("td", null, last.complete[i] ? "complete" : ""), h("td", null, last.emptied.includes(i) ? "emptied" : ""))))) };
  },
  compose(/** @type {S["KeineLahmeAgameView"]} */ v, sel, _groups, target) {
    const k = kinds(v);
    const out = [];
    if (target && target.kind === "catch" && k.has("catch") && sel.length) {
      out.push({ label: `Catch ${target.label}, pay ${cardsText(sel)}`, move: { type: "catch", card: target.card, from_seat: target.from_seat, payment: sel } });
    }
    if (k.has("trick") && sel.length && !target) out.push({ label: `Play ${cardsText(sel)} to the trick`, move: { type: "trick", cards: sel } });
    return out;
  },
};

/** @type {Record<string, GameUI>} */
export const GAMES = { sten, conquian, siebenschlaefer, kanaster, "keine-lahme-agame": kla };

/** The UI of a game; an unknown game gets a plain one from the view. @param {string} game @returns {GameUI} */
export function gameUI(game) {
  return GAMES[game] || {
    groups: false, hint: "", composite: [],
    seats: () => [], summary: () => null, compose: () => [],
    table: (/** @type {View} */ v) => h("pre", { class: "public" }, JSON.stringify(v.state, null, 1)),
  };
}
