"""The web table in Chromium, driven like a person would: from the lobby to each game's end by
clicking, composed moves built by selecting cards, two pages of one game updating each other live,
/docs from the local Swagger UI. Only the stable testing contract of the issue is used: lobby
buttons, `[data-action="start"]`, `select[name="seat-<n>"]`, `[data-table]` and its data
attributes, `[data-move]`, `[data-result]`, `[data-seat-link]` (plus `[data-compose]` and
`[data-action="group"]` of the composer).
"""

from __future__ import annotations

import json
import re
import urllib.request
from collections import Counter
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest

from tests.web.conftest import shot

#: (game, players, options set in the setup form, most of the player's own moves before stopping, seed):
#: the games that fit play to their end, the long matches 30 moves. A Siebenschläfer round against
#: greedy bots can run for hundreds of turns (pass, draw, reshuffle): the seed picks one of 47 turns.
GAMES = [
    ("sten", 3, {}, 200, "web"),
    ("siebenschlaefer", 3, {}, 200, "web1"),
    ("keine-lahme-agame", 3, {"sections_per_game": "1"}, 200, "web"),
    ("conquian", 2, {}, 30, "web"),
    ("kanaster", 2, {}, 30, "web"),
]
SEED = "web"


def table_state(page: Any) -> dict[str, str]:
    return page.eval_on_selector("[data-table]", "t => ({...t.dataset})")  # type: ignore[no-any-return]


def wait_ready(page: Any) -> None:
    """Until the table shows the seat's moves or the end of the game."""
    page.wait_for_function("""() => { const t = document.querySelector('[data-table]');
        return t && (t.dataset.status === 'finished' || document.querySelector('[data-move]')); }""")


def wait_version_change(page: Any, old: str) -> None:
    page.wait_for_function("""v => { const t = document.querySelector('[data-table]');
        return t && t.dataset.version !== v; }""", arg=old)


def start_game(page: Any, base: str, game: str, players: int, options: dict[str, str],
               humans: tuple[int, ...] = (), seed: str = SEED) -> None:
    page.goto(f"{base}/play/")
    page.click(f'[data-action="new-game"][data-game="{game}"]')
    page.fill('input[name="players"]', str(players))
    for seat in humans:
        page.select_option(f'select[name="seat-{seat}"]', "human")
    page.eval_on_selector("#seed", "(e, s) => { e.value = s; }", seed)
    for name, value in options.items():
        page.eval_on_selector(f'[name="{name}"]', "(e, v) => { e.value = v; }", value)
    page.click('[data-action="start"]')
    page.wait_for_selector("[data-table]")


def moves_on_page(page: Any) -> list[dict[str, Any]]:
    return [json.loads(m) for m in page.eval_on_selector_all("[data-move]", "els => els.map(e => e.dataset.move)")]


def click_move(page: Any, index: int) -> None:
    move = page.locator("[data-move]").nth(index)
    move.evaluate("e => { const d = e.closest('details'); if (d) d.open = true; }")
    old = table_state(page)["version"]
    move.click()
    wait_version_change(page, old)


def cards_of(move: dict[str, Any]) -> int:
    n = len(move.get("cards") or []) + (1 if move.get("card") else 0) + len(move.get("payment") or [])
    return n + sum(len(m) for m in move.get("melds") or [])


def choose(moves: list[dict[str, Any]]) -> int:
    """The move that sheds the most cards (so that games end), never a play-all declaration that may
    fail, nor a catch (they lengthen a section); else the first listed."""
    def score(m: dict[str, Any]) -> int:
        if m["type"] in ("play_all", "catch", "pass_catch", "stein", "reject"):
            return -1
        return cards_of(m)
    return max(range(len(moves)), key=lambda i: (score(moves[i]), -i))


def token_of(page: Any) -> str:
    return parse_qs(urlsplit(page.url).fragment)["token"][0]


def api(base: str, path: str, token: str | None = None) -> Any:
    req = urllib.request.Request(base + path, headers={"Authorization": f"Bearer {token}"} if token else {})
    with urllib.request.urlopen(req, timeout=10) as res:
        return json.loads(res.read())


def play(page: Any, limit: int) -> int:
    """Click moves until the game ends or `limit` of the seat's own moves were made."""
    made = 0
    while made < limit:
        wait_ready(page)
        if table_state(page)["status"] == "finished":
            break
        click_move(page, choose(moves_on_page(page)))
        made += 1
        if page.locator("[data-summary]").count():
            shot(page, f"{table_state(page)['game']}-summary")
    return made


@pytest.mark.parametrize(("game", "players", "options", "limit", "seed"), GAMES, ids=[g[0] for g in GAMES])
def test_a_game_from_the_lobby_by_clicking(base_url: str, new_page: Any, game: str, players: int,
                                           options: dict[str, str], limit: int, seed: str) -> None:
    page = new_page()
    start_game(page, base_url, game, players, options, seed=seed)
    state = table_state(page)
    assert state["seat"] == "0" and state["status"] == "active"
    wait_ready(page)
    assert page.locator(".hand [data-card]").count() > 0, "the seat's hand is drawn as cards"
    first = page.locator(".hand [data-card]").first.get_attribute("aria-label")
    assert first and (" of " in first or first == "joker" or "-" not in first), first
    shot(page, f"{game}-desktop")
    page.set_viewport_size({"width": 400, "height": 860})
    shot(page, f"{game}-phone")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 400, f"the table is wider than a 400 px phone: {width}"
    page.set_viewport_size({"width": 1200, "height": 900})

    made = play(page, limit)
    assert made > 0
    final = table_state(page)
    history = page.locator("#history li").count()
    assert history >= made, "every move shows in the history"
    if limit >= 200:
        assert final["status"] == "finished", f"{game} did not end within {limit} moves"
    if final["status"] == "finished":
        page.wait_for_selector("[data-result]")
        shot(page, f"{game}-result")
        view = api(base_url, f"/v1/{game}/games/{urlsplit(page.url).fragment.split('game=')[1].split('&')[0]}",
                   token_of(page))
        assert view["status"] == "finished"


def compose_meld(page: Any, base: str, game: str) -> bool:
    """On the seat's turn, build a listed meld by selecting its cards and grouping them, and send it
    through the composer (checked with moves/check first). True when it did."""
    game_id = parse_qs(urlsplit(page.url).fragment)["game"][0]
    view = api(base, f"/v1/{game}/games/{game_id}", token_of(page))
    hand = view["state"]["hand"]
    melds = [m for m in view["legal_moves"] if m["type"] == "meld"]
    if game == "conquian":
        rule = view["state"]["meld_rule"]
        own = sorted(map(sorted, view["state"]["melds"][view["seat"]]))
        # a listed move that keeps the melds and adds one new meld of the card with hand cards
        groups = [[c for c in new if c != rule["card"]] for m in melds
                  for new in [x for x in m["melds"] if sorted(x) not in own]
                  if len([x for x in m["melds"] if sorted(x) not in own]) == 1 and len(m["melds"]) == len(own) + 1]
    else:
        groups = [m["melds"] for m in melds if len(m["melds"]) == 1]
        groups = [g[0] for g in groups]
    if not groups:
        return False
    cards = groups[0]
    old = table_state(page)["version"]
    if game == "kanaster":
        # first something refused: a single card is no meld, and the refusal is shown in words
        page.locator(f'.hand [data-card="{cards[0]}"]').first.click()
        page.click('[data-action="group"]')
        page.click('[data-compose="meld"]')
        page.wait_for_function("() => document.querySelector('[data-message]').textContent.startsWith('Not allowed')")
        assert table_state(page)["version"] == old
        shot(page, "kanaster-refused")
        page.locator(".groups button").first.click()
    taken: set[int] = set()
    for code in cards:
        index = next(i for i, c in enumerate(hand) if c == code and i not in taken)
        taken.add(index)
        page.click(f'.hand [data-index="{index}"]')
    if game == "kanaster":
        page.click('[data-action="group"]')
    page.click('[data-compose="meld"]')
    wait_version_change(page, old)
    message = page.locator("[data-message]")
    assert not message.count() or "Not allowed" not in message.inner_text()
    log = api(base, f"/v1/{game}/games/{game_id}/log", token_of(page))
    mine = [e for e in log["entries"] if e["seat"] == 0 and e["move"]["type"] == "meld"]
    assert mine and not Counter(cards) - Counter(sum(mine[-1]["move"]["melds"], [])), "the selected cards were melded"
    return True


#: Deals that offer seat 0 a meld on its first turn (Conquian) or right after its first draw (Kanaster):
#: the meld is composed at once, not after dozens of clicked moves (the whole games above click those).
MELD_SEEDS = {"conquian": "meld0", "kanaster": "meld"}


@pytest.mark.parametrize("game", sorted(MELD_SEEDS))
def test_a_meld_composed_by_selecting_cards(base_url: str, new_page: Any, game: str) -> None:
    page = new_page()
    start_game(page, base_url, game, 2, {}, seed=MELD_SEEDS[game])
    composed = False
    for _ in range(120):  # of the seat's own moves, until it could compose a meld
        wait_ready(page)
        if table_state(page)["status"] == "finished":
            break
        if any(m["type"] == "meld" for m in moves_on_page(page)) and compose_meld(page, base_url, game):
            composed = True
            break
        click_move(page, choose(moves_on_page(page)))
    assert composed, f"no meld came up in {game}"
    shot(page, f"{game}-after-meld")


def test_two_pages_of_one_game_update_each_other_live(base_url: str, new_page: Any) -> None:
    first = new_page()
    start_game(first, base_url, "sten", 2, {}, humans=(1,))
    link = first.locator('[data-seat-link="1"]')
    href = link.get_attribute("href")
    assert href and "#" in href and "token=" in href.split("#", 1)[1] and "token" not in href.split("#", 1)[0]
    second = new_page()
    streams: list[str] = []
    second.on("response", lambda r: r.url.endswith("/events") and streams.append(r.headers.get("content-type", "")))
    second.goto(href)
    second.wait_for_selector('[data-table][data-seat="1"]')
    pages = (first, second)
    for _ in range(6):
        # whichever page shows moves is the seat to move; the other only watches
        first.wait_for_function("() => document.querySelector('[data-table]')")
        movers = [p for p in pages if p.locator("[data-move]").count()]
        for _wait in range(40):
            if movers or table_state(first)["status"] == "finished":
                break
            first.wait_for_timeout(250)
            movers = [p for p in pages if p.locator("[data-move]").count()]
        if not movers:
            break
        mover = movers[0]
        other = second if mover is first else first
        before = table_state(other)["version"]
        click_move(mover, choose(moves_on_page(mover)))
        wait_version_change(other, before)  # no reload: the other page learns it by itself
        assert table_state(other)["version"] == table_state(mover)["version"]
        assert other.locator("#history li").count() >= int(table_state(other)["version"])
    assert streams and streams[0].startswith("text/event-stream"), "live updates come from the event stream"
    shot(second, "sten-second-seat")


def test_docs_from_the_local_swagger_ui(base_url: str, new_page: Any) -> None:
    page = new_page()
    page.goto(f"{base_url}/docs")
    page.wait_for_selector(".swagger-ui .info .title")
    assert "cardtable" in page.locator(".swagger-ui .info .title").inner_text()
    page.wait_for_selector(".opblock-tag")
    shot(page, "docs", full_page=False)


def test_rules_page(base_url: str, new_page: Any) -> None:
    page = new_page()
    page.goto(f"{base_url}/play/")
    page.click('[data-action="new-game"][data-game="sten"]')
    page.click("text=Read the rules")
    page.wait_for_selector("article.rules h2")
    assert "Sten" in page.locator("article.rules h2").first.inner_text()
    assert page.locator("article.rules table").count() > 0, "the rules tables are tables"
    shot(page, "rules", full_page=False)


def test_lobby_setup_and_a_turn_by_keyboard(base_url: str, new_page: Any) -> None:
    page = new_page()
    page.goto(f"{base_url}/play/")
    page.wait_for_selector('[data-action="new-game"]')
    catalogue = api(base_url, "/v1/games")["games"]
    assert page.locator('[data-action="new-game"]').count() == len(catalogue)
    assert page.locator(".game .badge.warn").count() == sum(g["provisional"] for g in catalogue)
    shot(page, "lobby")
    page.set_viewport_size({"width": 400, "height": 860})
    shot(page, "lobby-phone")
    assert page.evaluate("document.documentElement.scrollWidth") <= 400
    page.set_viewport_size({"width": 1200, "height": 900})

    # the options form comes from the catalogue: one field per option, with its default
    page.click('[data-action="new-game"][data-game="kanaster"]')
    page.click("text=House rules")
    kanaster = next(g for g in catalogue if g["game"] == "kanaster")
    assert page.locator(".house-rules .field").count() == len(kanaster["options"])
    target = next(o for o in kanaster["options"] if o["name"] == "target")
    assert page.input_value('[name="target"]') == str(target["default"])
    shot(page, "setup")

    # seats: a bot at the level chosen (the catalogue's levels), a person with no level
    assert page.input_value('select[name="level-1"]') == kanaster["default_bot_level"]
    page.select_option('select[name="level-1"]', "random")
    page.select_option('select[name="seat-2"]', "human")
    assert page.locator('select[name="level-2"]').is_disabled()
    with page.expect_request(lambda r: r.method == "POST" and r.url.endswith("/v1/kanaster/games")) as created:
        page.click('[data-action="start"]')
    assert created.value.post_data_json["seats"] == [{"name": "Player 1"}, {"bot": "random"}, {"name": "Player 3"}]
    page.wait_for_selector('[data-seat-link="2"]')

    # a turn of Sten by keyboard alone: Enter on the lobby button and on start, Space on a card, Enter on a move
    page.goto(f"{base_url}/play/")  # a fresh load of the lobby (the fragment of the table dropped)
    page.locator('[data-action="new-game"][data-game="sten"]').focus()
    page.keyboard.press("Enter")
    page.locator('[data-action="start"]').focus()
    page.keyboard.press("Enter")
    page.wait_for_selector("[data-table]")
    wait_ready(page)
    names = page.eval_on_selector_all(".hand [data-card]", "els => els.map(e => e.getAttribute('aria-label'))")
    assert all(re.fullmatch(r"(ace|king|queen|jack|\d+) of (clubs|diamonds|hearts|spades)", n) for n in names), names
    card = page.locator(".hand [data-card]").first
    card.focus()
    page.keyboard.press("Space")
    assert page.locator(".hand [data-card]").first.get_attribute("aria-pressed") == "true"
    assert page.evaluate("document.activeElement.dataset.card") is not None, "focus stays on the card after redraw"
    page.keyboard.press("Space")
    assert page.locator(".hand [data-card]").first.get_attribute("aria-pressed") == "false"
    old = table_state(page)["version"]
    page.locator("[data-move]").first.focus()
    page.keyboard.press("Enter")
    wait_version_change(page, old)
    page.wait_for_function("() => document.getElementById('announce').textContent.length > 0")
    assert re.search(r"Your turn|to move|over", page.inner_text("#announce"))
