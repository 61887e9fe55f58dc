"""The HTTP contract (openapi/openapi.json) through the Flask test client, on a real Redis."""

from __future__ import annotations

import json

import pytest
import redis
from flask.testing import FlaskClient

from engines import REGISTRY
from service.app import create_app
from service.config import Settings
from tests.playout import built

PROBLEM = "application/problem+json"


def create(client: FlaskClient, game: str = "sten", **body) -> dict:
    body.setdefault("players", 3)
    r = client.post(f"/v1/{game}/games", json=body)
    assert r.status_code == 201, r.json
    return r.json


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def untimed(answer: dict) -> dict:
    """An answer without ``server_time``: the time of each answer, the one field in which two answers
    of the same version differ."""
    return {k: v for k, v in answer.items() if k != "server_time"}


def assert_problem(r, status: int, code: str) -> dict:
    assert r.status_code == status, (r.status_code, r.data[:300])
    assert r.content_type == PROBLEM
    body = r.json
    assert body["status"] == status and body["code"] == code
    assert body["type"].endswith(code) and body["title"] and body["detail"]
    return body


def test_catalogue_lists_every_registered_game_with_its_options(client: FlaskClient) -> None:
    games = {g["game"]: g for g in client.get("/v1/games").json["games"]}
    assert set(games) == set(REGISTRY)
    sten = games["sten"]
    assert (sten["min_players"], sten["max_players"]) == (2, 8)
    options = {o["name"]: o for o in sten["options"]}
    assert options["remainder_policy"]["default"] == "open"
    assert set(options["remainder_policy"]["choices"]) == {"open", "uneven", "dead", "restrict"}


def test_create_returns_seats_tokens_and_location(client: FlaskClient) -> None:
    r = client.post("/v1/sten/games", json={"players": 4, "bots": [3]})
    assert r.status_code == 201
    body = r.json
    assert r.headers["Location"] == f"/v1/sten/games/{body['game_id']}"
    assert body["players"] == 4 and body["game"] == "sten"
    assert [s["bot"] for s in body["seats"]] == [False, False, False, True]
    assert body["seats"][3]["token"] is None
    tokens = [s["token"] for s in body["seats"][:3]]
    assert len(set(tokens)) == 3 and all(len(t) >= 22 for t in tokens)  # >= 128 bits of urlsafe base64


def test_tokens_are_stored_only_hashed(client: FlaskClient, redis_server) -> None:
    body = create(client, players=2)
    raw = redis.Redis.from_url(redis_server.url).hget(f"cardtable:game:{{{body['game_id']}}}", "s")
    assert raw and body["seats"][0]["token"].encode() not in raw and body["seats"][1]["token"].encode() not in raw


def test_keys_carry_hash_tags_and_ttls(client: FlaskClient, redis_server) -> None:
    body = create(client, players=2, bots=[1], deck=_sten_deck_bot_first())
    r = redis.Redis.from_url(redis_server.url)
    gid = body["game_id"]
    for key in (f"cardtable:game:{{{gid}}}", f"cardtable:log:{{{gid}}}"):
        assert r.exists(key), key
        assert 0 < r.ttl(key) <= 7 * 24 * 3600


def _sten_deck_bot_first() -> list[str]:
    """A 2-player Sten deck whose 7H goes to seat 1 (dealt second), so the bot opens."""
    from engines.cards import standard_deck

    deck = [c for c in standard_deck() if c != "7H"]
    return [deck[0], "7H", *deck[1:]]


def test_view_of_a_seat_shows_its_hand_and_spectator_none(client: FlaskClient) -> None:
    body = create(client, players=3)
    gid = body["game_id"]
    seat_view = client.get(f"/v1/sten/games/{gid}", headers=auth(body["seats"][1]["token"])).json
    assert seat_view["seat"] == 1 and isinstance(seat_view["state"]["hand"], list)
    spectator = client.get(f"/v1/sten/games/{gid}").json
    assert spectator["seat"] is None and spectator["state"]["hand"] is None and spectator["legal_moves"] == []
    others = client.get(f"/v1/sten/games/{gid}", headers=auth(body["seats"][0]["token"])).json
    others["state"].pop("layout")  # the table: every card that fits next is named there, held or not
    text = json.dumps(others)
    assert not any(f'"{card}"' in text for card in seat_view["state"]["hand"])


def test_views_validate_against_the_view_schema(client: FlaskClient) -> None:
    body = create(client, players=4)
    schema = built(REGISTRY["sten"]).view()
    for seat in body["seats"]:
        view = client.get(f"/v1/sten/games/{body['game_id']}", headers=auth(seat["token"])).json
        assert schema.validate(view) == {}


def test_etag_names_version_and_seat_and_if_none_match_answers_304(client: FlaskClient) -> None:
    body = create(client, players=2)
    path = f"/v1/sten/games/{body['game_id']}"
    a = client.get(path, headers=auth(body["seats"][0]["token"]))
    b = client.get(path, headers=auth(body["seats"][1]["token"]))
    spectator = client.get(path)
    assert len({a.headers["ETag"], b.headers["ETag"], spectator.headers["ETag"]}) == 3
    a = client.get(path, headers=auth(body["seats"][0]["token"]))  # seat 1 came meanwhile: another ETag
    again = client.get(path, headers={**auth(body["seats"][0]["token"]), "If-None-Match": a.headers["ETag"]})
    assert again.status_code == 304 and again.data == b""
    other = client.get(path, headers={**auth(body["seats"][1]["token"]), "If-None-Match": a.headers["ETag"]})
    assert other.status_code == 200



def test_a_view_cached_before_the_view_changed_shape_is_sent_again(client: FlaskClient, monkeypatch) -> None:
    """The ETag names the view's shape: after an upgrade that renames or adds view fields, a client
    revalidating the view it cached gets the new view, not a 304 for the old one."""
    from service import wire

    body = create(client, players=2)
    path = f"/v1/sten/games/{body['game_id']}"
    seat0 = auth(body["seats"][0]["token"])
    monkeypatch.setattr(wire, "VIEW_SHAPE", wire.VIEW_SHAPE - 1)
    before_upgrade = client.get(path, headers=seat0).headers["ETag"]
    monkeypatch.undo()
    again = client.get(path, headers={**seat0, "If-None-Match": before_upgrade})
    assert again.status_code == 200 and again.headers["ETag"] != before_upgrade

def _mover(client: FlaskClient, body: dict) -> tuple[str, dict]:
    for seat in body["seats"]:
        view = client.get(f"/v1/sten/games/{body['game_id']}", headers=auth(seat["token"])).json
        if view["legal_moves"]:
            return seat["token"], view
    raise AssertionError("nobody to move")


def test_a_stale_version_is_409_and_changes_nothing(client: FlaskClient) -> None:
    body = create(client, players=2)
    token, view = _mover(client, body)
    path = f"/v1/sten/games/{body['game_id']}/moves"
    ok = client.post(path, headers=auth(token), json={"version": view["version"], "move": view["legal_moves"][0]})
    assert ok.status_code == 200 and ok.json["version"] == view["version"] + 1
    token2, view2 = _mover(client, body)
    stale = client.post(path, headers=auth(token2), json={"version": view["version"], "move": view2["legal_moves"][0]})
    problem = assert_problem(stale, 409, "stale_version")
    assert problem["current_version"] == view2["version"]
    assert client.get(f"/v1/sten/games/{body['game_id']}").json["version"] == view2["version"]


def test_missing_wrong_or_foreign_token_is_401(client: FlaskClient) -> None:
    body, other = create(client, players=2), create(client, players=2)
    path = f"/v1/sten/games/{body['game_id']}/moves"
    move = {"move": {"type": "stein"}}
    assert_problem(client.post(path, json=move), 401, "unauthorized")
    assert_problem(client.post(path, json=move, headers=auth("not-a-token")), 401, "unauthorized")
    assert_problem(client.post(path, json=move, headers=auth(other["seats"][0]["token"])), 401, "unauthorized")
    assert_problem(client.post(path, json=move, headers={"Authorization": "Basic abc"}), 401, "unauthorized")
    assert_problem(client.get(f"/v1/sten/games/{body['game_id']}", headers=auth("nope")), 401, "unauthorized")


def test_not_your_turn_is_409(client: FlaskClient) -> None:
    body = create(client, players=2)
    _, view = _mover(client, body)
    waiting = [s for s in body["seats"] if s["seat"] not in view["to_move"]][0]
    r = client.post(f"/v1/sten/games/{body['game_id']}/moves", headers=auth(waiting["token"]),
                    json={"move": view["legal_moves"][0]})
    assert_problem(r, 409, "not_your_turn")


def test_an_illegal_move_is_422_with_a_reason_and_changes_nothing(client: FlaskClient) -> None:
    body = create(client, players=2)
    token, view = _mover(client, body)
    hand = view["state"]["hand"]
    unfit = next(c for c in hand if c != "7H")
    r = client.post(f"/v1/sten/games/{body['game_id']}/moves", headers=auth(token),
                    json={"move": {"type": "play", "card": unfit}})
    problem = assert_problem(r, 422, "illegal_move")
    assert problem["reason"]
    assert client.get(f"/v1/sten/games/{body['game_id']}").json["version"] == view["version"]


@pytest.mark.parametrize("raw,headers", [
    (b"not json", {"Content-Type": "application/json"}),
    (b'{"players": 2}', {"Content-Type": "text/plain"}),
    (b"{\"players\": 2", {"Content-Type": "application/json"}),
    (b"[" * 20000 + b"]" * 20000, {"Content-Type": "application/json"}),
])
def test_a_body_that_is_not_json_is_400(client: FlaskClient, raw: bytes, headers: dict) -> None:
    assert_problem(client.post("/v1/sten/games", data=raw, headers=headers), 400, "bad_request")


def test_an_unknown_game_or_route_is_404(client: FlaskClient) -> None:
    assert_problem(client.get("/v1/sten/games/doesnotexist"), 404, "game_not_found")
    assert_problem(client.get("/v1/sten/games/" + "x" * 5000), 404, "not_found")
    assert_problem(client.get("/v1/chess/games"), 404, "not_found")


@pytest.mark.parametrize("body,where", [
    ({}, "players"),
    ({"players": 1}, "players"),
    ({"players": 9}, "players"),
    ({"players": "4"}, "players"),
    ({"players": 4, "options": {"remainder_policy": "sometimes"}}, "options"),
    ({"players": 4, "options": {"nope": True}}, "options"),
    ({"players": 4, "bots": [4]}, "bots"),
    ({"players": 2, "bots": [0, 1]}, "bots"),
    ({"players": 4, "bots": [1, 1]}, "bots"),
    ({"players": 4, "deck": ["7H"] * 52}, "deck"),
    ({"players": 4, "deck": ["ZZ"]}, "deck"),
    ({"players": 4, "extra": 1}, "extra"),
])
def test_a_bad_create_is_422_naming_the_field(client: FlaskClient, body: dict, where: str) -> None:
    problem = assert_problem(client.post("/v1/sten/games", json=body), 422, "validation_error")
    assert where in problem["errors"]


def test_fixed_deals_are_refused_when_disabled(redis_server) -> None:
    client = create_app(Settings(redis_url=redis_server.url, allow_fixed_deals=False, request_log=False)).test_client()
    assert_problem(client.post("/v1/sten/games", json={"players": 2, "seed": "x"}), 403, "fixed_deal_disabled")
    assert_problem(client.post("/v1/sten/games", json={"players": 2, "deck": []}), 403, "fixed_deal_disabled")
    assert client.post("/v1/sten/games", json={"players": 2}).status_code == 201


def test_a_fixed_deck_deals_as_documented(client: FlaskClient) -> None:
    deck = _sten_deck_bot_first()
    body = create(client, players=2, deck=deck)
    view = client.get(f"/v1/sten/games/{body['game_id']}", headers=auth(body["seats"][0]["token"])).json
    assert set(view["state"]["hand"]) == set(deck[0::2])


def test_an_oversized_body_is_413(client: FlaskClient) -> None:
    r = client.post("/v1/sten/games", data=b'{"players": 2, "seed": "' + b"x" * 70000 + b'"}',
                    headers={"Content-Type": "application/json"})
    assert_problem(r, 413, "payload_too_large")


def test_an_unknown_method_is_405_with_allow(client: FlaskClient) -> None:
    r = client.delete("/v1/sten/games")
    assert_problem(r, 405, "method_not_allowed")
    assert "POST" in r.headers["Allow"]


def test_the_game_over_is_409(client: FlaskClient) -> None:
    body = create(client, players=2, bots=[1])
    token = body["seats"][0]["token"]
    path = f"/v1/sten/games/{body['game_id']}"
    for _ in range(500):
        view = client.get(path, headers=auth(token)).json
        if view["status"] == "finished":
            break
        r = client.post(path + "/moves", headers=auth(token), json={"move": view["legal_moves"][0]})
        assert r.status_code == 200
    assert view["status"] == "finished" and view["result"]["winners"]
    r = client.post(path + "/moves", headers=auth(token), json={"move": {"type": "stein"}})
    assert_problem(r, 409, "game_over")


def test_the_log_is_redacted_per_viewer_and_replays_to_the_stored_state(client: FlaskClient, redis_server) -> None:
    body = create(client, players=3, bots=[1, 2])
    token = body["seats"][0]["token"]
    path = f"/v1/sten/games/{body['game_id']}"
    for _ in range(6):
        view = client.get(path, headers=auth(token)).json
        if view["status"] == "finished":
            break
        client.post(path + "/moves", headers=auth(token), json={"move": view["legal_moves"][0]})
    log = client.get(path + "/log").json
    assert [e["version"] for e in log["entries"]] == list(range(1, log["version"] + 1))
    engine = REGISTRY["sten"]
    record = json.loads(redis.Redis.from_url(redis_server.url).hget(f"cardtable:game:{{{body['game_id']}}}", "s"))
    state = engine.new_game(record["players"], record["options"], record["seed"], record["deck"])
    from engines.core import move_from_json

    for raw in redis.Redis.from_url(redis_server.url).lrange(f"cardtable:log:{{{body['game_id']}}}", 0, -1):
        entry = json.loads(raw)
        state = engine.apply(state, entry["seat"], move_from_json(engine.move_types, entry["move"]))
    assert engine.encode(state) == record["state"]


def test_health_and_readiness(client: FlaskClient) -> None:
    assert client.get("/healthz").json == {"status": "ok"}
    assert client.get("/readyz").json == {"status": "ok", "store": "redis"}
