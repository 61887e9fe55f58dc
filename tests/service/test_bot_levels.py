"""Bot levels through the service (README, "Bots"), against a real Redis."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from bots import DEFAULT_LEVEL, LEVELS


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _play(client: FlaskClient, game: str, body: dict[str, Any], human_moves: int) -> list[dict[str, Any]]:
    """Create ``body``, let the human seat play its first listed move ``human_moves`` times; the log."""
    created = client.post(f"/v1/{game}/games", json=body)
    assert created.status_code == 201, created.json
    seat = next(s for s in created.json["seats"] if not s["bot"])
    path = f"/v1/{game}/games/{created.json['game_id']}"
    for _ in range(human_moves):
        view = client.get(path, headers=_auth(seat["token"])).json
        if view["status"] == "finished" or not view["legal_moves"]:
            break
        assert client.post(path + "/moves", json={"move": view["legal_moves"][0]},
                           headers=_auth(seat["token"])).status_code == 200
    entries = client.get(path + "/log", headers=_auth(seat["token"])).json["entries"]
    return [{k: v for k, v in e.items() if k != "at"} for e in entries]  # what was played, not when


def test_the_catalogue_lists_every_games_bot_levels_and_default(client: FlaskClient) -> None:
    for game in client.get("/v1/games").json["games"]:
        assert game["bot_levels"] == list(LEVELS)
        assert game["default_bot_level"] == DEFAULT_LEVEL


def test_bots_with_levels_play_and_their_seats_show_the_level(client: FlaskClient) -> None:
    body = {"players": 3, "seed": "levels", "bots": [1, {"seat": 2, "level": "strong"}]}
    created = client.post("/v1/sten/games", json=body).json
    assert [s["level"] for s in created["seats"]] == [None, DEFAULT_LEVEL, "strong"]
    log = _play(client, "sten", body, 4)
    assert {e["seat"] for e in log if e["bot"]} == {1, 2}


@pytest.mark.parametrize("game", ["conquian", "kanaster"])
def test_a_fixed_deal_with_bots_replays_identically(client: FlaskClient, game: str) -> None:
    body = {"players": 2, "seed": "replay", "bots": [{"seat": 1, "level": "strong"}]}
    first = _play(client, game, body, 6)
    assert len(first) > 6
    assert _play(client, game, body, 6) == first


@pytest.mark.parametrize(("bots", "problem"), [
    ([{"seat": 1, "level": "expert"}], "level"),
    ([1, {"seat": 1, "level": "strong"}], "seats may not repeat"),
    ([3], "seats must be between 0 and 2"),
    ([0, 1, 2], "at least one seat must be a human's"),
    ([{"seat": 1, "level": "strong", "depth": 9}], "depth"),
])
def test_bot_seats_are_validated(client: FlaskClient, bots: list[Any], problem: str) -> None:
    answer = client.post("/v1/sten/games", json={"players": 3, "bots": bots})
    assert answer.status_code == 422 and answer.json["code"] == "validation_error"
    assert problem in str(answer.json["errors"]["bots"])
