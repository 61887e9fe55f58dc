"""``POST .../moves/check`` (checking a move without making it): the answers of a move, and nothing
changes: not the version, not the log, not the idempotency records; nothing hidden is revealed."""

from __future__ import annotations

import dataclasses
import random

import pytest
import redis
from flask.testing import FlaskClient

from engines import REGISTRY
from tests.playout import short_options
from tests.service.test_api import assert_problem, auth, create

GAMES = sorted(REGISTRY)


def _stored(redis_server, game_id: str) -> tuple[bytes, list[bytes], list[bytes]]:
    """Everything the store holds of a game: snapshot hash, log and idempotency keys."""
    r = redis.Redis.from_url(redis_server.url)
    snap = r.hget(f"cardtable:game:{{{game_id}}}", "s") + r.hget(f"cardtable:game:{{{game_id}}}", "v")
    return snap, r.lrange(f"cardtable:log:{{{game_id}}}", 0, -1), sorted(r.keys(f"cardtable:idem:{{{game_id}}}:*"))


def _seat_to_move(client: FlaskClient, game: str, created: dict) -> tuple[str, dict]:
    for seat in created["seats"]:
        if seat["token"]:
            view = client.get(f"/v1/{game}/games/{created['game_id']}", headers=auth(seat["token"])).json
            if view["legal_moves"]:
                return seat["token"], view
    raise AssertionError("no human seat is to move")


@pytest.mark.parametrize("game", GAMES)
def test_every_listed_move_checks_legal_and_nothing_changes(client: FlaskClient, redis_server, game: str) -> None:
    engine = REGISTRY[game]
    players = min(engine.players)
    created = create(client, game, players=players, seed=f"check-{game}", options=short_options(engine))
    gid = created["game_id"]
    rng = random.Random(game)
    for _ in range(12):  # a few positions of the game, each checked and then played on
        token, view = _seat_to_move(client, game, created)
        before = _stored(redis_server, gid)
        for move in view["legal_moves"]:
            r = client.post(f"/v1/{game}/games/{gid}/moves/check", json={"version": view["version"], "move": move},
                            headers={**auth(token), "Idempotency-Key": "check-is-not-kept"})
            assert r.status_code == 200, (move, r.json)
            assert r.json == {"legal": True}  # the same bytes whatever the move: nothing else is told
        assert _stored(redis_server, gid) == before
        move = view["legal_moves"][rng.randrange(len(view["legal_moves"]))]
        r = client.post(f"/v1/{game}/games/{gid}/moves", json={"version": view["version"], "move": move},
                        headers=auth(token))
        assert r.status_code == 200
        if r.json["status"] == "finished":
            break


@pytest.mark.parametrize("game", GAMES)
def test_an_illegal_move_is_refused_by_check_exactly_as_by_submit(client: FlaskClient, redis_server, game: str) -> None:
    created = create(client, game, players=min(REGISTRY[game].players), seed=f"refuse-{game}")
    gid = created["game_id"]
    token, view = _seat_to_move(client, game, created)
    # Moves of every kind the game has, with cards nobody can hold: the first the rules refuse.
    bad = None
    for kind in REGISTRY[game].move_types:
        candidate: dict = {"type": kind.type}
        for f in dataclasses.fields(kind):
            if f.default is None:
                continue
            hint = str(f.type)
            candidate[f.name] = ([["ZZ", "ZZ", "ZZ"]] if "tuple[tuple" in hint else ["ZZ"] if "tuple" in hint
                                 else 0 if hint.startswith("int") else "ZZ")
        r = client.post(f"/v1/{game}/games/{gid}/moves/check", json={"move": candidate}, headers=auth(token))
        if r.status_code == 422 and r.json["code"] == "illegal_move":
            bad = candidate
            break
    assert bad is not None, f"no move of {game} was refused as illegal"
    before = _stored(redis_server, gid)
    checked = client.post(f"/v1/{game}/games/{gid}/moves/check", json={"move": bad}, headers=auth(token))
    submitted = client.post(f"/v1/{game}/games/{gid}/moves", json={"move": bad}, headers=auth(token))
    for r in (checked, submitted):
        assert_problem(r, 422, "illegal_move")
    assert checked.json == submitted.json
    assert _stored(redis_server, gid) == before


def test_check_answers_like_a_move_for_auth_version_turn_and_body(client: FlaskClient) -> None:
    created = create(client, "sten", players=3, seed="check-errors")
    gid = created["game_id"]
    url = f"/v1/sten/games/{gid}/moves/check"
    views = {s["seat"]: client.get(f"/v1/sten/games/{gid}", headers=auth(s["token"])).json
             for s in created["seats"]}
    mover = next(s for s, v in views.items() if v["legal_moves"])
    waiter = next(s for s, v in views.items() if not v["legal_moves"])
    move = views[mover]["legal_moves"][0]
    tokens = {s["seat"]: s["token"] for s in created["seats"]}
    assert_problem(client.post(url, json={"move": move}), 401, "unauthorized")
    assert_problem(client.post(url, json={"move": move}, headers=auth("x" * 32)), 401, "unauthorized")
    assert_problem(client.post("/v1/sten/games/nosuchgame/moves/check", json={"move": move},
                               headers=auth(tokens[mover])), 404, "game_not_found")
    assert_problem(client.post(url, data="not json", headers={**auth(tokens[mover]), "Content-Type": "text/plain"}),
                   400, "bad_request")
    assert_problem(client.post(url, json={"move": {"type": "fly"}}, headers=auth(tokens[mover])),
                   422, "validation_error")
    stale = assert_problem(client.post(url, json={"version": 5, "move": move}, headers=auth(tokens[mover])),
                           409, "stale_version")
    assert stale["current_version"] == 0
    assert_problem(client.post(url, json={"move": move}, headers=auth(tokens[waiter])), 409, "not_your_turn")


def test_a_check_keeps_no_idempotency_record(client: FlaskClient) -> None:
    """A check under an Idempotency-Key stores nothing: the same key then makes a real move."""
    created = create(client, "sten", players=2, seed="check-idem")
    gid = created["game_id"]
    token, view = _seat_to_move(client, "sten", created)
    move = view["legal_moves"][0]
    headers = {**auth(token), "Idempotency-Key": "k-1"}
    assert client.post(f"/v1/sten/games/{gid}/moves/check", json={"move": move}, headers=headers).status_code == 200
    r = client.post(f"/v1/sten/games/{gid}/moves", json={"move": move}, headers=headers)
    assert r.status_code == 200 and "Idempotent-Replayed" not in r.headers
    assert r.json["version"] >= 1


def test_check_after_the_end_is_game_over(client: FlaskClient) -> None:
    created = create(client, "sten", players=2, seed="check-over", bots=[1])
    gid = created["game_id"]
    token = created["seats"][0]["token"]
    view = client.get(f"/v1/sten/games/{gid}", headers=auth(token)).json
    for _ in range(200):
        if view["status"] == "finished":
            break
        view = client.post(f"/v1/sten/games/{gid}/moves", json={"move": view["legal_moves"][0]},
                           headers=auth(token)).json
    assert view["status"] == "finished"
    assert_problem(client.post(f"/v1/sten/games/{gid}/moves/check", json={"move": {"type": "stein"}},
                               headers=auth(token)), 409, "game_over")
