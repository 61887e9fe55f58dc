// The web table's controller: the lobby from the catalogue, the setup of a game, the table of one
// seat (view, legal moves, composed moves checked before they are sent), live updates and history.
// Routes live in the URL fragment, which browsers never send: #new=<game>, #rules=<game>,
// #game=<id>&g=<game>&token=<seat token>. The token is also kept in sessionStorage.

import { ApiError, gamePath, json, newKey, raw, viewPath } from "./api.js";
import { backEl, cardEl, cardName, sortedHand } from "./cards.js";
import { byId, h, replace } from "./dom.js";
import { gameUI } from "./games.js";
import { entryLines, moveCards, moveText } from "./history.js";
import { live } from "./live.js";
import { renderMarkdown } from "./markdown.js";

/** @typedef {import("./types.js").GameInfo} GameInfo */
/** @typedef {import("./types.js").OptionInfo} OptionInfo */
/** @typedef {import("./types.js").View} View */
/** @typedef {import("./types.js").LogEntry} LogEntry */
/** @typedef {import("./types.js").Created} Created */
/** @typedef {import("./games.js").Target} Target */
/** @typedef {GameInfo & {bot_levels?: string[], default_bot_level?: string}} CatalogueEntry */

const main = byId("main");
const announcer = byId("announce");
/** How many moves show before the rest go into "More moves". */
const SHOWN_MOVES = 12;

/** @type {CatalogueEntry[] | null} */
let catalogue = null;
/** @type {TableController | null} */
let table = null;

/** @param {string} text */
function announce(text) {
  announcer.textContent = "";
  // a fresh text node each time, so that a repeated message is read again
  setTimeout(() => { announcer.textContent = text; }, 30);
}

/** @returns {Promise<CatalogueEntry[]>} */
async function loadCatalogue() {
  if (!catalogue) catalogue = (await json("/v1/games")).games;
  return /** @type {CatalogueEntry[]} */ (catalogue);
}

/** @param {string} hash @returns {URLSearchParams} */
const fragment = (hash) => new URLSearchParams(hash.replace(/^#/, ""));

async function route() {
  if (table) { table.stop(); table = null; }
  const params = fragment(location.hash);
  try {
    if (params.get("game") && params.get("g")) {
      const id = /** @type {string} */ (params.get("game"));
      const game = /** @type {string} */ (params.get("g"));
      let token = params.get("token");
      if (token) sessionStorage.setItem(`cardtable:token:${id}`, token);
      else token = sessionStorage.getItem(`cardtable:token:${id}`);
      table = new TableController(game, id, token);
      await table.start();
    } else if (params.get("new")) {
      await setup(/** @type {string} */ (params.get("new")), params.get("seed"));
    } else if (params.get("rules")) {
      await rules(/** @type {string} */ (params.get("rules")));
    } else {
      await lobby();
    }
  } catch (err) {
    replace(main, h("section", { class: "panel error", role: "alert" }, h("h2", null, "Something went wrong"),
      h("p", null, err instanceof Error ? err.message : String(err)), h("p", null, h("a", { href: "#" }, "Back to the lobby"))));
  }
}

// --- Lobby and setup -----------------------------------------------------------------------------

async function lobby() {
  document.title = "cardtable: choose a game";
  const games = await loadCatalogue();
  replace(main, h("section", { class: "lobby", "aria-labelledby": "lobby-title" },
    h("h2", { id: "lobby-title" }, "Choose a game"),
    h("ul", { class: "games" }, games.map((g) => h("li", { class: "game" },
      h("h3", null, g.title, g.provisional ? h("span", { class: "badge warn", title: "Some rules are a reconstruction (see the rules)" }, "provisional") : null),
      h("p", null, g.min_players === g.max_players ? `${g.min_players} players` : `${g.min_players}\u2013${g.max_players} players`),
      h("p", { class: "actions" },
        h("button", { type: "button", class: "primary", "data-action": "new-game", "data-game": g.game,
          onclick: () => { location.hash = `new=${encodeURIComponent(g.game)}`; } }, "New game"),
        " ", h("a", { href: `#rules=${encodeURIComponent(g.game)}` }, "Rules")))))));
  focusHeading();
}

function focusHeading() {
  const heading = main.querySelector("h2");
  if (heading instanceof HTMLElement) { heading.tabIndex = -1; heading.focus({ preventScroll: true }); }
}

/** @param {OptionInfo} o */
function optionField(o) {
  const id = `opt-${o.name}`;
  const label = o.name.replace(/_/g, " ");
  /** @type {HTMLElement} */
  let input;
  if (o.type === "boolean") {
    input = h("input", { type: "checkbox", id, name: o.name, checked: o.default === true, "aria-describedby": `${id}-d` });
  } else if (o.choices && o.choices.length) {
    input = h("select", { id, name: o.name, "aria-describedby": `${id}-d` },
      o.choices.map((c) => h("option", { value: String(c), selected: c === o.default }, String(c).replace(/_/g, " "))));
  } else {
    input = h("input", { type: "number", id, name: o.name, value: o.default === null ? "" : String(o.default),
      min: o.minimum, max: o.maximum, placeholder: o.nullable ? "none" : undefined, "aria-describedby": `${id}-d` });
  }
  const range = o.minimum !== undefined && o.maximum !== undefined ? `${o.minimum}\u2013${o.maximum}`
    : o.minimum !== undefined ? `at least ${o.minimum}` : o.maximum !== undefined ? `at most ${o.maximum}` : "";
  const bounds = range || o.nullable ? ` (${[range, o.nullable ? "empty for none" : ""].filter(Boolean).join("; ")})` : "";
  return h("div", { class: "field" + (o.type === "boolean" ? " check" : "") },
    o.type === "boolean" ? [input, h("label", { for: id }, label)] : [h("label", { for: id }, label), input],
    o.provisional ? h("span", { class: "badge warn" }, "provisional") : null,
    h("p", { class: "help", id: `${id}-d` }, `${o.description}${bounds} Default: ${o.default === null ? "none" : String(o.default)}.`));
}

/** @param {HTMLFormElement} form @param {OptionInfo[]} options @returns {Record<string, unknown>} */
function readOptions(form, options) {
  /** @type {Record<string, unknown>} */
  const out = {};
  for (const o of options) {
    const el = form.elements.namedItem(o.name);
    if (el instanceof HTMLInputElement && o.type === "boolean") {
      if (el.checked !== o.default) out[o.name] = el.checked;
    } else if (el instanceof HTMLInputElement || el instanceof HTMLSelectElement) {
      const value = o.type === "integer" ? (el.value === "" ? null : Number(el.value)) : el.value;
      if (value !== o.default) out[o.name] = value;
    }
  }
  return out;
}

/** @param {string} gameId @param {string | null} seed */
async function setup(gameId, seed) {
  const games = await loadCatalogue();
  const g = games.find((x) => x.game === gameId);
  if (!g) throw new Error(`No game called ${gameId}`);
  document.title = `cardtable: new ${g.title}`;
  const levels = g.bot_levels || [];
  const seats = h("div", { class: "seats-setup" });
  const players = /** @type {HTMLInputElement} */ (h("input", { type: "number", id: "players", name: "players",
    min: g.min_players, max: g.max_players, value: String(Math.min(g.max_players, Math.max(g.min_players, 3))), required: true }));
  const status = h("p", { class: "status", role: "status" });
  const drawSeats = () => {
    const n = Math.max(g.min_players, Math.min(g.max_players, Number(players.value) || g.min_players));
    const old = new Map([...seats.querySelectorAll("select")].map((s) => [s.getAttribute("name"), /** @type {HTMLSelectElement} */ (s).value]));
    replace(seats, h("div", { class: "field" }, h("span", { class: "label" }, "Player 1"), h("span", null, "you")),
      ...Array.from({ length: n - 1 }, (_, i) => {
        const seat = i + 1;
        const kind = old.get(`seat-${seat}`) || "bot";
        return h("div", { class: "field" },
          h("label", { for: `seat-${seat}` }, `Player ${seat + 1}`),
          h("select", { id: `seat-${seat}`, name: `seat-${seat}` },
            h("option", { value: "bot", selected: kind === "bot" }, "bot"),
            h("option", { value: "human", selected: kind === "human" }, "a person (gets a link)")),
          levels.length ? h("select", { name: `level-${seat}`, "aria-label": `Player ${seat + 1} bot level`, disabled: kind === "human" },
            levels.map((l) => h("option", { value: l, selected: (old.get(`level-${seat}`) || g.default_bot_level) === l }, `${l} bot`))) : null);
      }));
  };
  players.addEventListener("input", drawSeats);
  // a person needs no bot level: its select is off while the seat is a person's
  seats.addEventListener("change", (ev) => {
    const el = ev.target;
    if (!(el instanceof HTMLSelectElement) || !el.name.startsWith("seat-")) return;
    const level = seats.querySelector(`select[name="level-${el.name.slice(5)}"]`);
    if (level instanceof HTMLSelectElement) level.disabled = el.value === "human";
  });
  drawSeats();
  const form = /** @type {HTMLFormElement} */ (h("form", { class: "setup", novalidate: true },
    h("div", { class: "field" }, h("label", { for: "players" }, `Players (${g.min_players}\u2013${g.max_players})`), players),
    h("fieldset", null, h("legend", null, "Seats"), seats),
    g.options.length ? h("details", { class: "options house-rules" }, h("summary", null, `House rules (${g.options.length} options)`),
      g.options.map(optionField)) : null,
    h("details", { class: "options" }, h("summary", null, "Fixed deal (development servers)"),
      h("div", { class: "field" }, h("label", { for: "seed" }, "seed"),
        h("input", { id: "seed", name: "seed", value: seed || "", placeholder: "random" }),
        h("p", { class: "help" }, "The same seed deals the same cards; servers in production refuse it."))),
    h("p", { class: "actions" }, h("button", { type: "submit", class: "primary", "data-action": "start" }, "Start"),
      " ", h("a", { href: "#" }, "Back")),
    status));
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const n = Number(players.value);
    if (!(n >= g.min_players && n <= g.max_players)) {
      status.textContent = `Choose ${g.min_players} to ${g.max_players} players.`;
      return;
    }
    /** @type {(number | {seat: number, level: string})[]} */
    const bots = [];
    for (let seat = 1; seat < n; seat++) {
      const kind = /** @type {HTMLSelectElement | null} */ (form.elements.namedItem(`seat-${seat}`));
      if (kind && kind.value === "human") continue;
      const level = /** @type {HTMLSelectElement | null} */ (form.elements.namedItem(`level-${seat}`));
      bots.push(level ? { seat, level: level.value } : seat);
    }
    /** @type {Record<string, unknown>} */
    const body = { players: n, bots, options: readOptions(form, g.options) };
    const seedValue = /** @type {HTMLInputElement} */ (form.elements.namedItem("seed")).value.trim();
    if (seedValue) body.seed = seedValue;
    status.textContent = "Dealing\u2026";
    try {
      /** @type {Created} */
      const created = await json(gamePath(g.game), { method: "POST", body, headers: { "Idempotency-Key": newKey() } });
      sessionStorage.setItem(`cardtable:seats:${created.game_id}`, JSON.stringify(created.seats));
      const mine = created.seats[0];
      location.hash = `game=${encodeURIComponent(created.game_id)}&g=${encodeURIComponent(g.game)}&token=${encodeURIComponent(mine.token || "")}`;
    } catch (err) {
      status.textContent = problemText(err);
    }
  });
  replace(main, h("section", { class: "panel", "aria-labelledby": "setup-title" },
    h("h2", { id: "setup-title" }, `New game of ${g.title}`, g.provisional ? h("span", { class: "badge warn" }, "provisional") : null),
    h("p", null, h("a", { href: `#rules=${encodeURIComponent(g.game)}` }, "Read the rules")), form));
  focusHeading();
}

/** A refusal in words: the problem's detail, its reason, the validation errors. @param {unknown} err */
function problemText(err) {
  if (err instanceof ApiError) {
    const p = err.problem;
    const reason = p.reason ? ` (${p.reason.replace(/_/g, " ")})` : "";
    const errors = p.errors ? ` ${JSON.stringify(p.errors)}` : "";
    return `${p.detail || p.title || err.message}${reason}${errors}`;
  }
  return err instanceof Error ? err.message : String(err);
}

/** @param {string} gameId */
async function rules(gameId) {
  const res = await raw(`/play/rules/${encodeURIComponent(gameId)}.md`, { headers: { Accept: "text/markdown" } });
  const text = res.ok ? await res.text() : `The rules of ${gameId} are not installed with this server.`;
  const article = h("article", { class: "panel rules" });
  article.innerHTML = renderMarkdown(text);
  replace(main, h("p", null, h("a", { href: "#" }, "\u2190 Lobby")), article);
  document.title = `cardtable: rules of ${gameId}`;
  focusHeading();
}

// --- The table -------------------------------------------------------------------------------------

class TableController {
  /** @param {string} game @param {string} id @param {string | null} token */
  constructor(game, id, token) {
    this.game = game;
    this.id = id;
    this.token = token;
    this.ui = gameUI(game);
    /** @type {View | null} */
    this.view = null;
    /** @type {string | null} */
    this.etag = null;
    /** @type {number[]} indices into the view's hand, in the order selected */
    this.sel = [];
    /** @type {string[][]} */
    this.groups = [];
    /** @type {Target | null} */
    this.target = null;
    /** @type {{move: Record<string, unknown>, question: string, yes: string} | null} a listed move waiting for "yes" */
    this.asking = null;
    this.logVersion = 0;
    /** @type {{version: number, who: string, move: string, events: string[]}[]} */
    this.history = [];
    this.message = "";
    this.busy = false;
    this.dismissed = "";
    /** @type {string} */
    this.lastTurn = "";
    this.abort = new AbortController();
    /** @type {CatalogueEntry | undefined} */
    this.info = undefined;
  }

  stop() { this.abort.abort(); }

  /** A background request failed (the game expired, the server went away): say so, keep the table. @param {unknown} err */
  lost(err) {
    if (this.abort.signal.aborted) return;
    this.message = `Could not update the table: ${problemText(err)}`;
    this.draw();
  }

  async start() {
    const games = await loadCatalogue();
    this.info = games.find((g) => g.game === this.game);
    await this.refresh();
    await this.readLog();
    live({
      game: this.game, id: this.id, token: this.token, signal: this.abort.signal,
      version: () => (this.view ? this.view.version : 0),
      etag: () => this.etag,
      onEntries: (entries) => { this.addEntries(entries); this.refresh().catch((err) => this.lost(err)); },
      onView: (view, etag) => { this.setView(view, etag); this.readLog().catch((err) => this.lost(err)); },
    });
  }

  /** @param {number | null | undefined} seat */
  seatName = (seat) => {
    if (seat === null || seat === undefined) return "nobody";
    const you = this.view && this.view.seat === seat;
    const bot = this.botSeats().has(seat);
    return `Player ${seat + 1}${you ? " (you)" : bot ? " (bot)" : ""}`;
  };

  /** @returns {Set<number>} */
  botSeats() {
    const seats = this.storedSeats();
    return new Set(seats ? seats.filter((s) => s.bot).map((s) => s.seat) : []);
  }

  /** @returns {Created["seats"] | null} */
  storedSeats() {
    try { return JSON.parse(sessionStorage.getItem(`cardtable:seats:${this.id}`) || "null"); } catch { return null; }
  }

  async refresh() {
    const res = await raw(viewPath(this.game, this.id), { token: this.token, signal: this.abort.signal,
      headers: this.etag ? { "If-None-Match": this.etag } : {} });
    if (res.status === 304) return;
    const body = await res.json();
    if (!res.ok) throw new ApiError(res.status, body);
    this.setView(body, res.headers.get("ETag"));
  }

  async readLog() {
    let since = this.logVersion;
    for (let page = 0; page < 50; page++) {
      /** @type {{entries: LogEntry[], next_since: number | null}} */
      const log = await json(`${viewPath(this.game, this.id)}/log?since=${since}`, { token: this.token, signal: this.abort.signal });
      this.addEntries(log.entries);
      if (log.next_since === null || log.next_since === undefined) break;
      since = log.next_since;
    }
  }

  /** @param {LogEntry[]} entries */
  addEntries(entries) {
    let added = false;
    for (const e of entries) {
      if (e.version <= this.logVersion) continue;
      this.logVersion = e.version;
      this.history.push(entryLines(e, this.seatName));
      added = true;
    }
    if (added) this.drawHistory();
  }

  /** @param {View} view @param {string | null} etag */
  setView(view, etag) {
    if (this.view && view.version < this.view.version) return;
    const old = this.view;
    this.view = view;
    this.etag = etag;
    const handChanged = !old || JSON.stringify(old.state.hand) !== JSON.stringify(view.state.hand);
    if (handChanged || (old && old.version !== view.version)) { this.sel = []; this.groups = []; this.target = null; this.asking = null; }
    const turn = view.status === "finished" ? "over" : view.to_move.join(",");
    if (turn !== this.lastTurn) {
      this.lastTurn = turn;
      if (view.status === "finished") announce("The game is over.");
      else if (view.seat !== null && view.to_move.includes(view.seat)) announce("Your turn.");
      else announce(`${view.to_move.map(this.seatName).join(", ")} to move.`);
    }
    this.draw();
  }

  /** The selected cards' codes, in selection order. */
  selected() {
    const hand = (this.view && this.view.state.hand) || [];
    return this.sel.map((i) => hand[i]).filter((c) => c !== undefined);
  }

  draw() {
    const v = this.view;
    if (!v) return;
    const focusKey = document.activeElement instanceof HTMLElement ? document.activeElement.dataset.key : undefined;
    const title = this.info ? this.info.title : this.game;
    document.title = `cardtable: ${title}${v.seat !== null && v.to_move.includes(v.seat) ? " \u2014 your turn" : ""}`;
    const ctx = { name: this.seatName, seat: v.seat, target: this.target,
      pick: v.seat !== null && v.to_move.includes(v.seat) ? (/** @type {Target} */ t) => this.pick(t) : null };
    const moves = this.drawMoves(v);
    const root = h("section", { class: "table", "data-table": true, "data-version": v.version, "data-status": v.status,
      "data-seat": v.seat === null ? "" : v.seat, "data-game": this.game, "aria-label": `${title} table` },
      h("header", { class: "tablehead" },
        h("h2", null, title, v.provisional ? h("span", { class: "badge warn" }, "provisional") : null),
        h("p", { class: "turn" }, this.turnText(v)),
        !moves && this.message ? h("p", { class: "message", role: "status" }, this.message) : null,
        h("p", { class: "links" }, h("a", { href: `#rules=${encodeURIComponent(this.game)}`, target: "_blank" }, "Rules"),
          " \u00b7 ", h("a", { href: "#" }, "Lobby"), " \u00b7 ", h("span", { class: "muted" }, `move ${v.version}`))),
      this.drawSeats(v),
      this.drawSummary(v, ctx),
      this.drawResult(v),
      this.ui.table(v, ctx),
      this.drawHand(v),
      moves,
      this.drawSeatLinks(v),
      h("section", { class: "history", "aria-labelledby": "history-title" }, h("h3", { id: "history-title" }, "History"),
        h("ul", { id: "history", "aria-live": "off" })));
    replace(main, root);
    this.drawHistory();
    if (focusKey) {
      const again = main.querySelector(`[data-key="${CSS.escape(focusKey)}"]`);
      if (again instanceof HTMLElement) again.focus({ preventScroll: true });
    }
  }

  /** @param {View} v */
  turnText(v) {
    if (v.status === "finished") return "The game is over.";
    if (v.seat !== null && v.to_move.includes(v.seat)) return "Your turn.";
    return `${v.to_move.map(this.seatName).join(", ")} to move\u2026`;
  }

  /** @param {View} v */
  drawSeats(v) {
    const infos = this.ui.seats(v);
    return h("ul", { class: "seats", "aria-label": "Players" }, Array.from({ length: v.players }, (_, seat) => {
      const info = infos[seat] || { count: null, score: null };
      const moving = v.to_move.includes(seat);
      return h("li", { class: "seat" + (moving ? " moving" : "") + (seat === v.seat ? " me" : ""), "aria-current": moving ? "true" : undefined },
        h("span", { class: "who" }, this.seatName(seat)),
        info.count !== null ? backEl(info.count, `${info.count} card${info.count === 1 ? "" : "s"} in hand`) : null,
        info.score !== null ? h("span", { class: "score" }, info.score) : null,
        info.extra ? h("span", { class: "muted" }, info.extra) : null,
        moving ? h("span", { class: "badge" }, "to move") : null);
    }));
  }

  /** @param {View} v @param {import("./games.js").Ctx} ctx */
  drawSummary(v, ctx) {
    const s = this.ui.summary(v, ctx);
    if (!s || s.key === this.dismissed) return null;
    return h("section", { class: "summary panel", "data-summary": s.key, "aria-labelledby": "summary-title" },
      h("h3", { id: "summary-title" }, s.title), s.body,
      v.status === "active" ? h("button", { type: "button", "data-key": "dismiss", onclick: () => { this.dismissed = s.key; this.draw(); } }, "Continue") : null);
  }

  /** @param {View} v */
  drawResult(v) {
    const r = v.result;
    if (v.status !== "finished" || !r) return null;
    const won = r.winners.map(this.seatName).join(", ");
    const lost = r.losers.map(this.seatName).join(", ");
    const detail = /** @type {Record<string, unknown>} */ (r.detail || {});
    const reason = typeof detail.reason === "string" ? detail.reason : typeof detail.end === "string" ? detail.end : "";
    const headline = r.status === "aborted" ? "The game was stopped without a winner"
      : v.seat !== null && r.winners.includes(v.seat) ? "You won!" : won ? `${won} won` : "Game over";
    return h("section", { class: "result panel", "data-result": r.status, "aria-labelledby": "result-title" },
      h("h3", { id: "result-title" }, headline),
      won ? h("p", null, `Winners: ${won}`) : null,
      lost ? h("p", null, `Losers: ${lost}`) : null,
      reason ? h("p", { class: "muted" }, `How it ended: ${reason.replace(/_/g, " ")}`) : null,
      r.scores ? h("table", { class: "scores" }, h("tbody", null, r.scores.map((s, i) => h("tr", null,
        h("td", null, this.seatName(i)), h("td", { class: "num" }, String(s)))))) : null,
      h("p", null, h("a", { href: `#new=${encodeURIComponent(this.game)}` }, "Play again"), " \u00b7 ", h("a", { href: "#" }, "Lobby")));
  }

  /** @param {View} v */
  drawHand(v) {
    const hand = v.state.hand;
    if (!hand) return h("p", { class: "muted" }, "You are watching: no seat token in this page's link.");
    const selectable = v.seat !== null && v.to_move.includes(v.seat);
    const cards = sortedHand(hand).map(({ code, index }) => {
      const order = this.sel.indexOf(index);
      const el = cardEl(code, { button: true, label: cardName(code) + (order >= 0 ? `, selected ${order + 1}` : "") });
      el.dataset.key = `hand-${index}`;
      el.dataset.index = String(index);
      el.setAttribute("aria-pressed", order >= 0 ? "true" : "false");
      if (order >= 0) { el.classList.add("selected"); el.dataset.order = String(order + 1); }
      if (!selectable) el.setAttribute("aria-disabled", "true");
      el.addEventListener("click", () => this.toggle(index));
      return el;
    });
    return h("section", { class: "hand", "aria-labelledby": "hand-title" },
      h("h3", { id: "hand-title" }, `Your hand (${hand.length})`, selectable && this.sel.length
        ? h("button", { type: "button", class: "link", "data-key": "clear", onclick: () => { this.sel = []; this.groups = []; this.target = null; this.draw(); } }, "clear selection") : null),
      h("div", { class: "cards fan" }, cards));
  }

  /** @param {number} index */
  toggle(index) {
    const v = this.view;
    if (!v || v.seat === null || !v.to_move.includes(v.seat)) return;
    const at = this.sel.indexOf(index);
    if (at >= 0) this.sel.splice(at, 1); else this.sel.push(index);
    this.message = "";
    this.draw();
  }

  /** @param {Target} t */
  pick(t) {
    const same = this.target && JSON.stringify(this.target) === JSON.stringify(t);
    this.target = same ? null : t;
    this.message = "";
    this.draw();
  }

  /** @param {View} v */
  drawMoves(v) {
    if (v.status !== "active" || v.seat === null || !v.to_move.includes(v.seat)) return null;
    const sel = this.selected();
    const moves = /** @type {Record<string, unknown>[]} */ (v.legal_moves);
    /** @param {Record<string, unknown>} m */
    const hasSel = (m) => { const cs = moveCards(m); return sel.every((c) => { const i = cs.indexOf(c); if (i < 0) return false; cs.splice(i, 1); return true; }); };
    const plain = moves.filter((m) => !moveCards(m).length);
    const withCards = moves.filter((m) => moveCards(m).length);
    const matching = sel.length ? withCards.filter(hasSel) : withCards;
    const rest = sel.length ? withCards.filter((m) => !hasSel(m)) : [];
    const shown = matching.slice(0, SHOWN_MOVES);
    const more = [...matching.slice(SHOWN_MOVES), ...rest];
    /** @param {Record<string, unknown>} m */
    const button = (m) => {
      const note = this.ui.note ? this.ui.note(v, m) : null;
      const confirm = note && note.confirm;
      return h("button", { type: "button", class: "move" + (note ? ` ${note.tone}` : ""), "data-move": JSON.stringify(m),
        "data-key": `move-${JSON.stringify(m)}`, "data-outlook": note ? note.tone : undefined,
        onclick: () => (confirm ? this.ask(m, confirm) : this.send(m)) },
        moveText(m, this.seatName), note ? h("span", { class: "note" }, note.text) : null);
    };
    const asking = this.asking;
    const composed = this.ui.compose(v, sel, this.groups, this.target);
    const groupsOn = this.ui.groups && sel.length > 0;
    const canCompose = moves.some((m) => this.ui.composite.includes(String(m.type)));
    return h("section", { class: "moves", "aria-labelledby": "moves-title" },
      h("h3", { id: "moves-title" }, "Your move"),
      plain.length ? h("div", { class: "plain" }, plain.map(button)) : null,
      shown.length ? h("div", { class: "list" }, sel.length ? h("p", { class: "muted" }, "Moves with the selected cards:") : null, shown.map(button)) : null,
      more.length ? h("details", { class: "more" }, h("summary", null, `More moves (${more.length})`), h("div", { class: "list" }, more.map(button))) : null,
      asking ? h("div", { class: "confirm", role: "alertdialog", "aria-labelledby": "confirm-question", "data-confirm": JSON.stringify(asking.move) },
        h("p", { id: "confirm-question" }, asking.question),
        h("div", { class: "plain" },
          h("button", { type: "button", class: "danger", "data-action": "confirm", "data-key": "confirm",
            onclick: () => { this.asking = null; void this.send(asking.move); } }, asking.yes),
          h("button", { type: "button", "data-action": "cancel", "data-key": "cancel",
            onclick: () => { this.asking = null; this.draw(); } }, "Cancel"))) : null,
      canCompose && h("div", { class: "compose", "aria-labelledby": "compose-title" },
        h("h4", { id: "compose-title" }, "Compose a move"),
        h("p", { class: "muted" }, this.ui.hint),
        this.groups.length ? h("div", { class: "groups" }, this.groups.map((g, i) => h("span", { class: "group" },
          g.map((c) => cardEl(c, { small: true })),
          h("button", { type: "button", class: "link", "aria-label": `remove group ${i + 1}`, onclick: () => { this.groups.splice(i, 1); this.draw(); } }, "\u00d7")))) : null,
        this.target ? h("p", null, "Aiming at: ", h("b", null, this.target.label), " ",
          h("button", { type: "button", class: "link", onclick: () => { this.target = null; this.draw(); } }, "cancel")) : null,
        h("div", { class: "plain" },
          groupsOn ? h("button", { type: "button", "data-action": "group", "data-key": "group",
            onclick: () => { this.groups.push(this.selected()); this.sel = []; this.draw(); } }, "Make a meld of the selected") : null,
          composed.map((c) => h("button", { type: "button", class: "primary", "data-compose": c.move.type, "data-key": `compose-${c.label}`,
            onclick: () => this.checkAndSend(c.move) }, c.label))),
        h("p", { class: "message", role: "status", "data-message": true }, this.message)));
  }

  /** @param {View} v */
  drawSeatLinks(v) {
    const seats = this.storedSeats();
    if (!seats) return null;
    const others = seats.filter((s) => !s.bot && s.token && s.seat !== v.seat);
    if (!others.length) return null;
    return h("section", { class: "links panel", "aria-labelledby": "links-title" },
      h("h3", { id: "links-title" }, "Seats for people"),
      h("p", null, "Whoever has a link plays that seat: send each to its player only. The seat's key is in the part after #, which the browser never sends to the server."),
      h("ul", null, others.map((s) => {
        const href = `${location.origin}/play/#game=${encodeURIComponent(this.id)}&g=${encodeURIComponent(this.game)}&token=${encodeURIComponent(s.token || "")}`;
        return h("li", null, h("a", { href, "data-seat-link": s.seat, target: "_blank", rel: "noopener" }, `Link for ${this.seatName(s.seat)}`),
          " ", h("button", { type: "button", class: "link", onclick: () => { void navigator.clipboard?.writeText(href); this.message = "Link copied."; this.draw(); } }, "copy"));
      })));
  }

  drawHistory() {
    const list = document.getElementById("history");
    if (!list) return;
    const items = this.history.slice(-200).reverse().map((line) => h("li", null,
      h("span", { class: "muted" }, `#${line.version} `), h("span", { class: "who" }, line.who), " ", line.move,
      line.events.length ? h("ul", null, line.events.map((e) => h("li", null, e))) : null));
    replace(list, ...items);
  }

  /** Check a composed move, then send it when legal; a refusal is shown in words. @param {Record<string, unknown>} move */
  async checkAndSend(move) {
    if (!this.view || this.busy) return;
    try {
      await json(`${viewPath(this.game, this.id)}/moves/check`, { method: "POST", token: this.token,
        body: { version: this.view.version, move } });
    } catch (err) {
      this.message = `Not allowed: ${problemText(err)}`;
      this.draw();
      announce(this.message);
      return;
    }
    await this.send(move);
  }

  /**
   * A listed move the view says will go badly: show the question, with focus on "yes", before sending it.
   * @param {Record<string, unknown>} move @param {{question: string, yes: string}} confirm
   */
  ask(move, confirm) {
    if (!this.view || this.busy) return;
    this.asking = { move, ...confirm };
    this.draw();
    const yes = main.querySelector('[data-action="confirm"]');
    if (yes instanceof HTMLElement) yes.focus();
    announce(confirm.question);
  }

  /** @param {Record<string, unknown>} move */
  async send(move) {
    if (!this.view || this.busy) return;
    this.busy = true;
    main.setAttribute("aria-busy", "true");
    try {
      /** @type {View} */
      const view = await json(`${viewPath(this.game, this.id)}/moves`, { method: "POST", token: this.token,
        body: { version: this.view.version, move }, headers: { "Idempotency-Key": newKey() } });
      this.message = "";
      this.busy = false;
      this.setView(view, null);
      this.readLog().catch((err) => this.lost(err));
    } catch (err) {
      this.message = err instanceof ApiError && err.problem.code === "stale_version"
        ? "The table changed before your move arrived; look again." : `Refused: ${problemText(err)}`;
      await this.refresh().catch(() => undefined);
      this.draw();
      announce(this.message);
    } finally {
      this.busy = false;
      main.removeAttribute("aria-busy");
    }
  }
}

window.addEventListener("hashchange", () => { void route(); });
void route();
