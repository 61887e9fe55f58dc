"""Replays cost what they send, and refusals of a flood are cheap.

A request pays for a page of log entries (``ratelimit.REPLAY_PAGE``); each further page an event
stream catches up on, or the log route answers, costs one request more, of the caller's seat (else
its address) and, for a seat, of its address too. Over it the log answers 429 and a stream closes
with ``retry:``; the client resumes with Last-Event-ID and misses nothing. Live entries cost
nothing. In-process tests use minute windows and small pages, so no assertion depends on how fast
the machine is; the hostile client over HTTP asserts an upper bound only (a slow machine sends less).
"""

from __future__ import annotations

import io
import re
import threading
import time
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient

from service import ratelimit, stream
from service.app import create_app
from service.config import Settings
from service.ratelimit import MemoryCounter, Rate, RateLimiter
from tests.servers import gunicorn
from tests.sse import EventStream

PAGE = 3  # entries a request pays for, in the in-process tests
RATE = 5  # requests per minute per seat or address, in the in-process tests


def _app(url: str, rate: str | None = None, **kw: Any) -> Flask:
    """The app on ``url``; its streams end after 2 s (so a replay the limit failed to stop ends too)."""
    app = create_app(Settings(redis_url=url, rate_limit=rate, **{"stream_max_seconds": 2.0, **kw}))
    app.extensions["cardtable.access_log"].stream = io.StringIO()
    return app


def _address() -> dict[str, str]:
    n = uuid.uuid4().int
    return {"REMOTE_ADDR": f"10.{n % 250}.{n // 250 % 250}.{n // 62500 % 250}"}


def _auth(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


def long_game(client: FlaskClient, entries: int) -> tuple[str, list[str]]:
    """An 8-seat Sten game of people with at least ``entries`` log entries: every seat says "Stein"
    (a voluntary one, allowed by the option) or, in the opening, plays the one card it must."""
    created = client.post("/v1/sten/games", json={"players": 8, "options": {"allow_voluntary_stein": True,
                                                                            "max_turns": 100_000}}).json
    gid, tokens = created["game_id"], [s["token"] for s in created["seats"]]
    view = client.get(f"/v1/sten/games/{gid}", headers=_auth(tokens[0])).json
    version, to_move = view["version"], view["to_move"]
    while version < entries:
        token = tokens[to_move[0]]
        reply = client.post(f"/v1/sten/games/{gid}/moves", json={"move": {"type": "stein"}}, headers=_auth(token))
        if reply.status_code == 422:  # the opening: the one card that must be played
            legal = client.get(f"/v1/sten/games/{gid}", headers=_auth(token)).json["legal_moves"]
            reply = client.post(f"/v1/sten/games/{gid}/moves", json={"move": legal[0]}, headers=_auth(token))
        assert reply.status_code == 200, reply.json
        version, to_move = reply.json["version"], reply.json["to_move"]
    return gid, tokens


def _frames(body: bytes) -> list[str]:
    return [f for f in body.decode().split("\n\n") if f]


def _entries(frames: list[str]) -> list[int]:
    return [int(m.group(1)) for f in frames if (m := re.match(r"id: (\d+)", f))]


@pytest.fixture()
def small_pages(monkeypatch) -> None:
    monkeypatch.setattr(ratelimit, "REPLAY_PAGE", PAGE)
    monkeypatch.setattr(stream, "STREAM_BATCH", PAGE)


@pytest.fixture()
def built(redis_server) -> tuple[str, list[str]]:
    """A long game on the session's Redis, built by an app without a rate limit."""
    return long_game(_app(redis_server.url).test_client(), 40)


# --- a refused client is cheap ---------------------------------------------------------------------


def test_a_client_over_its_rate_is_refused_until_the_window_ends_without_asking_the_store() -> None:
    now = [100.0]
    counter = MemoryCounter(clock=lambda: now[0])
    hits: list[str] = []
    real_hit = counter.hit

    def hit(who: str, window_ms: int, cost: int = 1) -> tuple[int, int]:
        hits.append(who)
        return real_hit(who, window_ms, cost)

    counter.hit = hit  # type: ignore[method-assign]
    limiter = RateLimiter(Rate(3, 10.0), counter, (), clock=lambda: now[0])
    assert [limiter.check("addr:a") for _ in range(3)] == [None] * 3
    assert limiter.check("addr:a") == 10  # the fourth: over, for the rest of the window
    asked = len(hits)
    now[0] += 4.2
    assert [limiter.check("addr:a") for _ in range(100)] == [6] * 100  # refused, the store not asked
    assert len(hits) == asked
    assert limiter.check("addr:b") is None and len(hits) == asked + 1  # another client is asked for
    now[0] += 6.0  # the window is over: counted again, from zero
    assert [limiter.check("addr:a") for _ in range(4)] == [None, None, None, 10]


def test_refusals_of_a_flood_leave_the_stores_count_where_it_went_over(redis_server) -> None:
    app = _app(redis_server.url, rate=f"{RATE}/m")
    client, address = app.test_client(), _address()
    statuses = [client.get("/v1/games", environ_base=address).status_code for _ in range(50)]
    assert statuses == [200] * RATE + [429] * (50 - RATE)
    store = redis.Redis.from_url(redis_server.url)
    (key,) = store.keys(f"cardtable:rate:{{addr:{address['REMOTE_ADDR']}}}:*")
    assert int(store.get(key)) == RATE + 1  # the store was asked once past the limit, then no more
    limited = client.get("/v1/games", environ_base=address)
    assert limited.status_code == 429 and limited.json["code"] == "rate_limited"
    assert 1 <= int(limited.headers["Retry-After"]) <= 60


# --- a replay costs a request per page --------------------------------------------------------------


def test_a_long_replay_stops_at_the_rate_and_resumes_with_last_event_id_missing_nothing(
        redis_server, small_pages, built) -> None:
    gid, _ = built
    address = _address()
    client = _app(redis_server.url, rate=f"{RATE}/m").test_client()
    reply = client.get(f"/v1/sten/games/{gid}/events?since=0", environ_base=address)
    frames = _frames(reply.data)
    got = _entries(frames)
    # the request paid for the first page, each further page a request: RATE pages in all
    assert got == list(range(1, RATE * PAGE + 1))
    # closed with a comment and the delay to reconnect after (the seconds left in the window, in ms)
    assert re.fullmatch(r": rate limit reached; reconnect with Last-Event-ID\nretry: [1-9]\d*000", frames[-1])
    assert client.get(f"/v1/sten/games/{gid}/events", environ_base=address).status_code == 429  # spent
    # the window is over (a new one, from a fresh count): the client resumes where it stopped
    store = redis.Redis.from_url(redis_server.url)
    store.delete(*store.keys(f"cardtable:rate:{{addr:{address['REMOTE_ADDR']}}}:*"))
    client = _app(redis_server.url, rate=f"{RATE}/m").test_client()
    resumed = client.get(f"/v1/sten/games/{gid}/events", headers={"Last-Event-ID": str(got[-1])},
                         environ_base=address)
    more = _entries(_frames(resumed.data))
    assert more == list(range(got[-1] + 1, got[-1] + RATE * PAGE + 1))


def test_a_seats_replay_is_charged_to_its_address_too_so_other_seats_cannot_replay_more(
        redis_server, small_pages, built) -> None:
    gid, tokens = built
    address = _address()
    client = _app(redis_server.url, rate=f"{RATE}/m").test_client()
    first = client.get(f"/v1/sten/games/{gid}/events?since=0", headers=_auth(tokens[0]), environ_base=address)
    assert _entries(_frames(first.data)) == list(range(1, RATE * PAGE + 1))
    # the address paid for every page of that seat: another seat from it replays nothing now
    second = client.get(f"/v1/sten/games/{gid}/events?since=0", headers=_auth(tokens[1]), environ_base=address)
    assert second.status_code == 200
    frames = _frames(second.data)
    assert _entries(frames) == [] and frames[-1].startswith(": rate limit reached")
    # while that seat still plays on its own count (seats behind one address are not held back)
    assert client.get(f"/v1/sten/games/{gid}", headers=_auth(tokens[1]), environ_base=address).status_code == 200
    # and a seat from another address replays as much as the first did
    other = client.get(f"/v1/sten/games/{gid}/events?since=0", headers=_auth(tokens[2]), environ_base=_address())
    assert len(_entries(_frames(other.data))) == RATE * PAGE


def test_the_log_route_charges_a_request_per_page_and_answers_429_over_it(redis_server, small_pages, built) -> None:
    gid, _ = built
    address = _address()
    client = _app(redis_server.url, rate=f"{RATE}/m").test_client()
    path = f"/v1/sten/games/{gid}/log"
    page = client.get(f"{path}?since=0&limit={4 * PAGE}", environ_base=address)  # 4 pages: 4 requests
    assert page.status_code == 200 and len(page.json["entries"]) == 4 * PAGE
    refused = client.get(f"{path}?since={4 * PAGE}&limit={2 * PAGE}", environ_base=address)  # 2 more: over
    assert refused.status_code == 429 and refused.content_type == "application/problem+json"
    assert refused.json["code"] == "rate_limited" and int(refused.headers["Retry-After"]) >= 1
    assert "log entries" in refused.json["detail"]
    fresh = _address()  # one page costs one request, as any request does
    assert [client.get(f"{path}?since=0&limit={PAGE}", environ_base=fresh).status_code
            for _ in range(RATE + 1)] == [200] * RATE + [429]


def test_live_entries_of_a_stream_cost_nothing(redis_server) -> None:
    builder = _app(redis_server.url).test_client()
    gid, tokens = long_game(builder, 3)
    address = _address()
    app = _app(redis_server.url, rate="1/m", stream_max_seconds=3.0)
    reply = app.test_client().get(f"/v1/sten/games/{gid}/events", environ_base=address, buffered=False)
    moves = threading.Thread(target=_stein, args=(builder, gid, tokens, 12))
    moves.start()  # made while the stream is open: each arrives live
    body = b"".join(reply.response)  # until stream_max_seconds
    reply.close()
    moves.join(30)
    assert len(_entries(_frames(body))) == 12
    store = redis.Redis.from_url(redis_server.url)
    (key,) = store.keys(f"cardtable:rate:{{addr:{address['REMOTE_ADDR']}}}:*")
    assert int(store.get(key)) == 1  # the request only


def _stein(client: FlaskClient, gid: str, tokens: list[str], moves: int) -> None:
    for _ in range(moves):
        to_move = client.get(f"/v1/sten/games/{gid}").json["to_move"]
        reply = client.post(f"/v1/sten/games/{gid}/moves", json={"move": {"type": "stein"}},
                            headers=_auth(tokens[to_move[0]]))
        assert reply.status_code == 200, reply.json


# --- a hostile client over HTTP -----------------------------------------------------------------------


@pytest.fixture(scope="module")
def limited_server(redis_server) -> Iterator[str]:
    with gunicorn(redis_server.url, workers=2,
                  extra_env={"CARDTABLE_RATE_LIMIT": "10/s", "CARDTABLE_TRUSTED_PROXIES": "1"}) as url:
        yield url


def test_a_hostile_client_with_eight_seats_replays_at_most_its_addresses_pages(redis_server, limited_server) -> None:
    """Eight seats of one long game and the spectator, all from one address, replay it from the start
    again and again for two seconds: the entries sent are bounded by the address's rate (10 pages of
    ``REPLAY_PAGE`` entries a second), not by nine counts of their own."""
    builder = _app(redis_server.url).test_client()
    gid, tokens = long_game(builder, 1000)
    version = builder.get(f"/v1/sten/games/{gid}").json["version"]
    address = {"X-Forwarded-For": _address()["REMOTE_ADDR"]}
    seconds, rate = 2.0, 10
    received, refused, closed = [0], [0], [0]
    lock = threading.Lock()
    deadline = time.monotonic() + seconds

    def replay(token: str | None) -> None:
        while time.monotonic() < deadline:
            stream = EventStream(limited_server, f"/v1/sten/games/{gid}/events?since=0", token=token,
                                 headers=address, timeout=10)
            entries = 0
            if stream.status == 200:  # read until the whole log came (then the stream waits) or it closed
                while entries < version and (frame := stream.next()) is not None:
                    entries += frame.event == "entry"
                    if (frame.comment or "").startswith("rate limit reached"):
                        with lock:
                            closed[0] += 1
            stream.conn.close()
            with lock:
                received[0] += entries
                refused[0] += stream.status == 429

    threads = [threading.Thread(target=replay, args=(token,)) for token in (*tokens, None)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    # 2 s touch at most 3 one-second windows: at most 3 x 10 pages
    bound = (int(seconds) + 1) * rate * ratelimit.REPLAY_PAGE
    assert ratelimit.REPLAY_PAGE <= received[0] <= bound, (received, refused, closed)
    assert closed[0] > 0 or refused[0] > 0
