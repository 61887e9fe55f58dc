"""A create's Idempotency-Key is worth something only to its first caller, and no seat token is kept.

The game id of a keyed create is derived from the server secret, the key and the caller's address, so
the same key from anyone else names another game: replaying it gives a stranger nothing, and
squatting a key blocks only the squatter. The stored answer keeps no token (only the seats' SHA-256
hashes live in the game); a replay derives the tokens again from the secret, the key (never stored)
and a nonce of the game. Checked against a real redis-server.
"""

from __future__ import annotations

import io
import uuid

import pytest
import redis
from flask import Flask

from service import auth
from service.app import create_app
from service.config import Settings

ALICE = {"REMOTE_ADDR": "10.20.0.1"}
MALLORY = {"REMOTE_ADDR": "10.66.0.6"}
BODY = {"players": 3, "bots": [2]}


def _app(url: str, **kw: object) -> Flask:
    app = create_app(Settings(redis_url=url, allow_fixed_deals=True, **kw))  # type: ignore[arg-type]
    app.extensions["cardtable.access_log"].stream = io.StringIO()
    return app


def _tokens(created: dict) -> list[str]:
    return [s["token"] for s in created["seats"] if s["token"]]


def _create(client, key: str, env: dict[str, str], body: dict | None = None, headers: dict | None = None):
    return client.post("/v1/sten/games", json=body or BODY, headers={"Idempotency-Key": key, **(headers or {})},
                       environ_base=env)


def test_the_same_key_and_body_from_another_caller_makes_another_game_and_no_token_leaks(redis_server) -> None:
    client = _app(redis_server.url).test_client()
    key = f"create-{uuid.uuid4()}"
    first = _create(client, key, ALICE)
    assert first.status_code == 201 and len(_tokens(first.json)) == 2
    stranger = _create(client, key, MALLORY)
    assert stranger.status_code == 201 and "Idempotent-Replayed" not in stranger.headers
    assert stranger.json["game_id"] != first.json["game_id"]
    assert not any(t in stranger.get_data(as_text=True) for t in _tokens(first.json))
    retry = _create(client, key, ALICE)
    assert retry.status_code == 201 and retry.headers["Idempotent-Replayed"] == "true"
    assert retry.json == first.json and retry.headers["Location"] == first.headers["Location"]
    # the replayed tokens are the game's: each plays its seat
    for seat in first.json["seats"]:
        if seat["token"]:
            view = client.get(first.headers["Location"], headers={"Authorization": f"Bearer {seat['token']}"})
            assert view.status_code == 200 and view.json["seat"] == seat["seat"]


def test_a_squatted_key_blocks_only_the_squatter(redis_server) -> None:
    client = _app(redis_server.url).test_client()
    key = f"create-{uuid.uuid4()}"
    squat = _create(client, key, MALLORY, body={"players": 2})
    assert squat.status_code == 201
    real = _create(client, key, ALICE)  # another body under the same key: the real create goes through
    assert real.status_code == 201 and "Idempotent-Replayed" not in real.headers
    assert real.json["game_id"] != squat.json["game_id"] and real.json["players"] == 3
    assert _create(client, key, MALLORY).json["code"] == "idempotency_conflict"  # the squatter's own key


def test_behind_a_trusted_proxy_the_caller_is_the_forwarded_address(redis_server) -> None:
    client = _app(redis_server.url, trusted_proxies=1).test_client()
    proxy = {"REMOTE_ADDR": "10.0.0.2"}
    key = f"create-{uuid.uuid4()}"
    first = _create(client, key, proxy, headers={"X-Forwarded-For": ALICE["REMOTE_ADDR"]})
    other = _create(client, key, proxy, headers={"X-Forwarded-For": MALLORY["REMOTE_ADDR"]})
    again = _create(client, key, proxy, headers={"X-Forwarded-For": ALICE["REMOTE_ADDR"]})
    assert {first.status_code, other.status_code, again.status_code} == {201}
    assert other.json["game_id"] != first.json["game_id"]
    assert again.json == first.json and again.headers["Idempotent-Replayed"] == "true"


def _stored_values(r: redis.Redis) -> list[bytes]:
    """Every value in the store, of every key and type."""
    values: list[bytes] = []
    for name in r.scan_iter(count=1000):
        kind = r.type(name)
        if kind == b"string":
            values.append(r.get(name) or b"")
        elif kind == b"hash":
            values.extend(v for pair in r.hgetall(name).items() for v in pair)
        elif kind == b"list":
            values.extend(r.lrange(name, 0, -1))
        values.append(name)
    return values


def test_the_store_keeps_no_seat_token_in_the_clear(redis_server) -> None:
    client = _app(redis_server.url).test_client()
    keyed = _create(client, f"create-{uuid.uuid4()}", ALICE, body={"players": 4, "bots": [3]}).json
    plain = client.post("/v1/sten/games", json={"players": 2}, environ_base=ALICE).json
    tokens = _tokens(keyed) + _tokens(plain)
    assert len(tokens) == 5
    values = _stored_values(redis.Redis.from_url(redis_server.url))
    assert not [t for t in tokens if any(t.encode() in v for v in values)], "a seat token is stored in the clear"
    # what is stored is the hash (the scan did see the games)
    assert all(any(auth.token_hash(t).encode() in v for v in values) for t in tokens)


def test_workers_without_a_configured_secret_share_the_one_kept_in_redis(redis_server) -> None:
    """Two apps on one Redis are two workers (or a restart): a retry reaching the other one
    derives the same game and the same tokens."""
    one, two = _app(redis_server.url).test_client(), _app(redis_server.url).test_client()
    key = f"create-{uuid.uuid4()}"
    first = _create(one, key, ALICE)
    again = _create(two, key, ALICE)
    assert again.headers["Idempotent-Replayed"] == "true" and again.json == first.json


def test_a_configured_secret_is_used_and_checked(redis_server) -> None:
    secret = "s" * 40
    one = _app(redis_server.url, secret=secret).test_client()
    two = _app(redis_server.url, secret=secret).test_client()
    other = _app(redis_server.url, secret="t" * 40).test_client()
    key = f"create-{uuid.uuid4()}"
    first = _create(one, key, ALICE)
    assert _create(two, key, ALICE).json == first.json
    # another secret derives another game: a retry never gets a game it cannot give the tokens of
    assert _create(other, key, ALICE).json["game_id"] != first.json["game_id"]
    assert Settings.from_env({"CARDTABLE_SECRET": secret}).secret == secret
    assert secret not in repr(Settings.from_env({"CARDTABLE_SECRET": secret}))
    with pytest.raises(ValueError, match="CARDTABLE_SECRET"):
        Settings.from_env({"CARDTABLE_SECRET": "short"})
