"""Who is at the table (``connected``): a seat's request keeps it there for 30 to 35 s, a stream and a
long poll hold it while open; kept beside the snapshot in the game's hash, never in it; never served
stale through an ETag (a 304) or a long poll; a mark is written once every 5 s at most, not on every
request.
"""

from __future__ import annotations

import threading
import time

import pytest
import redis
from flask.testing import FlaskClient

from service import presence
from service.app import create_app
from service.auth import token_hash
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
    # kept beside the game, never in it: no new version, the same snapshot, marks that end in 35 s
    assert r.hget(f"cardtable:game:{{{gid}}}", "s") == snapshot and client.get(path).json["version"] == version
    assert set(_marks_in_store(r, gid)) == {0, 1}
    assert all(29_000 < left <= 35_000 for left in _marks_in_store(r, gid).values())


def _marks_in_store(r: redis.Redis, gid: str) -> dict[int, int]:
    """The seats marked in a game's hash (its field ``p``, ``"<seat> <ends> ..."``) and the ms each has left."""
    numbers = (r.hget(f"cardtable:game:{{{gid}}}", "p") or b"").split()
    now = int(time.time() * 1000)
    return {int(numbers[i]): int(numbers[i + 1]) - now for i in range(0, len(numbers), 2)
            if int(numbers[i + 1]) > now}


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


def test_a_seat_is_gone_thirty_to_thirty_five_seconds_after_its_last_request_and_the_etag_says_so() -> None:
    clock = Clock()
    app = create_app(Settings(request_log=False), store=MemoryStore(clock=clock))
    client = app.test_client()
    path, (ann, bo) = _game(client)
    client.get(path, headers=auth(bo))
    seen = client.get(path, headers=auth(ann))
    assert _connected(seen.json) == [True, True, None]
    clock.now += 29
    client.get(path, headers=auth(ann))  # Ann again: her mark is renewed, Bo's is not
    clock.now += 1  # 30 s after Bo's last request: still at the table (his mark lasts 35 s)
    assert _connected(client.get(path).json) == [True, True, None]
    clock.now += 5.5  # 35.5 s after it
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


def _store_calls(store, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The calls to Redis that a RedisStore makes from now on, by what they do: a plain read of the
    game with its presence (``read``, one HMGET), a read that marks a seat too (``open``, a script), a
    presence mark of its own, a plain load, a commit; else ``other`` (the rate limiter's count)."""
    scripts = {id(store._open): "open", id(store._presence): "presence", id(store._commit): "commit"}
    calls: list[str] = []
    real = store._call

    def counted(fn, *args, **kw):
        name = getattr(fn, "__name__", "")
        if name == "_run":
            calls.append(scripts.get(id(args[0]), "other"))
        elif name in ("_send", "execute_command") and args[:1] == ("HMGET",):
            calls.append("read" if "p" in args else "load")
        else:
            calls.append("other")
        return real(fn, *args, **kw)

    monkeypatch.setattr(store, "_call", counted)
    return calls


def _game_calls(calls: list[str]) -> list[str]:
    return [c for c in calls if c != "other"]


@pytest.mark.parametrize("kind", ["redis", "memory"])
def test_the_read_with_presence_marks_a_seat_only_where_the_game_holds_its_token(kind, redis_server) -> None:
    settings = Settings(redis_url=redis_server.url if kind == "redis" else None, request_log=False)
    app = create_app(settings, store=None if kind == "redis" else MemoryStore())
    store = app.extensions["cardtable"].store
    path, (ann, bo) = _game(app.test_client())
    gid = path.rsplit("/", 1)[1]
    ann_hash, bo_hash = token_hash(ann), token_hash(bo)
    for seat, digest in ((1, ann_hash), (0, bo_hash), (2, ann_hash), (7, ann_hash), (0, "0" * 64)):
        opened = store.open(gid, seat, digest, 30_000)
        assert opened.loaded is not None and not opened.seat_marked and opened.marked == {}, (seat, digest)
    assert not store.open("no-such-game", 0, ann_hash, 30_000).seat_marked
    assert store.presence("no-such-game", 0, 30_000) == ({}, 0)  # a game that is not there gets no marks
    if kind == "redis":
        assert not redis.Redis.from_url(redis_server.url).exists("cardtable:game:{no-such-game}")
    opened = store.open(gid, 1, bo_hash, 30_000)
    assert opened.seat_marked and set(opened.marked) == {1} and 29_000 < opened.marked[1] <= 30_000
    read = store.open(gid, None, None, 0)  # nobody marked: a read of the game and who is there
    assert read.loaded == opened.loaded and set(read.marked) == {1} and not read.seat_marked
    assert 29_000 < read.marked[1] <= 30_000


def test_a_view_with_a_fresh_mark_is_one_plain_read_and_a_known_token_renews_its_mark_in_the_read(
        app, monkeypatch: pytest.MonkeyPatch) -> None:
    client = app.test_client()
    path, (ann, bo) = _game(client)
    gid = path.rsplit("/", 1)[1]
    versions = app.extensions["cardtable"].versions
    calls = _store_calls(app.extensions["cardtable"].store, monkeypatch)
    assert _connected(client.get(path, headers=auth(ann)).json) == [True, False, None]
    assert _game_calls(calls) == ["read", "presence"]  # the first time: the seat is proved, then marked
    calls.clear()
    for _ in range(3):  # her mark has more than 30 s left: nothing to write
        assert _connected(client.get(path, headers=auth(ann)).json) == [True, False, None]
    assert _game_calls(calls) == ["read"] * 3
    calls.clear()
    assert _connected(client.get(path).json) == [True, False, None] and _game_calls(calls) == ["read"]
    calls.clear()
    # 5 s on, the worker no longer knows her mark to be fresh: the read marks her seat in the same call
    seat, _ = versions.seat_guess("sten", gid, token_hash(ann))
    versions.learn_seat("sten", gid, token_hash(ann), seat, 0.0)
    assert _connected(client.get(path, headers=auth(ann)).json) == [True, False, None]
    assert _game_calls(calls) == ["open"]


def test_a_wrong_guess_of_the_seat_marks_nobody_else(app) -> None:
    """The worker's guess of a token's seat is checked by the store against the game: a guess that
    names another seat marks nothing, and the request marks the seat its token proves."""
    client = app.test_client()
    path, (ann, _bo) = _game(client)
    gid = path.rsplit("/", 1)[1]
    app.extensions["cardtable"].versions.learn_seat("sten", gid, token_hash(ann), 1, 0.0)  # Bo's seat
    assert _connected(client.get(path, headers=auth(ann)).json) == [True, False, None]
    assert _connected(client.get(path).json) == [True, False, None]


def test_a_move_renews_its_movers_mark_in_its_write_and_a_refused_move_on_its_way_out(
        app, redis_server, monkeypatch: pytest.MonkeyPatch) -> None:
    client = app.test_client()
    path, tokens = _game(client)
    gid = path.rsplit("/", 1)[1]
    mover = client.get(path).json["to_move"][0]
    other = 1 - mover
    move = client.get(path, headers=auth(tokens[mover])).json["legal_moves"][0]
    r = redis.Redis.from_url(redis_server.url)
    r.hdel(f"cardtable:game:{{{gid}}}", "p")  # nobody at the table
    calls = _store_calls(app.extensions["cardtable"].store, monkeypatch)
    refused = client.post(f"{path}/moves", json={"move": move}, headers=auth(tokens[other]))
    assert refused.status_code == 409 and refused.json["code"] == "not_your_turn"
    assert _game_calls(calls) == ["read", "presence"]
    assert _connected(client.get(path).json)[:2] == [other == 0, other == 1]
    calls.clear()
    again = client.post(f"{path}/moves", json={"move": move}, headers=auth(tokens[other]))
    assert again.status_code == 409 and _game_calls(calls) == ["read"]  # a fresh mark: nothing to write
    r.hdel(f"cardtable:game:{{{gid}}}", "p")
    calls.clear()
    answer = client.post(f"{path}/moves", json={"move": move}, headers=auth(tokens[mover]))
    assert answer.status_code == 200 and _connected(answer.json)[:2] == [mover == 0, mover == 1]
    assert _game_calls(calls) == ["read", "commit"]  # marked in the write
    assert set(_marks_in_store(r, gid)) == {mover} and 34_000 < _marks_in_store(r, gid)[mover] <= 35_000
