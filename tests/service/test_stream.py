"""Live updates: the event stream and long polling, on real Redis and
gunicorn's gevent workers, and on the in-process store of ``cardtable serve``."""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Iterator

import pytest
from werkzeug.serving import make_server

from engines import REGISTRY
from schemas.common import LOG_LIMIT_MAX
from service.app import create_app
from service.config import Settings
from tests.http import Client
from tests.playout import short_options
from tests.servers import RedisServer, gunicorn
from tests.sse import EventStream

KEEPALIVE = 0.5  # the servers of these tests send keep-alives this often (production: 15 s)
STREAM_ENV = {"CARDTABLE_STREAM_KEEPALIVE": str(KEEPALIVE)}


@pytest.fixture(scope="module")
def two_servers(redis_server) -> Iterator[tuple[str, str]]:
    """Two gunicorn servers (two workers each) on one Redis: two machines of one deployment."""
    with gunicorn(redis_server.url, workers=2, extra_env=STREAM_ENV) as a, \
            gunicorn(redis_server.url, workers=2, extra_env=STREAM_ENV) as b:
        yield a, b


def _play(client: Client, game: str, gid: str, tokens: list[str | None], rng: random.Random,
          moves: int = 10_000) -> int:
    """Random listed moves by the human seats, up to ``moves`` of them or the end; the version."""
    version = 0
    for _ in range(moves):
        views = [(t, client.get(f"/v1/{game}/games/{gid}", token=t).json) for t in tokens if t]
        version = views[0][1]["version"]
        if views[0][1]["status"] == "finished":
            break
        token, view = rng.choice([(t, v) for t, v in views if v["legal_moves"]])
        move = rng.choice(view["legal_moves"])
        answer = client.post(f"/v1/{game}/games/{gid}/moves", {"version": view["version"], "move": move}, token=token)
        assert answer.status == 200, answer.json
        version = answer.json["version"]
    return version


def _log(client: Client, game: str, gid: str, token: str | None) -> list[dict]:
    return client.get(f"/v1/{game}/games/{gid}/log?limit={LOG_LIMIT_MAX}", token=token).json["entries"]


@pytest.mark.parametrize("game", sorted(REGISTRY))
def test_the_stream_equals_the_log_for_every_seat_and_the_spectator(two_servers, game: str) -> None:
    a, b = two_servers
    engine = REGISTRY[game]
    players = min(engine.players)
    created = Client(a).post(f"/v1/{game}/games", {"players": players, "seed": f"stream-{game}",
                                                    "options": short_options(engine)}).json
    gid = created["game_id"]
    tokens = [s["token"] for s in created["seats"]]
    # Streams on both servers (and so on several workers), for every seat and the spectator.
    streams = {(viewer, base): EventStream(base, f"/v1/{game}/games/{gid}/events?since=0", token=viewer)
               for viewer in (None, *tokens) for base in (a, b)}
    for stream in streams.values():
        assert stream.status == 200
        assert stream.response_headers["content-type"].startswith("text/event-stream")
        assert stream.response_headers["x-accel-buffering"] == "no"
        assert stream.next().comment == "connected"
    final = _play(Client(b), game, gid, tokens, random.Random(game), moves=300)
    over = Client(a).get(f"/v1/{game}/games/{gid}").json["status"] == "finished"
    for (viewer, _base), stream in streams.items():
        if over:
            entries, end = stream.entries_until_end()
            assert end is not None and end.json == {"version": final}
        else:
            entries = []
            while not entries or entries[-1]["version"] < final:
                frame = stream.next()
                assert frame is not None
                if frame.event == "entry":
                    entries.append(frame.json)
        assert entries == _log(Client(a), game, gid, viewer)
        stream.close()


def test_a_reconnect_with_last_event_id_loses_and_repeats_nothing(two_servers) -> None:
    a, b = two_servers
    client = Client(a)
    created = client.post("/v1/siebenschlaefer/games", {"players": 3, "seed": "reconnect", "bots": [2]}).json
    gid = created["game_id"]
    tokens = [s["token"] for s in created["seats"]]
    rng = random.Random("reconnect")
    stream = EventStream(a, f"/v1/siebenschlaefer/games/{gid}/events?since=0", token=tokens[0])
    _play(client, "siebenschlaefer", gid, tokens, rng, moves=6)
    got: list[dict] = []
    while len(got) < 4:
        frame = stream.next()
        if frame.event == "entry":
            got.append(frame.json)
    stream.close()  # the connection drops mid-game
    _play(client, "siebenschlaefer", gid, tokens, rng, moves=6)
    again = EventStream(b, f"/v1/siebenschlaefer/games/{gid}/events", token=tokens[0],
                        headers={"Last-Event-ID": str(got[-1]["version"])})
    final = Client(b).get(f"/v1/siebenschlaefer/games/{gid}").json["version"]
    while got[-1]["version"] < final:
        frame = again.next()
        if frame.event == "entry":
            got.append(frame.json)
    again.close()
    assert [e["version"] for e in got] == list(range(1, final + 1))
    assert got == _log(client, "siebenschlaefer", gid, tokens[0])


@pytest.mark.slow  # a keep-alive within 2 s of its 0.5 s interval
def test_a_stream_starts_at_the_current_version_keeps_alive_and_is_pushed_each_entry(two_servers, redis_server) -> None:
    a, b = two_servers
    created = Client(a).post("/v1/sten/games", {"players": 2, "seed": "keepalive", "bots": [1]}).json
    gid, token = created["game_id"], created["seats"][0]["token"]
    stream = EventStream(a, f"/v1/sten/games/{gid}/events", token=token)
    assert stream.next().comment == "connected"
    started = time.monotonic()
    assert stream.next().comment == "keep-alive"
    assert time.monotonic() - started < KEEPALIVE * 4
    stream.close()
    # Pushed, not found by a re-read: a stream re-reads the log only at its keep-alive, a minute away
    # on this server, yet the entry of a move made on another server comes first (a wall-clock bound
    # of half a keep-alive could not tell the two apart on a loaded machine).
    with gunicorn(redis_server.url, workers=1, extra_env={"CARDTABLE_STREAM_KEEPALIVE": "60"}) as quiet:
        stream = EventStream(quiet, f"/v1/sten/games/{gid}/events", token=token, timeout=30)
        assert stream.next().comment == "connected"
        view = Client(b).get(f"/v1/sten/games/{gid}", token=token).json
        moved = Client(b).post(f"/v1/sten/games/{gid}/moves", {"move": view["legal_moves"][0]}, token=token)
        assert moved.status == 200
        try:
            frame = stream.next()
        except TimeoutError:
            raise AssertionError("the entry was not pushed: nothing came in 30 s") from None
        assert frame is not None and frame.event == "entry", frame
        assert frame.json["version"] == view["version"] + 1  # nothing before the current version
        stream.close()


def test_the_stream_refuses_like_the_log(two_servers) -> None:
    a, _ = two_servers
    created = Client(a).post("/v1/sten/games", {"players": 2}).json
    gid = created["game_id"]
    for path, token, headers, status, code in (  # noqa: B007
        (f"/v1/sten/games/{gid}/events", "x" * 32, {}, 401, "unauthorized"),
        ("/v1/sten/games/nosuchgame/events", None, {}, 404, "game_not_found"),
        (f"/v1/sten/games/{gid}/events?since=-1", None, {}, 422, "validation_error"),
        (f"/v1/sten/games/{gid}/events", None, {"Last-Event-ID": "seven"}, 422, "validation_error"),
    ):
        stream = EventStream(a, path, token=token, headers=headers)
        assert stream.status == status and stream.response_headers["content-type"] == "application/problem+json"
        stream.close()


@pytest.mark.slow  # a long poll answered between 0.9 and 3 s
def test_long_polling_answers_when_the_version_changes_or_after_the_wait(two_servers) -> None:
    a, b = two_servers
    created = Client(a).post("/v1/sten/games", {"players": 2, "seed": "long-poll"}).json
    gid = created["game_id"]
    tokens = [s["token"] for s in created["seats"]]
    views = [Client(a).get(f"/v1/sten/games/{gid}", token=t) for t in tokens]
    waiting = next(i for i, v in enumerate(views) if not v.json["legal_moves"])
    mover = 1 - waiting
    # read the ETag once both seats are present: a seat that comes changes every view (its dot)
    etag = Client(a).get(f"/v1/sten/games/{gid}", token=tokens[waiting]).headers["etag"]
    started = time.monotonic()
    quiet = Client(a).get(f"/v1/sten/games/{gid}?wait=1", token=tokens[waiting], headers={"If-None-Match": etag})
    assert quiet.status == 304 and 0.9 < time.monotonic() - started < 3
    answer: dict = {}

    def poll() -> None:
        answer["reply"] = Client(a).get(f"/v1/sten/games/{gid}?wait=20", token=tokens[waiting],
                                        headers={"If-None-Match": etag})
        answer["at"] = time.monotonic()

    poller = threading.Thread(target=poll)
    poller.start()
    time.sleep(0.5)
    moved = time.monotonic()
    Client(b).post(f"/v1/sten/games/{gid}/moves", {"move": views[mover].json["legal_moves"][0]}, token=tokens[mover])
    poller.join(25)
    reply = answer["reply"]
    assert reply.status == 200 and reply.json["version"] == 1
    assert reply.headers["etag"] != etag
    # answered by the move, not by its 20 s running out (the move's own request is in this time:
    # on a starved machine it took 1.6 s, so the bound is a quarter of the wait, not a second)
    assert answer["at"] - moved < 5.0
    too_long = Client(a).get(f"/v1/sten/games/{gid}?wait=31", token=tokens[waiting])
    assert too_long.status == 422 and too_long.json["code"] == "validation_error"


@pytest.mark.slow  # a real restart mid-stream
def test_a_redis_restart_mid_stream_ends_it_and_a_reconnect_misses_nothing() -> None:
    server = RedisServer(persist=True)
    server.start()
    try:
        with gunicorn(server.url, workers=1, extra_env=STREAM_ENV) as url:
            client = Client(url)
            created = client.post("/v1/sten/games", {"players": 2, "seed": "restart"}).json
            gid = created["game_id"]
            tokens = [s["token"] for s in created["seats"]]
            rng = random.Random("restart")
            stream = EventStream(url, f"/v1/sten/games/{gid}/events?since=0", token=tokens[0])
            _play(client, "sten", gid, tokens, rng, moves=3)
            got = []
            while len(got) < 3:
                frame = stream.next()
                if frame.event == "entry":
                    got.append(frame.json)
            server.stop()
            deadline = time.monotonic() + 10
            while stream.next() is not None:  # the stream says so and closes
                assert time.monotonic() < deadline, "the stream did not end when the store was lost"
            stream.close()
            server.start()
            # the worker's circuit breaker answers 503 for a moment after the loss: a client waits
            # for readiness (as it would honour Retry-After) before it plays on
            deadline = time.monotonic() + 10
            while client.get("/readyz").status != 200:
                assert time.monotonic() < deadline, "the service did not come back with the store"
                time.sleep(0.1)
            _play(client, "sten", gid, tokens, rng, moves=3)
            again = EventStream(url, f"/v1/sten/games/{gid}/events", token=tokens[0],
                                headers={"Last-Event-ID": str(got[-1]["version"])})
            while len(got) < 6:
                frame = again.next()
                if frame.event == "entry":
                    got.append(frame.json)
            again.close()
            assert got == _log(client, "sten", gid, tokens[0])
    finally:
        server.cleanup()


def test_the_in_process_store_of_cardtable_serve_streams_too() -> None:
    app = create_app(Settings(allow_fixed_deals=True, request_log=False, stream_keepalive=KEEPALIVE))
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        url = f"http://127.0.0.1:{server.server_port}"
        created = Client(url).post("/v1/sten/games", {"players": 2, "seed": "memory", "bots": [1]}).json
        gid, token = created["game_id"], created["seats"][0]["token"]
        stream = EventStream(url, f"/v1/sten/games/{gid}/events?since=0", token=token)
        assert stream.next().comment == "connected"
        view = Client(url).get(f"/v1/sten/games/{gid}", token=token).json
        Client(url).post(f"/v1/sten/games/{gid}/moves", {"move": view["legal_moves"][0]}, token=token)
        versions = []
        while not versions or versions[-1] < view["version"] + 1:
            frame = stream.next()
            if frame.event == "entry":
                versions.append(frame.json["version"])
        assert versions == list(range(1, view["version"] + 2))
        stream.close()
    finally:
        server.shutdown()
