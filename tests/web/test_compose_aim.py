"""Composing by aiming, in Chromium: a Keine lahme Agame catch is built by clicking the card to catch
(a row card or the pile's top, `[data-target]`) and selecting the payment from the hand, and is sent
exactly as the view listed it. The page plays its own tricks until a catch is listed.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs, urlsplit

from tests.web.conftest import shot
from tests.web.test_browser import api, click_move, moves_on_page, start_game, table_state, token_of, wait_ready


def target_key(card: str, from_seat: int | None) -> str:
    return f"catch-{card}-{'pile' if from_seat is None else from_seat}"


def test_a_catch_is_composed_by_aiming_at_the_card_and_selecting_the_payment(base_url: str, new_page: Any) -> None:
    page = new_page()
    start_game(page, base_url, "keine-lahme-agame", 3, {})
    game_id = parse_qs(urlsplit(page.url).fragment)["game"][0]
    path = f"/v1/keine-lahme-agame/games/{game_id}"
    for _ in range(60):
        wait_ready(page)
        assert table_state(page)["status"] == "active", "no catch came up in the game"
        if any(m["type"] == "catch" for m in moves_on_page(page)):
            break
        moves = moves_on_page(page)
        click_move(page, next((i for i, m in enumerate(moves) if m["type"] != "pass_catch"), 0))
    view = api(base_url, path, token_of(page))
    catch = next(m for m in view["legal_moves"] if m["type"] == "catch")
    listed = {target_key(t["card"], t["from_seat"]) for t in view["state"]["catch_targets"]}
    shown = page.eval_on_selector_all("[data-target]", "els => els.map(e => e.dataset.target)")
    assert set(shown) == listed, "the cards the view lists as catchable are the targets, no others"

    key = target_key(catch["card"], catch["from_seat"])
    page.click(f'[data-target="{key}"]')
    assert page.get_attribute(f'[data-target="{key}"]', "aria-pressed") == "true"
    taken: set[int] = set()
    for code in catch["payment"]:
        index = next(i for i, c in enumerate(view["state"]["hand"]) if c == code and i not in taken)
        taken.add(index)
        page.click(f'.hand [data-index="{index}"]')
    shot(page, "keine-lahme-agame-aiming")
    old = table_state(page)["version"]
    page.click('[data-compose="catch"]')
    page.wait_for_function("v => document.querySelector('[data-table]').dataset.version !== v", arg=old)
    log = api(base_url, f"{path}/log?since={old}", token_of(page))["entries"]
    assert log[0]["seat"] == 0 and log[0]["move"] == catch, "the catch went as the view listed it"
