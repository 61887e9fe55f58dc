"""Who is at the table (``connected``): a seat's request marks it for 30 s, a stream and a long poll hold
it while open; kept outside the snapshot in a short-lived key; never served stale through an ETag (a
304) or a long poll.
"""

from __future__ import annotations

import threading
import time

import pytest
import redis
from flask.testing import FlaskClient

from service import presence
from service.app import create_app
from service.config import Settings
from service.store import MemoryStore
from tests.http import Client
from tests.servers import gunicorn
from tests.service.test_api import auth


def _game(client: FlaskClient) -> tuple[str, list[str]]:
    created = client.post("/v1/sten/games", json={"players": 3, "seats": [{"name": "Ann"}, {"name": "Bo"},
                                                                          {"bot": "greedy"}]}).json
    return f"/v1/sten/games/{created['game_id']}", [s["token"] for s in created["seats"][:2]]


def _connected(view: dict) -> list[bool | None]:
    return [s["connected"] for s in view["seats"]]


def test_a_seats_request_marks_it_at_the_table_outside_the_snapshot(client: FlaskClient, redis_server) -> None:
    path, (ann, bo) = _game(client)
    gid = path.rsplit("/", 1)[1]
    r = redis.Redis.from_url(redis_server.url)
    snapshot = r.hget(f"cardtable:game:{{{gid}}}", "s")
    version = client.get(path).json["version"]  # 0, or 1 when the bot opened the game
    assert _connected(client.get(path).json) == [False, False, None]  # a spectator marks nobody
    assert _connected(client.get(path, headers=auth(ann)).json) == [True, False, None]
    client.get(f"{path}/log", headers=auth(bo))  # any request with the seat's token
    assert _connected(client.get(path).json) == [True, True, None]
    # kept beside the game, never in it: no new version, the same snapshot, a key that lives 30 s
    assert r.hget(f"cardtable:game:{{{gid}}}", "s") == snapshot and client.get(path).json["version"] == version
    key = f"cardtable:presence:{{{gid}}}"
    assert 0 < r.pttl(key) <= 30_000 and {int(m) for m in r.zrange(key, 0, -1)} == {0, 1}


def test_a_lookup_is_not_being_at_the_table(client: FlaskClient) -> None:
    path, (ann, _bo) = _game(client)
    client.post("/v1/games/lookup", json={"tokens": [ann]})
    assert _connected(client.get(path).json) == [False, False, None]


def test_a_304_is_never_served_while_someone_came(client: FlaskClient) -> None:
    path, (ann, bo) = _game(client)
    first = client.get(path, headers=auth(ann))
    tag = first.headers["ETag"]
    assert client.get(path, headers={**auth(ann), "If-None-Match": tag}).status_code == 304
    client.get(path, headers=auth(bo))  # Bo sits down: the version stays, who is there does not
    fresh = client.get(path, headers={**auth(ann), "If-None-Match": tag})
    assert fresh.status_code == 200 and _connected(fresh.json) == [True, True, None]
    assert fresh.json["version"] == first.json["version"] and fresh.headers["ETag"] != tag
    assert client.get(path, headers={**auth(ann), "If-None-Match": fresh.headers["ETag"]}).status_code == 304


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_seat_is_gone_thirty_seconds_after_its_last_request_and_the_etag_says_so() -> None:
    clock = Clock()
    app = create_app(Settings(request_log=False), store=MemoryStore(clock=clock))
    client = app.test_client()
    path, (ann, bo) = _game(client)
    client.get(path, headers=auth(bo))
    seen = client.get(path, headers=auth(ann))
    assert _connected(seen.json) == [True, True, None]
    clock.now += 29
    client.get(path, headers=auth(ann))  # Ann again: her mark is renewed, Bo's is not
    clock.now += 2  # 31 s after Bo's last request
    gone = client.get(path, headers={**auth(ann), "If-None-Match": seen.headers["ETag"]})
    assert gone.status_code == 200 and _connected(gone.json) == [True, False, None]
    assert _connected(client.get(path).json) == [True, False, None]


def test_a_stream_keeps_its_seat_at_the_table_while_it_is_open(monkeypatch: pytest.MonkeyPatch) -> None:
    """With marks of 1 s (production: 30 s) and keep-alives every 0.05 s: the streaming seat stays while
    its stream is open, the seat that only made a request is gone after 1 s, and the streaming seat
    too once its stream closed."""
    monkeypatch.setattr(presence, "PRESENCE_SECONDS", 1.0)
    app = create_app(Settings(request_log=False, stream_keepalive=0.05), store=MemoryStore())
    client = app.test_client()
    path, (ann, bo) = _game(client)
    client.get(path, headers=auth(ann))
    stream = client.get(f"{path}/events", headers=auth(bo), buffered=False)
    body = iter(stream.response)
    until = time.monotonic() + 2.5
    while time.monotonic() < until:
        next(body)  # the stream goes on: a keep-alive every 0.05 s
    assert _connected(client.get(path).json) == [False, True, None]
    stream.close()
    time.sleep(1.5)
    assert _connected(client.get(path).json) == [False, False, None]


@pytest.fixture(scope="module")
def served(redis_server):
    with gunicorn(redis_server.url, workers=2) as url:
        yield url


def test_a_long_poll_answers_as_soon_as_someone_sits_down(served) -> None:
    setup = Client(served)
    created = setup.post("/v1/sten/games", {"players": 3, "seats": [{"name": "Ann"}, {"name": "Bo"},
                                                                      {"bot": "greedy"}]}).json
    path = f"/v1/sten/games/{created['game_id']}"
    ann, bo = (s["token"] for s in created["seats"][:2])
    seen = setup.get(path, token=ann)
    tag, version = seen.headers["etag"], seen.json["version"]
    answered: list[tuple[float, int, dict]] = []

    def poll() -> None:
        started = time.monotonic()
        reply = Client(served).get(f"{path}?wait=20", token=ann, headers={"If-None-Match": tag})
        answered.append((time.monotonic() - started, reply.status, reply.json))

    waiter = threading.Thread(target=poll)
    waiter.start()
    time.sleep(0.5)
    assert Client(served).get(path, token=bo).status == 200  # Bo comes: no move, no new version
    waiter.join(25)
    took, status, view = answered[0]
    assert status == 200 and took < 5, (took, status)
    assert _connected(view) == [True, True, None] and view["version"] == version  # nobody moved
