"""The "floor": bare Flask + redis-py doing the real service's Redis round trips and nothing else.

``gunicorn -c deploy/gunicorn.conf.py 'bench.floor_app:create_app()'`` with ``REDIS_URL`` set.
No rules, no schemas, no auth, no engine: what any Flask + Redis service of this shape pays
per request, so that ``bench.http`` can say how close the real service comes to it.

- ``GET /floor/<game_id>`` is the view: one HMGET of the game's snapshot hash, json.loads of
  the snapshot and json.dumps of it back as the answer (a snapshot-sized body).
- ``POST /floor/<game_id>/moves`` is the move: the JSON body parsed, one HMGET, json.loads
  and json.dumps of the snapshot, then the same compare-and-set Lua script as the service
  (``service/store.py``: HSET snapshot + version, EXPIRE, RPUSH of one log entry), and the
  snapshot-sized answer.

Keys are the service's own (``cardtable:game:{<id>}``, ``cardtable:log:{<id>}``) with ids
that cannot collide with the service's 16-character ones (``floor-<n>``).
"""

from __future__ import annotations

import json
import os
from typing import Any

from flask import Flask, Response, request

# The very script and key shapes of the real store, so the round trips are the same.
from service.store import _COMMIT, events_channel, game_key, log_key

TTL = 7 * 24 * 3600


def dumps(data: Any) -> bytes:
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False).encode()


def make_client(url: str, timeout: float = 1.0) -> Any:
    """A bare redis-py client with the service's timeouts (the service adds a bounded pool and a breaker)."""
    import redis
    from redis.backoff import NoBackoff
    from redis.retry import Retry

    return redis.Redis.from_url(url, retry=Retry(NoBackoff(), 1), socket_timeout=timeout,
                                socket_connect_timeout=timeout)


def seed_game(client: Any, game_id: str, snapshot: bytes, version: int = 0) -> None:
    """Put a game (a snapshot at ``version``) where the floor app reads it."""
    client.hset(game_key(game_id), mapping={"v": version, "s": snapshot})
    client.expire(game_key(game_id), TTL)
    client.delete(log_key(game_id))


def create_app() -> Flask:
    url = os.environ.get("REDIS_URL")
    if not url:
        raise RuntimeError("the floor app needs REDIS_URL")
    client = make_client(url, float(os.environ.get("CARDTABLE_STORE_TIMEOUT") or 1.0))
    commit = client.register_script(_COMMIT)
    app = Flask("floor")

    def _json(body: bytes, status: int = 200) -> Response:
        return Response(body, status=status, mimetype="application/json")

    @app.get("/floor/<game_id>")
    def view(game_id: str) -> Response:
        version, snapshot = client.hmget(game_key(game_id), ["v", "s"])
        if snapshot is None:
            return _json(b'{"code":"game_not_found"}', 404)
        record = json.loads(snapshot)
        return _json(dumps(record))

    @app.post("/floor/<game_id>/moves")
    def move(game_id: str) -> Response:
        body = request.get_json()
        version, snapshot = client.hmget(game_key(game_id), ["v", "s"])
        if snapshot is None:
            return _json(b'{"code":"game_not_found"}', 404)
        expected = int(version)
        record = json.loads(snapshot)
        new = dumps(record)
        entry = dumps({"version": expected + 1, "seat": 0, "bot": False, "move": body.get("move"), "redacted": {}})
        # no idempotent answer, no lobby member to remove, no due time, no seat to mark: those arguments
        # are empty
        ok = commit(keys=[game_key(game_id), log_key(game_id)],
                    args=[expected, expected + 1, new, TTL, b"", "PUBLISH", events_channel(game_id), b"", b"", b"",
                          b"", 0, entry])
        if not ok:
            return _json(b'{"code":"stale_version"}', 409)
        return _json(new)

    return app
