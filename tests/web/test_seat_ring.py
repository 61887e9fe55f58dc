"""The ring of seats in Chromium: drawn from the view's common ``seats`` by the same code for every game
(each seat's name, who plays it, cards in hand, score and whose turn), the viewer's seat first; names
drawn as text, never as markup; at desktop and at phone width.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest

from tests.web.conftest import shot
from tests.web.test_browser import api, choose, click_move, moves_on_page, start_game, token_of, wait_ready

#: (game, players, a seat that is a person's beside seat 0): Sten keeps no score, Kanaster and
#: Siebenschläfer keep one (the highest and the lowest wins).
RINGS = [("sten", 4, 2), ("kanaster", 3, None), ("siebenschlaefer", 3, None)]
#: A name as a person might type it, with markup in it.
ODD_NAME = '<img src=x onerror="window.injected=1">Ann & <b>Bo</b>'


def ring(page: Any) -> list[dict[str, Any]]:
    return page.eval_on_selector_all("[data-seats] [data-ring-seat]", """els => els.map(e => ({
        seat: Number(e.dataset.ringSeat), kind: e.dataset.kind, hand: Number(e.dataset.handCount),
        score: e.dataset.score === undefined ? null : Number(e.dataset.score),
        name: e.querySelector('.who').textContent, who: e.querySelector('.kind').textContent,
        moving: e.getAttribute('aria-current') === 'true', me: e.classList.contains('me')}))""")


def game_id(page: Any) -> str:
    return parse_qs(urlsplit(page.url).fragment)["game"][0]


@pytest.mark.parametrize(("game", "players", "human"), RINGS, ids=[r[0] for r in RINGS])
def test_the_ring_shows_every_seat_from_the_views_seats(base_url: str, new_page: Any, game: str, players: int,
                                                         human: int | None) -> None:
    page = new_page()
    start_game(page, base_url, game, players, {}, humans=(human,) if human is not None else ())
    wait_ready(page)
    for _ in range(3):  # a few moves, so that hands and scores have moved on (until another person is to move)
        if not page.locator("[data-move]").count():
            break
        click_move(page, choose(moves_on_page(page)))
    view = api(base_url, f"/v1/{game}/games/{game_id(page)}", token_of(page))
    page.wait_for_function("v => document.querySelector('[data-table]').dataset.version === v",
                           arg=str(view["version"]))
    shown = ring(page)
    assert [s["seat"] for s in shown] == list(range(players)), "the viewer's seat 0 first, then in turn"
    for drawn, seat in zip(shown, view["seats"], strict=True):
        assert drawn["hand"] == seat["hand_count"] and drawn["score"] == seat["score"] and drawn["kind"] == seat["kind"]
        assert drawn["name"].startswith(seat["name"])
        assert drawn["who"] == ("person" if seat["kind"] == "human" else f"bot, {seat['level']}")
        assert drawn["moving"] == (view["status"] == "active" and seat["seat"] in view["to_move"])
    assert [s["me"] for s in shown] == [True] + [False] * (players - 1)
    assert shown[0]["name"] == "Player 1 (you)"
    if human is not None:
        assert shown[human]["name"] == f"Player {human + 1}" and shown[human]["kind"] == "human"
    shot(page, f"ring-{game}-desktop", full_page=False)
    page.set_viewport_size({"width": 390, "height": 844})
    shot(page, f"ring-{game}-phone", full_page=False)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the table is wider than a 390 px phone: {width}"
    page.set_viewport_size({"width": 1200, "height": 900})


def test_a_seats_name_is_drawn_as_text_never_as_markup(base_url: str, new_page: Any) -> None:
    """Names will be typed by people: whatever a name holds, the ring, the turn line and the history
    show it as text (the view's answer is rewritten on its way to the page to carry such a name)."""
    page = new_page()

    def odd_names(route: Any) -> None:
        answer = route.fetch()
        body = answer.json()
        if isinstance(body, dict) and "seats" in body:
            for seat in body["seats"][1:]:
                seat["name"] = ODD_NAME
            route.fulfill(response=answer, body=json.dumps(body), headers={**answer.headers})
        else:
            route.fulfill(response=answer)

    page.route("**/v1/sten/games/*", odd_names)
    page.route("**/v1/sten/games/*/moves", odd_names)
    start_game(page, base_url, "sten", 3, {})
    wait_ready(page)
    if page.locator("[data-move]").count():
        click_move(page, choose(moves_on_page(page)))
        wait_ready(page)
    names = page.eval_on_selector_all("[data-seats] .who", "els => els.map(e => e.textContent)")
    assert names[1:] == [f"{ODD_NAME} (seat 2)", f"{ODD_NAME} (seat 3)"], names
    assert page.locator("[data-seats] img, [data-seats] b:not(.score b)").count() == 0
    assert page.locator("#history img").count() == 0 and page.locator(".turn img").count() == 0
    assert page.evaluate("window.injected") is None
    shot(page, "ring-odd-names", full_page=False)
