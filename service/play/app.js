// The web table's page: routes from the URL fragment, which browsers never send: #new=<game>,
// #rules=<game>, #game=<id>&g=<game>&token=<seat token> (the token is kept by this browser too:
// "your games"), #join=<id>&g=<game>[&invite=<invite>] (an invite link), #open (the open games),
// #watch=<id>&g=<game>[&at=<move>] (a finished game watched again), else the lobby.

import { catalogue } from "./api.js";
import { byId, h, replace } from "./dom.js";
import { lobby, rules, setup } from "./lobby.js";
import { keepSeat, keptToken } from "./people.js";
import { joinPage, openGames } from "./rooms.js";
import { TableController } from "./table.js";
import { WatchController } from "./watch.js";

const main = byId("main");

/** @type {TableController | WatchController | null} */
let table = null;

/** @param {string} hash @returns {URLSearchParams} */
const fragment = (hash) => new URLSearchParams(hash.replace(/^#/, ""));

async function route() {
  if (table) { table.stop(); table = null; }
  const params = fragment(location.hash);
  try {
    const id = params.get("game");
    const game = params.get("g");
    const newGame = params.get("new");
    const rulesOf = params.get("rules");
    const watched = params.get("watch");
    const joining = params.get("join");
    if (joining && game) {
      await joinPage(main, game, joining, params.get("invite"));
    } else if (params.has("open")) {
      await openGames(main);
    } else if (watched && game) {
      const info = (await catalogue()).find((g) => g.game === game);
      table = new WatchController({ main, game, id: watched, title: info ? info.title : game,
        step: Number.parseInt(params.get("at") || "0", 10) || 0 });
      await table.start();
    } else if (id && game) {
      let token = params.get("token");
      if (token) {
        sessionStorage.setItem(`cardtable:token:${id}`, token);
        keepSeat(localStorage, { game, id, token });
      } else {
        token = sessionStorage.getItem(`cardtable:token:${id}`) || keptToken(localStorage, id);
      }
      const info = (await catalogue()).find((g) => g.game === game);
      table = new TableController({ main, game, id, token, title: info ? info.title : game });
      await table.start();
    } else if (newGame) {
      await setup(main, newGame, params.get("seed"));
    } else if (rulesOf) {
      await rules(main, rulesOf);
    } else {
      await lobby(main);
    }
  } catch (err) {
    replace(main, h("section", { class: "panel error", role: "alert" }, h("h2", null, "Something went wrong"),
      h("p", null, err instanceof Error ? err.message : String(err)), h("p", null, h("a", { href: "#" }, "Back to the lobby"))));
  }
}

window.addEventListener("hashchange", () => { void route(); });
void route();
