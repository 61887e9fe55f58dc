"""Sten's play-all button in Chromium says what the view's ``play_all_wins`` says (seeds/sten.md section 6):
a declaration that would win says so and goes at once; one that would fail says so and is sent, exactly
as listed, only after the player confirms it. Two fixed deals of two seats, both people: the page plays
seat 0, the test plays seat 1 through the API.
"""

from __future__ import annotations

import json
import urllib.request
from typing import Any

from engines.cards import standard_deck
from tests.web.conftest import shot
from tests.web.test_browser import api, table_state, wait_ready, wait_version_change

CLUBS_AND_HEARTS = [c for c in standard_deck() if c[-1] in "CH"]
DIAMONDS_AND_SPADES = [c for c in standard_deck() if c[-1] in "DS"]
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1200, "height": 900}


def deal(seat0: list[str], seat1: list[str]) -> list[str]:
    """A two-seat deck (top first): card i goes to seat i mod 2."""
    return [c for pair in zip(seat0, seat1, strict=True) for c in pair]


def post(base: str, path: str, body: dict[str, Any], token: str | None = None) -> Any:
    headers = {"Content-Type": "application/json", **({"Authorization": f"Bearer {token}"} if token else {})}
    req = urllib.request.Request(base + path, data=json.dumps(body).encode(), headers=headers, method="POST")
    with urllib.request.urlopen(req, timeout=10) as res:
        return json.loads(res.read())


def seat_zero_to_declare(base: str, page: Any, hand0: list[str], hand1: list[str]) -> tuple[str, list[str]]:
    """Open a game with seat 0's page, play 7H there, 7D for seat 1: seat 0 may then declare."""
    created = post(base, "/v1/sten/games", {"players": 2, "bots": [], "deck": deal(hand0, hand1)})
    gid, tokens = created["game_id"], [s["token"] for s in created["seats"]]
    page.goto(f"{base}/play/#game={gid}&g=sten&token={tokens[0]}")
    wait_ready(page)
    old = table_state(page)["version"]
    page.locator('[data-move=\'{"card":"7H","type":"play"}\'], [data-move=\'{"type":"play","card":"7H"}\']').click()
    wait_version_change(page, old)
    old = table_state(page)["version"]
    view = api(base, f"/v1/sten/games/{gid}", tokens[1])
    post(base, f"/v1/sten/games/{gid}/moves", {"version": view["version"], "move": {"type": "play", "card": "7D"}},
         tokens[1])
    wait_version_change(page, old)
    wait_ready(page)
    return gid, tokens


def play_all_button(page: Any) -> Any:
    buttons = page.locator("[data-move]").filter(has_text="Play all")
    assert buttons.count() == 1, "one declaration is listed (no open-remainder bridging)"
    return buttons.first


def test_a_losing_declaration_is_marked_and_sent_as_listed_only_after_the_player_confirms(
        base_url: str, new_page: Any) -> None:
    page = new_page()
    # seat 0 holds the 2D instead of the 2C: diamonds are seat 1's, so its declaration cannot win
    hand0 = [c for c in CLUBS_AND_HEARTS if c != "2C"] + ["2D"]
    hand1 = [c for c in DIAMONDS_AND_SPADES if c != "2D"] + ["2C"]
    gid, tokens = seat_zero_to_declare(base_url, page, hand0, hand1)
    view = api(base_url, f"/v1/sten/games/{gid}", tokens[0])
    listed = [m for m in view["legal_moves"] if m["type"] == "play_all"]
    assert view["state"]["play_all_wins"] == [False] and len(listed) == 1

    button = play_all_button(page)
    assert json.loads(button.get_attribute("data-move")) == listed[0]
    assert button.get_attribute("data-outlook") == "warn"
    assert "would fail" in button.inner_text()
    version = table_state(page)["version"]

    button.click()
    ask = page.locator('[role="alertdialog"]')
    ask.wait_for()
    assert "take the stone" in ask.inner_text()
    assert page.evaluate("document.activeElement.dataset.action") == "confirm", "focus goes to the question"
    assert table_state(page)["version"] == version, "nothing is sent before the player confirms"
    shot(page, "sten-declaration-fails-confirm")
    page.set_viewport_size(PHONE)
    shot(page, "sten-declaration-fails-confirm-phone")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.set_viewport_size(DESKTOP)

    page.click('[data-action="cancel"]')
    assert page.locator('[role="alertdialog"]').count() == 0
    assert table_state(page)["version"] == version, "cancel sends nothing"

    play_all_button(page).click()
    page.click('[data-action="confirm"]')
    wait_version_change(page, version)
    log = api(base_url, f"/v1/sten/games/{gid}/log?since=0", tokens[0])["entries"]
    assert log[-1]["seat"] == 0 and log[-1]["move"] == listed[0], "the listed move is posted as it is"
    after = api(base_url, f"/v1/sten/games/{gid}", tokens[0])
    assert after["state"]["stone_holder"] == 0 and after["status"] == "active"
    assert after["state"]["play_all_wins"] is None, "seat 0 may not declare on seat 1's turn"


def test_a_winning_declaration_says_so_and_goes_at_once(base_url: str, new_page: Any) -> None:
    page = new_page()
    gid, tokens = seat_zero_to_declare(base_url, page, CLUBS_AND_HEARTS, DIAMONDS_AND_SPADES)
    view = api(base_url, f"/v1/sten/games/{gid}", tokens[0])
    assert view["state"]["play_all_wins"] == [True]

    button = play_all_button(page)
    assert button.get_attribute("data-outlook") == "good"
    assert "wins now" in button.inner_text()
    shot(page, "sten-declaration-wins")
    page.set_viewport_size(PHONE)
    button.scroll_into_view_if_needed()
    shot(page, "sten-declaration-wins-phone", full_page=False)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.set_viewport_size(DESKTOP)

    version = table_state(page)["version"]
    button.click()
    wait_version_change(page, version)
    assert page.locator('[role="alertdialog"]').count() == 0
    page.wait_for_selector("[data-result]")
    result = api(base_url, f"/v1/sten/games/{gid}", tokens[0])["result"]
    assert result["winners"] == [0] and result["detail"]["reason"] == "play_all"
