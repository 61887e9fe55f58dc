"""Reliability promises, each proven against a real redis-server.

- the compare-and-set holds under real parallel load through gunicorn with 4 workers;
- Idempotency-Key makes create and move retries safe;
- a Redis outage answers 503 with Retry-After, writes nothing, and play resumes after it;
- a snapshot of an unknown schema version is refused, never misread.
"""

from __future__ import annotations

import json
import threading
import time
import uuid

import pytest
import redis

from engines import REGISTRY
from engines.core import move_from_json
from service.app import create_app
from service.config import Settings
from tests.http import Client
from tests.servers import RedisServer, gunicorn
from tests.service.test_api import untimed


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _first_mover(client, game_id: str, tokens: list[str]) -> tuple[str, dict]:
    for token in tokens:
        view = client.get(f"/v1/sten/games/{game_id}", token=token).json
        if view["legal_moves"]:
            return token, view
    raise AssertionError("nobody to move")


@pytest.fixture(scope="module")
def four_workers(redis_server):
    with gunicorn(redis_server.url, workers=4) as url:
        yield url


def test_sixteen_simultaneous_copies_of_one_move_apply_once(four_workers, redis_server) -> None:
    setup = Client(four_workers)
    created = setup.post("/v1/sten/games", {"players": 4}).json
    gid, tokens = created["game_id"], [s["token"] for s in created["seats"]]
    token, view = _first_mover(setup, gid, tokens)
    body = {"version": view["version"], "move": view["legal_moves"][0]}
    barrier = threading.Barrier(16)
    statuses: list[int] = []
    codes: list[str] = []
    lock = threading.Lock()

    def fire() -> None:
        client = Client(four_workers)
        client.get("/healthz")  # connect before the barrier so the posts leave together
        barrier.wait()
        reply = client.post(f"/v1/sten/games/{gid}/moves", body, token=token)
        with lock:
            statuses.append(reply.status)
            if reply.status != 200:
                codes.append(reply.json["code"])

    threads = [threading.Thread(target=fire) for _ in range(16)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert sorted(statuses) == [200] + [409] * 15
    assert set(codes) <= {"stale_version"}
    log = setup.get(f"/v1/sten/games/{gid}/log").json
    assert len(log["entries"]) == 1 and log["version"] == view["version"] + 1
    _assert_log_replays_to_the_stored_state(redis_server.url, "sten", gid)


def _assert_log_replays_to_the_stored_state(url: str, game: str, gid: str) -> None:
    r = redis.Redis.from_url(url)
    record = json.loads(r.hget(f"cardtable:game:{{{gid}}}", "s"))
    engine = REGISTRY[game]
    state = engine.new_game(record["players"], record["options"], record["seed"], record["deck"])
    for raw in r.lrange(f"cardtable:log:{{{gid}}}", 0, -1):
        entry = json.loads(raw)
        state = engine.apply(state, entry["seat"], move_from_json(engine.move_types, entry["move"]))
    assert engine.encode(state) == record["state"]


def test_a_retried_move_with_its_idempotency_key_applies_once(client) -> None:
    created = client.post("/v1/sten/games", json={"players": 3}).json
    gid = created["game_id"]
    tokens = [s["token"] for s in created["seats"]]
    token, view = next((t, v) for t in tokens
                       if (v := client.get(f"/v1/sten/games/{gid}", headers=_auth(t)).json)["legal_moves"])
    key = str(uuid.uuid4())
    headers = {**_auth(token), "Idempotency-Key": key}
    body = {"move": view["legal_moves"][0]}
    first = client.post(f"/v1/sten/games/{gid}/moves", headers=headers, json=body)
    again = client.post(f"/v1/sten/games/{gid}/moves", headers=headers, json=body)
    assert first.status_code == again.status_code == 200
    assert untimed(first.json) == untimed(again.json) and again.headers["ETag"] == first.headers["ETag"]
    assert again.headers.get("Idempotent-Replayed") == "true"
    assert client.get(f"/v1/sten/games/{gid}").json["version"] == view["version"] + 1
    other = client.post(f"/v1/sten/games/{gid}/moves", headers=headers, json={"move": {"type": "stein"}})
    assert other.status_code == 422 and other.json["code"] == "idempotency_conflict"


def test_a_retried_create_with_its_idempotency_key_makes_one_game(client) -> None:
    headers = {"Idempotency-Key": str(uuid.uuid4())}
    first = client.post("/v1/sten/games", json={"players": 2}, headers=headers)
    again = client.post("/v1/sten/games", json={"players": 2}, headers=headers)
    assert first.status_code == again.status_code == 201
    assert first.json == again.json and first.headers["Location"] == again.headers["Location"]
    different = client.post("/v1/sten/games", json={"players": 3}, headers=headers)
    assert different.status_code == 422 and different.json["code"] == "idempotency_conflict"
    bad = client.post("/v1/sten/games", json={"players": 2}, headers={"Idempotency-Key": "x" * 500})
    assert bad.status_code == 422 and bad.json["code"] == "validation_error"


def test_idempotency_keys_expire_with_the_game(client, redis_server) -> None:
    created = client.post("/v1/sten/games", json={"players": 2}, headers={"Idempotency-Key": "k-ttl"}).json
    r = redis.Redis.from_url(redis_server.url)
    ttl = r.ttl(f"cardtable:idem:{{{created['game_id']}}}:create")
    assert 0 < ttl <= r.ttl(f"cardtable:game:{{{created['game_id']}}}")


def test_concurrent_creates_with_one_key_make_one_game(four_workers) -> None:
    key = str(uuid.uuid4())
    answers: list[dict] = []
    barrier = threading.Barrier(8)

    def fire() -> None:
        client = Client(four_workers)
        client.get("/healthz")
        barrier.wait()
        reply = client.post("/v1/sten/games", {"players": 2}, headers={"Idempotency-Key": key})
        answers.append({"status": reply.status, "body": reply.json})

    threads = [threading.Thread(target=fire) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert {a["status"] for a in answers} == {201}
    assert len({json.dumps(a["body"], sort_keys=True) for a in answers}) == 1


def test_an_unknown_snapshot_version_is_refused(client, redis_server) -> None:
    created = client.post("/v1/sten/games", json={"players": 2}).json
    r = redis.Redis.from_url(redis_server.url)
    key = f"cardtable:game:{{{created['game_id']}}}"
    record = json.loads(r.hget(key, "s"))
    record["schema"] = 99
    r.hset(key, "s", json.dumps(record))
    reply = client.get(f"/v1/sten/games/{created['game_id']}")
    assert reply.status_code == 409 and reply.json["code"] == "unknown_snapshot_version"
    assert "99" in reply.json["detail"]


@pytest.fixture()
def persistent_redis():
    server = RedisServer(persist=True)
    server.start()
    yield server
    server.cleanup()


@pytest.mark.slow  # a real outage and restart
def test_a_redis_outage_answers_503_and_play_resumes(persistent_redis) -> None:
    with gunicorn(persistent_redis.url, workers=2, extra_env={"CARDTABLE_STORE_TIMEOUT": "0.5"}) as url:
        client = Client(url)
        created = client.post("/v1/sten/games", {"players": 2}).json
        gid, tokens = created["game_id"], [s["token"] for s in created["seats"]]
        token, view = _first_mover(client, gid, tokens)
        persistent_redis.stop()
        calls = [
            ("POST", "/v1/sten/games", {"players": 2}, None),
            ("GET", f"/v1/sten/games/{gid}", None, token),
            ("GET", f"/v1/sten/games/{gid}", None, None),
            ("POST", f"/v1/sten/games/{gid}/moves", {"version": view["version"], "move": view["legal_moves"][0]},
             token),
            ("GET", f"/v1/sten/games/{gid}/log", None, None),
            ("GET", "/readyz", None, None),
        ]
        for method, path, body, tok in calls:
            started = time.monotonic()
            reply = client.request(method, path, body=body, token=tok)
            assert reply.status == 503, (method, path, reply.status, reply.body[:200])
            assert reply.content_type == "application/problem+json" and reply.json["code"] == "store_unavailable"
            assert int(reply.headers["retry-after"]) > 0
            assert time.monotonic() - started < 5, "a request hung while Redis was down"
        for path in ("/healthz", "/v1/games", "/openapi.json"):
            assert client.get(path).status == 200, path  # these do not need the store
        persistent_redis.start()
        deadline = time.monotonic() + 20
        while client.get("/readyz").status != 200:
            assert time.monotonic() < deadline, "not ready after Redis came back"
            time.sleep(0.2)
        again = client.get(f"/v1/sten/games/{gid}", token=token).json
        assert again["version"] == view["version"] and again["legal_moves"] == view["legal_moves"]
        moved = client.post(f"/v1/sten/games/{gid}/moves", {"version": view["version"],
                                                              "move": view["legal_moves"][0]}, token=token)
        assert moved.status == 200 and moved.json["version"] == view["version"] + 1


def test_the_in_process_store_keeps_the_same_promises() -> None:
    from service.store import MemoryStore

    app = create_app(Settings(allow_fixed_deals=True, request_log=False), store=MemoryStore())
    client = app.test_client()
    created = client.post("/v1/sten/games", json={"players": 2}, headers={"Idempotency-Key": "m1"}).json
    again = client.post("/v1/sten/games", json={"players": 2}, headers={"Idempotency-Key": "m1"}).json
    assert created == again
    gid = created["game_id"]
    token, view = next((s["token"], v) for s in created["seats"]
                       if (v := client.get(f"/v1/sten/games/{gid}", headers=_auth(s["token"])).json)["legal_moves"])
    body = {"version": view["version"], "move": view["legal_moves"][0]}
    assert client.post(f"/v1/sten/games/{gid}/moves", headers=_auth(token), json=body).status_code == 200
    stale = client.post(f"/v1/sten/games/{gid}/moves", headers=_auth(token), json=body)
    assert stale.status_code == 409 and stale.json["code"] == "stale_version"
