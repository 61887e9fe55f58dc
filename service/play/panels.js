// The panels around a game's table, drawn from data: the ring of seats, the summary of the last hand,
// the result, the hand, the moves (listed, composed, and the question before a move that would
// fail), the history and the links for the other people's seats. What a click does comes in as
// a function; no panel changes anything itself.

import { partsEl } from "./board.js";
import { cardName } from "./cards.js";
import { clockText, isLow } from "./clocks.js";
import { h } from "./dom.js";
import { backEl, cardEl } from "./faces.js";

/** @typedef {import("./status.js").SeatRow} SeatRow */
/** @typedef {import("./status.js").Outcome} Outcome */
/** @typedef {import("./clocks.js").Clock} Clock */
/** @typedef {import("./parts.js").Summary} Summary */
/** @typedef {import("./parts.js").Target} Target */
/** @typedef {import("./history.js").HistoryLine} HistoryLine */
/** @typedef {import("./games.js").MoveNote} MoveNote */
/** @typedef {import("./games.js").Composed} Composed */
/** @typedef {Record<string, unknown>} Move */

/**
 * The ring of seats, the same for every game: each seat's name (a person's text, drawn as text), whether
 * its person is at the table (a dot), who plays it, its cards in hand, its score where the game keeps one,
 * its game's note, whose turn it is, and its clock (`clockMs` says what a clock holds now; the page
 * repaints the clocks with `paintClock` while they run).
 * @param {SeatRow[]} rows @param {(clock: Clock) => number} [clockMs]
 */
export function seatsEl(rows, clockMs = (c) => c.remainingMs) {
  return h("ul", { class: "seats", "aria-label": "Seats", "data-seats": true }, rows.map((r) => h("li", {
    class: "seat" + (r.moving ? " moving" : "") + (r.viewer ? " me" : ""), "aria-current": r.moving ? "true" : undefined,
    "data-ring-seat": r.seat, "data-kind": r.kind, "data-hand-count": r.count, "data-score": r.score === null ? undefined : r.score },
  h("span", { class: "who" }, r.connected === null ? null : h("span", { class: "dot" + (r.connected ? " on" : ""),
    "data-connected": String(r.connected), role: "img", "aria-label": r.connected ? "at the table" : "away",
    title: r.connected ? "at the table" : "away" }), r.name),
  h("span", { class: "kind muted" }, r.who),
  backEl(r.count, r.countLabel),
  r.score !== null ? h("span", { class: "score", title: "score" }, h("span", { class: "k" }, "score "), h("b", null, String(r.score))) : null,
  r.note ? h("span", { class: "note muted" }, r.note) : null,
  r.moving ? h("span", { class: "badge" }, "to move") : null,
  r.clock ? paintClock(h("span", { class: "clock", role: "timer", "data-clock": r.clock.running ? "running" : "stopped",
    "data-clock-seat": r.seat }), r.clock, clockMs(r.clock)) : null)));
}

/**
 * Show what a seat's clock holds: its time ("1:05", tenths under 10 s), `data-remaining-ms`, and the
 * urgent look while it runs low. @param {HTMLElement} el @param {Clock} clock @param {number} ms
 */
export function paintClock(el, clock, ms) {
  const text = clockText(ms);
  if (el.textContent !== text) el.textContent = text;
  el.dataset.remainingMs = String(Math.round(ms));
  el.classList.toggle("low", isLow(clock, ms));
  el.classList.toggle("out", ms <= 0);
  el.setAttribute("aria-label", `clock ${text}${clock.running ? ", running" : ""}`);
  return el;
}

/** The last hand's (deal's, round's, section's) summary; `onContinue` hides it. @param {Summary} s @param {(() => void) | null} onContinue */
export function summaryEl(s, onContinue) {
  return h("section", { class: "summary panel", "data-summary": s.key, "aria-labelledby": "summary-title" },
    h("h3", { id: "summary-title" }, s.title), partsEl(s.parts, { target: null, pick: null }, false),
    onContinue ? h("button", { type: "button", "data-key": "dismiss", onclick: onContinue }, "Continue") : null);
}

/**
 * @typedef {{label: string, go: (() => void) | null, href: string | null}} Rematch the result's offer of the
 *   next game: a button (`go`) for a seat, a link (`href`) for a spectator
 */

/**
 * @param {Outcome} o @param {string} game @param {string | null} watch the link that watches the game again (none
 *   while watching, or for a game called off) @param {Rematch | null} [rematch]
 */
export function resultEl(o, game, watch, rematch = null) {
  return h("section", { class: "result panel", "data-result": o.status, "aria-labelledby": "result-title" },
    h("h3", { id: "result-title" }, o.headline),
    o.winners ? h("p", null, `Winners: ${o.winners}`) : null,
    o.losers ? h("p", null, `Losers: ${o.losers}`) : null,
    o.ending ? h("p", { class: "muted" }, `How it ended: ${o.ending}`) : null,
    o.places.length > 1 ? h("ol", { class: "places", "aria-label": "Places" }, o.places.map((p) =>
      h("li", { value: p.place }, p.names))) : null,
    o.scores.length ? h("table", { class: "scores" }, h("tbody", null, o.scores.map((s) => h("tr", null,
      h("td", null, s.name), h("td", { class: "num" }, String(s.score)))))) : null,
    rematch ? h("p", { class: "actions" }, rematch.go
      ? h("button", { type: "button", class: "primary", "data-action": "rematch", onclick: rematch.go }, rematch.label)
      : h("a", { href: rematch.href || "#", "data-action": "rematch" }, rematch.label)) : null,
    h("p", null, watch ? h("a", { href: watch, "data-action": "watch-again" }, "Watch again") : null, watch ? " \u00b7 " : null,
      h("a", { href: `#new=${encodeURIComponent(game)}` }, "New game"), " \u00b7 ", h("a", { href: "#" }, "Lobby")));
}

/**
 * The viewer's hand, sorted as held; each card a button that selects it (in order) on his turn.
 * @param {{code: string, index: number}[]} sorted @param {number[]} selected indices into the view's hand
 * @param {boolean} selectable @param {(index: number) => void} toggle @param {() => void} clear
 */
export function handEl(sorted, selected, selectable, toggle, clear) {
  const cards = sorted.map(({ code, index }) => {
    const order = selected.indexOf(index);
    const el = cardEl(code, { button: true, label: cardName(code) + (order >= 0 ? `, selected ${order + 1}` : "") });
    el.dataset.key = `hand-${index}`;
    el.dataset.index = String(index);
    el.setAttribute("aria-pressed", order >= 0 ? "true" : "false");
    if (order >= 0) { el.classList.add("selected"); el.dataset.order = String(order + 1); }
    if (!selectable) el.setAttribute("aria-disabled", "true");
    el.addEventListener("click", () => toggle(index));
    return el;
  });
  return h("section", { class: "hand", "aria-labelledby": "hand-title" },
    h("h3", { id: "hand-title" }, `Your hand (${sorted.length})`, selectable && selected.length
      ? h("button", { type: "button", class: "link", "data-key": "clear", onclick: clear }, "clear selection") : null),
    h("div", { class: "cards fan" }, cards));
}

/**
 * @typedef {{
 *   arranged: import("./moves.js").ArrangedMoves<Move>,
 *   label: (move: Move) => string,
 *   note: (move: Move) => MoveNote | null,
 *   selecting: boolean,
 *   asking: {move: Move, question: string, yes: string} | null,
 *   composer: {hint: string, groups: string[][], target: Target | null, canGroup: boolean, composed: Composed[]} | null,
 *   message: string,
 * }} MovesPanel what the moves panel shows: the listed moves in order, the question waiting for an
 *   answer, and the composer (null for a game whose moves are all listed)
 * @typedef {{
 *   send: (move: Move) => void, ask: (move: Move, confirm: {question: string, yes: string}) => void,
 *   confirm: () => void, cancel: () => void, group: () => void, ungroup: (index: number) => void,
 *   unaim: () => void, sendComposed: (move: Move) => void,
 * }} MovesActions
 */

/** @param {MovesPanel} p @param {MovesActions} on */
export function movesEl(p, on) {
  /** @param {Move} m */
  const button = (m) => {
    const note = p.note(m);
    const confirm = note && note.confirm;
    return h("button", { type: "button", class: "move" + (note ? ` ${note.tone}` : ""), "data-move": JSON.stringify(m),
      "data-key": `move-${JSON.stringify(m)}`, "data-outlook": note ? note.tone : undefined,
      onclick: () => (confirm ? on.ask(m, confirm) : on.send(m)) },
    p.label(m), note ? h("span", { class: "note" }, note.text) : null);
  };
  const { plain, shown, more } = p.arranged;
  const asking = p.asking;
  const c = p.composer;
  return h("section", { class: "moves", "aria-labelledby": "moves-title" },
    h("h3", { id: "moves-title" }, "Your move"),
    plain.length ? h("div", { class: "plain" }, plain.map(button)) : null,
    shown.length ? h("div", { class: "list" }, p.selecting ? h("p", { class: "muted" }, "Moves with the selected cards:") : null, shown.map(button)) : null,
    more.length ? h("details", { class: "more" }, h("summary", null, `More moves (${more.length})`), h("div", { class: "list" }, more.map(button))) : null,
    asking ? h("div", { class: "confirm", role: "alertdialog", "aria-labelledby": "confirm-question", "data-confirm": JSON.stringify(asking.move) },
      h("p", { id: "confirm-question" }, asking.question),
      h("div", { class: "plain" },
        h("button", { type: "button", class: "danger", "data-action": "confirm", "data-key": "confirm", onclick: on.confirm }, asking.yes),
        h("button", { type: "button", "data-action": "cancel", "data-key": "cancel", onclick: on.cancel }, "Cancel"))) : null,
    c ? h("div", { class: "compose", "aria-labelledby": "compose-title" },
      h("h4", { id: "compose-title" }, "Compose a move"),
      h("p", { class: "muted" }, c.hint),
      c.groups.length ? h("div", { class: "groups" }, c.groups.map((g, i) => h("span", { class: "group" },
        g.map((code) => cardEl(code, { small: true })),
        h("button", { type: "button", class: "link", "aria-label": `remove group ${i + 1}`, onclick: () => on.ungroup(i) }, "\u00d7")))) : null,
      c.target ? h("p", null, "Aiming at: ", h("b", null, c.target.label), " ",
        h("button", { type: "button", class: "link", onclick: on.unaim }, "cancel")) : null,
      h("div", { class: "plain" },
        c.canGroup ? h("button", { type: "button", "data-action": "group", "data-key": "group", onclick: on.group }, "Make a meld of the selected") : null,
        c.composed.map((x) => h("button", { type: "button", class: "primary", "data-compose": String(x.move.type), "data-key": `compose-${x.label}`,
          onclick: () => on.sendComposed(x.move) }, x.label)))) : null,
    h("p", { class: "message", role: "status", "data-message": true }, p.message));
}

/**
 * The resign button of a seated person, or, once pressed, the question before it is sent (on the page,
 * with "Yes, resign" and "Cancel"). @param {{asking: boolean, players: number, busy: boolean}} p
 * @param {{ask: () => void, confirm: () => void, cancel: () => void}} on
 */
export function resignEl(p, on) {
  if (!p.asking) {
    return h("p", { class: "resign" }, h("button", { type: "button", class: "link quiet", "data-action": "resign",
      "data-key": "resign", disabled: p.busy, onclick: on.ask }, "Resign"));
  }
  const question = p.players === 2 ? "Resign this game? It ends now, and you lose it."
    : "Resign this game? You leave it and are ranked last; a bot plays your seat for the others.";
  return h("div", { class: "confirm resign panel", role: "alertdialog", "aria-labelledby": "resign-question", "data-resign": true },
    h("p", { id: "resign-question" }, question),
    h("div", { class: "plain" },
      h("button", { type: "button", class: "danger", "data-action": "resign-confirm", "data-key": "resign-confirm",
        disabled: p.busy, onclick: on.confirm }, "Yes, resign"),
      h("button", { type: "button", "data-action": "resign-cancel", "data-key": "resign-cancel", onclick: on.cancel }, "Cancel")));
}

/** The history list's items, newest first. @param {readonly HistoryLine[]} lines */
export function historyItems(lines) {
  return lines.slice(-200).reverse().map((line) => h("li", null,
    h("span", { class: "muted" }, `#${line.version} `), h("span", { class: "who" }, line.who), " ", line.move,
    line.events.length ? h("ul", null, line.events.map((e) => h("li", null, e))) : null));
}

/**
 * The links that play the other people's seats. @param {{name: string, seat: number, href: string}[]} links
 * @param {(href: string) => void} copy
 */
export function seatLinksEl(links, copy) {
  return h("section", { class: "links panel", "aria-labelledby": "links-title" },
    h("h3", { id: "links-title" }, "Seats for people"),
    h("p", null, "Whoever has a link plays that seat: send each to its player only. The seat's key is in the part after #, which the browser never sends to the server."),
    h("ul", null, links.map((l) => h("li", null,
      h("a", { href: l.href, "data-seat-link": l.seat, target: "_blank", rel: "noopener" }, `Link for ${l.name}`),
      " ", h("button", { type: "button", class: "link", onclick: () => copy(l.href) }, "copy")))));
}
