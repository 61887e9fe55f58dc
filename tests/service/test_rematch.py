"""``POST .../rematch`` over HTTP on a real Redis: the next game of a finished one, the same people and
bots one seat on, created by the first call and joined by each later one, the same token again on a
repeated call, waiting until everyone came or someone starts it; the finished game names it.
"""

from __future__ import annotations

import json
import random
import threading

import pytest
import redis
from flask.testing import FlaskClient

from tests.http import Client
from tests.servers import gunicorn
from tests.service.test_api import assert_problem, auth


def _play_out(client: FlaskClient, path: str, tokens: list[str | None], seed: str) -> dict:
    """Play the game to its end with random listed moves of its people (its bots answer by themselves)."""
    rng = random.Random(seed)
    for _ in range(3000):
        spectator = client.get(path).json
        if spectator["status"] == "finished":
            return spectator
        seat = spectator["to_move"][0]
        view = client.get(path, headers=auth(tokens[seat])).json
        move = view["legal_moves"][rng.randrange(len(view["legal_moves"]))]
        r = client.post(f"{path}/moves", json={"version": view["version"], "move": move}, headers=auth(tokens[seat]))
        assert r.status_code == 200, r.json
    raise AssertionError("no end")


def _finished(client: FlaskClient, seats: list[dict], seed: str) -> tuple[str, list[str | None]]:
    created = client.post("/v1/sten/games", json={"players": len(seats), "seats": seats,
                                                  "options": {"remainder_policy": "dead"}}).json
    path = f"/v1/sten/games/{created['game_id']}"
    tokens = [s["token"] for s in created["seats"]]
    _play_out(client, path, tokens, seed)
    return path, tokens


def test_the_first_call_makes_the_next_game_and_each_later_one_sits_down(client: FlaskClient,
                                                                         redis_server) -> None:
    path, (ann, bo) = _finished(client, [{"name": "Ann"}, {"name": "Bo"}], "rematch-1")
    seen = client.get(path, headers=auth(bo))
    assert seen.json["next_game_id"] is None
    first = client.post(f"{path}/rematch", headers=auth(ann))
    assert first.status_code == 201, first.json
    nxt = first.json
    assert nxt["seat"] == 1 and nxt["token"].startswith(nxt["game_id"] + ".")
    npath = f"/v1/sten/games/{nxt['game_id']}"
    # every view of the finished game names the next one; a view cached before is not confirmed
    for headers in ({}, auth(ann), auth(bo)):
        assert client.get(path, headers=headers).json["next_game_id"] == nxt["game_id"]
    again_view = client.get(path, headers={**auth(bo), "If-None-Match": seen.headers["ETag"]})
    assert again_view.status_code == 200 and again_view.json["next_game_id"] == nxt["game_id"]
    view = client.get(npath, headers=auth(nxt["token"])).json
    assert view["status"] == "waiting" and view["seat"] == 1
    assert [(s["name"], s["kind"], s["status"]) for s in view["seats"]] == [
        ("Bo", "open", "waiting"), ("Ann", "human", "playing")]
    # a repeated call answers the same token, stored only hashed
    repeat = client.post(f"{path}/rematch", headers=auth(ann))
    assert repeat.status_code == 200 and repeat.json == nxt
    r = redis.Redis.from_url(redis_server.url)
    assert nxt["token"].encode() not in r.hget(f"cardtable:game:{{{nxt['game_id']}}}", "s")
    # an invite cannot take the seat kept for Bo
    assert_problem(client.post(f"{npath}/join", json={"name": "Eve"}), 403, "bad_invite")
    # Bo comes: the last person of the finished game, so the next game starts
    bos = client.post(f"{path}/rematch", headers=auth(bo))
    assert bos.status_code == 200 and bos.json["game_id"] == nxt["game_id"] and bos.json["seat"] == 0
    view = client.get(npath, headers=auth(bos.json["token"])).json
    assert view["status"] == "active" and [s["kind"] for s in view["seats"]] == ["human", "human"]
    log = client.get(f"{npath}/log").json["entries"]
    assert [e["type"] for e in log[0]["events"]] == ["seat_taken", "game_started"]
    assert client.post(f"{path}/rematch", headers=auth(bo)).json == bos.json
    # the same options, a fresh deal
    old, new = (json.loads(r.hget(f"cardtable:game:{{{g}}}", "s")) for g in (path.rsplit("/", 1)[1], nxt["game_id"]))
    assert new["options"] == old["options"] and old["options"]["remainder_policy"] == "dead"
    assert new["seed"] != old["seed"]


def test_bots_come_along_at_their_level_and_a_start_leaves_the_latecomer_out(client: FlaskClient) -> None:
    path, (ann, _bot, bo) = _finished(client, [{"name": "Ann"}, {"bot": "strong", "name": "Robo"}, {"name": "Bo"}],
                                      "rematch-2")
    old = client.get(path).json
    nxt = client.post(f"{path}/rematch", headers=auth(bo)).json
    assert nxt["seat"] == 0
    npath = f"/v1/sten/games/{nxt['game_id']}"
    view = client.get(npath, headers=auth(nxt["token"])).json
    assert [(s["name"], s["kind"], s["level"]) for s in view["seats"]] == [
        ("Bo", "human", None), ("Ann", "open", None), ("Robo", "bot", "strong")]
    assert view["players"] == old["players"] == 3
    started = client.post(f"{npath}/start", headers=auth(nxt["token"]))
    assert started.status_code == 200 and started.json["seats"][1]["kind"] == "bot"
    assert_problem(client.post(f"{path}/rematch", headers=auth(ann)), 409, "no_open_seat")


def test_only_a_seat_of_a_finished_game_asks_for_a_rematch(client: FlaskClient) -> None:
    created = client.post("/v1/sten/games", json={"players": 2, "seats": [{"name": "Ann"}, {"name": "Bo"}]}).json
    path = f"/v1/sten/games/{created['game_id']}"
    assert_problem(client.post(f"{path}/rematch", headers=auth(created["seats"][0]["token"])), 409,
                   "game_not_finished")
    assert_problem(client.post(f"{path}/rematch"), 401, "unauthorized")
    waiting = client.post("/v1/sten/games", json={"players": 2, "seats": [{"name": "Ann"}, {"open": True}]}).json
    wpath = f"/v1/sten/games/{waiting['game_id']}"
    client.post(f"{wpath}/abort", headers=auth(waiting["seats"][0]["token"]))
    assert_problem(client.post(f"{wpath}/rematch", headers=auth(waiting["seats"][0]["token"])), 409,
                   "game_not_finished")


@pytest.fixture(scope="module")
def served(redis_server):
    with gunicorn(redis_server.url, workers=3) as url:
        yield url


def test_two_first_calls_at_once_make_one_next_game(served) -> None:
    setup = Client(served)
    created = setup.post("/v1/sten/games", {"players": 2, "seats": [{"name": "Ann"}, {"name": "Bo"}]}).json
    path = f"/v1/sten/games/{created['game_id']}"
    tokens = [s["token"] for s in created["seats"]]
    rng = random.Random("race")
    while (spectator := setup.get(path).json)["status"] != "finished":
        seat = spectator["to_move"][0]
        legal = setup.get(path, token=tokens[seat]).json["legal_moves"]
        assert setup.post(f"{path}/moves", {"move": legal[rng.randrange(len(legal))]}, token=tokens[seat]).status == 200
    barrier = threading.Barrier(2)
    answers: dict[int, tuple[int, dict]] = {}

    def call(seat: int) -> None:
        client = Client(served)
        client.get("/healthz")
        barrier.wait()
        reply = client.post(f"{path}/rematch", {}, token=tokens[seat])
        answers[seat] = (reply.status, reply.json)

    threads = [threading.Thread(target=call, args=(s,)) for s in (0, 1)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert sorted(status for status, _ in answers.values()) == [200, 201]
    assert answers[0][1]["game_id"] == answers[1][1]["game_id"]
    assert (answers[0][1]["seat"], answers[1][1]["seat"]) == (1, 0)
    view = setup.get(f"/v1/sten/games/{answers[0][1]['game_id']}", token=answers[0][1]["token"]).json
    assert view["status"] == "active" and view["seat"] == 1
