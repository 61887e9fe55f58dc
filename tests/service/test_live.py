"""Over real HTTP under gunicorn with Redis: every game plays to its end using only listed moves.

For every registered game at its smallest and its largest table, all seats human: each move
posted is an entry of the mover's `legal_moves`, posted as it is, and must be accepted. Every
served view is the engine's view of the stored state for that seat (so the service adds
nothing a seat may not see), and validates against the game's view schema. (The table sizes
between are the engine's and the wire's affair: tests/test_every_table_size.py plays each.)
"""

from __future__ import annotations

import json
import random

import pytest
import redis

from engines import REGISTRY
from schemas.common import LOG_LIMIT_MAX
from service.cli import spec_document
from tests.http import Client
from tests.playout import built, short_options

CASES = [(g, n) for g, e in sorted(REGISTRY.items()) for n in sorted({min(e.players), max(e.players)})]
MAX_MOVES = 20_000


def _stored_state(redis_url: str, game: str, game_id: str):
    raw = redis.Redis.from_url(redis_url).hget(f"cardtable:game:{{{game_id}}}", "s")
    return REGISTRY[game].decode(json.loads(raw)["state"])


@pytest.mark.parametrize("game,players", CASES, ids=[f"{g}-{n}p" for g, n in CASES])
def test_a_game_plays_to_its_end_over_http_with_listed_moves(live_url, redis_server, game: str, players: int) -> None:
    engine = REGISTRY[game]
    client = Client(live_url)
    rng = random.Random(f"{game}/{players}")
    created = client.post(f"/v1/{game}/games", {"players": players, "options": short_options(engine)})
    assert created.status == 201, created.json
    game_id = created.json["game_id"]
    tokens = [s["token"] for s in created.json["seats"]]
    path = f"/v1/{game}/games/{game_id}"
    view_schema = built(engine).view()
    check_every = 1 if players <= 3 else 3
    for n in range(MAX_MOVES):
        spectator = client.get(path).json
        if spectator["status"] == "finished":
            break
        seat = spectator["to_move"][0]
        view = client.get(path, token=tokens[seat]).json
        if n % check_every == 0:
            state = _stored_state(redis_server.url, game, game_id)
            for viewer in range(players):
                answer = client.get(path, token=tokens[viewer])
                assert answer.status == 200, (answer.status, answer.json)
                seen = answer.json
                assert seen["state"] == json.loads(json.dumps(engine.view(state, viewer))), "view != engine view"
                assert view_schema.validate(seen) == {}
            assert spectator["state"] == json.loads(json.dumps(engine.view(state, None)))
        move = view["legal_moves"][int(rng.random() * len(view["legal_moves"]))]
        r = client.post(path + "/moves", {"version": view["version"], "move": move}, token=tokens[seat])
        assert r.status == 200, (move, r.json)
    else:
        raise AssertionError("the game did not end")
    final = client.get(path).json
    assert final["result"] is not None and final["to_move"] == []
    assert view_schema.validate(final) == {}
    log = client.get(path + f"/log?limit={LOG_LIMIT_MAX}").json
    assert len(log["entries"]) == final["version"]


def test_a_human_against_three_bots_finishes(live_url) -> None:
    client = Client(live_url)
    created = client.post("/v1/sten/games", {"players": 4, "bots": [1, 2, 3]}).json
    token = created["seats"][0]["token"]
    path = f"/v1/sten/games/{created['game_id']}"
    for _ in range(200):
        view = client.get(path, token=token).json
        if view["status"] == "finished":
            break
        assert view["to_move"] == [0], "a bot seat was left to move"
        r = client.post(path + "/moves", {"version": view["version"], "move": view["legal_moves"][0]}, token=token)
        assert r.status == 200
        assert r.json["version"] >= view["version"] + 1
    assert view["status"] == "finished"
    log = client.get(path + f"/log?limit={LOG_LIMIT_MAX}").json["entries"]
    assert {e["seat"] for e in log if e["bot"]} == {1, 2, 3}


def test_the_served_spec_equals_the_committed_file(live_url) -> None:
    served = Client(live_url).get("/openapi.json").json
    assert served == json.loads(json.dumps(spec_document()))


def test_errors_over_http_are_problem_json(live_url) -> None:
    client = Client(live_url)
    for reply in (
        client.get("/v1/sten/games/nope"),
        client.post("/v1/sten/games", raw=b"{oops", headers={"Content-Type": "application/json"}),
        client.post("/v1/sten/games", {"players": 99}),
        client.request("PUT", "/v1/games"),
        client.post("/v1/sten/games/nope/moves", {"move": {"type": "stein"}}),
    ):
        assert reply.content_type == "application/problem+json", reply.body[:200]
        assert reply.status in {400, 401, 404, 405, 422}
