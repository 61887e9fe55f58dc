"""Rate limits (CARDTABLE_RATE_LIMIT): per seat token, else per address, counted in Redis.

Windows here are a minute long, so no assertion depends on how fast the machine is.
"""

from __future__ import annotations

import io
import threading
import time
import uuid

import pytest
import redis

from service.app import create_app
from service.config import Settings
from service.ratelimit import Rate
from service.store import MemoryStore
from tests.faults import call
from tests.servers import RedisServer, gunicorn


def _app(url: str, rate: str = "3/m", **kw):
    app = create_app(Settings(redis_url=url, allow_fixed_deals=True, rate_limit=rate, **kw))
    app.extensions["cardtable.access_log"].stream = io.StringIO()
    return app


def _addr() -> dict[str, str]:
    """A fresh client address, so that tests sharing the Redis do not share counters."""
    n = uuid.uuid4().int
    return {"REMOTE_ADDR": f"10.{n % 250}.{n // 250 % 250}.{n // 62500 % 250}"}


def test_over_the_limit_answers_429_problem_with_retry_after(redis_server) -> None:
    client = _app(redis_server.url).test_client()
    env = _addr()
    assert [client.get("/v1/games", environ_base=env).status_code for _ in range(3)] == [200] * 3
    limited = client.get("/v1/games", environ_base=env)
    assert limited.status_code == 429 and limited.content_type == "application/problem+json"
    assert limited.json["code"] == "rate_limited" and limited.json["status"] == 429
    assert 1 <= int(limited.headers["Retry-After"]) <= 60
    # the same counter for every route, even a missing one
    assert client.post("/v1/sten/games", json={"players": 2}, environ_base=env).status_code == 429
    assert client.get("/nowhere", environ_base=env).status_code == 429
    # another address has its own
    assert client.get("/v1/games", environ_base=_addr()).status_code == 200


def test_probes_and_metrics_are_never_limited(redis_server) -> None:
    client = _app(redis_server.url, rate="1/m").test_client()
    env = _addr()
    for _ in range(5):
        for path in ("/healthz", "/readyz", "/metrics"):
            assert client.get(path, environ_base=env).status_code == 200, path
    assert client.get("/v1/games", environ_base=env).status_code == 200
    assert client.get("/v1/games", environ_base=env).status_code == 429


STATIC = ["/play", "/play/", "/play/app.js", "/play/style.css", "/play/rules/sten.md", "/docs", "/docs/",
          "/docs/static/swagger-ui.css", "/openapi.json", "/favicon.ico"]


def _status(client, path: str, method: str = "GET", **kw) -> int:
    with client.open(path, method=method, **kw) as reply:  # a file's reply holds it open until closed
        return reply.status_code


def test_the_web_table_and_the_docs_are_not_api_calls(redis_server) -> None:
    """A page load is a dozen static files: none of them counts, while the API still does."""
    client = _app(redis_server.url, rate="2/m").test_client()
    env = _addr()
    for _ in range(3):
        for path in STATIC:
            assert _status(client, path, environ_base=env) != 429, path
    assert [_status(client, "/v1/games", environ_base=env) for _ in range(3)] == [200, 200, 429]
    assert _status(client, "/play/app.js", environ_base=env) == 200  # still served once the API is refused


def test_cors_preflights_are_not_counted_but_the_calls_they_precede_are(redis_server) -> None:
    client = _app(redis_server.url, rate="2/m", cors_origins=("https://table.example",)).test_client()
    env = _addr()
    preflight = {"Origin": "https://table.example", "Access-Control-Request-Method": "POST",
                 "Access-Control-Request-Headers": "content-type"}
    for _ in range(5):
        assert _status(client, "/v1/sten/games", "OPTIONS", headers=preflight, environ_base=env) == 204
    # an OPTIONS that is no preflight counts like any request
    assert _status(client, "/v1/games", "OPTIONS", environ_base=env) == 204
    assert [_status(client, "/v1/games", environ_base=env) for _ in range(2)] == [200, 429]


def test_each_seat_token_has_its_own_count_and_is_never_stored(redis_server) -> None:
    client = _app(redis_server.url, rate="4/m").test_client()
    env = _addr()
    created = client.post("/v1/sten/games", json={"players": 2}, environ_base=env).json
    gid, tokens = created["game_id"], [s["token"] for s in created["seats"]]
    path = f"/v1/sten/games/{gid}"
    first = [client.get(path, headers={"Authorization": f"Bearer {tokens[0]}"}, environ_base=env).status_code
             for _ in range(5)]
    assert first == [200] * 4 + [429]
    # the other seat, and the address without a token (one request used by create), still go on
    assert client.get(path, headers={"Authorization": f"Bearer {tokens[1]}"}, environ_base=env).status_code == 200
    assert client.get(path, environ_base=env).status_code == 200
    keys = [k.decode() for k in redis.Redis.from_url(redis_server.url).keys("cardtable:rate:*")]
    assert keys and not any(t in k for t in tokens for k in keys)


def test_the_address_comes_from_x_forwarded_for_only_behind_trusted_proxies(redis_server) -> None:
    trusting = _app(redis_server.url, rate="1/m", trusted_proxies=1).test_client()
    proxy = _addr()
    for _ in range(3):  # three different clients behind one proxy
        forwarded = {"X-Forwarded-For": _addr()["REMOTE_ADDR"]}
        assert trusting.get("/v1/games", headers=forwarded, environ_base=proxy).status_code == 200
    naive = _app(redis_server.url, rate="1/m").test_client()
    proxy = _addr()
    statuses = [naive.get("/v1/games", headers={"X-Forwarded-For": _addr()["REMOTE_ADDR"]},
                          environ_base=proxy).status_code for _ in range(2)]
    assert statuses == [200, 429], "a forged X-Forwarded-For must not escape the limit"


def test_the_limiter_fails_open_when_redis_is_down() -> None:
    server = RedisServer()
    server.start()
    app = _app(server.url, rate="1/m", store_timeout=0.3)
    server.cleanup()
    client = app.test_client()
    env = _addr()
    # the catalogue does not need the store: the limiter must not turn the outage into errors
    assert [client.get("/v1/games", environ_base=env).status_code for _ in range(3)] == [200] * 3
    reply = client.post("/v1/sten/games", json={"players": 2}, environ_base=env)
    assert reply.status_code == 503 and reply.json["code"] == "store_unavailable"


def test_the_in_process_store_counts_in_the_process() -> None:
    app = create_app(Settings(rate_limit="2/m", request_log=False), store=MemoryStore())
    client = app.test_client()
    assert [client.get("/v1/games").status_code for _ in range(3)] == [200, 200, 429]


def test_no_limit_unless_configured(redis_server) -> None:
    client = create_app(Settings(redis_url=redis_server.url, request_log=False)).test_client()
    env = _addr()
    assert {client.get("/v1/games", environ_base=env).status_code for _ in range(30)} == {200}
    assert Settings.from_env({"CARDTABLE_RATE_LIMIT": "off"}).rate_limit is None
    assert Settings.from_env({}).rate_limit is None


@pytest.mark.parametrize(("text", "rate"), [("20/s", Rate(20, 1.0)), ("100/m", Rate(100, 60.0)),
                                            ("50/10s", Rate(50, 10.0)), (" 7 / hour ", Rate(7, 3600.0))])
def test_rates_parse(text: str, rate: Rate) -> None:
    assert Rate.parse(text) == rate


@pytest.mark.parametrize("text", ["20", "0/s", "20/fortnight", "x/s", "20/0s"])
def test_bad_rates_are_refused_at_startup(text: str) -> None:
    with pytest.raises(ValueError):
        Rate.parse(text)


def test_the_limit_holds_across_two_workers(redis_server) -> None:
    # this test's requests come from 127.0.0.1, like those of other tests on the session's Redis:
    # start from a fresh count, or a count left in this window by an earlier test is added in
    client = redis.Redis.from_url(redis_server.url)
    stale = list(client.scan_iter("cardtable:rate:*127.0.0.1*"))
    if stale:
        client.delete(*stale)
    with gunicorn(redis_server.url, workers=2, extra_env={"CARDTABLE_RATE_LIMIT": "10/m"}) as url:
        # both workers booted before the burst (on a loaded machine a worker may still be importing
        # the app): /healthz is not counted, so the warm-up spends nothing of the limit
        deadline = time.monotonic() + 60
        while sum(call(url, "GET", "/healthz").status == 200 for _ in range(4)) < 4:
            assert time.monotonic() < deadline, "gunicorn's workers did not come up"
            time.sleep(0.2)
        statuses: list[int] = []
        lock = threading.Lock()
        barrier = threading.Barrier(4)

        def fire() -> None:
            barrier.wait()
            for _ in range(6):  # a fresh connection each: gunicorn spreads them over its workers
                status = call(url, "GET", "/v1/games").status
                with lock:
                    statuses.append(status)

        threads = [threading.Thread(target=fire) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
        # counted per worker, two workers would let up to 20 through
        assert sorted(statuses) == [200] * 10 + [429] * 14, statuses
        limited = call(url, "GET", "/v1/games")
        assert limited.status == 429 and limited.body["code"] == "rate_limited"
        assert call(url, "GET", "/healthz").status == 200


def test_the_routes_of_the_people_at_a_table_are_limited_like_the_others(redis_server) -> None:
    """The lobby, lookup and join count for the caller's address; start, abort and rematch, which take a
    seat's token, for that seat. Over the limit each answers 429 ``rate_limited`` and changes nothing."""
    client = _app(redis_server.url, rate="100/m").test_client()
    setup = _addr()
    created = client.post("/v1/sten/games", json={"players": 3, "seats": [{"name": "Ann"}, {"open": True},
                                                                          {"open": True}]}, environ_base=setup).json
    path = f"/v1/sten/games/{created['game_id']}"
    limited = _app(redis_server.url, rate="2/m").test_client()
    for method, route, body in (("GET", "/v1/sten/games", None), ("POST", "/v1/games/lookup", {"tokens": []}),
                                ("POST", f"{path}/join", {"name": "Bo", "invite": "not-it"})):
        env = _addr()
        answers = [limited.open(route, method=method, json=body, environ_base=env).status_code for _ in range(3)]
        assert answers[2] == 429 and 429 not in answers[:2], (route, answers)
    seat = {"Authorization": f"Bearer {created['seats'][0]['token']}"}
    env = _addr()
    answers = [limited.post(f"{path}/rematch", headers=seat, environ_base=env).status_code for _ in range(2)]
    assert answers == [409, 409]  # the game is not finished; each counted for the seat
    for route in ("start", "abort", "rematch"):
        over = limited.post(f"{path}/{route}", headers=seat, environ_base=_addr())
        assert over.status_code == 429 and over.json["code"] == "rate_limited", route
    assert client.get(path, environ_base=setup).json["status"] == "waiting"  # nothing was started or called off
