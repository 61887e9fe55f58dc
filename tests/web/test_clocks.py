"""Time and leaving at the web table, in Chromium: each seat's clock counts down in the ring from the
view's ``server_time`` (never from the browser's clock alone), a seated person resigns after a question
on the page, the history tells of timeouts, resignations and seats a bot took over (names as text),
and the setup form sends the clock a new game is played on. Each test runs in a browser context of
its own (``browsers``): a test that sets the browser's clock must not set it for the others.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from typing import Any

from tests.web import test_people
from tests.web.conftest import shot
from tests.web.test_browser import table_state
from tests.web.test_people import DESKTOP, PHONE, post

#: A page in a browser context of its own (the fixture of the people's tests).
browsers = test_people.browsers

#: The server's time in the stubbed views, and the browser's clock: three hours behind it.
SERVER = datetime(2026, 11, 25, 12, 0, 0, tzinfo=UTC)
BROWSER = SERVER - timedelta(hours=3)
#: A name as a person might type it, with markup in it (a name may have 24 characters).
NAME = '<b>Ann</b><img src=x>'


def rfc3339(t: datetime) -> str:
    return t.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def new_game(base: str, game: str = "sten", players: int = 2, **extra: Any) -> dict[str, Any]:
    """A game over the API: a person (Ann) and greedy bots."""
    seats = [{"name": "Ann"}] + [{"bot": "greedy"}] * (players - 1)
    return post(base, f"/v1/{game}/games", {"players": players, "seats": seats, "seed": "clocks", **extra})


def open_seat(page: Any, base: str, game: str, created: dict[str, Any]) -> None:
    page.goto(f"{base}/play/#game={created['game_id']}&g={game}&token={created['seats'][0]['token']}")
    page.wait_for_selector("[data-table]")


def clock_of(page: Any, seat: int) -> dict[str, Any]:
    return page.eval_on_selector(f'[data-ring-seat="{seat}"] [data-clock]', """e => ({text: e.textContent,
        state: e.dataset.clock, ms: Number(e.dataset.remainingMs), low: e.classList.contains('low'),
        out: e.classList.contains('out')})""")


def wait_clock(page: Any, seat: int, text: str) -> None:
    page.wait_for_function("([s, t]) => { const e = document.querySelector(`[data-ring-seat=\"${s}\"] [data-clock]`);"
                           " return e && e.textContent === t; }", arg=[seat, text])


def stub_clocks(page: Any, game: str, clocks: list[dict[str, Any] | None], names: dict[int, str] | None = None) -> None:
    """Every view of the game on its way to the page carries these clocks, the server time SERVER and
    the deadline of the running clock (and, where given, these names)."""
    running = next((c["remaining_ms"] for c in clocks if c and c["running"]), None)

    def rewrite(route: Any) -> None:
        answer = route.fetch()
        if answer.status != 200:
            route.fulfill(response=answer)
            return
        body = answer.json()
        body["server_time"] = rfc3339(SERVER)
        body["deadline"] = rfc3339(SERVER + timedelta(milliseconds=running)) if running is not None else None
        for seat, clock in zip(body["seats"], clocks, strict=True):
            seat["clock"] = clock
            if names and seat["seat"] in names:
                seat["name"] = names[seat["seat"]]
        route.fulfill(response=answer, body=json.dumps(body), headers={**answer.headers})

    page.route(f"**/v1/{game}/games/*",
               lambda route: rewrite(route) if route.request.method == "GET" else route.continue_())


def test_a_running_clock_counts_down_from_the_views_server_time_not_the_browsers_clock(base_url: str,
                                                                                     browsers: Any) -> None:
    """The browser's clock is three hours behind the server's: the ring still shows what the view's clock
    held as of ``server_time`` the moment the view arrived, then counts down by the time that passes in
    the browser (tenths and the urgent look under 10 s), and stops at 0:00. A clock that does not run holds
    still; a seat without a clock shows none."""
    page = browsers()
    page.clock.set_fixed_time(BROWSER)
    created = new_game(base_url)
    stub_clocks(page, "sten", [{"remaining_ms": 12_000, "running": True}, {"remaining_ms": 300_000, "running": False}])
    open_seat(page, base_url, "sten", created)
    wait_clock(page, 0, "0:12")
    assert clock_of(page, 0) == {"text": "0:12", "state": "running", "ms": 12_000, "low": False, "out": False}
    assert clock_of(page, 1) == {"text": "5:00", "state": "stopped", "ms": 300_000, "low": False, "out": False}
    shot(page, "clocks-running-desktop", full_page=False)

    page.clock.set_fixed_time(BROWSER + timedelta(milliseconds=2_600))
    wait_clock(page, 0, "0:09.4")
    assert clock_of(page, 0)["low"] and clock_of(page, 0)["ms"] == 9_400
    assert clock_of(page, 1)["text"] == "5:00", "a clock that does not run holds still"
    page.set_viewport_size(PHONE)
    shot(page, "clocks-low-phone", full_page=False)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the table is wider than a 390 px phone: {width}"
    page.set_viewport_size(DESKTOP)

    page.clock.set_fixed_time(BROWSER + timedelta(seconds=40))
    wait_clock(page, 0, "0:00")
    assert clock_of(page, 0)["out"] and clock_of(page, 0)["ms"] == 0
    shot(page, "clocks-out-desktop", full_page=False)


def test_a_game_without_a_clock_shows_none(base_url: str, browsers: Any) -> None:
    page = browsers()
    open_seat(page, base_url, "sten", new_game(base_url))
    page.wait_for_selector("[data-ring-seat='1']")
    assert page.locator("[data-clock]").count() == 0


def test_resigning_asks_on_the_page_first_and_then_shows_the_result(base_url: str, browsers: Any) -> None:
    """The resign button opens a question on the page (not the browser's confirm): "Cancel" sends
    nothing; "Yes, resign" posts the resignation with the seat's token, and the table shows the result:
    the game ended by resignation, the other seat won."""
    page = browsers()
    created = new_game(base_url)
    posted: list[Any] = []
    page.on("request", lambda r: posted.append(r) if r.url.endswith("/resign") else None)
    open_seat(page, base_url, "sten", created)
    page.wait_for_selector('[data-action="resign"]')
    page.click('[data-action="resign"]')
    dialog = page.locator('[role="alertdialog"][data-resign]')
    assert "you lose" in dialog.inner_text()
    assert page.evaluate("document.activeElement.dataset.action") == "resign-confirm"
    shot(page, "resign-question-desktop", full_page=False)
    page.set_viewport_size(PHONE)
    shot(page, "resign-question-phone", full_page=False)
    page.set_viewport_size(DESKTOP)
    page.click('[data-action="resign-cancel"]')
    assert dialog.count() == 0 and not posted, "cancel sends nothing"
    page.click('[data-action="resign"]')
    page.click('[data-action="resign-confirm"]')
    page.wait_for_selector("[data-result]")
    assert [r.method for r in posted] == ["POST"]
    assert posted[0].headers["authorization"] == f"Bearer {created['seats'][0]['token']}"
    assert table_state(page)["status"] == "finished"
    result = page.locator("[data-result]").inner_text()
    assert "Greedy bot won" in result and "Ann (you) resigned" in result, result
    assert page.locator('[data-action="resign"]').count() == 0, "no resigning from a game that is over"
    shot(page, "resigned-desktop", full_page=False)


def test_resigning_from_a_game_of_three_hands_the_seat_to_a_bot(base_url: str, browsers: Any) -> None:
    """With more than two players the question says a bot plays on; once resigned, the ring says a bot
    plays the seat, the history tells of it, the seat resigns no more, and the result ranks it last."""
    page = browsers()
    created = new_game(base_url, players=3)
    open_seat(page, base_url, "sten", created)
    page.click('[data-action="resign"]')
    assert "a bot plays your seat" in page.locator('[role="alertdialog"][data-resign]').inner_text()
    page.click('[data-action="resign-confirm"]')
    page.wait_for_function("() => document.querySelector('[data-ring-seat=\"0\"] .kind').textContent"
                           " === 'bot (resigned)'")
    history = page.locator("#history").inner_text()
    assert "Ann (you) resigned; a bot plays the seat from now on" in history, history
    assert page.locator('[data-action="resign"]').count() == 0
    view = test_people.get(base_url, f"/v1/sten/games/{created['game_id']}", created["seats"][0]["token"])
    assert view["seats"][0]["status"] == "replaced" and view["seats"][0]["replaced_because"] == "resigned"
    if view["status"] == "finished":  # three bots play to the end at once
        page.wait_for_selector("[data-result]")
        assert page.locator("[data-result] .places li").last.inner_text() == "Ann (you)", "ranked last"
    shot(page, "resigned-three-desktop", full_page=False)


def test_a_person_who_does_nothing_is_timed_out_and_a_bot_moves_for_them(base_url: str, browsers: Any) -> None:
    """A game set up on the page with 2 s a move, a bot making the move on a timeout and taking the seat
    over after 2 in a row: the person does nothing. The server's deadline fires on its own; the history
    tells of each timeout and of the bot's moves for the person (the name, markup in it, drawn as text),
    the ring says a bot took the seat over, and the bots play the game on."""
    page = browsers()
    created: list[Any] = []
    page.on("request", lambda r: created.append(r.post_data_json)
            if r.method == "POST" and r.url.endswith("/v1/sten/games") else None)
    page.goto(f"{base_url}/play/#new=sten")
    page.fill("#name", NAME)
    page.fill('input[name="players"]', "2")
    page.eval_on_selector("#seed", "e => { e.value = 'clocks'; }")
    assert page.locator("#clock-seconds").is_hidden(), "no clock: its fields are hidden"
    page.select_option("#clock", "per_move")
    page.fill("#clock-seconds", "2")
    page.select_option("#on-timeout", "bot")
    page.fill("#max-timeouts", "2")
    shot(page, "clock-setup-desktop")
    page.click('[data-action="start"]')
    page.wait_for_selector("[data-table]")
    assert created[0]["clock"] == {"kind": "per_move", "seconds": 2, "on_timeout": "bot", "max_timeouts": 2}
    page.wait_for_selector('[data-ring-seat="0"] [data-clock="running"]')
    page.wait_for_function("() => { const e = document.querySelector('[data-ring-seat=\"0\"] [data-clock]');"
                           " return e && Number(e.dataset.remainingMs) < 1500 && e.classList.contains('low'); }")
    shot(page, "clock-per-move-desktop", full_page=False)
    page.wait_for_function("() => document.getElementById('history').textContent.includes('ran out of time')",
                           timeout=20_000)
    page.wait_for_function("() => document.querySelector('[data-ring-seat=\"0\"] .kind').textContent"
                           " === 'bot (out of time)'", timeout=30_000)
    history = page.locator("#history").inner_text()
    assert f"{NAME} (you) ran out of time" in history, history
    assert f"A bot for {NAME} (you)" in history, history
    assert "a bot plays the seat from now on" in history, history
    assert page.locator("#history img, #history b, [data-seats] img").count() == 0
    assert page.evaluate("window.injected") is None
    assert page.locator('[data-action="resign"]').count() == 0, "a seat a bot took over resigns no more"
    shot(page, "timed-out-desktop", full_page=False)
    page.set_viewport_size(PHONE)
    shot(page, "timed-out-phone")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the table is wider than a 390 px phone: {width}"
    page.set_viewport_size(DESKTOP)
    page.wait_for_selector("[data-result]")  # the bots play the game to its end
    page.click('[data-action="watch-again"]')
    page.wait_for_selector("[data-watch]")
    watched = page.locator(".watch-history").inner_text()
    assert f"{NAME} ran out of time; a bot moves for {NAME}" in watched, watched


def test_the_setup_forms_fischer_clock_is_sent_and_shown(base_url: str, browsers: Any) -> None:
    """A bank of minutes plus seconds a move: the form sends it as the service takes it, and the ring
    shows the person's bank running (the bot has no clock)."""
    page = browsers()
    sent: list[Any] = []
    page.on("request", lambda r: sent.append(r.post_data_json)
            if r.method == "POST" and r.url.endswith("/v1/kanaster/games") else None)
    page.goto(f"{base_url}/play/#new=kanaster")
    page.fill('input[name="players"]', "2")
    page.select_option("#clock", "fischer")
    assert page.locator("#clock-seconds").is_hidden() and page.locator("#clock-minutes").is_visible()
    page.fill("#clock-minutes", "3")
    page.fill("#clock-increment", "2")
    page.select_option("#on-timeout", "forfeit")
    page.click('[data-action="start"]')
    page.wait_for_selector('[data-ring-seat="0"] [data-clock]')
    assert sent[0]["clock"] == {"kind": "fischer", "initial_seconds": 180, "increment_seconds": 2,
                                "on_timeout": "forfeit", "max_timeouts": 3}
    mine = clock_of(page, 0)
    assert mine["state"] == "running" and 170_000 < mine["ms"] <= 180_000 and mine["text"] in ("3:00", "2:59"), mine
    assert page.locator('[data-ring-seat="1"] [data-clock]').count() == 0, "a bot has no clock"
