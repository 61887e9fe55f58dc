"""People at the web table, in Chromium, with two browsers (two browser contexts: each its own storage,
as two people's browsers): Ann sets a game up with a friend's seat and names herself, the waiting
room gives her the invite link, Bo opens it in his browser, names himself (markup in his name is
drawn as text) and takes the seat; the game starts and they play it, each seeing the other's moves
and whether the other is at the table. Then the open games, "your games", and a rematch. Screenshots
of each page at desktop and at phone width.
"""

from __future__ import annotations

import json
import random
import urllib.request
from collections.abc import Iterator
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest

from tests.web.conftest import LOCAL_HOSTS, Watch, new_context, shot
from tests.web.test_browser import table_state, wait_version_change

#: Bo's name as he types it: markup that must stay text.
BO = '<b>Bo</b><img src=x>'  # 20 characters: a name may have 24
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1200, "height": 900}


@pytest.fixture()
def browsers(chromium: Any, watch: Watch) -> Iterator[Any]:
    """``browsers()``: a page in a browser of its own (a fresh context: its own storage, as each
    person's browser), watched as the shared one is (requests stay on the machine, no script error,
    no failed answer). The shared context is not used: what these people keep (names, tokens) must not
    reach the other tests' pages."""
    contexts: list[Any] = []

    def route(r: Any) -> None:
        if r.request.url.startswith(("data:", "blob:")) or urlsplit(r.request.url).hostname in LOCAL_HOSTS:
            r.continue_()
        else:
            watch.outside.append(r.request.url)
            r.abort()

    def make() -> Any:
        context = new_context(chromium)
        context.route("**/*", route)
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda exc: watch.errors.append(f"{page.url}: {exc}"))
        page.on("console", lambda m: watch.errors.append(f"{page.url}: {m.text}")
                if m.type == "error" and not m.text.startswith("Failed to load resource") else None)
        page.on("response", lambda res: watch.failed.append(f"{res.status} {res.url}") if res.status >= 400 else None)
        return page

    yield make
    for context in contexts:
        context.close()


def post(base: str, path: str, body: Any = None, token: str | None = None) -> Any:
    headers = {"Content-Type": "application/json", **({"Authorization": f"Bearer {token}"} if token else {})}
    req = urllib.request.Request(base + path, data=json.dumps(body or {}).encode(), headers=headers, method="POST")
    with urllib.request.urlopen(req, timeout=10) as res:
        return json.loads(res.read())


def get(base: str, path: str, token: str | None = None) -> Any:
    req = urllib.request.Request(base + path, headers={"Authorization": f"Bearer {token}"} if token else {})
    with urllib.request.urlopen(req, timeout=10) as res:
        return json.loads(res.read())


def ring_names(page: Any) -> list[str]:
    return page.eval_on_selector_all("[data-seats] [data-ring-seat] .who", "els => els.map(e => e.textContent)")


def both_shots(page: Any, name: str) -> None:
    shot(page, f"{name}-desktop")
    page.set_viewport_size(PHONE)
    shot(page, f"{name}-phone")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"{name} is wider than a 390 px phone: {width}"
    page.set_viewport_size(DESKTOP)


def test_two_people_find_each_other_through_an_invite_link_and_play(base_url: str, browsers: Any) -> None:
    ann = browsers()
    ann.goto(f"{base_url}/play/")
    ann.click('[data-action="new-game"][data-game="sten"]')
    ann.fill("#name", "Ann")
    ann.fill('input[name="players"]', "2")
    ann.select_option('select[name="seat-1"]', "open")
    ann.click('[data-action="start"]')
    ann.wait_for_selector("[data-waiting]")
    assert table_state(ann)["status"] == "waiting"
    link = ann.input_value("[data-invite-link]")
    parts = urlsplit(link)
    assert parts.path == "/play/" and not parts.query and "invite=" in parts.fragment  # never sent to a server
    assert ann.locator('[data-ring-seat="1"]').get_attribute("data-kind") == "open"
    both_shots(ann, "people-waiting-room")

    bo = browsers()
    bo.goto(link)
    bo.wait_for_selector("[data-join]")
    assert "Ann" in bo.inner_text("[data-join] .who-joined")
    both_shots(bo, "people-join")
    bo.fill("#join-name", BO)
    bo.click('[data-action="join"]')
    bo.wait_for_selector('[data-table][data-status="active"]')
    assert "invite=" not in bo.url and "token=" in bo.url

    # Ann's waiting room turns into the table by itself (the stream told of the seat taken)
    ann.wait_for_selector('[data-table][data-status="active"]')
    for page in (ann, bo):
        names = ring_names(page)
        assert any(n.startswith(BO) for n in names), names  # the markup is text
        assert page.locator("[data-seats] img, [data-seats] b").count() == 0
    # both are at the table: each sees the other's green dot (the view is revalidated every 10 s)
    ann.wait_for_selector('[data-ring-seat="1"] [data-connected="true"]', timeout=20_000)
    bo.wait_for_selector('[data-ring-seat="0"] [data-connected="true"]', timeout=20_000)
    assert ann.locator("#history").inner_text().count("sat down") == 1

    # they play: whoever is to move clicks a move, and the other's table follows
    rng = random.Random("people")
    for _ in range(8):
        mover = next((p for p in (ann, bo) if p.locator("[data-move]").count()), None)
        if mover is None:
            ann.wait_for_selector("[data-move]", timeout=5000) if not bo.locator("[data-move]").count() else None
            continue
        other = bo if mover is ann else ann
        before = table_state(other)["version"]
        buttons = mover.locator("[data-move]")
        buttons.nth(rng.randrange(buttons.count())).evaluate(
            "e => { const d = e.closest('details'); if (d) d.open = true; }")
        moved = table_state(mover)["version"]
        buttons.first.click()
        wait_version_change(mover, moved)
        wait_version_change(other, before)
        assert table_state(other)["version"] == table_state(mover)["version"]
    both_shots(ann, "people-playing")


def test_open_games_your_games_and_a_rematch(base_url: str, browsers: Any) -> None:
    # a listed game waits in the open games; Bo finds it there and sits down
    listed = post(base_url, "/v1/kanaster/games", {"players": 2, "listed": True,
                                                    "seats": [{"name": "Cy"}, {"open": True}]})
    bo = browsers()
    bo.goto(f"{base_url}/play/")
    bo.click('[data-action="open-games"]')
    item = bo.locator(f'[data-open-game="{listed["game_id"]}"]')
    item.wait_for()
    assert "Cy" in item.inner_text() and "1 open seat" in item.inner_text()
    both_shots(bo, "people-open-games")
    item.locator('[data-action="join-open"]').click()
    bo.fill("#join-name", "Bo")
    bo.click('[data-action="join"]')
    bo.wait_for_selector('[data-table][data-status="active"]')

    # a finished game of Ann and Bo; Bo's browser keeps his seat: "your games" lists it
    created = post(base_url, "/v1/sten/games", {"players": 2, "seats": [{"name": "Ann"}, {"name": "Bo"}]})
    gid, (ann_token, bo_token) = created["game_id"], [s["token"] for s in created["seats"]]
    path = f"/v1/sten/games/{gid}"
    rng = random.Random("rematch")
    while (spectator := get(base_url, path))["status"] != "finished":
        seat = spectator["to_move"][0]
        token = (ann_token, bo_token)[seat]
        legal = get(base_url, path, token)["legal_moves"]
        post(base_url, f"{path}/moves", {"move": legal[rng.randrange(len(legal))]}, token)
    bo.goto(f"{base_url}/play/#game={gid}&g=sten&token={bo_token}")
    bo.wait_for_selector("[data-result]")
    bo.goto(f"{base_url}/play/#")
    bo.reload()
    bo.wait_for_selector(f'[data-your-game="{gid}"]')
    assert bo.locator(f'[data-your-game="{listed["game_id"]}"]').count() == 1
    both_shots(bo, "people-your-games")

    # Ann asks for a rematch from the result; the next game waits for Bo, whose result offers to join it
    ann = browsers()
    ann.goto(f"{base_url}/play/#game={gid}&g=sten&token={ann_token}")
    ann.wait_for_selector('[data-result] [data-action="rematch"]')
    both_shots(ann, "people-rematch-offer")
    ann.click('[data-action="rematch"]')
    ann.wait_for_selector("[data-waiting]")
    nxt = parse_qs(urlsplit(ann.url).fragment)["game"][0]
    assert nxt != gid and ring_names(ann)[0] == "Ann (you)"  # Ann sits at seat 1 now: her seat first
    assert ann.locator('[data-ring-seat="0"]').get_attribute("data-kind") == "open"
    bo.goto(f"{base_url}/play/#game={gid}&g=sten&token={bo_token}")
    bo.wait_for_selector('[data-result] [data-action="rematch"]')
    assert bo.inner_text('[data-result] [data-action="rematch"]') == "Join the rematch"
    bo.click('[data-action="rematch"]')
    bo.wait_for_selector('[data-table][data-status="active"]')
    assert parse_qs(urlsplit(bo.url).fragment)["game"][0] == nxt
    ann.wait_for_selector('[data-table][data-status="active"]')
    both_shots(bo, "people-rematch-started")


def test_the_waiting_room_starts_with_bots_or_calls_the_game_off(base_url: str, browsers: Any) -> None:
    ann = browsers()
    for action in ("start-now", "abort"):
        ann.goto(f"{base_url}/play/#new=sten")
        ann.fill("#name", "Ann")
        ann.fill('input[name="players"]', "3")
        ann.select_option('select[name="seat-1"]', "open")
        ann.select_option('select[name="seat-2"]', "open")
        ann.click('[data-action="start"]')
        ann.wait_for_selector("[data-waiting]")
        ann.click(f'[data-action="{action}"]')
        if action == "start-now":
            ann.wait_for_selector('[data-table][data-status="active"]')
            kinds = ann.eval_on_selector_all("[data-ring-seat]", "els => els.map(e => e.dataset.kind)")
            assert kinds == ["human", "bot", "bot"]
            assert ann.locator("#history").inner_text().count("bot took seat") == 2
        else:
            ann.wait_for_selector('[data-table][data-status="finished"] [data-result]')
            assert "called off" in ann.inner_text("[data-result]")
            assert ann.locator('[data-action="rematch"], [data-action="watch-again"]').count() == 0
            both_shots(ann, "people-called-off")
