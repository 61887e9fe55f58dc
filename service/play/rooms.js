// The rooms around the tables: "your games" (the seats this browser keeps, looked up in one request),
// the open games that people listed, the page that joins a game through an invite link, and the
// waiting room of a game whose seats are not all taken yet. Every name is a person's text and is
// drawn as text.

import { catalogue, gamePath, json, newKey, problemText, viewPath } from "./api.js";
import { focusHeading, h, replace } from "./dom.js";
import { forgetSeats, joinLink, keepSeat, keptSeats, seatHash, seatsLine } from "./people.js";

/** @typedef {import("./api.js").CatalogueEntry} CatalogueEntry */
/** @typedef {import("./types.js").View} View */
/** @typedef {import("./types.js").Lobby} Lobby */
/** @typedef {import("./types.js").LookupAnswer} LookupAnswer */
/** @typedef {import("./types.js").Joined} Joined */

/** @param {readonly CatalogueEntry[]} games @param {string} game */
const titleOf = (games, game) => (games.find((g) => g.game === game) || { title: game }).title;

/**
 * "Your games": the seats this browser keeps, with each game's standing; null when it keeps none.
 * Seats whose game is gone are forgotten.
 * @param {readonly CatalogueEntry[]} games @returns {Promise<HTMLElement | null>}
 */
export async function yourGamesEl(games) {
  const kept = keptSeats(localStorage);
  if (!kept.length) return null;
  /** @type {LookupAnswer} */
  const answer = await json("/v1/games/lookup", { method: "POST", body: { tokens: kept.map((k) => k.token) } });
  const found = kept.map((k, i) => ({ kept: k, item: answer.games[i] || null }));
  forgetSeats(localStorage, found.filter((f) => !f.item).map((f) => f.kept.token));
  const live = found.filter((f) => f.item);
  if (!live.length) return null;
  const words = { waiting: "waiting for players", active: "playing", finished: "over" };
  return h("section", { class: "panel yours", "aria-labelledby": "yours-title", "data-your-games": true },
    h("h2", { id: "yours-title" }, "Your games"),
    h("ul", null, live.map(({ kept: k, item }) => {
      const it = /** @type {NonNullable<typeof item>} */ (item);
      return h("li", { "data-your-game": it.game_id, "data-status": it.status },
        h("a", { href: seatHash(it.game, it.game_id, k.token) }, `${titleOf(games, it.game)}, seat ${it.seat + 1}`),
        " ", h("span", { class: "muted" }, words[it.status] || it.status),
        it.your_turn ? h("span", { class: "badge" }, "your turn") : null);
    })));
}

/** The open games of every game, newest first, each with a button that joins it. @param {HTMLElement} main */
export async function openGames(main) {
  document.title = "cardtable: open games";
  const games = await catalogue();
  const pages = await Promise.all(games.map((g) => /** @type {Promise<Lobby>} */ (
    json(`${gamePath(g.game)}?status=waiting&limit=20`))));
  const open = pages.flatMap((p) => p.games).sort((a, b) => String(b.created_at).localeCompare(String(a.created_at)));
  replace(main, h("section", { class: "panel open-games", "aria-labelledby": "open-title", "data-open-games": true },
    h("h2", { id: "open-title" }, "Open games"),
    h("p", null, "Games that wait for people and were listed by whoever started them. Join one with your name."),
    open.length ? h("ul", { class: "open" }, open.map((g) => h("li", { "data-open-game": g.game_id, "data-game": g.game },
      h("b", null, titleOf(games, g.game)), " ",
      h("span", { class: "muted" }, `${g.players} players \u00b7 ${seatsLine(g)}`), " ",
      h("a", { class: "button primary", href: `#join=${encodeURIComponent(g.game_id)}&g=${encodeURIComponent(g.game)}`,
        "data-action": "join-open" }, "Join"))))
      : h("p", { class: "muted", "data-no-open-games": true }, "No game is waiting for people right now."),
    h("p", { class: "actions" },
      h("button", { type: "button", "data-action": "refresh-open", onclick: () => { void openGames(main); } }, "Refresh"),
      " ", h("a", { href: "#" }, "Back to the lobby"))));
  focusHeading(main);
}

/**
 * Join a game through its invite link (or, for a listed game, without one): the table as it waits,
 * a name, and the seat's token kept by this browser once joined.
 * @param {HTMLElement} main @param {string} game @param {string} id @param {string | null} invite
 */
export async function joinPage(main, game, id, invite) {
  const title = titleOf(await catalogue(), game);
  document.title = `cardtable: join ${title}`;
  /** @type {View} */
  const view = await json(viewPath(game, id));
  const status = h("p", { class: "status", role: "status", "data-message": true });
  if (view.status !== "waiting") {
    replace(main, h("section", { class: "panel", "aria-labelledby": "join-title" },
      h("h2", { id: "join-title" }, `${title}: no seat to take`),
      h("p", null, view.status === "finished" ? "This game is over." : "This game has started without waiting for more people."),
      h("p", null, h("a", { href: seatHash(game, id, null) }, "Watch it"), " \u00b7 ", h("a", { href: "#" }, "Lobby"))));
    focusHeading(main);
    return;
  }
  const name = /** @type {HTMLInputElement} */ (h("input", { id: "join-name", name: "name", maxlength: 24, required: true,
    autocomplete: "nickname", value: localStorage.getItem("cardtable:name") || "" }));
  const form = /** @type {HTMLFormElement} */ (h("form", { class: "setup", novalidate: true },
    h("div", { class: "field" }, h("label", { for: "join-name" }, "Your name"), name,
      h("p", { class: "help" }, "Everyone at the table sees it (1\u201324 characters).")),
    h("p", { class: "actions" }, h("button", { type: "submit", class: "primary", "data-action": "join" }, "Take a seat"),
      " ", h("a", { href: "#" }, "Back")), status));
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    if (!name.value.trim()) { status.textContent = "Say your name first."; return; }
    status.textContent = "Taking a seat\u2026";
    try {
      /** @type {Joined} */
      const joined = await json(`${viewPath(game, id)}/join`, { method: "POST",
        body: invite ? { invite, name: name.value } : { name: name.value }, headers: { "Idempotency-Key": newKey() } });
      localStorage.setItem("cardtable:name", name.value.trim());
      keepSeat(localStorage, { game, id, token: joined.token });
      location.hash = seatHash(game, id, joined.token).slice(1);
    } catch (err) {
      status.textContent = problemText(err);
    }
  });
  replace(main, h("section", { class: "panel join", "aria-labelledby": "join-title", "data-join": id },
    h("h2", { id: "join-title" }, `Join a game of ${title}`),
    h("p", null, "At the table:"),
    h("ul", { class: "who-joined" }, view.seats.map((s) => h("li", { "data-kind": s.kind },
      h("span", { class: "who" }, s.name), " ", h("span", { class: "muted" }, s.kind === "open" ? "open seat"
        : s.kind === "bot" ? `bot, ${s.level}` : "person")))),
    form));
  name.focus();
}

/**
 * @typedef {{invite: string | null, start: (() => void) | null, abort: (() => void) | null, copy: (link: string) => void,
 *   game: string, id: string, busy: boolean}} WaitingRoom
 *   what the waiting room offers: the invite (null where this browser does not hold it), start and
 *   cancel (null for a viewer without a seat), copying the link
 */

/** The waiting room: who sat down, who is missing, the invite link, start and cancel. @param {View} v @param {WaitingRoom} room */
export function waitingEl(v, room) {
  const open = v.seats.filter((s) => s.kind === "open").length;
  const link = room.invite ? joinLink(location.origin, room.game, room.id, room.invite) : null;
  return h("section", { class: "panel waiting", "aria-labelledby": "waiting-title", "data-waiting": true },
    h("h3", { id: "waiting-title" }, `Waiting for ${open} more player${open === 1 ? "" : "s"}`),
    h("p", null, "The game starts as soon as every seat is taken. The ring above shows who is here (a green dot: at the table now)."),
    link ? h("div", { class: "invite", "data-invite": true },
      h("h4", null, "Invite a friend"),
      h("p", { class: "muted" }, "Whoever opens this link can take an open seat: send it only to those you invite. The invite is in the part after #, which the browser never sends to a server."),
      h("div", { class: "row" },
        h("input", { type: "text", readonly: true, value: link, "aria-label": "Invite link", "data-invite-link": true,
          onfocus: (/** @type {FocusEvent} */ e) => { const t = e.target; if (t instanceof HTMLInputElement) t.select(); } }),
        h("button", { type: "button", "data-action": "copy-invite", onclick: () => room.copy(link) }, "Copy link")))
      : v.seat === null ? h("p", null, h("a", { href: `#join=${encodeURIComponent(room.id)}&g=${encodeURIComponent(room.game)}` }, "Take a seat"),
        " (a listed game needs no invite)") : null,
    room.start || room.abort ? h("p", { class: "actions" },
      room.start ? h("button", { type: "button", class: "primary", "data-action": "start-now", disabled: room.busy, onclick: room.start },
        "Start now: bots take the open seats") : null, " ",
      room.abort ? h("button", { type: "button", class: "danger", "data-action": "abort", disabled: room.busy, onclick: room.abort },
        "Cancel the game") : null) : null);
}
