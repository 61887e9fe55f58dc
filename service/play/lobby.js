// The lobby (every game of the catalogue, and the games this browser holds seats in), the setup of a
// new game (your name, players, seats: bots, people, friends invited by a link; house rules) and a
// game's rules page.

import { catalogue, gamePath, json, newKey, problemText, raw } from "./api.js";
import { clockRequest } from "./clocks.js";
import { focusHeading, h, replace } from "./dom.js";
import { renderMarkdown } from "./markdown.js";
import { changedOptions, optionHelp, optionLabel } from "./options.js";
import { keepSeat, seatHash, seatsOf } from "./people.js";
import { yourGamesEl } from "./rooms.js";

/** @typedef {import("./types.js").OptionInfo} OptionInfo */
/** @typedef {import("./types.js").Created} Created */

/** The lobby: a card per game, with its player range and a button that sets up a new game. @param {HTMLElement} main */
export async function lobby(main) {
  document.title = "cardtable: choose a game";
  const games = await catalogue();
  const yours = h("div", { "data-your-games-slot": true });
  replace(main, yours, h("section", { class: "lobby", "aria-labelledby": "lobby-title" },
    h("h2", { id: "lobby-title" }, "Choose a game"),
    h("p", null, "Or ", h("a", { href: "#open", "data-action": "open-games" }, "join an open game"),
      " that someone listed."),
    h("ul", { class: "games" }, games.map((g) => h("li", { class: "game" },
      h("h3", null, g.title, g.provisional ? h("span", { class: "badge warn", title: "Some rules are a reconstruction (see the rules)" }, "provisional") : null),
      h("p", null, g.min_players === g.max_players ? `${g.min_players} players` : `${g.min_players}\u2013${g.max_players} players`),
      h("p", { class: "actions" },
        h("button", { type: "button", class: "primary", "data-action": "new-game", "data-game": g.game,
          onclick: () => { location.hash = `new=${encodeURIComponent(g.game)}`; } }, "New game"),
        " ", h("a", { href: `#rules=${encodeURIComponent(g.game)}` }, "Rules")))))));
  focusHeading(main);
  const drawn = await yourGamesEl(games);
  if (drawn) replace(yours, drawn);
}

/** @param {OptionInfo} o */
function optionField(o) {
  const id = `opt-${o.name}`;
  const label = optionLabel(o);
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
  return h("div", { class: "field" + (o.type === "boolean" ? " check" : "") },
    o.type === "boolean" ? [input, h("label", { for: id }, label)] : [h("label", { for: id }, label), input],
    o.provisional ? h("span", { class: "badge warn" }, "provisional") : null,
    h("p", { class: "help", id: `${id}-d` }, optionHelp(o)));
}

/**
 * The setup form's clock: none, a time per move, or a bank with an increment (Fischer), and what a
 * timeout does; the fields of the kinds not chosen are hidden.
 */
function clockFields() {
  const kind = /** @type {HTMLSelectElement} */ (h("select", { id: "clock", name: "clock" },
    h("option", { value: "none", selected: true }, "no clock"),
    h("option", { value: "per_move" }, "a time per move"),
    h("option", { value: "fischer" }, "a bank of minutes, plus seconds a move (Fischer)")));
  /** @param {string} id @param {string} label @param {number} value @param {number} min @param {number} max @param {string} help */
  const number = (id, label, value, min, max, help) => h("div", { class: "field", "data-clock-field": id },
    h("label", { for: id }, label),
    h("input", { type: "number", id, name: id, value: String(value), min, max, step: 1, "aria-describedby": `${id}-d` }),
    h("p", { class: "help", id: `${id}-d` }, help));
  const perMove = number("clock-seconds", "Seconds per move", 60, 1, 259_200, "Each turn must end within this time (at most 3 days).");
  const bank = h("div", null,
    number("clock-minutes", "Minutes in the bank", 5, 1, 1_440, "Each person's time for the whole game; it runs while that person is to move."),
    number("clock-increment", "Seconds added per move", 3, 0, 3_600, "Added to the bank after each move."));
  const policy = h("div", null,
    h("div", { class: "field", "data-clock-field": "on-timeout" }, h("label", { for: "on-timeout" }, "When time runs out"),
      h("select", { id: "on-timeout", name: "on-timeout" },
        h("option", { value: "bot", selected: true }, "a bot makes the move, and the game goes on"),
        h("option", { value: "forfeit" }, "the seat forfeits (a bot plays it on for the others)"))),
    number("max-timeouts", "Timeouts in a row before a bot takes the seat over", 3, 1, 100,
      "With “a bot makes the move”: after this many timeouts in a row the seat is a bot's for the rest of the game."));
  const show = () => {
    perMove.hidden = kind.value !== "per_move";
    bank.hidden = kind.value !== "fischer";
    policy.hidden = kind.value === "none";
  };
  kind.addEventListener("change", show);
  show();
  return h("fieldset", { class: "clock-setup" }, h("legend", null, "Clock"),
    h("div", { class: "field" }, h("label", { for: "clock" }, "Play on time"), kind), perMove, bank, policy);
}

/** The `clock` of the create request from the setup form; null without one. @param {HTMLFormElement} form */
function clockOfForm(form) {
  /** @param {string} name */
  const value = (name) => {
    const el = form.elements.namedItem(name);
    return el instanceof HTMLInputElement || el instanceof HTMLSelectElement ? el.value : "";
  };
  return clockRequest({ kind: value("clock"), seconds: Number(value("clock-seconds")), minutes: Number(value("clock-minutes")),
    increment: Number(value("clock-increment")), onTimeout: value("on-timeout"), maxTimeouts: Number(value("max-timeouts")) });
}

/** The form's values of the options, by name. @param {HTMLFormElement} form @param {OptionInfo[]} options */
function formValues(form, options) {
  /** @type {Record<string, string | boolean>} */
  const out = {};
  for (const o of options) {
    const el = form.elements.namedItem(o.name);
    if (el instanceof HTMLInputElement && o.type === "boolean") out[o.name] = el.checked;
    else if (el instanceof HTMLInputElement || el instanceof HTMLSelectElement) out[o.name] = el.value;
  }
  return out;
}

/** The setup form of a new game. @param {HTMLElement} main @param {string} gameId @param {string | null} seed */
export async function setup(main, gameId, seed) {
  const games = await catalogue();
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
            h("option", { value: "open", selected: kind === "open" }, "a friend (invite link)"),
            h("option", { value: "human", selected: kind === "human" }, "a person (gets a seat link)")),
          levels.length ? h("select", { name: `level-${seat}`, "aria-label": `Player ${seat + 1} bot level`, disabled: kind !== "bot" },
            levels.map((l) => h("option", { value: l, selected: (old.get(`level-${seat}`) || g.default_bot_level) === l }, `${l} bot`))) : null);
      }));
  };
  players.addEventListener("input", drawSeats);
  // a person needs no bot level: its select is off while the seat is a person's
  seats.addEventListener("change", (ev) => {
    const el = ev.target;
    if (!(el instanceof HTMLSelectElement) || !el.name.startsWith("seat-")) return;
    const level = seats.querySelector(`select[name="level-${el.name.slice(5)}"]`);
    if (level instanceof HTMLSelectElement) level.disabled = el.value !== "bot";
  });
  drawSeats();
  const myName = /** @type {HTMLInputElement} */ (h("input", { id: "name", name: "name", maxlength: 24,
    autocomplete: "nickname", value: localStorage.getItem("cardtable:name") || "", placeholder: "Player 1" }));
  const form = /** @type {HTMLFormElement} */ (h("form", { class: "setup", novalidate: true },
    h("div", { class: "field" }, h("label", { for: "name" }, "Your name"), myName,
      h("p", { class: "help" }, "Everyone at the table sees it (1\u201324 characters).")),
    h("div", { class: "field" }, h("label", { for: "players" }, `Players (${g.min_players}\u2013${g.max_players})`), players),
    h("fieldset", null, h("legend", null, "Seats"), seats),
    h("div", { class: "field check" }, h("input", { type: "checkbox", id: "listed", name: "listed" }),
      h("label", { for: "listed" }, "List it under open games, so that anyone may take a friend's seat")),
    clockFields(),
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
    const seatList = seatsOf(n, myName.value, (seat) => {
      const kind = /** @type {HTMLSelectElement | null} */ (form.elements.namedItem(`seat-${seat}`));
      const level = /** @type {HTMLSelectElement | null} */ (form.elements.namedItem(`level-${seat}`));
      return { kind: kind ? kind.value : "bot", level: level ? level.value : null };
    });
    const listed = /** @type {HTMLInputElement} */ (form.elements.namedItem("listed")).checked;
    /** @type {Record<string, unknown>} */
    const body = { players: n, seats: seatList, listed, options: changedOptions(g.options, formValues(form, g.options)) };
    const clock = clockOfForm(form);
    if (clock) body.clock = clock;
    if (myName.value.trim()) localStorage.setItem("cardtable:name", myName.value.trim());
    const seedValue = /** @type {HTMLInputElement} */ (form.elements.namedItem("seed")).value.trim();
    if (seedValue) body.seed = seedValue;
    status.textContent = "Dealing\u2026";
    try {
      /** @type {Created} */
      const created = await json(gamePath(g.game), { method: "POST", body, headers: { "Idempotency-Key": newKey() } });
      sessionStorage.setItem(`cardtable:seats:${created.game_id}`, JSON.stringify(created.seats));
      if (created.invite) localStorage.setItem(`cardtable:invite:${created.game_id}`, created.invite);
      const mine = created.seats[0];
      if (mine.token) keepSeat(localStorage, { game: g.game, id: created.game_id, token: mine.token });
      location.hash = seatHash(g.game, created.game_id, mine.token).slice(1);
    } catch (err) {
      status.textContent = problemText(err);
    }
  });
  replace(main, h("section", { class: "panel", "aria-labelledby": "setup-title" },
    h("h2", { id: "setup-title" }, `New game of ${g.title}`, g.provisional ? h("span", { class: "badge warn" }, "provisional") : null),
    h("p", null, h("a", { href: `#rules=${encodeURIComponent(g.game)}` }, "Read the rules")), form));
  focusHeading(main);
}

/** A game's rules page, from its seed file. @param {HTMLElement} main @param {string} gameId */
export async function rules(main, gameId) {
  const res = await raw(`/play/rules/${encodeURIComponent(gameId)}.md`, { headers: { Accept: "text/markdown" } });
  const text = res.ok ? await res.text() : `The rules of ${gameId} are not installed with this server.`;
  const article = h("article", { class: "panel rules" });
  article.innerHTML = renderMarkdown(text);
  replace(main, h("p", null, h("a", { href: "#" }, "\u2190 Lobby")), article);
  document.title = `cardtable: rules of ${gameId}`;
  focusHeading(main);
}
