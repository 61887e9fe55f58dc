"""``POST /v1/games/lookup`` over HTTP on a real Redis: a client's games from the tokens it keeps, one
item per token in order, null for a token that is no seat of any game here.
"""

from __future__ import annotations

from flask.testing import FlaskClient

from tests.service.test_api import assert_problem, auth


def _lookup(client: FlaskClient, tokens: list[str]) -> list[dict | None]:
    r = client.post("/v1/games/lookup", json={"tokens": tokens})
    assert r.status_code == 200, r.json
    return r.json["games"]


def test_lookup_answers_each_tokens_game_and_seat_in_order_and_null_for_the_rest(client: FlaskClient) -> None:
    waiting = client.post("/v1/sten/games", json={"players": 2, "seats": [{"name": "Ann"}, {"open": True}]}).json
    running = client.post("/v1/conquian/games", json={"players": 2}).json
    ann, = [s["token"] for s in waiting["seats"] if s["token"]]
    first, second = (s["token"] for s in running["seats"])
    tampered = first[:-2] + ("AA" if not first.endswith("AA") else "BB")
    other_game = running["game_id"] + "." + ann.split(".", 1)[1]  # a real secret under another game's id
    tokens = [second, "made-up", ann, tampered, first, other_game, "nosuchgame1234.secret", first]
    items = _lookup(client, tokens)
    assert len(items) == len(tokens)
    assert items[1] is None and items[3] is None and items[5] is None and items[6] is None
    assert items[2] == {"game": "sten", "game_id": waiting["game_id"], "seat": 0, "status": "waiting",
                        "your_turn": False, "deadline": None}
    to_move = client.get(f"/v1/conquian/games/{running['game_id']}").json["to_move"]
    assert items[0]["seat"] == 1 and items[4]["seat"] == 0 and items[7] == items[4]
    for item in (items[0], items[4]):
        assert (item["game"], item["game_id"], item["status"]) == ("conquian", running["game_id"], "active")
        assert item["your_turn"] is (item["seat"] in to_move)
    assert _lookup(client, []) == []


def test_lookup_follows_a_game_to_its_end(client: FlaskClient) -> None:
    created = client.post("/v1/sten/games", json={"players": 2, "seats": [{"name": "Ann"}, {"open": True}]}).json
    token = created["seats"][0]["token"]
    client.post(f"/v1/sten/games/{created['game_id']}/abort", headers=auth(token))
    assert _lookup(client, [token])[0]["status"] == "finished"


def test_lookup_takes_at_most_fifty_tokens_and_only_in_its_body(client: FlaskClient) -> None:
    assert_problem(client.post("/v1/games/lookup", json={"tokens": ["x"] * 51}), 422, "validation_error")
    for body in ({}, {"tokens": "x"}, {"tokens": [1]}, {"tokens": [""]}, {"tokens": [], "more": 1}):
        assert_problem(client.post("/v1/games/lookup", json=body), 422, "validation_error")
    assert_problem(client.post("/v1/games/lookup", data="tokens"), 400, "bad_request")
    assert_problem(client.get("/v1/games/lookup?tokens=x"), 405, "method_not_allowed")
    assert len(_lookup(client, ["x"] * 50)) == 50
