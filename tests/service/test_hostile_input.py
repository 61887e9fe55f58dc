"""Hostile input: every malformed request gets a clear problem+json answer and changes nothing."""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient

from engines import REGISTRY
from tests.service.test_api import untimed

GAMES = sorted(REGISTRY)


def _problem(reply, status: int, code: str) -> dict:
    assert reply.status_code == status, (reply.status_code, reply.data[:300])
    assert reply.content_type == "application/problem+json"
    assert reply.json["code"] == code
    return reply.json


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("body,where", [
    ({"players": True}, "players"),
    ({"players": 2.5}, "players"),
    ({"players": None}, "players"),
    ({"players": 2, "options": []}, "options"),
    ({"players": 2, "options": {"max_turns": "many"}}, "options"),
    ({"players": 2, "options": {"no_such_option": 1}}, "options"),
    ({"players": 2, "seed": ""}, "seed"),
    ({"players": 2, "seed": 7}, "seed"),
    ({"players": 2, "deck": "7H"}, "deck"),
    ({"players": 2, "deck": []}, "deck"),
    ({"players": 2, "deck": ["ZZ"] * 3}, "deck"),
    ({"players": 2, "deck": ["x" * 50] * 250}, "deck"),
    ({"players": 2, "bots": [-1]}, "bots"),
    ({"players": 2, "bots": "1"}, "bots"),
    ({"players": 2, "bots": list(range(50))}, "bots"),
    ({"players": 10**30}, "players"),
    ({"players": -1}, "players"),
])
def test_a_malformed_create_is_422_naming_the_field(client: FlaskClient, game: str, body: dict, where: str) -> None:
    body = dict(body)
    if body.get("players") == 2 and 2 not in REGISTRY[game].players:
        body["players"] = REGISTRY[game].players.start
    problem = _problem(client.post(f"/v1/{game}/games", json=body), 422, "validation_error")
    assert where in problem["errors"], problem["errors"]


@pytest.mark.parametrize("game", GAMES)
def test_an_impossible_deck_is_refused_for_every_game(client: FlaskClient, game: str) -> None:
    players = REGISTRY[game].players.start
    problem = _problem(client.post(f"/v1/{game}/games", json={"players": players, "deck": ["7H", "7H"]}),
                       422, "validation_error")
    assert "deck" in problem["errors"]


@pytest.fixture()
def sten_seat(client: FlaskClient) -> tuple[str, str, dict]:
    created = client.post("/v1/sten/games", json={"players": 2}).json
    for seat in created["seats"]:
        view = client.get(f"/v1/sten/games/{created['game_id']}",
                          headers={"Authorization": f"Bearer {seat['token']}"}).json
        if view["legal_moves"]:
            return created["game_id"], seat["token"], view
    raise AssertionError("nobody to move")


@pytest.mark.parametrize("body,status,code", [
    ({}, 422, "validation_error"),
    ({"move": None}, 422, "validation_error"),
    ({"move": "play 7H"}, 422, "validation_error"),
    ({"move": {}}, 422, "validation_error"),
    ({"move": {"type": "play"}}, 422, "validation_error"),
    ({"move": {"type": "play", "card": 7}}, 422, "validation_error"),
    ({"move": {"type": "play", "card": "7H", "extra": 1}}, 422, "validation_error"),
    ({"move": {"type": "play_all", "cards": ["7H"] * 500}}, 422, "validation_error"),
    ({"move": {"type": "play", "card": "x" * 1000}}, 422, "validation_error"),
    ({"move": {"type": "teleport"}}, 422, "validation_error"),
    ({"move": {"type": "play", "card": "ZZ"}}, 422, "illegal_move"),
    ({"move": {"type": "play_all", "cards": []}}, 422, "illegal_move"),
    ({"version": -1, "move": {"type": "stein"}}, 422, "validation_error"),
    ({"version": "0", "move": {"type": "stein"}}, 422, "validation_error"),
    ({"version": 10**6, "move": {"type": "stein"}}, 409, "stale_version"),
    ([1, 2, 3], 422, "validation_error"),
])
def test_a_malformed_move_is_refused_and_changes_nothing(client: FlaskClient, sten_seat, body, status, code) -> None:
    game_id, token, view = sten_seat
    reply = client.post(f"/v1/sten/games/{game_id}/moves", json=body, headers={"Authorization": f"Bearer {token}"})
    _problem(reply, status, code)
    after = client.get(f"/v1/sten/games/{game_id}", headers={"Authorization": f"Bearer {token}"}).json
    assert untimed(after) == untimed(view)


def test_deeply_nested_and_huge_bodies(client: FlaskClient, sten_seat) -> None:
    game_id, token, view = sten_seat
    auth = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    path = f"/v1/sten/games/{game_id}/moves"
    nested = b'{"move": ' + b'{"a": ' * 5000 + b"1" + b"}" * 5000 + b"}"
    _problem(client.post(path, data=nested, headers=auth), 400, "bad_request")
    wide = b'{"move": {"type": "play_all", "cards": [' + b",".join([b'"7H"'] * 20000) + b"]}}"
    _problem(client.post(path, data=wide, headers=auth), 413, "payload_too_large")
    _problem(client.post(path, data=b"\xff\xfe\x00", headers=auth), 400, "bad_request")
    after = client.get(f"/v1/sten/games/{game_id}", headers={"Authorization": f"Bearer {token}"}).json
    assert untimed(after) == untimed(view)


@pytest.mark.parametrize("path", [
    "/v1/sten/games/" + "a" * 64,
    "/v1/sten/games/%00",
    "/v1/sten/games/..%2F..%2Fetc",
    "/v1/sten/games/" + "é" * 10,
])
def test_odd_or_very_long_ids_are_404(client: FlaskClient, path: str) -> None:
    assert client.get(path).status_code == 404
    assert client.get(path).content_type == "application/problem+json"


@pytest.mark.parametrize("method,path", [
    ("PUT", "/v1/sten/games"), ("DELETE", "/v1/sten/games/x"), ("PATCH", "/v1/sten/games/x/moves"),
    ("POST", "/v1/games"), ("POST", "/healthz"), ("TRACE", "/v1/sten/games"),
])
def test_unknown_methods_are_405(client: FlaskClient, method: str, path: str) -> None:
    _problem(client.open(path, method=method), 405, "method_not_allowed")


def test_a_header_token_of_absurd_size_is_refused_cleanly(client: FlaskClient, sten_seat) -> None:
    game_id, _, _ = sten_seat
    reply = client.get(f"/v1/sten/games/{game_id}", headers={"Authorization": "Bearer " + "t" * 8000})
    _problem(reply, 401, "unauthorized")
