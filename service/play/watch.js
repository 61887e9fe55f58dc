// Watching a finished game again (#watch=<id>&g=<game>): its export gives the history and the seats'
// names, its positions (fetched a page at a time, as the watcher gets to them) each step's table with
// every hand open. Forward and back by the buttons, the history's lines or the keyboard (arrows,
// Home/End, Page Up/Down). The history is drawn once; a step redraws the table beside it and moves
// the history's mark. Everything a person typed (seat names) is drawn as text.

import { json, problemText, viewPath } from "./api.js";
import { boardEl } from "./board.js";
import { sortedHand } from "./cards.js";
import { announce, focusHeading, h, replace } from "./dom.js";
import { cardEl } from "./faces.js";
import { gameOf } from "./games.js";
import { entryLines } from "./history.js";
import { resultEl, seatsEl, summaryEl } from "./panels.js";
import { entryAsLogged, keyStep, pageOf, seatNamer, stepped, stepText } from "./replay.js";
import { outcome, seatRows } from "./status.js";

/** @typedef {import("./types.js").Export} Export */
/** @typedef {import("./types.js").Position} Position */
/** @typedef {import("./types.js").View} View */
/** @typedef {import("./history.js").HistoryLine} HistoryLine */
/** @typedef {"start" | "back" | "forward" | "end"} Action */

/** Positions asked for at once (the server's default page). */
const PAGE = 50;

export class WatchController {
  /**
   * @param {{main: HTMLElement, game: string, id: string, title: string, step: number}} where the page's main
   *   element, the game's id, the table's id, the game's title and the step to show first
   */
  constructor({ main, game, id, title, step }) {
    this.main = main;
    this.gameId = game;
    this.id = id;
    this.title = title;
    this.game = gameOf(game);
    this.path = viewPath(game, id);
    this.step = step;
    /** @type {Export | null} */
    this.export = null;
    /** @type {Map<number, Position>} the positions fetched, by step */
    this.positions = new Map();
    /** @type {Map<number, Promise<void>>} the pages under way, by their first step */
    this.pages = new Map();
    /** @type {HistoryLine[]} */
    this.lines = [];
    this.name = seatNamer([]);
    this.abort = new AbortController();
    /** the step the watcher last asked for: an answer for an older one is not drawn */
    this.wanted = step;
    /** @param {KeyboardEvent} e */
    this.onKey = (e) => {
      const target = e.target;
      if (target instanceof HTMLElement && target.closest("input, select, textarea, summary")) return;
      if (!this.export) return;
      const to = keyStep(e, this.step, this.last());
      if (to === null) return;
      e.preventDefault();
      void this.show(to);
    };
  }

  stop() {
    this.abort.abort();
    document.removeEventListener("keydown", this.onKey);
  }

  /** The last step: the end of the game. */
  last() { return this.export ? this.export.entries.length : 0; }

  async start() {
    /** @type {Export} */
    const exported = await json(`${this.path}/export`, { signal: this.abort.signal });
    this.export = exported;
    this.name = seatNamer(exported.seats);
    this.lines = exported.entries.map((e) => entryLines(entryAsLogged(e), this.name, this.game, exported.seats));
    this.step = Math.max(0, Math.min(this.last(), this.step));
    this.frame();
    document.addEventListener("keydown", this.onKey, { signal: this.abort.signal });
    focusHeading(this.main);
    await this.show(this.step);
  }

  /** Fetch the page of positions that holds `step`, once. @param {number} step */
  load(step) {
    const first = pageOf(step, PAGE);
    let under = this.pages.get(first);
    if (!under) {
      under = (async () => {
        /** @type {{positions: Position[]}} */
        const page = await json(`${this.path}/positions?start=${first}&limit=${PAGE}`, { signal: this.abort.signal });
        for (const p of page.positions) this.positions.set(p.version, p);
      })();
      under.catch(() => { this.pages.delete(first); });
      this.pages.set(first, under);
    }
    return under;
  }

  /** Go to `step` and draw it (fetching its page first when needed). @param {number} step */
  async show(step) {
    this.wanted = step;
    if (!this.positions.has(step)) {
      this.say(`Loading move ${step}\u2026`);
      try {
        await this.load(step);
      } catch (err) {
        if (!this.abort.signal.aborted) this.say(`Could not load move ${step}: ${problemText(err)}`);
        return;
      }
    }
    if (this.wanted !== step || this.abort.signal.aborted) return;
    this.step = step;
    this.drawStep();
    // the next page before it is needed, so that stepping forward does not wait
    const next = pageOf(step, PAGE) + PAGE;
    if (step + 10 >= next && next <= this.last()) void this.load(next).catch(() => undefined);
  }

  /** @param {string} text */
  say(text) {
    const where = this.main.querySelector("[data-step-text]");
    if (where) where.textContent = text;
  }

  // --- drawing --------------------------------------------------------------------------------------

  /** The page around the steps: the title, the step buttons, the table's place and the history (once). */
  frame() {
    const ex = /** @type {Export} */ (this.export);
    document.title = `cardtable: ${this.title}, watching again`;
    /** @param {Action} action @param {string} label @param {string} text @param {string} keys */
    const stepButton = (action, label, text, keys) => h("button", { type: "button", "data-step-action": action,
      "aria-label": label, "aria-keyshortcuts": keys, title: `${label} (${keys})`, onclick: () => { void this.show(stepped(this.step, action, this.last())); } }, text);
    const history = h("ol", { class: "watch-history", id: "watch-history" },
      h("li", { "data-goto": 0 }, h("button", { type: "button", class: "line", onclick: () => { void this.show(0); } },
        h("span", { class: "muted" }, "#0 "), "The deal")),
      this.lines.map((line) => h("li", { "data-goto": line.version },
        h("button", { type: "button", class: "line", onclick: () => { void this.show(line.version); } },
          h("span", { class: "muted" }, `#${line.version} `), h("span", { class: "who" }, line.who), " ", line.move),
        line.events.length ? h("ul", null, line.events.map((e) => h("li", null, e))) : null)));
    replace(this.main, h("section", { class: "watch", "data-watch": true, "data-game": this.gameId, "data-step": this.step,
      "data-last": this.last(), "aria-label": `${this.title}, watching again` },
    h("header", { class: "tablehead" },
      h("h2", null, `${this.title}: watching again`),
      h("p", { class: "links" }, h("a", { href: `#rules=${encodeURIComponent(this.gameId)}`, target: "_blank" }, "Rules"),
        " \u00b7 ", h("a", { href: `${this.path}/export`, download: `${this.gameId}-${this.id}.json`, "data-action": "export" }, "Export (JSON)"),
        " \u00b7 ", h("a", { href: "#" }, "Lobby"))),
    h("nav", { class: "stepper", "aria-label": "Steps through the game" },
      stepButton("start", "To the deal", "\u00ab Start", "Home"),
      stepButton("back", "One move back", "\u25c0 Back", "ArrowLeft"),
      stepButton("forward", "One move forward", "Forward \u25b6", "ArrowRight"),
      stepButton("end", "To the end", "End \u00bb", "End"),
      h("span", { class: "counter", "data-counter": true }, ""),
      h("p", { class: "steptext", "data-step-text": true, "aria-live": "polite" }, "")),
    h("div", { class: "watchgrid" },
      h("div", { class: "watchtable", "data-watch-table": true }),
      h("aside", { class: "history", "aria-labelledby": "watch-history-title" },
        h("h3", { id: "watch-history-title" }, `History (${ex.entries.length} moves)`), history)),
    h("p", { class: "muted" }, "Keys: \u2190 and \u2192 step one move, Page Up and Page Down ten, Home and End go to the deal and the end.")));
  }

  /** Draw the step shown: the table with every hand open, the counter, and the history's mark. */
  drawStep() {
    const root = this.main.querySelector("[data-watch]");
    const place = this.main.querySelector("[data-watch-table]");
    const p = this.positions.get(this.step);
    if (!(root instanceof HTMLElement) || !place || !p) return;
    const v = /** @type {View} */ (p.view);
    const name = this.name;
    const last = this.last();
    root.dataset.step = String(this.step);
    const counter = this.main.querySelector("[data-counter]");
    if (counter) counter.textContent = `Move ${this.step} of ${last}`;
    const text = stepText(this.step, this.lines);
    this.say(text);
    for (const button of this.main.querySelectorAll("[data-step-action]")) {
      const action = /** @type {HTMLElement} */ (button).dataset.stepAction;
      const stays = action === "start" || action === "back" ? this.step === 0 : this.step === last;
      button.toggleAttribute("disabled", stays);
    }
    const summary = this.game.summary(v, name);
    const result = outcome(v, name);
    replace(place,
      seatsEl(seatRows(v, (seat) => this.game.seatNote(v, seat), name)),
      summary ? summaryEl(summary, null) : null,
      result ? resultEl(result, this.gameId, null) : null,
      h("section", { class: "hands", "aria-labelledby": "hands-title" },
        h("h3", { id: "hands-title" }, "Every hand, open"),
        p.hands.map((hand, seat) => h("div", { class: "openhand", "data-hand": seat },
          h("span", { class: "who" }, name(seat)),
          h("span", { class: "muted" }, `${hand.length} card${hand.length === 1 ? "" : "s"}`),
          h("span", { class: "cards" }, sortedHand(hand).map(({ code }) => cardEl(code, { small: true })))))),
      boardEl(this.game.table(v, { name, aim: false }), { target: null, pick: null }));
    this.markHistory();
    history.replaceState(null, "", `#watch=${encodeURIComponent(this.id)}&g=${encodeURIComponent(this.gameId)}&at=${this.step}`);
    announce(text);
  }

  /** Mark the history's line of the step shown, and keep it in sight. */
  markHistory() {
    const list = this.main.querySelector("#watch-history");
    if (!list) return;
    for (const old of list.querySelectorAll("[aria-current]")) { old.removeAttribute("aria-current"); old.classList.remove("current"); }
    const item = list.querySelector(`[data-goto="${this.step}"]`);
    if (!(item instanceof HTMLElement)) return;
    item.setAttribute("aria-current", "step");
    item.classList.add("current");
    const box = list.getBoundingClientRect();
    const at = item.getBoundingClientRect();
    if (at.top < box.top || at.bottom > box.bottom) list.scrollTop += at.top - box.top - box.height / 3;
  }
}
