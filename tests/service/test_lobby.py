"""The lobby over HTTP on a real Redis: the listed games of one kind that wait for people, newest
first, paged and bounded, kept in a sorted set beside the games and changed in the same atomic step
as the game; stale members (games expired) dropped by the reader. The same on a Redis Cluster is in
tests/service/test_cluster.py.
"""

from __future__ import annotations

import redis
from flask.testing import FlaskClient

from service.lobby import member
from service.table import WAITING_TTL
from tests.service.test_api import assert_problem, auth

#: A game no other test lists, so that its lobby holds only what these tests put there (and each test
#: looks only at its own games within it).
GAME = "keine-lahme-agame"
LOBBY = f"cardtable:lobby:{{{GAME}}}"


def _listed(client: FlaskClient, name: str, listed: bool = True) -> dict:
    r = client.post(f"/v1/{GAME}/games", json={"players": 3, "listed": listed,
                                               "seats": [{"name": name}, {"open": True}, {"bot": "random"}]})
    assert r.status_code == 201, r.json
    return r.json


def _whole_lobby(client: FlaskClient, limit: int = 2) -> list[dict]:
    games, cursor = [], None
    for _ in range(1000):
        r = client.get(f"/v1/{GAME}/games?status=waiting&limit={limit}" + (f"&cursor={cursor}" if cursor else ""))
        assert r.status_code == 200, r.json
        assert len(r.json["games"]) <= limit
        games += r.json["games"]
        cursor = r.json["next_cursor"]
        if cursor is None:
            return games
    raise AssertionError("the lobby never ends")


def test_the_lobby_lists_listed_waiting_games_newest_first_a_page_at_a_time(client: FlaskClient) -> None:
    made = [_listed(client, f"L{n}") for n in range(5)]
    hidden = _listed(client, "unlisted", listed=False)
    full = client.post(f"/v1/{GAME}/games", json={"players": 2, "listed": True,
                                                  "seats": [{"name": "Ann"}, {"name": "Bo"}]}).json
    ids = [g["game_id"] for g in _whole_lobby(client)]
    mine = [i for i in ids if i in {g["game_id"] for g in made}]
    assert mine == [g["game_id"] for g in reversed(made)]  # newest first, each once
    assert hidden["game_id"] not in ids and full["game_id"] not in ids
    item = next(g for g in client.get(f"/v1/{GAME}/games?limit=50").json["games"]
                if g["game_id"] == made[-1]["game_id"])
    assert set(item) == {"game_id", "game", "players", "created_at", "options", "seats"}
    from engines import REGISTRY

    assert item["game"] == GAME and item["players"] == 3
    assert set(item["options"]) == {o.name for o in REGISTRY[GAME].options}  # every option with its value
    assert [(s["name"], s["kind"], s["level"], s["status"]) for s in item["seats"]] == [
        ("L4", "human", None, "playing"), ("Player 2", "open", None, "waiting"), ("Random bot", "bot", "random",
                                                                                    "playing")]
    assert item["created_at"] == client.get(f"/v1/{GAME}/games/{item['game_id']}").json["created_at"]
    sten = client.get("/v1/sten/games?limit=50").json["games"]
    assert not {g["game_id"] for g in sten} & set(ids)  # each game its own lobby


def test_a_game_leaves_the_lobby_in_the_same_step_as_its_wait_ends(client: FlaskClient, redis_server) -> None:
    r = redis.Redis.from_url(redis_server.url)
    joined, started, aborted = (_listed(client, n) for n in ("J", "S", "A"))
    for g in (joined, started, aborted):
        assert r.zscore(LOBBY, _member_of(r, g)) is not None
    members = {g["game_id"]: _member_of(r, g) for g in (joined, started, aborted)}
    client.post(f"/v1/{GAME}/games/{joined['game_id']}/join", json={"name": "Bo"})  # listed: no invite needed
    client.post(f"/v1/{GAME}/games/{started['game_id']}/start", headers=auth(started["seats"][0]["token"]))
    client.post(f"/v1/{GAME}/games/{aborted['game_id']}/abort", headers=auth(aborted["seats"][0]["token"]))
    for g in (joined, started, aborted):
        assert r.zscore(LOBBY, members[g["game_id"]]) is None  # gone with the write, before any read
    ids = {g["game_id"] for g in _whole_lobby(client, 50)}
    assert not ids & set(members)


def _member_of(r: redis.Redis, created: dict) -> str:
    import json

    return json.loads(r.hget(f"cardtable:game:{{{created['game_id']}}}", "s"))["lobby"]


def test_the_reader_drops_a_member_whose_game_is_gone_and_the_lobby_lives_a_day(client: FlaskClient,
                                                                                 redis_server) -> None:
    r = redis.Redis.from_url(redis_server.url)
    kept = _listed(client, "kept")
    gone = _listed(client, "gone")
    gone_member = _member_of(r, gone)
    assert 0 < r.ttl(LOBBY) <= WAITING_TTL
    r.delete(f"cardtable:game:{{{gone['game_id']}}}", f"cardtable:log:{{{gone['game_id']}}}")  # as if expired
    ids = [g["game_id"] for g in _whole_lobby(client, 50)]
    assert kept["game_id"] in ids and gone["game_id"] not in ids
    assert r.zscore(LOBBY, gone_member) is None
    # a member more than a day old is dropped whatever its game
    old = member("Zz_old-game", 0.0)
    r.zadd(LOBBY, {old: 0})
    _whole_lobby(client, 50)
    assert r.zscore(LOBBY, old) is None


def test_the_lobby_refuses_other_statuses_a_bad_cursor_and_pages_over_fifty(client: FlaskClient) -> None:
    for query in ("status=active", "status=finished", "limit=51", "limit=0", "limit=x", "cursor=abc",
                  "cursor=1234567890123456:bad*id"):
        assert_problem(client.get(f"/v1/{GAME}/games?{query}"), 422, "validation_error")
    assert client.get(f"/v1/{GAME}/games").status_code == 200  # status=waiting is the default


def test_the_in_process_store_keeps_the_same_lobby() -> None:
    from service.app import create_app
    from service.config import Settings
    from service.store import MemoryStore

    app = create_app(Settings(request_log=False), store=MemoryStore())
    client = app.test_client()
    made = [_listed(client, f"M{n}") for n in range(4)]
    _listed(client, "unlisted", listed=False)
    assert [g["game_id"] for g in _whole_lobby(client)] == [g["game_id"] for g in reversed(made)]
    client.post(f"/v1/{GAME}/games/{made[1]['game_id']}/join", json={"name": "Bo"})
    client.post(f"/v1/{GAME}/games/{made[2]['game_id']}/abort", headers=auth(made[2]["seats"][0]["token"]))
    assert [g["game_id"] for g in _whole_lobby(client)] == [made[3]["game_id"], made[0]["game_id"]]
