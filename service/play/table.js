// One seat's table: the view and the log from the server, kept up to date live, the selected cards
// and the composer, and the moves sent. A move's answer is the new view with its ETag and the log
// entries the move wrote, so the page never fetches the view or the log for its own move; it fetches
// the view only when the log tells of a move its view does not hold. Drawing is the panels'
// (panels.js) and the game's board (board.js); the ring of seats is drawn from the view's `seats`,
// the same for every game (status.js).

import { ApiError, json, newKey, problemText, raw, tagged, viewPath } from "./api.js";
import { boardEl } from "./board.js";
import { sortedHand } from "./cards.js";
import { clockOf, remainingAt, timeBase } from "./clocks.js";
import { announce, h, replace } from "./dom.js";
import { gameOf } from "./games.js";
import { entryLines, newEntries } from "./history.js";
import { live } from "./live.js";
import { arrangeMoves } from "./moves.js";
import { handEl, historyItems, movesEl, paintClock, resignEl, resultEl, seatLinksEl, seatsEl, summaryEl } from "./panels.js";
import { keepSeat, seatHash } from "./people.js";
import { waitingEl } from "./rooms.js";
import { canResign, myTurn, outcome, seatName, seatRows, turnAnnouncement, turnKey, turnText } from "./status.js";
import { compareViews, viewBehind } from "./sync.js";

/** @typedef {import("./types.js").View} View */
/** @typedef {import("./types.js").LogEntry} LogEntry */
/** @typedef {import("./types.js").Created} Created */
/** @typedef {import("./parts.js").Target} Target */
/** @typedef {import("./history.js").HistoryLine} HistoryLine */
/** @typedef {Record<string, unknown>} Move */

/** Pages of the log read at most in one go (each up to the server's page size). */
const LOG_PAGES = 50;
/** How often the view is revalidated beside the stream: who is at the table (ms). */
const REVALIDATE_MS = 10_000;
/** How often a running clock is repainted (ms): tenths show under 10 s. */
const TICK_MS = 100;
/** After a clock ran out, how long the page waits for the server's timeout before it asks for the view (ms). */
const DEADLINE_GRACE_MS = 1_500;

export class TableController {
  /**
   * @param {{main: HTMLElement, game: string, id: string, token: string | null, title: string}} where
   *   the page's main element, the game's id, the table's id, the seat's token and the game's title
   */
  constructor({ main, game, id, token, title }) {
    this.main = main;
    this.gameId = game;
    this.id = id;
    this.token = token;
    this.title = title;
    this.game = gameOf(game);
    this.path = viewPath(game, id);
    /** @type {View | null} */
    this.view = null;
    /** @type {string | null} the shown view's ETag */
    this.etag = null;
    /** @type {number[]} indices into the view's hand, in the order selected */
    this.sel = [];
    /** @type {string[][]} */
    this.groups = [];
    /** @type {Target | null} */
    this.target = null;
    /** @type {{move: Move, question: string, yes: string} | null} a listed move waiting for "yes" */
    this.asking = null;
    /** the version of the last log entry in the history */
    this.logVersion = 0;
    /** @type {HistoryLine[]} */
    this.history = [];
    this.message = "";
    /** @type {string | null} the summary the player closed */
    this.dismissed = null;
    this.lastTurn = "";
    /** a move is on its way: what the log tells meanwhile waits for its answer */
    this.sending = false;
    /** the server has no stream: the page polls the view and reads the log itself */
    this.polling = false;
    /** @type {Promise<void> | null} the view's fetch under way */
    this.fetching = null;
    this.fetchAgain = false;
    /** @type {import("./clocks.js").TimeBase} the shown view's server time and the browser's offset from it */
    this.base = { serverMs: Date.now(), offsetMs: 0 };
    /** @type {ReturnType<typeof setTimeout> | null} the next repaint of the running clocks */
    this.ticker = null;
    /** @type {ReturnType<typeof setTimeout> | null} the view asked for once after the shown view's running clock ran out */
    this.atZero = null;
    this.askedAtZero = false;
    /** the resign button was pressed: the question waits for an answer */
    this.resigning = false;
    this.abort = new AbortController();
    /** @type {import("./panels.js").MovesActions} */
    this.actions = {
      send: (m) => { void this.send(m); },
      ask: (m, confirm) => this.ask(m, confirm),
      confirm: () => { const a = this.asking; this.asking = null; if (a) void this.send(a.move); },
      cancel: () => { this.asking = null; this.draw(); },
      group: () => { this.groups.push(this.selected()); this.sel = []; this.draw(); },
      ungroup: (i) => { this.groups.splice(i, 1); this.draw(); },
      unaim: () => { this.target = null; this.draw(); },
      sendComposed: (m) => { void this.checkAndSend(m); },
    };
  }

  stop() {
    this.abort.abort();
    if (this.ticker !== null) { clearTimeout(this.ticker); this.ticker = null; }
    if (this.atZero !== null) { clearTimeout(this.atZero); this.atZero = null; }
  }

  async start() {
    await this.fetchView();
    await this.readLog();
    this.catchUp();
    void live({
      game: this.gameId, id: this.id, token: this.token, signal: this.abort.signal,
      logVersion: () => this.logVersion,
      etag: () => this.etag,
      onEntries: (entries) => { this.addEntries(entries); if (!this.sending) this.catchUp(); },
      onView: (view, etag) => { this.setView(view, etag); this.readLog().catch((err) => this.lost(err)); },
      onPolling: () => { this.polling = true; this.readLog().catch((err) => this.lost(err)); },
    });
    void this.revalidate();
  }

  /** Who is at the table changes no version, so the stream does not tell it: ask for the view now and
   * then (a 304 while nothing changed), also after the game ended (a rematch may come). */
  async revalidate() {
    while (!this.abort.signal.aborted) {
      await new Promise((resolve) => { const t = setTimeout(resolve, REVALIDATE_MS);
        this.abort.signal.addEventListener("abort", () => { clearTimeout(t); resolve(undefined); }, { once: true }); });
      if (this.abort.signal.aborted || this.polling || document.hidden) continue;
      await this.refresh().catch(() => undefined);
    }
  }

  /** A background request failed (the game expired, the server went away): say so, keep the table. @param {unknown} err */
  lost(err) {
    if (this.abort.signal.aborted) return;
    this.message = `Could not update the table: ${problemText(err)}`;
    this.draw();
  }

  /** @param {number | null | undefined} seat */
  seatName = (seat) => seatName(seat, this.view ? this.view.seat : null, this.view ? this.view.seats || [] : []);

  /** The seats as the game's creation answered them, kept by this browser tab. @returns {Created["seats"] | null} */
  storedSeats() {
    try { return JSON.parse(sessionStorage.getItem(`cardtable:seats:${this.id}`) || "null"); } catch { return null; }
  }

  // --- the server's view and log ------------------------------------------------------------------

  /** Fetch the view when the log holds a move it does not (another seat's, or a bot's after it). */
  catchUp() {
    if (viewBehind(this.logVersion, this.view)) this.refresh().catch((err) => this.lost(err));
  }

  /** Fetch the view once at a time: a call while a fetch is under way asks for one more after it. */
  refresh() {
    if (this.fetching) { this.fetchAgain = true; return this.fetching; }
    this.fetching = (async () => {
      try {
        do { this.fetchAgain = false; await this.fetchView(); } while (this.fetchAgain && !this.abort.signal.aborted);
      } finally { this.fetching = null; }
    })();
    return this.fetching;
  }

  async fetchView() {
    const res = await raw(this.path, { token: this.token, signal: this.abort.signal,
      headers: this.etag ? { "If-None-Match": this.etag } : {} });
    if (res.status === 304) return;
    const body = await res.json();
    if (!res.ok) throw new ApiError(res.status, body);
    this.setView(body, res.headers.get("ETag"));
  }

  async readLog() {
    let since = this.logVersion;
    for (let page = 0; page < LOG_PAGES; page++) {
      /** @type {{entries: LogEntry[], next_since: number | null}} */
      const log = await json(`${this.path}/log?since=${since}`, { token: this.token, signal: this.abort.signal });
      this.addEntries(log.entries);
      if (log.next_since === null || log.next_since === undefined) break;
      since = log.next_since;
    }
  }

  /** @param {LogEntry[]} entries */
  addEntries(entries) {
    const fresh = newEntries(entries, this.logVersion);
    if (!fresh.length) return;
    this.logVersion = fresh[fresh.length - 1].version;
    const seats = this.view ? this.view.seats || [] : [];
    this.history.push(...fresh.map((e) => entryLines(e, this.seatName, this.game, seats)));
    this.drawHistory();
  }

  /** Show a view that arrived, unless the one shown is as new. @param {View} view @param {string | null} etag */
  setView(view, etag) {
    const order = compareViews(this.view, view, this.etag, etag);
    if (order === "older") return;
    if (order === "same") { this.etag = etag || this.etag; return; }
    if (this.view) { this.sel = []; this.groups = []; this.target = null; this.asking = null; }
    this.view = view;
    this.etag = etag;
    // the offset between the server's clock and the browser's, measured once per view as it arrives
    this.base = timeBase(view.server_time, Date.now());
    this.askedAtZero = false;
    if (this.atZero !== null) { clearTimeout(this.atZero); this.atZero = null; }
    if (view.status !== "active") this.resigning = false;
    const turn = turnKey(view);
    if (turn !== this.lastTurn) {
      this.lastTurn = turn;
      announce(turnAnnouncement(view, this.seatName));
    }
    this.draw();
  }

  // --- the player's hands on the table --------------------------------------------------------------

  /** The selected cards' codes, in selection order. */
  selected() {
    const hand = (this.view && this.view.state.hand) || [];
    return this.sel.map((i) => hand[i]).filter((c) => c !== undefined);
  }

  /** @param {number} index */
  toggle(index) {
    if (!this.view || !myTurn(this.view)) return;
    const at = this.sel.indexOf(index);
    if (at >= 0) this.sel.splice(at, 1); else this.sel.push(index);
    this.message = "";
    this.draw();
  }

  /** @param {Target} t */
  pick(t) {
    this.target = this.target && this.target.key === t.key ? null : t;
    this.message = "";
    this.draw();
  }

  /** Check a composed move, then send it when legal; a refusal is shown in words. @param {Move} move */
  async checkAndSend(move) {
    if (!this.view || this.sending) return;
    try {
      await json(`${this.path}/moves/check`, { method: "POST", token: this.token, body: { version: this.view.version, move } });
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
   * @param {Move} move @param {{question: string, yes: string}} confirm
   */
  ask(move, confirm) {
    if (!this.view || this.sending) return;
    this.asking = { move, ...confirm };
    this.draw();
    const yes = this.main.querySelector('[data-action="confirm"]');
    if (yes instanceof HTMLElement) yes.focus();
    announce(confirm.question);
  }

  /** Send a move; its answer is the new view. @param {Move} move */
  async send(move) {
    if (!this.view || this.sending) return;
    this.sending = true;
    this.main.setAttribute("aria-busy", "true");
    try {
      /** @type {{body: View & {entries?: LogEntry[]}, etag: string | null}} */
      const answer = await tagged(`${this.path}/moves`, { method: "POST", token: this.token,
        body: { version: this.view.version, move }, headers: { "Idempotency-Key": newKey() } });
      this.message = "";
      this.setView(answer.body, answer.etag);
      // The answer holds the log entries the move wrote (the move, then the bots'): they go to the
      // history at once when they follow the history's last entry; else the stream brings them
      // (the history is behind), or, without a stream, the page reads the log.
      const entries = answer.body.entries || [];
      if (entries.length && entries[0].version === this.logVersion + 1) this.addEntries(entries);
      else if (this.polling) this.readLog().catch((err) => this.lost(err));
    } catch (err) {
      const code = err instanceof ApiError ? err.problem.code : null;
      this.message = code === "stale_version" ? "The table changed before your move arrived; look again."
        : code === "deadline_passed" ? "Your time ran out before the move arrived: the turn went on without it."
        : code === "seat_replaced" ? "A bot plays your seat now: your moves no longer count."
        : `Refused: ${problemText(err)}`;
      await this.refresh().catch(() => undefined);
      this.draw();
      announce(this.message);
    } finally {
      this.sending = false;
      this.main.removeAttribute("aria-busy");
      this.catchUp();
    }
  }

  // --- drawing ------------------------------------------------------------------------------------

  draw() {
    const v = this.view;
    if (!v) return;
    const focusKey = document.activeElement instanceof HTMLElement ? document.activeElement.dataset.key : undefined;
    const name = this.seatName;
    const turn = myTurn(v);
    document.title = `cardtable: ${this.title}${turn ? " \u2014 your turn" : ""}`;
    const aim = { target: this.target, pick: turn ? (/** @type {Target} */ t) => this.pick(t) : null };
    const summary = this.game.summary(v, name);
    const result = outcome(v, name);
    const moves = turn ? this.movesPanel(v) : null;
    // a waiting game's cards are not in play yet, a game called off never had them in play
    const unplayed = v.status === "waiting" || Boolean(v.result && v.result.termination === "aborted");
    const root = h("section", { class: "table", "data-table": true, "data-version": v.version, "data-status": v.status,
      "data-seat": v.seat === null ? "" : v.seat, "data-game": this.gameId, "aria-label": `${this.title} table` },
      h("header", { class: "tablehead" },
        h("h2", null, this.title, v.provisional ? h("span", { class: "badge warn" }, "provisional") : null),
        h("p", { class: "turn" }, turnText(v, name)),
        !moves && this.message ? h("p", { class: "message", role: "status", "data-message": true }, this.message) : null,
        h("p", { class: "links" }, h("a", { href: `#rules=${encodeURIComponent(this.gameId)}`, target: "_blank" }, "Rules"),
          " \u00b7 ", h("a", { href: "#" }, "Lobby"), " \u00b7 ", h("span", { class: "muted" }, `move ${v.version}`))),
      seatsEl(seatRows(v, (seat) => this.game.seatNote(v, seat), name), (c) => remainingAt(c, this.base, Date.now())),
      canResign(v, Boolean(this.token)) ? resignEl({ asking: this.resigning, players: v.players, busy: this.sending }, {
        ask: () => { this.resigning = true; this.draw(); this.focus("resign-confirm"); },
        confirm: () => { this.resigning = false; void this.tableAction("resign"); },
        cancel: () => { this.resigning = false; this.draw(); this.focus("resign"); },
      }) : null,
      summary && summary.key !== this.dismissed
        ? summaryEl(summary, v.status === "active" ? () => { this.dismissed = summary.key; this.draw(); } : null) : null,
      result ? resultEl(result, this.gameId, v.result && v.result.termination === "aborted" ? null
        : `#watch=${encodeURIComponent(this.id)}&g=${encodeURIComponent(this.gameId)}`, this.rematchOffer(v)) : null,
      v.status === "waiting" ? this.waitingRoom(v) : null,
      unplayed ? null : boardEl(this.game.table(v, { name, aim: turn }), aim),
      unplayed ? null : this.handPanel(v, turn),
      moves,
      this.seatLinks(v),
      h("section", { class: "history", "aria-labelledby": "history-title" }, h("h3", { id: "history-title" }, "History"),
        h("ul", { id: "history", "aria-live": "off" })));
    replace(this.main, root);
    this.drawHistory();
    this.tick();
    if (focusKey) {
      const again = this.main.querySelector(`[data-key="${CSS.escape(focusKey)}"]`);
      if (again instanceof HTMLElement) again.focus({ preventScroll: true });
    }
  }

  /** Put the focus on the control with this `data-key`. @param {string} key */
  focus(key) {
    const el = this.main.querySelector(`[data-key="${CSS.escape(key)}"]`);
    if (el instanceof HTMLElement) el.focus();
  }

  /**
   * Repaint the running clocks from the shown view's time base, every TICK_MS while one runs and has
   * time left; once one ran out, ask for the view once (the server's timeout is due) if no stream
   * brought it meanwhile.
   */
  tick() {
    if (this.ticker !== null) { clearTimeout(this.ticker); this.ticker = null; }
    const v = this.view;
    if (!v || this.abort.signal.aborted) return;
    let running = false;
    let ranOut = false;
    for (const el of this.main.querySelectorAll("[data-clock-seat]")) {
      if (!(el instanceof HTMLElement)) continue;
      const seat = (v.seats || []).find((s) => String(s.seat) === el.dataset.clockSeat);
      const clock = seat ? clockOf(seat.clock) : null;
      if (!clock) continue;
      const ms = remainingAt(clock, this.base, Date.now());
      paintClock(el, clock, ms);
      if (clock.running && ms > 0) running = true;
      if (clock.running && ms <= 0) ranOut = true;
    }
    if (running) this.ticker = setTimeout(() => this.tick(), TICK_MS);
    else if (ranOut && !this.askedAtZero && v.status === "active") {
      this.askedAtZero = true;
      this.atZero = setTimeout(() => { this.atZero = null; this.refresh().catch(() => undefined); }, DEADLINE_GRACE_MS);
    }
  }

  drawHistory() {
    const list = document.getElementById("history");
    if (list) replace(list, ...historyItems(this.history));
  }

  // --- the people at the table -----------------------------------------------------------------------

  /** The waiting room of a game whose open seats wait for people. @param {View} v */
  waitingRoom(v) {
    const seated = v.seat !== null && Boolean(this.token);
    return waitingEl(v, {
      invite: localStorage.getItem(`cardtable:invite:${this.id}`), game: this.gameId, id: this.id, busy: this.sending,
      start: seated ? () => { void this.tableAction("start"); } : null,
      abort: seated ? () => { void this.tableAction("abort"); } : null,
      copy: (link) => { void navigator.clipboard?.writeText(link).catch(() => undefined); this.message = "Invite link copied."; this.draw(); },
    });
  }

  /**
   * Start the waiting game now, call it off, or resign from the game that runs; the answer is the new
   * view and the log entries the action wrote. @param {"start" | "abort" | "resign"} action
   */
  async tableAction(action) {
    if (!this.view || this.sending) return;
    this.sending = true;
    this.draw();
    try {
      /** @type {{body: View & {entries?: LogEntry[]}, etag: string | null}} */
      const answer = await tagged(`${this.path}/${action}`, { method: "POST", token: this.token });
      this.message = action === "start" ? "The game started." : action === "resign" ? "You resigned." : "The game was called off.";
      this.setView(answer.body, answer.etag);
      const entries = answer.body.entries || [];
      if (entries.length && entries[0].version === this.logVersion + 1) this.addEntries(entries);
    } catch (err) {
      this.message = problemText(err);
      await this.refresh().catch(() => undefined);
    } finally {
      this.sending = false;
      this.draw();
      announce(this.message);
      this.catchUp();
    }
  }

  /**
   * What the result offers the viewer: a rematch (a seat of a played game: create or join the next
   * game), or, for a spectator, the next game once there is one.
   * @param {View} v @returns {import("./panels.js").Rematch | null}
   */
  rematchOffer(v) {
    if (v.result && v.result.termination === "aborted") return null;
    const next = v.next_game_id || null;
    if (v.seat !== null && this.token) {
      return { label: next ? "Join the rematch" : "Rematch", go: () => { void this.rematch(); }, href: null };
    }
    return next ? { label: "Watch the rematch", go: null, href: seatHash(this.gameId, next, null) } : null;
  }

  /** Ask for the next game of this finished one and sit down in it. */
  async rematch() {
    if (this.sending) return;
    this.sending = true;
    try {
      /** @type {import("./types.js").Rematched} */
      const next = await json(`${this.path}/rematch`, { method: "POST", token: this.token });
      keepSeat(localStorage, { game: this.gameId, id: next.game_id, token: next.token });
      location.hash = seatHash(this.gameId, next.game_id, next.token).slice(1);
    } catch (err) {
      this.message = `No rematch: ${problemText(err)}`;
      this.draw();
      announce(this.message);
    } finally {
      this.sending = false;
    }
  }

  /** @param {View} v @param {boolean} turn */
  handPanel(v, turn) {
    const hand = v.state.hand;
    if (!hand) return h("p", { class: "muted" }, "You are watching: no seat token in this page's link.");
    return handEl(sortedHand(hand), this.sel, turn, (i) => this.toggle(i), () => { this.sel = []; this.groups = []; this.target = null; this.draw(); });
  }

  /** @param {View} v */
  movesPanel(v) {
    const selected = this.selected();
    const moves = /** @type {Move[]} */ (v.legal_moves);
    const composes = moves.some((m) => this.game.composite.includes(String(m.type)));
    return movesEl({
      arranged: arrangeMoves(moves, selected),
      label: (m) => this.game.moveText(m, this.seatName),
      note: (m) => this.game.note(v, m),
      selecting: selected.length > 0,
      asking: this.asking,
      composer: composes ? { hint: this.game.hint, groups: this.groups, target: this.target,
        canGroup: this.game.groups && selected.length > 0, composed: this.game.compose(v, selected, this.groups, this.target) } : null,
      message: this.message,
    }, this.actions);
  }

  /** @param {View} v */
  seatLinks(v) {
    const others = (this.storedSeats() || []).filter((s) => !s.bot && s.token && s.seat !== v.seat);
    if (!others.length) return null;
    const base = `${location.origin}/play/#game=${encodeURIComponent(this.id)}&g=${encodeURIComponent(this.gameId)}`;
    return seatLinksEl(others.map((s) => ({ name: this.seatName(s.seat), seat: s.seat, href: `${base}&token=${encodeURIComponent(s.token || "")}` })),
      (href) => { void navigator.clipboard?.writeText(href); this.message = "Link copied."; this.draw(); });
  }
}
