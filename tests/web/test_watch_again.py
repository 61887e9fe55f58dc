"""Watching a finished game again in Chromium: from the finished table's "Watch again" link, forward
and back through every move by the buttons, the keyboard and the history's lines, every hand open,
at desktop and at phone width. Seat names from the export are drawn as text, never as markup.

The testing contract used: ``[data-result]`` and ``[data-action="watch-again"]`` on the finished
table; ``[data-watch]`` (with ``data-step`` and ``data-last``), ``[data-step-action]``, ``[data-hand]``
and ``[data-goto]`` on the watching page (docs/web.md).
"""

from __future__ import annotations

import json
import random
import re
import urllib.request
from typing import Any

import pytest

from tests.web.conftest import shot

#: (game, players, options): games that end within a few hundred moves of a random person and random bots.
GAMES = [
    ("sten", 3, {}),
    ("kanaster", 2, {"max_hands": 1}),
]


def call(base: str, path: str, body: Any = None, token: str | None = None) -> Any:
    headers = {"Content-Type": "application/json"} if body is not None else {}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    data = json.dumps(body).encode() if body is not None else None
    with urllib.request.urlopen(urllib.request.Request(base + path, data=data, headers=headers), timeout=30) as res:
        return json.loads(res.read())


def finished_game(base: str, game: str, players: int, options: dict[str, Any]) -> tuple[str, str]:
    """A game played to its end through the API: seat 0 a person picking random listed moves, the
    others random bots. Its id and seat 0's token."""
    created = call(base, f"/v1/{game}/games", {"players": players, "options": options, "seed": f"watch-{game}",
                                               "bots": [{"seat": s, "level": "random"} for s in range(1, players)]})
    gid, token = created["game_id"], created["seats"][0]["token"]
    rng = random.Random(game)
    view = call(base, f"/v1/{game}/games/{gid}", token=token)
    for _ in range(2000):
        if view["status"] == "finished":
            return gid, token
        move = view["legal_moves"][int(rng.random() * len(view["legal_moves"]))]
        view = call(base, f"/v1/{game}/games/{gid}/moves", {"version": view["version"], "move": move}, token)
    raise AssertionError(f"{game} did not end")


def step_of(page: Any) -> int:
    return int(page.get_attribute("[data-watch]", "data-step"))


def wait_step(page: Any, step: int) -> None:
    page.wait_for_function("s => document.querySelector('[data-watch]')?.dataset.step === String(s)"
                           " && document.querySelector('[data-watch-table] [data-hand]')", arg=step)


def hand_of(page: Any, seat: int) -> list[str]:
    return page.eval_on_selector_all(f'[data-hand="{seat}"] [data-card]', "els => els.map(e => e.dataset.card)")


@pytest.mark.parametrize(("game", "players", "options"), GAMES, ids=[g[0] for g in GAMES])
def test_a_finished_game_is_watched_again_move_by_move_with_every_hand_open(
        base_url: str, new_page: Any, game: str, players: int, options: dict[str, Any]) -> None:
    gid, token = finished_game(base_url, game, players, options)
    export = call(base_url, f"/v1/{game}/games/{gid}/export")
    last = len(export["entries"])
    page = new_page()
    page.goto(f"{base_url}/play/#game={gid}&g={game}&token={token}")
    page.wait_for_selector("[data-result]")
    page.click('[data-action="watch-again"]')
    wait_step(page, 0)
    assert int(page.get_attribute("[data-watch]", "data-last")) == last

    # the deal: every seat's hand laid open, as the positions give them
    deal = call(base_url, f"/v1/{game}/games/{gid}/positions?limit=2")["positions"]
    assert page.locator("[data-hand]").count() == players
    for seat in range(players):
        assert sorted(hand_of(page, seat)) == sorted(deal[0]["hands"][seat]), f"seat {seat}'s hand at the deal"
    assert page.locator('[data-step-action="back"]').is_disabled()
    assert page.locator("#watch-history > li").count() == last + 1  # the deal and every move
    shot(page, f"{game}-watch-deal")

    # forward and back by the keyboard: arrows, End and Home
    page.keyboard.press("ArrowRight")
    wait_step(page, 1)
    for seat in range(players):
        assert sorted(hand_of(page, seat)) == sorted(deal[1]["hands"][seat]), f"seat {seat}'s hand after move 1"
    first = export["entries"][0]
    mover = re.escape(export["seats"][first["seat"]]["name"])
    assert re.match(rf"Move 1: {mover}( \(seat {first['seat'] + 1}\))?: ", page.inner_text("[data-step-text]"))
    assert page.get_attribute('[data-goto="1"]', "aria-current") == "step"
    page.keyboard.press("ArrowLeft")
    wait_step(page, 0)
    page.keyboard.press("End")
    wait_step(page, last)
    page.wait_for_selector("[data-watch-table] [data-result]")
    assert page.locator('[data-step-action="forward"]').is_disabled()
    shot(page, f"{game}-watch-end")
    page.keyboard.press("Home")
    wait_step(page, 0)

    # the buttons, by keyboard too, and a line of the history
    page.locator('[data-step-action="forward"]').focus()
    page.keyboard.press("Enter")
    wait_step(page, 1)
    page.keyboard.press("Enter")  # the focus stays on the button: a second Enter steps again
    wait_step(page, 2)
    middle = last // 2
    page.locator(f'[data-goto="{middle}"] button').click()
    wait_step(page, middle)
    assert page.get_attribute(f'[data-goto="{middle}"]', "aria-current") == "step"
    assert page.locator("#watch-history [aria-current]").count() == 1
    page.click('[data-step-action="back"]')
    wait_step(page, middle - 1)
    shown = call(base_url, f"/v1/{game}/games/{gid}/positions?start={middle - 1}&limit=1")["positions"][0]
    for seat in range(players):
        assert sorted(hand_of(page, seat)) == sorted(shown["hands"][seat])
    shot(page, f"{game}-watch-desktop")

    # at a phone's width: one column, nothing wider than the screen
    page.set_viewport_size({"width": 390, "height": 844})
    shot(page, f"{game}-watch-phone")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.keyboard.press("PageDown")
    wait_step(page, min(last, middle + 9))
    page.set_viewport_size({"width": 1200, "height": 900})

    # a reload stays at the step shown
    page.reload()
    wait_step(page, min(last, middle + 9))


def test_seat_names_are_drawn_as_text(base_url: str, new_page: Any) -> None:
    gid, _ = finished_game(base_url, "sten", 2, {})
    evil = '<img src=x onerror="window.pwned=1">Ann'
    page = new_page()

    def named(route: Any) -> None:
        export = json.loads(route.fetch().text())
        export["seats"][0]["name"] = evil
        route.fulfill(status=200, content_type="application/json", body=json.dumps(export))

    page.route("**/export", named)
    page.goto(f"{base_url}/play/#watch={gid}&g=sten")
    wait_step(page, 0)
    page.keyboard.press("End")
    wait_step(page, int(page.get_attribute("[data-watch]", "data-last")))
    assert page.locator("[data-watch] img").count() == 0
    assert page.evaluate("window.pwned") is None
    assert evil in page.inner_text('[data-hand="0"] .who')
    assert evil in page.inner_text("#watch-history")


def test_a_running_game_cannot_be_watched_again_and_says_so(base_url: str, new_page: Any, watch: Any) -> None:
    created = call(base_url, "/v1/sten/games", {"players": 2, "bots": [1]})
    page = new_page()
    page.goto(f"{base_url}/play/#watch={created['game_id']}&g=sten")
    page.wait_for_selector(".error[role=alert]")
    assert "still running" in page.inner_text(".error")
    watch.failed = [f for f in watch.failed if "/export" not in f]  # the 409 this test asked for
