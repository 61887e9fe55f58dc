"""After the player's own move the page draws the table once, from the move's answer (the new view
and its ETag), and never asks for the view again: the stream's entries for that move (and for the
bots' moves the answer already holds) only add to the history. Sten with two bots, in Chromium.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlsplit

from tests.web.test_browser import choose, moves_on_page, start_game, table_state, wait_ready, wait_version_change

#: Counts every table the page puts into <main> (each draw of the table builds a new one).
COUNT_DRAWS = """() => {
  window.tableDraws = 0;
  new MutationObserver((changes) => {
    for (const c of changes) {
      for (const n of c.addedNodes) if (n.dataset && 'table' in n.dataset) window.tableDraws += 1;
    }
  }).observe(document.getElementById('main'), { childList: true });
}"""

#: Until the history shows the entry of the table's version: the stream has brought the move's entries.
HISTORY_CAUGHT_UP = """() => {
  const t = document.querySelector('[data-table]');
  const newest = document.querySelector('#history > li > .muted');
  if (!t) return false;
  return newest ? newest.textContent.trim() === '#' + t.dataset.version : t.dataset.version === '0';
}"""


def test_an_own_move_is_drawn_once_from_its_answer_and_the_view_is_not_fetched(base_url: str, new_page: Any) -> None:
    page = new_page()
    requests: list[tuple[str, str]] = []
    streams: list[str] = []
    page.on("request", lambda r: requests.append((r.method, urlsplit(r.url).path)))
    page.on("response", lambda r: r.url.endswith("/events") and streams.append(r.headers.get("content-type", "")))
    start_game(page, base_url, "sten", 3, {})
    wait_ready(page)
    game_id = re.search(r"game=([^&]+)", page.url)[1]  # type: ignore[index]
    view_path = f"/v1/sten/games/{game_id}"
    page.wait_for_function(HISTORY_CAUGHT_UP)
    page.evaluate(COUNT_DRAWS)

    made = 0
    while made < 6 and table_state(page)["status"] == "active":
        before = len(requests)
        page.evaluate("() => { window.tableDraws = 0; }")
        old = table_state(page)["version"]
        page.locator("[data-move]").nth(choose(moves_on_page(page))).click()
        wait_version_change(page, old)
        page.wait_for_function(HISTORY_CAUGHT_UP)
        page.wait_for_timeout(300)  # room for a stray fetch or draw to show
        during = requests[before:]
        assert during.count(("POST", f"{view_path}/moves")) == 1, during
        assert ("GET", view_path) not in during, f"the view was fetched after the page's own move: {during}"
        assert page.evaluate("window.tableDraws") == 1, "the table is drawn once per own move"
        assert int(table_state(page)["version"]) > int(old) + 1, "the answer holds the bots' moves too"
        made += 1
        if table_state(page)["status"] == "active":
            wait_ready(page)
    assert made >= 3
    assert streams and streams[0].startswith("text/event-stream"), "live updates came from the event stream"
